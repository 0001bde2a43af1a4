"""An enforcement case is a record of its own, replayed like a filing
(workflows/enforcement.py, workflows/enforcement_replay.py): its steps in
order, the refusals naming their rule, the tickets and their answers, and
the voiding of a mistaken step.  Each town's traps are in its file under
towns/ (Saugus's fourth offense, Mansfield's costs, Canton's $300, the
fines Manchester-by-the-Sea's copy lost)."""

import re
from datetime import date

import pytest
from _filings import ev

from workflows.enforcement import parse_case
from workflows.enforcement_replay import CASE_CLOCK_TYPES, replay_case
from workflows.errors import MalformedEvent, TransitionRefused, UnknownChoice

OBSERVED = ev("violation-observed", "2026-05-04", provision="508.08 §2", description="fill in the buffer zone")
TICKET = ev("ticket-issued", "2026-05-06", provision="508.08 §2", offense_day="2026-05-05", offense=1, fine=25)


def case(*events, town="saugus", bylaw="wetlands", as_of="2026-06-30"):
    obj = {"town": town, "id": "T-ENF-1", "bylaw": bylaw, "violator": {"name": "Lynn Fells LLC"}, "events": [OBSERVED, *events]}
    return replay_case(parse_case(obj), date.fromisoformat(as_of))


def test_a_case_goes_from_the_violation_to_its_notice_order_compliance_and_close():
    r = case(
        ev("violation-noticed", "2026-05-05", delivered="mailed"),
        ev("order-issued", "2026-05-06", comply_by="2026-06-05", requires=["Remove the fill."]),
        TICKET,
        ev("ticket-paid", "2026-05-20", ticket=4),
        ev("complied", "2026-06-01"),
    )
    assert r.state == "complied"
    assert {c.id: c.status for c in r.clocks} == {"compliance": "met", "ticket-appearance": "met"}
    closed = case(
        ev("order-issued", "2026-05-06", comply_by="2026-06-05", requires=["Remove the fill."]),
        ev("closed", "2026-05-07", reason="referred to court"),
    )
    assert closed.state == "closed" and closed.clocks == []  # what a closed case no longer needs is not due


def test_a_ticket_answered_twice_or_an_answer_naming_no_ticket_is_refused():
    with pytest.raises(TransitionRefused, match="already been paid or contested"):
        case(TICKET, ev("ticket-paid", "2026-05-10", ticket=2), ev("ticket-contested", "2026-05-11", ticket=2))
    with pytest.raises(TransitionRefused, match="event 1 is not a ticket of this case"):
        case(TICKET, ev("ticket-paid", "2026-05-10", ticket=1))


def test_a_ticket_for_a_day_not_yet_come_is_refused():
    with pytest.raises(TransitionRefused, match="offense_day 2026-05-09 is after 2026-05-06"):
        case(ev("ticket-issued", "2026-05-06", provision="§2", offense_day="2026-05-09", offense=1, fine=25))


def test_a_voided_ticket_leaves_its_day_free_to_ticket_again():
    r = case(
        TICKET,
        ev("event-voided", "2026-05-07", voids=2, reason="wrong provision"),
        ev("ticket-issued", "2026-05-07", provision="508.08 §2", offense_day="2026-05-05", offense=1, fine=25),
    )
    assert [t.position for t in r.tickets] == [4]


def test_an_unknown_step_a_malformed_case_and_a_by_law_without_a_schedule_are_refused():
    with pytest.raises(MalformedEvent, match="unknown event type 'permit-issued'"):
        case(ev("permit-issued", "2026-05-06"))
    with pytest.raises(MalformedEvent, match="missing required field 'bylaw'"):
        parse_case({"town": "saugus", "id": "T-1", "events": []})
    with pytest.raises(UnknownChoice, match="by-law with a fine schedule in Saugus 'stormwater'; choose one of: wetlands"):
        case(town="saugus", bylaw="stormwater")
    with pytest.raises(TransitionRefused, match="before the first event"):
        case_obj = {"town": "saugus", "id": "T-2", "bylaw": "wetlands", "events": [ev("complied", "2026-05-01")]}
        replay_case(parse_case(case_obj), date(2026, 6, 1))


def test_every_case_clock_has_a_type_the_filing_format_lists():
    assert set(CASE_CLOCK_TYPES.values()) <= {"deadline", "earliest", "expiry"}
    r = case(TICKET, ev("order-issued", "2026-05-06", comply_by="2026-06-05", requires=["x"]))
    assert {c.id for c in r.clocks} <= set(CASE_CLOCK_TYPES)


@pytest.mark.parametrize(
    ("where", "path"),
    [("violator", "violator.name"), ("event", "events[1].description"), ("ticket", "events[2].provision")],
)
def test_a_case_value_with_a_nul_is_refused_naming_its_path_whatever_else_is_wrong(where, path):
    """parse_case vouches for the dates and choices it converts and looks at
    the rest (as parse_filing does); a NUL anywhere is still refused, and
    before the malformed date of a later event."""
    obj = {"town": "saugus", "id": "T-ENF-9", "bylaw": "wetlands", "violator": {"name": "Lynn Fells LLC"}}
    observed = dict(OBSERVED)
    ticket = dict(TICKET)
    if where == "violator":
        obj["violator"] = {"name": "Lynn\x00Fells"}
    elif where == "event":
        observed["description"] = "fill\x00"
    else:
        ticket["provision"] = "508.08\x00"
    nul = re.escape(f"field '{path}' contains a NUL character")
    obj["events"] = [observed, ticket]
    with pytest.raises(MalformedEvent, match=nul):
        parse_case(obj)
    obj["events"] = [observed, ticket, ev("complied", "2026-13-01")]
    with pytest.raises(MalformedEvent, match=nul):
        parse_case(obj)
    with pytest.raises(MalformedEvent, match="2026-13-01"):  # clean values: the bad date is the refusal
        parse_case({**obj, "violator": {"name": "x"}, "events": [OBSERVED, TICKET, ev("complied", "2026-13-01")]})
