"""An inspection asked for online (workflows/inspection_requests.py): the
stage must fit the permit now (the machine's own rows), the preferred day
must be a business day of the town, a request stays open until an
inspection of its stage answers it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workflows.filing import parse_filing
from workflows.inspection_requests import InspectionRequestRefused, answered, open_requests, request_event
from workflows.towns import town

TODAY = date(2026, 12, 3)
CAL = town("canton").calendar


def _ask(preferred, stage="pre-backfill", state="excavating", events=()):
    return request_event(
        "CAN-SOP-2026-900",
        state=state,
        stage=stage,
        preferred=preferred,
        today=TODAY,
        calendar=CAL,
        by="ann@example.org",
        events=events,
    )


def test_a_trench_inspection_asked_for_a_monday_is_the_event_the_record_keeps():
    assert _ask(date(2026, 12, 7)) == {
        "type": "inspection-requested",
        "date": "2026-12-03",
        "stage": "pre-backfill",
        "preferred": "2026-12-07",
        "by": "ann@example.org",
    }


def test_a_preferred_day_on_a_saturday_is_refused_naming_the_day_and_the_working_hours():
    with pytest.raises(InspectionRequestRefused, match=r"2026-12-05 is not a business day \(Saturday\)") as got:
        _ask(date(2026, 12, 5))
    assert "Canton 16-12 §2, Normal Working Hours" in str(got.value)


def test_a_preferred_day_on_patriots_day_2027_is_refused_with_the_holidays_name():
    with pytest.raises(InspectionRequestRefused, match="Patriots' Day"):
        _ask(date(2027, 4, 19))
    assert _ask(date(2027, 4, 20))["preferred"] == "2027-04-20"  # the Tuesday after is a business day


def test_a_stage_that_does_not_fit_the_permit_is_refused_naming_those_that_do():
    with pytest.raises(InspectionRequestRefused, match="the stages that fit: trench, before backfilling"):
        _ask(date(2026, 12, 7), stage="permanent-patch")
    with pytest.raises(InspectionRequestRefused, match="the stages that fit: none"):
        _ask(date(2026, 12, 7), state="issued")  # nothing dug yet


def test_a_day_that_has_passed_is_refused():
    with pytest.raises(InspectionRequestRefused, match="has passed"):
        _ask(date(2026, 12, 2))


HISTORY = [
    {"type": "filed", "date": "2026-12-01"},
    {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
    {"type": "permit-issued", "date": "2026-12-01"},
    {"type": "excavation-started", "date": "2026-12-02"},
    {"type": "inspection-requested", "date": "2026-12-02", "stage": "pre-backfill", "preferred": "2026-12-03", "by": "ann"},
]


def test_a_request_stays_open_until_an_inspection_of_its_stage_answers_it_and_a_second_is_refused_meanwhile():
    filing = parse_filing({"town": "canton", "kind": "street-opening", "id": "CAN-SOP-2026-900", "events": HISTORY})
    assert [r.stage for r in open_requests(filing.events)] == ["pre-backfill"]
    with pytest.raises(InspectionRequestRefused, match="already asked for"):
        _ask(date(2026, 12, 7), events=filing.events)
    inspected = {"type": "inspected", "date": "2026-12-03", "stage": "pre-backfill", "result": "pass"}
    done = parse_filing({"town": "canton", "kind": "street-opening", "id": filing.id, "events": [*HISTORY, inspected]})
    (r,) = answered(done.events)
    assert r.result == "pass" and r.inspected_on == date(2026, 12, 3) and open_requests(done.events) == []


@given(st.integers(min_value=0, max_value=800))
def test_a_preferred_day_is_accepted_exactly_when_it_is_a_business_day(offset):
    day = TODAY + timedelta(days=offset)
    if CAL.is_business_day(day):
        assert _ask(day)["preferred"] == day.isoformat()
    else:
        with pytest.raises(InspectionRequestRefused, match="not a business day"):
            _ask(day)


def test_the_machine_refuses_a_request_for_a_saturday_however_it_is_recorded():
    from workflows.errors import TransitionRefused
    from workflows.replay import replay

    saturday = {**HISTORY[-1], "preferred": "2026-12-05"}
    filing = parse_filing(
        {"town": "canton", "kind": "street-opening", "id": "CAN-SOP-2026-900", "events": [*HISTORY[:-1], saturday]}
    )
    with pytest.raises(TransitionRefused, match=r"not a business day \(Saturday\)"):
        replay(filing, TODAY)
