"""An application filed online is ``submitted``: no clock runs until staff
find it complete, which is the day of receipt of a complete application."""

from datetime import date, timedelta

import pytest
from _filings import clocks_by_id, ev, filing, replayed
from hypothesis import given, settings
from hypothesis import strategies as st

from workflows.errors import MalformedEvent, TransitionRefused
from workflows.filing import parse_filing
from workflows.submission import complete_event, incomplete_event, submission_of, submitted_event

KINDS_BY_TOWN = [("saugus", "noi"), ("canton", "rda"), ("mansfield", "land-disturbance"), ("canton", "street-opening")]


@pytest.mark.parametrize("town,kind", KINDS_BY_TOWN)
def test_a_submitted_application_starts_no_clock_even_months_later(town, kind):
    r = replayed(town, kind, ev("submitted", "2026-03-02"), as_of="2026-09-30")
    assert r.state == "submitted"
    assert r.clocks == []
    assert r.pending() == []


@pytest.mark.parametrize("town,kind", KINDS_BY_TOWN)
def test_found_incomplete_keeps_it_submitted_and_starts_no_clock(town, kind):
    r = replayed(
        town, kind, ev("submitted", "2026-03-02"), ev("found-incomplete", "2026-03-05", reasons="no plan"), as_of="2026-09-30"
    )
    assert r.state == "submitted"
    assert r.clocks == []


def test_saugus_hearing_clock_counts_from_the_day_staff_find_it_complete_not_from_the_submission():
    r = replayed(
        "saugus",
        "noi",
        ev("submitted", "2026-03-02"),
        ev("found-incomplete", "2026-03-04", reasons="plan is not stamped"),
        ev("submitted", "2026-03-09"),
        ev("filed", "2026-03-10"),
        as_of="2026-03-11",
    )
    assert r.state == "filed"
    hearing = clocks_by_id(r)["hearing-open"]
    # 21 days from March 10 is March 31, a Tuesday; from March 2 it would be March 23
    assert hearing.date == date(2026, 3, 31)
    assert "2026-03-10" in hearing.explanation


def test_a_street_opening_marked_complete_is_applied_and_needs_its_dig_safe_number():
    r = replayed(
        "canton",
        "street-opening",
        ev("submitted", "2026-04-01"),
        ev("filed", "2026-04-02"),
        ev("dig-safe-obtained", "2026-04-02", ticket="20261234567"),
        ev("permit-issued", "2026-04-03"),
        as_of="2026-04-03",
    )
    assert r.state == "issued"


@pytest.mark.parametrize(
    "town,kind,decision",
    [
        ("saugus", "noi", ev("permit-issued", "2026-03-20")),
        ("canton", "rda", ev("determination-issued", "2026-03-20", positive=False)),
        ("mansfield", "land-disturbance", ev("hearing-opened", "2026-03-20")),
        ("canton", "street-opening", ev("permit-issued", "2026-03-20")),
    ],
)
def test_nothing_is_decided_or_heard_while_the_application_is_only_submitted(town, kind, decision):
    with pytest.raises(TransitionRefused) as exc:
        extra = [ev("dig-safe-obtained", "2026-03-02", ticket="1")] if kind == "street-opening" else []
        replayed(town, kind, ev("submitted", "2026-03-02"), *extra, decision)
    assert "'submitted'" in str(exc.value)


def test_marked_complete_before_it_was_submitted_is_refused_naming_the_submission():
    with pytest.raises(TransitionRefused) as exc:
        replayed("saugus", "noi", ev("submitted", "2026-03-10"), ev("filed", "2026-03-09"))
    assert "submitted is not allowed when the filing is 'filed'" in str(exc.value)


def test_found_incomplete_without_reasons_is_malformed():
    with pytest.raises(MalformedEvent) as exc:
        replayed("saugus", "noi", ev("submitted", "2026-03-02"), ev("found-incomplete", "2026-03-04"))
    assert "reasons" in str(exc.value)
    with pytest.raises(MalformedEvent):
        incomplete_event(date(2026, 3, 4), "   ")


def test_found_incomplete_after_the_town_found_it_complete_is_refused():
    with pytest.raises(TransitionRefused):
        replayed(
            "saugus",
            "noi",
            ev("submitted", "2026-03-02"),
            ev("filed", "2026-03-03"),
            ev("found-incomplete", "2026-03-04", reasons="too late"),
        )


def test_a_paper_filing_is_unchanged_by_the_submitted_state():
    r = replayed("saugus", "noi", ev("filed", "2026-03-02", complete=False), ev("deemed-complete", "2026-03-06"))
    assert r.state == "filed"
    assert clocks_by_id(r)["hearing-open"].date == date(2026, 3, 27)


def test_filed_incomplete_after_a_submission_means_what_it_means_on_paper():
    r = replayed("saugus", "noi", ev("submitted", "2026-03-02"), ev("filed", "2026-03-03", complete=False))
    assert r.state == "incomplete"
    assert r.clocks == []


def test_a_submission_can_be_withdrawn():
    for town, kind in KINDS_BY_TOWN:
        r = replayed(town, kind, ev("submitted", "2026-03-02"), ev("withdrawn", "2026-03-05"))
        assert r.state == "withdrawn"


def test_submission_of_tells_who_has_to_act_next():
    def of(*events):
        return submission_of(parse_filing(filing("saugus", "noi", *events)))

    waiting = of(submitted_event(date(2026, 3, 2)))
    assert waiting.online and waiting.complete_on is None and waiting.incomplete_on is None and not waiting.awaiting_applicant
    back = of(submitted_event(date(2026, 3, 2)), incomplete_event(date(2026, 3, 4), "plan is not stamped"))
    assert back.awaiting_applicant and back.reasons == "plan is not stamped" and back.incomplete_on == date(2026, 3, 4)
    again = of(
        submitted_event(date(2026, 3, 2)),
        incomplete_event(date(2026, 3, 4), "plan is not stamped"),
        submitted_event(date(2026, 3, 9)),
    )
    assert (
        again.incomplete_on is None
        and not again.awaiting_applicant
        and again.reasons is None
        and again.submitted_on == date(2026, 3, 9)
    )
    done = of(submitted_event(date(2026, 3, 2)), complete_event(date(2026, 3, 3)))
    assert done.complete_on == date(2026, 3, 3) and not done.awaiting_applicant
    assert not of(ev("filed", "2026-03-02")).online


def test_a_voided_incomplete_finding_no_longer_sends_the_application_back():
    s = submission_of(
        parse_filing(
            filing(
                "saugus",
                "noi",
                submitted_event(date(2026, 3, 2)),
                incomplete_event(date(2026, 3, 4), "wrong parcel"),
                ev("event-voided", "2026-03-05", voids=2, reason="entered on the wrong filing"),
            )
        )
    )
    assert s.incomplete_on is None and s.complete_on is None and s.reasons is None


@settings(max_examples=60, deadline=None)
@given(
    gaps=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=6),
    complete_after=st.integers(min_value=0, max_value=40),
    town=st.sampled_from(["saugus", "canton", "mansfield"]),
)
def test_whatever_goes_back_and_forth_before_it_no_clock_counts_from_before_the_day_it_is_found_complete(
    gaps, complete_after, town
):
    day = date(2026, 1, 5)
    events = []
    for i, gap in enumerate(gaps):
        day += timedelta(days=gap)
        events.append(ev("submitted", day.isoformat()) if i % 2 == 0 else ev("found-incomplete", day.isoformat(), reasons="x"))
    if len(gaps) % 2 == 0:  # it was sent back last: the applicant submits again
        events.append(ev("submitted", day.isoformat()))
    pending = replayed(town, "noi", *events, as_of=(day + timedelta(days=400)).isoformat())
    assert pending.state == "submitted" and pending.clocks == []
    complete = day + timedelta(days=complete_after)
    done = replayed(town, "noi", *events, ev("filed", complete.isoformat()), as_of=complete.isoformat())
    assert done.state == "filed"
    assert done.clocks and all(c.date >= complete for c in done.clocks)
    assert (
        clocks_by_id(done)["hearing-open"].date
        == replayed(town, "noi", ev("filed", complete.isoformat())).clock("hearing-open").date
    )
