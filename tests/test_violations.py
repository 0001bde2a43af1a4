"""Violations on record (issue 10): an act the record shows was done before
its earliest day is ``premature``, and work without leave is ``violated``;
the record keeps the act, the replay names it, the day it was allowed and
the rule, and the docket and digest list it as a violation."""

from datetime import date

from _filings import ev, replayed
from storekit import db_url  # noqa: F401 - a fixture

from sweep.agenda import docket_entries
from workflows.docket import action_for, docket_status

DIG = ev("dig-safe-obtained", "2026-06-01", ticket="20262201234")


def street(*events, as_of="2026-07-31"):
    return replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", applicant="private", length_ft=20),
        DIG,
        ev("permit-issued", "2026-06-01"),
        *events,
        as_of=as_of,
    )


def test_a_final_action_inside_cantons_14_day_board_window_is_premature_and_kept():
    """Canton Wetlands By-Law 15-6: no final action until the boards have had
    14 days from receipt of notice; boards notified 06-01, so from 06-16."""
    r = replayed(
        "canton",
        "noi",
        ev("filed", "2026-06-01"),
        ev("boards-notified", "2026-06-01"),
        ev("hearing-opened", "2026-06-08"),
        ev("hearing-closed", "2026-06-08"),
        ev("permit-issued", "2026-06-10"),
        as_of="2026-06-20",
    )
    c = r.clock("board-comment")
    assert (c.status, c.date) == ("premature", date(2026, 6, 16))
    assert "PREMATURE: permit-issued on 2026-06-10 (event 5) came before 2026-06-16" in c.explanation
    assert "15-6" in c.explanation
    assert r.state == "issued"  # the act happened: the record keeps it


def test_excavation_before_the_72_hour_work_notice_has_run_is_premature():
    """Canton 16-12 §10.3: notice seventy-two hours in advance of the work."""
    r = street(ev("work-noticed", at="2026-06-08T09:00"), ev("excavation-started", "2026-06-09"))
    c = r.clock("work-notice")
    assert c.status == "premature"
    assert "excavation-started on 2026-06-09 (event 5) came before 2026-06-11T09:00" in c.explanation
    assert "16-12 §10.3" in c.explanation


def test_a_permanent_patch_before_the_12_month_window_opens_is_premature():
    """Canton 16-12 §11.4: permanent patches not less than twelve months from
    the temporary patch."""
    r = street(
        ev("work-noticed", at="2026-06-01T09:00"),
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", "2026-06-15"),
        ev("permanent-patch-placed", "2027-01-15"),
        as_of="2027-02-01",
    )
    c = r.clock("permanent-patch-window-opens")
    assert (c.status, c.date) == ("premature", date(2027, 6, 15))
    assert "permanent-patch-placed on 2027-01-15" in c.explanation and "§11.4" in c.explanation
    assert r.state == "permanent-patch"


def test_an_act_on_the_earliest_day_itself_is_passed_not_premature():
    r = street(ev("work-noticed", at="2026-06-08T09:00"), ev("excavation-started", "2026-06-11"))
    assert r.clock("work-notice").status == "passed"


def test_excavation_on_an_expired_street_permit_is_flagged_citing_10_1():
    """Canton 16-12 §10.1: a Street Opening Permit is valid for thirty days;
    issued 06-01, it expires 07-01."""
    r = street(ev("work-noticed", at="2026-07-01T09:00"), ev("excavation-started", "2026-07-06"))
    c = r.clock("permit-expiry")
    assert (c.status, c.date) == ("violated", date(2026, 7, 1))
    assert "excavation-started on 2026-07-06 (event 5) after the permit expired on 2026-07-01" in c.explanation
    assert "16-12 §10.1" in c.rule
    assert r.state == "excavating"


def test_excavation_within_the_renewed_term_is_not_flagged():
    r = street(
        ev("renewal-requested", "2026-06-25"),
        ev("permit-renewed", "2026-06-26"),
        ev("work-noticed", at="2026-07-01T09:00"),
        ev("excavation-started", "2026-07-06"),
    )
    assert r.clock("permit-expiry").status != "violated"


def test_excavation_with_no_work_notice_on_record_is_flagged_citing_10_3():
    """Canton 16-12 §10.3: "must give notice of the intended Street Opening
    Work seventy-two hours in advance", except in emergency situations."""
    r = street(ev("excavation-started", "2026-06-09"))
    c = r.clock("work-notice")
    assert (c.status, c.date, c.type) == ("violated", date(2026, 6, 9), "earliest")
    assert "with no work notice on record" in c.explanation and "16-12 §10.3" in c.rule


def test_emergency_excavation_needs_no_work_notice():
    r = replayed(
        "canton",
        "street-opening",
        ev("emergency-work-started", at="2026-06-01T22:00"),
        ev("filed", "2026-06-02", emergency=True),
        DIG,
        ev("permit-issued", "2026-06-02"),
        ev("excavation-started", "2026-06-02"),
        as_of="2026-06-05",
    )
    assert r.clock("work-notice") is None


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
