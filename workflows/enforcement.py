"""An enforcement case: a violation of a town's wetlands or stormwater
by-law, on a filing or on a parcel with no filing, and what the town does
about it: notices of violation, an Enforcement Order with its compliance
date and what it requires, tickets by non-criminal disposition (M.G.L.
c.40 §21D), the town's costs where its by-law recovers them, compliance and
closing.  A record of its own, kept as a filing is: its dated events,
replayed (:mod:`workflows.enforcement_replay`) into its state and clocks.

The case's JSON (docs/reference/filing-format.md, "Enforcement cases")::

    {"town": "saugus", "id": "SAU-ENF-2026-0001", "bylaw": "wetlands",
     "filing": "SAU-NOI-2026-000123",            (optional: the permit it is on)
     "site": {"address": ..., "parcel": ...},
     "violator": {"name": ..., "address": {...}},
     "events": [{"type": "violation-observed", ...}, ...]}

``bylaw`` names one of the town's fine schedules (:attr:`TownProfile.fines`).
The events' vocabulary is :data:`CASE_EVENTS` (``EVENT_FIELDS["enforcement"]``:
the same parser as a filing's).  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .errors import MalformedEvent
from .event_fields import ENFORCEMENT
from .filing import Event, parse_event, vouched_events
from .fines import FineAmountLost, FineNotAllowed, NoTickets, chosen_fine, fine_for, offense_number
from .ids import check_filing_id
from .inputs import check_values, is_clean
from .machine import ANY, START, Guard, Machine
from .machine import Transition as T

__all__ = ["Case", "CaseState", "MACHINE", "parse_case", "TICKETS", "ENFORCEMENT_COSTS", "same_violator", "ticket_events"]

#: The statute every ticket is issued under.
TICKETS = "M.G.L. c.40 §21D"
#: The steps of a town's recovery of its own costs (Mansfield 25 §14.B.3).
ENFORCEMENT_COSTS = ("costs-noticed", "costs-protested", "costs-decided", "costs-paid", "lien-recorded")


@dataclass(frozen=True)
class Case:
    town: str
    id: str
    bylaw: str
    events: tuple[Event, ...]
    filing: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def violator(self) -> str:
        v = self.extra.get("violator")
        name = v.get("name") if isinstance(v, Mapping) else v
        return name if isinstance(name, str) else ""

    def to_json(self) -> dict:
        out: dict[str, Any] = {"town": self.town, "id": self.id, "bylaw": self.bylaw}
        if self.filing:
            out["filing"] = self.filing
        out.update(self.extra)
        out["events"] = [e.to_json() for e in self.events]
        return out

    def with_event(self, raw: Mapping[str, Any]) -> Case:
        check_values(raw, filing=self.id)
        e = parse_event(ENFORCEMENT, len(self.events) + 1, raw, self.id, self.events)
        return Case(self.town, self.id, self.bylaw, self.events + (e,), self.filing, self.extra)


_TOP = ("town", "id", "bylaw", "filing", "events")


def parse_case(obj: Any) -> Case:
    """An enforcement case's JSON, checked for form: MalformedEvent naming
    the field or the event's position.  The values are held to
    check_values first, as a filing's are (:func:`~workflows.filing.parse_filing`):
    for a plain dict the parser vouches for the events' dates and choices
    and check_values looks only at the rest; a refusal waits until
    check_values has had its say."""
    if not isinstance(obj, Mapping):
        raise MalformedEvent("an enforcement case must be a JSON object")
    case_id = check_filing_id(obj.get("id"))
    refused = None
    if type(obj) is dict and type(obj.get("events")) is list:
        try:
            if is_clean({k: v for k, v in obj.items() if k != "events"}, 0):
                case = _build_case(obj, case_id, True)
                if case is not None:
                    return case
        except Exception as exc:  # re-raised below, once check_values has had its say
            refused = exc
    check_values(obj, filing=case_id)
    if refused is not None:
        raise refused
    return _build_case(obj, case_id, False)


def _build_case(obj, case_id: str, vouch: bool) -> Case | None:
    """parse_case's work after the id; with ``vouch``, None when an event's
    value must first be held to check_values."""
    for name in ("town", "bylaw"):
        if not isinstance(obj.get(name), str) or not obj[name].strip():
            raise MalformedEvent(f"missing required field {name!r}", filing=case_id)
    filing = obj.get("filing")
    if filing is not None:
        check_filing_id(filing)
    raw_events = obj.get("events")
    if not isinstance(raw_events, list):
        raise MalformedEvent("missing required field 'events' (a list)", filing=case_id)
    if vouch:
        events = vouched_events(ENFORCEMENT, raw_events, case_id)
        if events is None:
            return None
    else:
        events = []
        for position, raw in enumerate(raw_events, start=1):
            events.append(parse_event(ENFORCEMENT, position, raw, case_id, events))
    extra = {k: v for k, v in obj.items() if k not in _TOP}
    return Case(obj["town"], case_id, obj["bylaw"], tuple(events), filing, extra)


def same_violator(a: str, b: str) -> bool:
    """One violator under two spellings of the same name (case, spaces,
    punctuation): the numbering of offenses counts them together."""
    norm = lambda s: " ".join(s.upper().replace(".", " ").replace(",", " ").split())  # noqa: E731
    return bool(a) and norm(a) == norm(b)


def ticket_events(events) -> list[Event]:
    return [e for e in events if e.type == "ticket-issued"]


class CaseState(str, Enum):
    OPEN = "open"  # a violation on record
    NOTICED = "noticed"  # a notice of violation sent
    ORDERED = "ordered"  # an Enforcement Order issued
    COMPLIED = "complied"  # the order complied with
    CLOSED = "closed"


# -- guards: each names its rule; ``ctx`` is the case replay's record ----------------------


def compliance_date_after_the_order(ctx, e):
    if e.get("comply_by") < e.date:
        return (
            f"an Enforcement Order sets a date to comply by after it issues, not {e.get('comply_by')} ({ctx.schedule.order_rule})"
        )
    return None


def current_order(events, before):
    """The latest Enforcement Order before ``before`` and its date to comply
    by, as the board's extensions since have moved it: (order, day), or
    (None, None)."""
    order, due = None, None
    for x in events:
        if (x.date, x.position) >= (before.date, before.position):
            break
        if x.type == "order-issued":
            order, due = x, x.get("comply_by")
        elif x.type == "order-extended" and order is not None:
            due = x.get("to")
    return order, due


def extends_the_order(ctx, e):
    """Only the board moves an Enforcement Order's date to comply by, to a
    later day (its own vote, 310 CMR 10.08 and the by-law; never a Permit
    Extension Act)."""
    order, due = current_order(ctx.events, e)
    if order is None:
        return f"no Enforcement Order is on record to extend ({ctx.schedule.order_rule})"
    if e.get("to") <= due:
        return (
            f"an extension moves the date to comply by later: {e.get('to')} is not after {due}, "
            f"the date now set ({ctx.schedule.order_rule})"
        )
    if not str(e.get("reason") or "").strip():
        return f"an extension of an Enforcement Order gives its reason ({ctx.schedule.order_rule})"
    return None


def ticket_priced_by_the_schedule(ctx, e):
    """M.G.L. c.40 §21D and the town's schedule: the fine of the offense's
    number; each day and provision ticketed once; the offense before the
    ticket; numbered at least as the case's own earlier offenses count."""
    s = ctx.schedule
    try:
        fine = fine_for(ctx.town.name, s, max(1, e.get("offense")))
    except (FineAmountLost, NoTickets) as exc:
        return str(exc)
    if e.get("offense_day") > e.date:
        return f"a ticket is for an offense already committed: offense_day {e.get('offense_day')} is after {e.date} ({TICKETS})"
    earlier = ticket_events(ctx.events)
    for t in earlier:
        if t.get("offense_day") == e.get("offense_day") and t.get("provision") == e.get("provision"):
            return (
                f"{e.get('provision')} on {e.get('offense_day')} is already ticketed (event {t.position}): each day and "
                f"each provision is one offense, ticketed once ({s.each_day or s.citation})"
            )
    least = offense_number(s, [t.get("offense_day") for t in earlier], e.get("offense_day"))
    if e.get("offense") < least:
        return f"this is at least the {s.label(least)} of the violator in this case, not number {e.get('offense')} ({s.citation})"
    try:
        chosen_fine(s, fine, e.get("fine"))
    except FineNotAllowed as exc:
        return str(exc)
    return None


def names_a_ticket(ctx, e):
    ref = e.get("ticket")
    target = next((x for x in ctx.events if x.position == ref), None)
    if target is None or target.type != "ticket-issued":
        return f"event {ref} is not a ticket of this case ({TICKETS})"
    if any(x.type in ("ticket-paid", "ticket-contested") and x.get("ticket") == ref for x in ctx.events):
        return f"the ticket of event {ref} has already been paid or contested ({TICKETS})"
    return None


def the_bylaw_recovers_costs(ctx, e):
    if ctx.schedule.costs is None:
        return f"{ctx.schedule.bylaw} sets no recovery of the town's costs of abating a violation"
    return None


def after_the_abatement(ctx, e):
    reason = the_bylaw_recovers_costs(ctx, e)
    if reason:
        return reason
    needs = {
        "costs-noticed": "town-abated",
        "costs-protested": "costs-noticed",
        "costs-decided": "costs-protested",
        "costs-paid": "costs-noticed",
        "lien-recorded": "costs-noticed",
    }[e.type]
    if not any(x.type == needs for x in ctx.events):
        return f"{e.type} comes after {needs}, and none is on record ({ctx.schedule.costs.citation})"
    return None


GUARDS = {
    g.name: g
    for g in (
        Guard("compliance_date_after_the_order", compliance_date_after_the_order, "310 CMR 10.08; the town's by-law"),
        Guard("extends_the_order", extends_the_order, "310 CMR 10.08; the town's by-law"),
        Guard("ticket_priced_by_the_schedule", ticket_priced_by_the_schedule, f"{TICKETS}; the town's fine schedule"),
        Guard("names_a_ticket", names_a_ticket, TICKETS),
        Guard("the_bylaw_recovers_costs", the_bylaw_recovers_costs, "Mansfield Stormwater By-Law Ch. 25 Part B §14.B.3"),
        Guard("after_the_abatement", after_the_abatement, "Mansfield Stormwater By-Law Ch. 25 Part B §14.B.3"),
    )
}

S = CaseState
_OPEN = (S.OPEN.value, S.NOTICED.value, S.ORDERED.value)
MACHINE = Machine(
    kind="enforcement",
    states=CaseState,
    final=frozenset({S.CLOSED.value}),
    transitions=(
        T("violation-observed", (START,), S.OPEN.value),
        T("violation-observed", _OPEN, None),  # another provision, another day
        T("violation-noticed", (S.OPEN.value, S.NOTICED.value), S.NOTICED.value),
        T("violation-noticed", (S.ORDERED.value, S.COMPLIED.value), None),
        T("order-issued", _OPEN, S.ORDERED.value, guards=("compliance_date_after_the_order",)),
        T("order-extended", (S.ORDERED.value,), None, guards=("extends_the_order",)),
        T("ticket-issued", (ANY,), None, guards=("ticket_priced_by_the_schedule",)),
        T("ticket-paid", (ANY,), None, guards=("names_a_ticket",)),
        T("ticket-contested", (ANY,), None, guards=("names_a_ticket",)),
        T("town-abated", (ANY,), None, guards=("the_bylaw_recovers_costs",)),
        *(T(t, (ANY,), None, guards=("after_the_abatement",)) for t in ENFORCEMENT_COSTS),
        T("complied", _OPEN, S.COMPLIED.value),
        T("closed", (ANY,), S.CLOSED.value),
    ),
    guards=GUARDS,
)
