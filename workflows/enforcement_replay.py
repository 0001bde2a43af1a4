"""Replay an enforcement case (:mod:`workflows.enforcement`): its state, its
tickets with their fines, and its clocks, each with its rule and why.

    replay_case(case, as_of) -> CaseReplay

Clocks (:data:`CASE_CLOCK_TYPES`):

- ``compliance`` (deadline): each Enforcement Order's date to comply by,
  met by ``complied``; the board may extend it by a vote of its own
  (``order-extended``, with the new date and the reason).  The Permit
  Extension Acts never move it: an
  enforcement order is excluded (St. 2010 c.240 §173), and the explanation
  says so when an Act's window reaches it;
- ``ticket-appearance`` (deadline): a ticket's 21 days to appear before the
  clerk (or pay by mail), met by ``ticket-paid`` or ``ticket-contested``;
- ``ticket-mailing`` (deadline): a ticket not handed over at the time and
  place of the violation is mailed within 15 days after it (M.G.L. c.40
  §21D), met by the ticket itself;
- where the by-law recovers the town's costs (Mansfield Ch. 25 Part B
  §14.B.3): ``cost-notice`` (deadline, 30 days after the town's abatement),
  ``cost-protest`` (the violator's 30 days from receipt of the notice, shown
  while open), ``costs-due`` (deadline: the end of the protest period, or 30
  days after the decision on a protest, met by ``costs-paid``),
  ``costs-lien`` (earliest: the day after the costs were due; a lien
  recorded before it is ``premature``) and ``cost-interest`` (earliest:
  interest after the 31st day following the day the costs were due).

Pure: ``as_of`` is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from types import MappingProxyType

from calendars import NO_ROLL, ROLL_PAST_SUNDAY_AND_HOLIDAY, CalendarDays

from .clocks import ClockResult
from .enforcement import MACHINE, TICKETS, Case, ticket_events
from .errors import MalformedEvent
from .extension_acts import not_extended
from .fines import FineSchedule
from .machine import START
from .replay import live_events
from .rulebook import TownProfile
from .towns import town

__all__ = ["CASE_CLOCK_TYPES", "Ticket", "CaseReplay", "replay_case"]

#: Clock id -> type, as docs/reference/filing-format.md ("Enforcement cases") lists them.
CASE_CLOCK_TYPES = MappingProxyType(
    {
        "compliance": "deadline",
        "ticket-appearance": "deadline",
        "ticket-mailing": "deadline",
        "cost-notice": "deadline",
        "cost-protest": "deadline",
        "costs-due": "deadline",
        "costs-lien": "earliest",
        "cost-interest": "earliest",
    }
)
#: M.G.L. c.40 §21D: appear "not later than twenty-one days after the date of such notice"; a notice
#: not delivered at the time and place is mailed "within fifteen days after said violation"
APPEARANCE = CalendarDays(21, ROLL_PAST_SUNDAY_AND_HOLIDAY)
MAILING = CalendarDays(15, ROLL_PAST_SUNDAY_AND_HOLIDAY)


@dataclass
class _Record:
    """What the case's guards read as its history is replayed."""

    filing_id: str  # the case's id (the machine's refusals name it)
    town: TownProfile
    schedule: FineSchedule
    events: list = field(default_factory=list)
    state: str = START

    @property
    def rules(self) -> FineSchedule:  # the machine names the by-law when it refuses an unknown step
        return self.schedule


@dataclass(frozen=True)
class Ticket:
    position: int
    date: date
    provision: str
    offense_day: date
    offense: int
    fine: int
    label: str
    delivered: str | None
    answered: str | None  # "paid", "contested" or None

    def as_dict(self) -> dict:
        out = dict(vars(self))
        out["date"], out["offense_day"] = self.date.isoformat(), self.offense_day.isoformat()
        return out


@dataclass
class CaseReplay:
    town: str
    id: str
    bylaw: str
    state: str
    clocks: list[ClockResult]
    tickets: list[Ticket]
    filing: str | None = None
    violator: str = ""
    kind: str = "enforcement"

    @property
    def fines(self) -> int:
        """The dollars of every ticket of the case."""
        return sum(t.fine for t in self.tickets)

    def clock(self, clock_id: str) -> ClockResult | None:
        return next((c for c in self.clocks if c.id == clock_id), None)

    def as_dict(self) -> dict:
        return {
            "town": self.town,
            "id": self.id,
            "bylaw": self.bylaw,
            "filing": self.filing,
            "violator": self.violator,
            "state": self.state,
            "fines": self.fines,
            "tickets": [t.as_dict() for t in self.tickets],
            "clocks": [c.as_dict() for c in self.clocks],
        }


def replay_case(case: Case, as_of: date) -> CaseReplay:
    """The case's state, tickets and clocks on ``as_of``.  Raises
    FilingError (MalformedEvent, TransitionRefused) naming the event and the
    rule, or UnknownChoice for a town or by-law with no fine schedule."""
    profile = town(case.town)
    schedule = profile.fine_schedule(case.bylaw)
    rec = _Record(case.id, profile, schedule)
    state = START
    for e in live_events(case):
        rec.state = state
        state = MACHINE.step(state, e, rec)
        rec.events.append(e)
    if state == START:
        raise MalformedEvent("a case's history has at least one event", filing=case.id)
    closed = state in MACHINE.final
    cal = profile.calendar
    clocks = _compliance(rec, as_of) + _tickets(rec, cal, as_of)
    if schedule.costs is not None:
        clocks += _costs(rec, cal, as_of)
    if closed:  # what the case no longer needs is not due
        clocks = [c for c in clocks if c.status not in ("open", "overdue", "waiting")]
    return CaseReplay(case.town, case.id, case.bylaw, state, clocks, _ticket_views(rec), case.filing, case.violator)


def _order(e):
    return (e.date, e.position)


def _first_after(events, types, after, pred=None):
    for e in events:
        if e.type in types and _order(e) > _order(after) and (pred is None or pred(e)):
            return e
    return None


def _deadline(cid, day, met, as_of, rule, text, start=0) -> ClockResult:
    if met is not None:
        status = "met" if met.date <= day else "late"
        text += f"; {met.type} on {met.date} (event {met.position})" + (
            f", {(met.date - day).days} days after the deadline" if status == "late" else ""
        )
    else:
        status = "open" if as_of <= day else "overdue"
    return ClockResult(cid, "deadline", day, status, rule, text, start_position=start)


def _compliance(rec, as_of) -> list[ClockResult]:
    out = []
    rule = rec.schedule.order_rule
    orders = [e for e in rec.events if e.type == "order-issued"]
    for n, order in enumerate(orders):
        nxt = orders[n + 1] if n + 1 < len(orders) else None
        due = order.get("comply_by")
        moved = ""
        for x in rec.events:  # the board's extensions of this Order, until the next one
            if x.type == "order-extended" and (x.date, x.position) > (order.date, order.position):
                if nxt is not None and (x.date, x.position) > (nxt.date, nxt.position):
                    break
                due = x.get("to")
                moved += f"; extended by the board on {x.date} (event {x.position}) to {due}: {x.get('reason')}"
        text = (
            f"the Enforcement Order of {order.date} (event {order.position}) requires compliance by "
            f"{order.get('comply_by')}: " + "; ".join(order.get("requires")) + moved + not_extended(order.date, due)
        )
        met = _first_after(rec.events, ("complied",), order)
        out.append(_deadline("compliance", due, met, as_of, rule, text, order.position))
    return out


def _tickets(rec, cal, as_of) -> list[ClockResult]:
    out = []
    for t in ticket_events(rec.events):
        answer = next(
            (e for e in rec.events if e.type in ("ticket-paid", "ticket-contested") and e.get("ticket") == t.position), None
        )
        if t.get("fine"):  # a warning ($0, a first offense in Manchester-by-the-Sea) calls for no appearance
            r = cal.reckon(APPEARANCE, t.date)
            text = f"{r.describe('ticket issued')}: the violator appears before the clerk, or pays the fine of ${t.get('fine')}"
            out.append(_deadline("ticket-appearance", r.date, answer, as_of, TICKETS, text, t.position))
        if t.get("delivered") == "mailed":
            m = cal.reckon(MAILING, t.get("offense_day"))
            text = f"{m.describe('the offense')}: a ticket not delivered at the time and place of the violation is mailed"
            out.append(_deadline("ticket-mailing", m.date, t, as_of, TICKETS, text, t.position))
    return out


def _ticket_views(rec) -> list[Ticket]:
    out = []
    for t in ticket_events(rec.events):
        answer = next(
            (
                e.type.split("-", 1)[1]
                for e in rec.events
                if e.type in ("ticket-paid", "ticket-contested") and e.get("ticket") == t.position
            ),
            None,
        )
        out.append(
            Ticket(
                t.position,
                t.date,
                t.get("provision"),
                t.get("offense_day"),
                t.get("offense"),
                t.get("fine"),
                rec.schedule.label(t.get("offense")),
                t.get("delivered"),
                answer,
            )
        )
    return out


def _costs(rec, cal, as_of) -> list[ClockResult]:
    costs = rec.schedule.costs
    rule = costs.citation
    events = rec.events
    out = []
    abated = next((e for e in events if e.type == "town-abated"), None)
    if abated is None:
        return out
    r = cal.reckon(CalendarDays(costs.notice_days, ROLL_PAST_SUNDAY_AND_HOLIDAY), abated.date)
    notice = _first_after(events, ("costs-noticed",), abated)
    out.append(
        _deadline(
            "cost-notice",
            r.date,
            notice,
            as_of,
            rule,
            f"{r.describe('the town completed the abatement')}: the violator and the owner notified of the town's costs",
        )
    )
    if notice is None:
        return out
    received = notice.get("received") or notice.date
    p = cal.reckon(CalendarDays(costs.protest_days, ROLL_PAST_SUNDAY_AND_HOLIDAY), received)
    protest = _first_after(events, ("costs-protested",), notice)
    if protest is not None or as_of <= p.date:  # the violator's chance: shown while it is open, or once taken
        out.append(
            _deadline(
                "cost-protest",
                p.date,
                protest,
                as_of,
                rule,
                f"{p.describe('cost notice received')}: a written protest to {costs.protest_to}",
            )
        )
    if protest is None:
        due, how = p.date, f"the end of the protest period, {p.date} (no protest)"
    else:
        decided = _first_after(events, ("costs-decided",), protest)
        if decided is None:
            return out  # the amount waits for the decision on the protest
        d = cal.reckon(CalendarDays(costs.decision_days, ROLL_PAST_SUNDAY_AND_HOLIDAY), decided.date)
        due, how = d.date, d.describe("decision on the protest")
    paid = _first_after(events, ("costs-paid",), notice)
    out.append(_deadline("costs-due", due, paid, as_of, rule, f"the costs are due by {how}"))
    if paid is not None and paid.date <= due:
        return out
    lien_day = due + timedelta(days=1)
    lien = _first_after(events, ("lien-recorded",), notice)
    status = "passed" if (lien is not None or as_of >= lien_day) else "waiting"
    text = f"unpaid when due on {due}, the costs become a special assessment and a lien on the owner's property from {lien_day}"
    if lien is not None:
        text += f"; lien-recorded on {lien.date} (event {lien.position})"
        if lien.date < lien_day:
            status = "premature"
            text += f"; PREMATURE: recorded before {lien_day}, a violation on record ({rule})"
    out.append(ClockResult("costs-lien", "earliest", lien_day, status, rule, text))
    interest = cal.reckon(CalendarDays(costs.interest_after + 1, NO_ROLL), due)
    out.append(
        ClockResult(
            "cost-interest",
            "earliest",
            interest.date,
            "passed" if as_of >= interest.date else "waiting",
            rule,
            f"interest at the statutory rate accrues on unpaid costs after the {costs.interest_after}st day following "
            f"{due}, the day they were due: from {interest.date}",
        )
    )
    return out
