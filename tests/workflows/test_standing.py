"""Where a filing stands, for its applicant: the state in words, whose turn
each open deadline is (the applicant's or the town's), and the hearing."""

from datetime import date

from _filings import ev, filing

from workflows.filing import parse_filing
from workflows.replay import replay
from workflows.standing import applicant_clock, standing_of


def standing(town, kind, *events, today="2026-12-10"):
    f = parse_filing(filing(town, kind, *events))
    day = date.fromisoformat(today)
    return standing_of(f, replay(f, day), day)


def test_a_submitted_application_says_no_deadline_runs_and_the_town_is_checking_completeness_without_a_day():
    s = standing("saugus", "noi", ev("submitted", "2026-12-01"))
    assert "Submitted online on Tuesday, December 1, 2026" in s.words and "No deadline runs" in s.words
    assert s.applicant_next == [] and s.asked is None
    [check] = s.town_next
    assert check.what == "check that the application is complete" and check.by is None
    assert "no by-law sets a day" in check.rule


def test_an_application_sent_back_is_the_applicants_turn_to_correct_what_the_town_named():
    s = standing("saugus", "noi", ev("submitted", "2026-12-01"), ev("found-incomplete", "2026-12-02", reasons="No stamped plan."))
    [fix] = s.applicant_next
    assert fix.what == "correct what the town named and submit the application again" and fix.by is None
    assert s.town_next == [] and s.asked == "No stamped plan."


def test_a_resubmission_gives_the_turn_back_to_the_town():
    s = standing(
        "saugus",
        "noi",
        ev("submitted", "2026-12-01"),
        ev("found-incomplete", "2026-12-02", reasons="No stamped plan."),
        ev("submitted", "2026-12-04"),
    )
    assert s.applicant_next == [] and [t.what for t in s.town_next] == ["check that the application is complete"]


def test_the_decision_and_its_conditions_are_read_from_the_record_and_a_voided_one_is_not():
    heard = (
        ev("filed", "2026-12-01"),
        ev("hearing-scheduled", "2026-12-02", hearing="2026-12-08"),
        ev("hearing-opened", "2026-12-08"),
        ev("hearing-closed", "2026-12-08"),
    )
    s = standing("saugus", "noi", *heard, ev("permit-issued", "2026-12-09", conditions=["Silt fence first.", "No fill."]))
    [d] = s.decisions
    assert d.event == "permit-issued" and d.on == date(2026, 12, 9) and d.conditions == ("Silt fence first.", "No fill.")
    voided = standing(
        "saugus", "noi", *heard, ev("permit-issued", "2026-12-09"), ev("event-voided", "2026-12-09", voids=5, reason="wrong")
    )
    assert voided.decisions == ()


def test_a_continued_hearing_shows_the_session_it_was_continued_to():
    s = standing(
        "saugus",
        "noi",
        ev("filed", "2026-12-01"),
        ev("hearing-scheduled", "2026-12-02", hearing="2026-12-08", at="2026-12-08T19:00"),
        ev("hearing-opened", "2026-12-08"),
        ev("hearing-continued", "2026-12-08", to="2026-12-15", at="2026-12-15T19:30"),
    )
    assert s.hearing == date(2026, 12, 15) and (s.hearing_at.hour, s.hearing_at.minute) == (19, 30)


def test_an_application_sent_back_gives_the_towns_reasons():
    s = standing("saugus", "noi", ev("submitted", "2026-12-01"), ev("found-incomplete", "2026-12-02", reasons="No stamped plan."))
    assert "found the application incomplete on Wednesday, December 2, 2026: No stamped plan." in s.words


def test_once_complete_the_hearing_is_the_towns_next_step_with_its_rule_and_the_hearing_time_is_shown():
    s = standing(
        "saugus",
        "noi",
        ev("submitted", "2026-12-01"),
        ev("filed", "2026-12-03"),
        ev("hearing-scheduled", "2026-12-04", hearing="2026-12-17", at="2026-12-17T19:00"),
    )
    assert "received the complete application on Thursday, December 3, 2026" in s.words
    hearing = next(step for step in s.town_next if step.clock == "hearing-open")
    assert hearing.by == date(2026, 12, 24) and "508.08" in hearing.rule and hearing.what == "open the public hearing"
    assert s.hearing == date(2026, 12, 17) and s.hearing_at.hour == 19


def test_the_newspaper_notice_is_the_applicants_in_canton_and_the_towns_in_saugus():
    assert applicant_clock("newspaper-notice", "canton") is not None  # at the applicant's expense (15-5)
    assert applicant_clock("newspaper-notice", "saugus") is None
    canton = standing(
        "canton",
        "noi",
        ev("filed", "2026-12-01"),
        ev("hearing-scheduled", "2026-12-02", hearing="2026-12-21"),
        today="2026-12-03",
    )
    assert "newspaper-notice" in {s.clock for s in canton.applicant_next}
    assert "newspaper-notice" not in {s.clock for s in canton.town_next}


def test_a_permit_near_its_expiry_puts_the_renewal_request_on_the_applicant():
    s = standing(
        "canton",
        "noi",
        ev("filed", "2023-11-01"),
        ev("hearing-opened", "2023-11-14"),
        ev("hearing-closed", "2023-11-14"),
        ev("permit-issued", "2023-12-28"),
        today="2026-12-03",
    )
    assert s.words.startswith("The permit is issued.")
    [renewal] = [step for step in s.applicant_next if step.clock == "renewal-request"]
    assert renewal.what == "ask the town in writing to renew the permit" and renewal.rule and not renewal.overdue
