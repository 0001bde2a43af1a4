"""ICS feeds: they parse with icalendar, keep their UIDs across runs and
across a moved hearing, and say the rule and the filing."""

from datetime import date, timedelta

import icalendar

from cli.main import main
from demo.generate import generate
from notices.ics import build_feed
from sweep.calendar_items import calendar_items
from sweep.ledger import write_jsonl
from workflows.filing import parse_filing
from workflows.replay import replay

AS_OF = date(2026, 11, 30)

HEARING = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-2026-900",
    "site": {"address": "12 Elm St"},
    "events": [
        {"type": "filed", "date": "2026-11-20"},
        {"type": "boards-notified", "date": "2026-11-20"},
        {"type": "hearing-scheduled", "date": "2026-11-23", "hearing": "2026-12-08"},
    ],
}


def events_of(feed: bytes) -> dict:
    cal = icalendar.Calendar.from_ical(feed)
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def feed_for(raw, as_of=AS_OF) -> bytes:
    f = parse_filing(raw)
    return build_feed(calendar_items(f, replay(f, as_of), as_of), as_of, "test")


def test_hearing_and_clocks_are_events_with_rule_and_filing_in_the_description():
    ev = events_of(feed_for(HEARING))
    assert "CAN-NOI-2026-900/hearing@permits.canton" in ev
    assert ev["CAN-NOI-2026-900/hearing@permits.canton"].decoded("dtstart") == date(2026, 12, 8)
    news = ev["CAN-NOI-2026-900/newspaper-notice@permits.canton"]
    assert "Rule: Canton Wetlands By-Law 15-5" in str(news["DESCRIPTION"])
    assert "Filing: CAN-NOI-2026-900" in str(news["DESCRIPTION"])


def test_a_continued_hearing_keeps_its_uid_and_moves_with_a_higher_sequence():
    before = events_of(feed_for(HEARING))
    moved = dict(
        HEARING,
        events=HEARING["events"]
        + [
            {"type": "hearing-opened", "date": "2026-12-08"},
            {"type": "hearing-continued", "date": "2026-12-08", "to": "2026-12-22"},
        ],
    )
    after = events_of(feed_for(moved, date(2026, 12, 9)))
    uid = "CAN-NOI-2026-900/hearing@permits.canton"
    assert after[uid].decoded("dtstart") == date(2026, 12, 22)
    assert int(after[uid]["SEQUENCE"]) > int(before[uid]["SEQUENCE"])


def test_the_same_store_and_day_give_the_same_bytes_and_uids_survive_a_week(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    write_jsonl(store / "f.jsonl", generate(120, AS_OF, seed=5))
    one, two, later = tmp_path / "1.ics", tmp_path / "2.ics", tmp_path / "3.ics"
    args = ["ics", "--filings", str(store), "--as-of", "2026-11-30", "--town", "canton"]
    assert main(args + ["--out", str(one)]) == 0
    assert main(args + ["--out", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    week = (AS_OF + timedelta(days=7)).isoformat()
    assert main(["ics", "--filings", str(store), "--as-of", week, "--town", "canton", "--out", str(later)]) == 0
    a, b = events_of(one.read_bytes()), events_of(later.read_bytes())
    assert len(a) > 20
    assert all(uid.endswith("@permits.canton") for uid in a)
    kept = set(a) & set(b)
    assert len(kept) > len(a) // 2  # the same events, not new ones
    assert len(set(a)) == len(a)


def test_department_filter_keeps_only_that_department(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    write_jsonl(store / "f.jsonl", generate(120, AS_OF, seed=5))
    out = tmp_path / "dpw.ics"
    assert main(["ics", "--filings", str(store), "--as-of", "2026-11-30", "--department", "dpw", "--out", str(out)]) == 0
    cats = {str(c) for e in events_of(out.read_bytes()).values() for c in e["CATEGORIES"].cats}
    assert "dpw" in cats and "conservation" not in cats


def test_an_unknown_town_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["ics", "--town", "boston", "--out", str(tmp_path / "x.ics"), "--filings", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "boston" in err[0]
