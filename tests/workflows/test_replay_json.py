"""`permits replay --json` prints exactly the docs/reference/filing-format.md shape, and
event-voided takes the named event out of the replay but not the record."""

import json
import subprocess
import sys
from datetime import date

from _filings import ev, filing

from workflows.filing import parse_filing
from workflows.replay import replay

CLOCK_KEYS = {"id", "type", "date", "status", "rule", "explanation"}


def replay_json(tmp_path, obj, as_of="2026-12-31"):
    path = tmp_path / "filing.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "replay", str(path), "--as-of", as_of, "--json"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return json.loads(done.stdout)


def test_json_is_exactly_the_filing_format_shape_with_at_and_binding_where_they_belong(tmp_path):
    obj = filing(
        "canton",
        "noi",
        ev("filed", "2026-12-01"),
        ev("boards-notified", "2026-12-01"),
        ev("hearing-scheduled", "2026-12-02", hearing="2026-12-15"),
        ev("notice-published", "2026-12-07"),
        ev("hearing-opened", "2026-12-15"),
        ev("hearing-continued", "2026-12-15", to="2027-01-05"),
        ev("hearing-closed", "2027-01-05"),
        ev("permit-issued", "2027-01-26"),
        also=["wpa"],
    )
    obj["id"] = "CAN-NOI-2026-014"
    out = replay_json(tmp_path, obj, "2027-02-01")
    assert list(out) == ["town", "kind", "id", "state", "clocks"]
    assert (out["town"], out["kind"], out["id"], out["state"]) == ("canton", "noi", "CAN-NOI-2026-014", "issued")
    by_id = {c["id"]: c for c in out["clocks"]}
    for c in out["clocks"]:
        extra = set(c) - CLOCK_KEYS
        assert CLOCK_KEYS <= set(c), c
        assert extra <= {"at", "binding"}, c
        assert ("at" in c) == (c["id"].split(":")[-1] == "hearing-posting"), c  # the only clock in hours here
        shared = c["id"].split(":")[-1] in by_id and f"wpa:{c['id'].split(':')[-1]}" in by_id
        assert ("binding" in c) == (shared and c["type"] == "deadline"), c
        date.fromisoformat(c["date"])
        if "at" in c:
            assert c["at"].startswith(c["date"] + "T") and len(c["at"]) == 16
    # the example of docs/reference/filing-format.md
    assert by_id["hearing-open"] == {
        "id": "hearing-open",
        "type": "deadline",
        "date": "2026-12-22",
        "status": "met",
        "rule": "Canton Wetlands By-Law 15-5",
        "binding": True,
        "explanation": "21 calendar days after 2026-12-01 (filed, complete); is 2026-12-22; "
        "hearing-opened on 2026-12-15 (event 5)",
    }
    # Canton: 01-05 + 31 = 02-05; the state: 01-05 + 21 = 01-26, which binds
    assert (by_id["decision"]["date"], by_id["decision"]["binding"]) == ("2027-02-05", False)
    assert (by_id["wpa:decision"]["date"], by_id["wpa:decision"]["binding"]) == ("2027-01-26", True)
    assert by_id["wpa:decision"]["status"] == "met"


def test_json_of_a_street_opening_gives_at_for_hour_clocks(tmp_path):
    out = replay_json(
        tmp_path,
        filing(
            "canton",
            "street-opening",
            ev("filed", "2026-11-20"),
            ev("dig-safe-obtained", "2026-11-20", ticket="20264701234"),
            ev("permit-issued", "2026-11-23"),
            ev("work-noticed", at="2026-11-25T10:00"),
        ),
    )
    notice = next(c for c in out["clocks"] if c["id"] == "work-notice")
    assert (notice["type"], notice["date"], notice["at"], notice["status"]) == (
        "earliest",
        "2026-12-01",
        "2026-12-01T10:00",
        "passed",
    )
    assert all("binding" not in c for c in out["clocks"])


def test_text_output_marks_the_binding_deadline(tmp_path):
    obj = filing(
        "canton",
        "noi",
        ev("filed", "2026-12-01"),
        ev("hearing-opened", "2026-12-15"),
        ev("hearing-closed", "2027-01-05"),
        also=["wpa"],
    )
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj))
    out = subprocess.run(
        [sys.executable, "-m", "cli.main", "replay", str(path), "--as-of", "2027-01-06", "--explain"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "wpa:decision *" in out and "* binds" in out
    assert "decision: 31 calendar days after 2027-01-05 (hearing closed)" in out


# -- voiding ----------------------------------------------------------------------------


def test_a_voided_event_leaves_the_replay_but_both_stay_in_the_json():
    obj = filing(
        "canton",
        "noi",
        ev("filed", "2026-06-01"),
        ev("hearing-opened", "2026-06-16"),
        ev("hearing-closed", "2026-06-16"),
        ev("permit-denied", "2026-06-20"),
        ev("event-voided", "2026-06-21", voids=4, reason="entered on the wrong filing"),
        ev("permit-issued", "2026-06-22"),
    )
    parsed = parse_filing(obj)
    r = replay(parsed, date(2026, 6, 30))
    assert r.state == "issued"
    assert r.clock("decision").explanation.endswith("permit-issued on 2026-06-22 (event 6)")
    assert r.clock("permit-expiry").date.isoformat() == "2029-06-22"
    types = [e["type"] for e in parsed.to_json()["events"]]
    assert types == ["filed", "hearing-opened", "hearing-closed", "permit-denied", "event-voided", "permit-issued"]
    assert parsed.to_json()["events"][4] == {
        "type": "event-voided",
        "date": "2026-06-21",
        "voids": 4,
        "reason": "entered on the wrong filing",
    }


def test_voiding_a_renewal_puts_the_expiry_back():
    base = (
        ev("filed", "2026-06-01"),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-01"),
        ev("renewal-requested", "2026-06-20"),
        ev("permit-renewed", "2026-06-25"),
    )
    renewed = replay(parse_filing(filing("canton", "street-opening", *base)), date(2026, 7, 1))
    voided = replay(
        parse_filing(filing("canton", "street-opening", *base, ev("event-voided", "2026-06-26", voids=5, reason="not signed"))),
        date(2026, 7, 1),
    )
    assert renewed.clock("permit-expiry").date.isoformat() == "2026-07-31"
    assert voided.clock("permit-expiry").date.isoformat() == "2026-07-01"


def test_voiding_the_same_event_twice_is_refused():
    import pytest

    from workflows.errors import MalformedEvent

    obj = filing(
        "canton",
        "noi",
        ev("filed", "2026-06-01"),
        ev("notice-published", "2026-06-05"),
        ev("event-voided", "2026-06-06", voids=2, reason="x"),
        ev("event-voided", "2026-06-07", voids=2, reason="y"),
    )
    with pytest.raises(MalformedEvent, match="event 4 .*event 2 is already voided"):
        replay(parse_filing(obj), date(2026, 7, 1))
