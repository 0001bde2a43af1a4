"""Violations on record: an act the record shows was done before
its earliest day is ``premature``, and work without leave is ``violated``;
the record keeps the act, the replay names it, the day it was allowed and
the rule, and the docket and digest list it as a violation.

Here: the earliest day itself, the docket and digest, and the Dig Safe
clocks (M.G.L. c.82 §40A; 220 CMR 99.07(2)).  Canton's own violations (the
boards' 14 days, 15-6; the term, the work notice and the patch window,
16-12 §10.1, §10.3, §11.4) are in towns/test_canton.py."""

from datetime import date

from _filings import ev, replayed, street

from sweep.agenda import docket_entries
from workflows.docket import action_for, docket_status


def test_an_act_on_the_earliest_day_itself_is_passed_not_premature():
    r = street(ev("work-noticed", at="2026-06-08T09:00"), ev("excavation-started", "2026-06-11"))
    assert r.clock("work-notice").status == "passed"


def test_violations_go_on_the_docket_and_digest_whatever_their_date():
    r = street(ev("excavation-started", "2026-06-09"), as_of="2026-11-30")
    entries = [e for e in docket_entries(r, date(2026, 11, 30)) if e.what == "work-notice"]
    assert [(e.category, e.status) for e in entries] == [("violation", "violated")]


def test_the_stored_docket_calls_a_violation_a_violation_with_its_own_action():
    assert docket_status(date(2026, 6, 9), date(2026, 11, 30), "premature") == "violation"
    assert docket_status(date(2026, 12, 9), date(2026, 11, 30), "due") == "open"
    assert action_for("work-notice", "violated").startswith("violation on record")


def test_the_store_docket_lists_excavation_with_no_work_notice_as_a_violation(db_url, tmp_path, capsys):
    """Canton 16-12 §10.3, through `permits import` and `permits docket`."""
    import json

    from storekit import write_json

    from cli.main import main

    obj = {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-SO-2026-900",
        "events": [
            {"type": "filed", "date": "2026-06-01", "length_ft": 20},
            {"type": "dig-safe-obtained", "date": "2026-06-01", "ticket": "20262201234"},
            {"type": "permit-issued", "date": "2026-06-01"},
            {"type": "excavation-started", "date": "2026-06-09"},
        ],
    }
    assert main(["init", "--db", db_url]) == 0
    assert main(["import", "--db", db_url, write_json(tmp_path / "f.json", obj)]) == 0
    capsys.readouterr()
    assert main(["docket", "--as-of", "2026-11-30", "--overdue", "--json", "--db", db_url]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    mine = [(i["clock"], i["status"], i["date"]) for i in items if i["filing"] == "CAN-SO-2026-900"]
    assert ("work-notice", "violation", "2026-06-09") in mine
    assert all(i["action"].startswith("violation on record") for i in items if i["status"] == "violation")


# -- Dig Safe (M.G.L. c.82 §40A; 220 CMR 99.07(2)) ---------------------------------


def dug(notice, excavated, *more, issued="2026-06-02", as_of="2026-07-31"):
    return replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", applicant="private", length_ft=20),
        notice,
        ev("permit-issued", issued),
        ev("work-noticed", at=f"{issued}T08:00"),
        ev("excavation-started", excavated),
        *more,
        as_of=as_of,
    )


def test_dig_safe_notice_at_a_time_counts_72_business_hours_over_a_holiday_weekend():
    """M.G.L. c.82 §40A: at least 72 hours, not counting Saturdays, Sundays and
    legal holidays.  Thu 2026-07-02 10:00: Thu 14 h + Fri 24 h (July 4 is a
    Saturday; Friday stays open) + Mon 24 h + Tue 10 h = 72 h -> Tue 07-07 10:00."""
    r = dug(ev("dig-safe-obtained", ticket="20261801234", at="2026-07-02T10:00"), "2026-07-07", issued="2026-07-02")
    c = r.clock("dig-safe-wait")
    assert (c.type, c.at.isoformat(timespec="minutes")) == ("earliest", "2026-07-07T10:00")
    assert c.status == "passed"  # a date-only act on the day itself: not shown to be early
    early = dug(ev("dig-safe-obtained", ticket="20261801234", at="2026-07-02T10:00"), "2026-07-06", issued="2026-07-02").clock(
        "dig-safe-wait"
    )
    assert early.status == "premature" and "M.G.L. c.82 §40A" in early.explanation


def test_a_dig_safe_notice_recorded_by_date_only_counts_from_the_end_of_that_day():
    """M.G.L. c.82 §40A: the 72 hours start at the notice; a date alone does not
    say when, so the engine counts from the end of the day (docs/reference/readings.md)."""
    r = dug(ev("dig-safe-obtained", "2026-06-01", ticket="20262201234"), "2026-06-04")
    c = r.clock("dig-safe-wait")
    assert c.at.isoformat(timespec="minutes") == "2026-06-05T00:00"  # Tue, Wed, Thu: 72 h
    assert c.status == "premature"
    assert "recorded without a time: counted from the end of 2026-06-01" in c.explanation


def test_excavation_more_than_30_days_after_the_dig_safe_notice_is_flagged():
    """M.G.L. c.82 §40A: at most 30 days after the notice; 220 CMR 99.07(2):
    a ticket is valid 30 calendar days.  Notice 06-01: last day 07-01."""
    r = dug(ev("dig-safe-obtained", "2026-06-01", ticket="20262201234"), "2026-07-02")
    c = r.clock("dig-safe-expiry")
    assert (c.type, c.date, c.status) == ("expiry", date(2026, 7, 1), "violated")
    assert "after the Dig Safe ticket of 2026-06-01 (event 2) lapsed on 2026-07-01" in c.explanation
    assert "220 CMR 99.07(2)" in c.rule
    ok = dug(ev("dig-safe-obtained", "2026-06-01", ticket="20262201234"), "2026-07-01")
    assert ok.clock("dig-safe-expiry").status != "violated"


def test_a_fresh_dig_safe_notice_before_digging_replaces_the_lapsed_ticket():
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", length_ft=20),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-02"),
        ev("dig-safe-obtained", "2026-06-29", ticket="2"),
        ev("work-noticed", at="2026-06-29T08:00"),
        ev("excavation-started", "2026-07-06"),
        as_of="2026-07-10",
    )
    assert r.clock("dig-safe-expiry").date == date(2026, 7, 29)
    assert r.clock("dig-safe-expiry").status == "active"


def test_the_dpw_schedule_shows_when_the_dig_safe_ticket_expires_before_digging():
    """220 CMR 99.07(2): the ticket is valid 30 calendar days."""
    from sweep.agenda import inspection_schedule

    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", length_ft=20),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-02"),
        as_of="2026-06-03",
    )
    rows = [(e.what, e.date) for e in inspection_schedule(r, date(2026, 6, 3))]
    assert ("Dig Safe ticket expires (220 CMR 99.07(2))", "2026-07-01") in rows


def test_excavation_recorded_at_a_time_before_the_dig_safe_72_hours_end_is_premature():
    """M.G.L. c.82 §40A: judged to the hour when both moments are known."""
    r = dug(
        ev("dig-safe-obtained", ticket="1", at="2026-07-02T10:00"),
        "2026-07-07",
        issued="2026-07-02",
    )
    assert r.clock("dig-safe-wait").status == "passed"
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-07-01", length_ft=20),
        ev("dig-safe-obtained", ticket="1", at="2026-07-02T10:00"),
        ev("permit-issued", "2026-07-02"),
        ev("work-noticed", at="2026-07-02T08:00"),
        ev("excavation-started", at="2026-07-07T09:00"),
        as_of="2026-07-10",
    )
    c = r.clock("dig-safe-wait")
    assert c.status == "premature"
    assert "excavation-started on 2026-07-07T09:00 (event 5) came before 2026-07-07T10:00" in c.explanation


def test_permits_machines_md_lists_the_dig_safe_clocks_and_the_violation_statuses():
    """docs/reference/machines.md copies this output (tests/docs/test_machines_doc.py)."""
    from cli.rules import machines_text

    out = machines_text(["street-opening"], "md")
    assert "dig-safe-wait (earliest), dig-safe-expiry (expiry)" in out
    assert "| earliest | premature | violation:" in out and "| expiry | violated | violation:" in out
