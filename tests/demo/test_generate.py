"""The generator: deterministic, parseable, and covering what the sweep and
the demonstration need (every town and kind, every street-opening stage)."""

import json
from collections import Counter
from datetime import date

from demo.generate import MIX, generate
from workflows.filing import parse_filing

AS_OF = date(2026, 11, 30)


def test_same_seed_and_day_give_the_same_filings():
    assert json.dumps(list(generate(300, AS_OF, seed=3))) == json.dumps(list(generate(300, AS_OF, seed=3)))


def test_a_filing_does_not_depend_on_how_many_are_generated():
    small = list(generate(50, AS_OF, seed=1))
    large = list(generate(500, AS_OF, seed=1))
    assert small == large[:50]


def test_another_seed_gives_other_filings():
    assert list(generate(20, AS_OF, seed=1)) != list(generate(20, AS_OF, seed=2))


def test_every_generated_filing_parses_and_has_unique_id():
    filings = list(generate(3000, AS_OF, seed=0))
    ids = [f["id"] for f in filings]
    assert len(set(ids)) == len(ids)
    for raw in filings:
        f = parse_filing(raw)
        assert any(e.type == "filed" for e in f.events)


def test_no_event_is_after_as_of_and_dates_never_go_backward():
    for raw in generate(3000, AS_OF, seed=0):
        days = [(e.get("date") or e["at"][:10]) for e in raw["events"]]
        assert days == sorted(days)
        assert days[-1] <= AS_OF.isoformat()


def test_all_towns_and_kinds_of_the_mix_are_generated():
    seen = Counter((f["town"], f["kind"]) for f in generate(2000, AS_OF))
    assert set(seen) == {(t, k) for t, k, _ in MIX}


def test_street_openings_reach_every_stage():
    last = Counter()
    for f in generate(4000, AS_OF):
        if f["kind"] == "street-opening":
            types = {e["type"] for e in f["events"]}
            for stage in (
                "permit-issued",
                "excavation-started",
                "backfilled",
                "temporary-patch-placed",
                "winter-patch-placed",
                "permanent-patch-placed",
                "deposit-refunded",
                "permit-denied",
                "suspended",
                "permit-revoked",
            ):
                if stage in types:
                    last[stage] += 1
            last[f["events"][-1]["type"]] += 1
    for stage in (
        "filed",
        "permit-issued",
        "excavation-started",
        "temporary-patch-placed",
        "inspected",
        "winter-patch-placed",
        "permanent-patch-placed",
        "deposit-refunded",
        "permit-denied",
        "suspended",
        "permit-revoked",
    ):
        assert last[stage] > 0, stage


def test_some_hearings_are_late_and_some_decisions_stalled():
    late_hearing = stalled = 0
    for f in generate(3000, AS_OF):
        if f["kind"] not in ("noi", "land-disturbance"):
            continue
        ev = {e["type"]: e for e in f["events"]}
        filed = date.fromisoformat(ev["filed"]["date"])
        if "hearing-opened" in ev and (date.fromisoformat(ev["hearing-opened"]["date"]) - filed).days > 62:
            late_hearing += 1
        if "hearing-closed" in ev and not ({"permit-issued", "permit-denied"} & set(ev)):
            closed = date.fromisoformat(ev["hearing-closed"]["date"])
            if (AS_OF - closed).days > 70:
                stalled += 1
    assert late_hearing > 0 and stalled > 0


def test_every_generated_filing_replays_without_error():
    from workflows.replay import replay

    for seed in (0, 1):
        for raw in generate(2500, AS_OF, seed=seed):
            replay(parse_filing(raw), AS_OF)


def test_generated_filings_show_overdue_and_late_clocks_on_as_of():
    from workflows.replay import replay

    statuses = Counter()
    for raw in generate(2000, AS_OF, seed=0):
        for c in replay(parse_filing(raw), AS_OF).clocks:
            statuses[(c.id.split(":")[-1], c.status)] += 1
    for wanted in [
        ("hearing-open", "overdue"),
        ("decision", "overdue"),
        ("decision", "late"),
        ("hearing-open", "late"),
        ("permanent-patch-window-opens", "waiting"),
        ("permanent-patch-window-closes", "open"),
        ("winter-patch", "open"),
    ]:
        assert statuses[wanted] > 0, wanted
