"""Which events fit a filing now (workflows/offered.py): the walk of every
machine (tests/machinewalk.py) takes, from each first event, every event
offered, with each choice that fits, and the replay takes each one (the
walk fails if the replay refuses an offered event); it reaches every state
and every event of every machine but those a town's rules forbid, each
named here with its rule; and the offers leave out what the guards refuse
whatever is typed."""

from __future__ import annotations

from datetime import date, datetime

import machinewalk
import pytest

from workflows.filing import parse_filing
from workflows.offered import NOT_IN_THE_MENU, offers
from workflows.replay import replay

#: what a walk cannot reach, because the town that runs the machine forbids it
FORBIDDEN = {
    # Mansfield's Stormwater By-Law gives a Land Disturbance Permit no renewal (PermitRules.renewals_allowed = 0)
    "land-disturbance": {"states": {"renewed"}, "events": {"renewal-requested", "permit-renewed", "continuance-objected"}},
}
AS_OF, NOW = date(2026, 12, 3), datetime(2026, 12, 3, 10, 0)


@pytest.mark.parametrize("machine_name", list(machinewalk.MACHINE_TOWNS))
def test_the_walk_reaches_every_state_and_event_of_the_machine(machine_name):
    walked = machinewalk.walk(machine_name)
    forbidden = FORBIDDEN.get(machine_name, {})
    assert {w.state for w in walked} == machinewalk.states_of(machine_name) - forbidden.get("states", set())
    events = {w.last_event for w in walked} | {e["type"] for w in walked for e in w.raw["events"]}
    assert events == machinewalk.events_of(machine_name) - NOT_IN_THE_MENU - forbidden.get("events", set()) | (
        {"submitted"} & machinewalk.events_of(machine_name)  # a first event, not offered afterwards
    )


def _offered(events: list[dict], town_id="canton", kind="noi") -> set[str]:
    filing = parse_filing(machinewalk.filing_json(town_id, kind, events))
    return {o.event for o in offers(filing, AS_OF, NOW, [c.id for c in replay(filing, AS_OF).clocks])}


def test_an_order_of_conditions_is_not_offered_before_the_hearing_closes_under_a_bylaw_that_requires_one():
    """Canton 15-5, 15-7: a decision after the close of the public hearing."""
    scheduled = [
        {"type": "filed", "date": "2026-11-02"},
        {"type": "hearing-scheduled", "date": "2026-11-03", "hearing": "2026-11-24"},
    ]
    assert not {"permit-issued", "permit-denied", "hearing-closed"} & _offered(scheduled)
    opened = scheduled + [{"type": "hearing-opened", "date": "2026-11-24"}]
    assert {"hearing-closed", "hearing-continued"} <= _offered(opened) and "permit-issued" not in _offered(opened)
    closed = opened + [{"type": "hearing-closed", "date": "2026-12-01"}]
    assert {"permit-issued", "permit-denied"} <= _offered(closed)


def test_a_street_permit_is_offered_once_a_dig_safe_number_is_on_record():
    """Canton 16-12 §10.4: no Dig Safe number, no permit."""
    filed = [{"type": "filed", "date": "2026-12-01", "applicant": "utility", "length_ft": 40}]
    assert "permit-issued" not in _offered(filed, kind="street-opening")
    ticket = filed + [{"type": "dig-safe-obtained", "date": "2026-12-02", "ticket": "20261234567"}]
    assert "permit-issued" in _offered(ticket, kind="street-opening")


def test_an_inspection_offers_only_the_stages_that_fit_the_permit_now():
    """Canton 16-12 §10.2: before backfill while the trench is open; after the
    temporary patch, the patch and settlement inspections."""
    dug = [
        {"type": "filed", "date": "2026-11-02", "applicant": "utility", "length_ft": 40},
        {"type": "dig-safe-obtained", "date": "2026-11-02", "ticket": "20261234567"},
        {"type": "permit-issued", "date": "2026-11-10"},
        {"type": "excavation-started", "date": "2026-11-16"},
    ]
    filing = parse_filing(machinewalk.filing_json("canton", "street-opening", dug))
    (inspected,) = [o for o in offers(filing, AS_OF, NOW) if o.event == "inspected"]
    assert inspected.choices["stage"] == ("pre-backfill",) and inspected.choices["result"] == ("pass", "fail")


def test_an_extension_is_offered_only_with_a_clock_started_to_extend():
    filed = [{"type": "filed", "date": "2026-12-01"}]
    filing = parse_filing(machinewalk.filing_json("canton", "noi", filed))
    assert "clock-extended" not in {o.event for o in offers(filing, AS_OF, NOW, [])}
    clocks = [c.id for c in replay(filing, AS_OF).clocks]
    (extended,) = [o for o in offers(filing, AS_OF, NOW, clocks) if o.event == "clock-extended"]
    assert set(extended.choices["clock"]) == set(clocks) and clocks


def test_a_void_a_payment_and_the_applicants_own_submission_are_not_in_the_menu():
    filed = [{"type": "filed", "date": "2026-12-01"}]
    assert not NOT_IN_THE_MENU & _offered(filed)
