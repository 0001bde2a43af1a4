"""Each clock of a rule book counted for one filing's record: the day it
falls on, what met it, and its status as of a given day.

    evaluate_clocks(record, rules, as_of, final, by_type) -> [ClockResult, ...]

A clock's day comes from the town's calendar (``BusinessCalendar.when``,
the day alone); its account, the explanation, is built only when read
(:mod:`workflows.explain`).  Used by :mod:`workflows.replay`.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import partial

from . import land_disturbance
from .certificates import CLOSED, closes
from .explain import explain_clock
from .extension_acts import extend
from .filing import Event
from .record import WINTER_PATCH_LENGTH_FT, Record
from .rulebook import Clock, PermitRules
from .violations import is_premature

__all__ = ["ClockResult", "PENDING"]

PENDING = ("open", "overdue", "waiting")


class _Explanation:
    """A ClockResult's ``explanation``: the text, or a function that builds
    it, called on first read and its answer kept.  Most replays (the sweep,
    the docket) never read it, and building it was a third of a replay."""

    def __set_name__(self, owner, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, obj, objtype=None) -> str:
        if obj is None:
            return ""  # the dataclass field's default
        value = obj.__dict__[self.slot]
        if not isinstance(value, str):
            value = obj.__dict__[self.slot] = value()
        return value

    def __set__(self, obj, value: str | Callable[[], str]) -> None:
        obj.__dict__[self.slot] = value


@dataclass
class ClockResult:
    id: str
    type: str
    date: date
    status: str
    rule: str
    explanation: str = _Explanation()  # type: ignore[assignment]  # text, or a function building it
    at: datetime | None = None
    binding: bool | None = None
    start_position: int = 0

    def as_dict(self) -> dict:
        out = {
            "id": self.id,
            "type": self.type,
            "date": self.date.isoformat(),
            "status": self.status,
            "rule": self.rule,
            "explanation": self.explanation,
        }
        if self.at is not None:
            out["at"] = self.at.isoformat(timespec="minutes")
        if self.binding is not None:
            out["binding"] = self.binding
        return out


def event_order(e: Event):
    return (e.date, e.position)


def met_event(clock: Clock, start: Event, backward: bool, by_type: dict[str, list[Event]]) -> Event | None:
    """The event that meets ``clock`` started by ``start``: the first of
    ``met_by`` after the start (any time, for a clock counted backward);
    with ``met_when == "all"`` the last of the first of each.  ``by_type``:
    the live events of each type, in date order (made in :func:`replay`)."""
    met_by = clock.met_by
    if clock.id == "emergency-notice":
        after = None  # "prior to commencement of work or within 24 hours after": a notice before the work counts
    elif not backward or start.type == "permit-renewed":
        after = (start.date, start.position)  # (after a renewal, only a request for the next one meets the clock)
    else:
        after = None
    firsts: dict[str, Event] = {}
    for t in met_by:
        if t not in firsts:
            for e in by_type.get(t, ()):
                if after is None or (e.date, e.position) > after:
                    firsts[t] = e
                    break
    if "permanent-patch-placed" in met_by:  # a granted certification: the temporary patch now counts as permanent
        for e in by_type.get("certification-answered", ()):
            if (after is None or (e.date, e.position) > after) and e.get("granted"):
                patch = firsts.get("permanent-patch-placed")
                if patch is None or event_order(e) < event_order(patch):
                    firsts["permanent-patch-placed"] = e
                break
    if not firsts:
        return None
    if clock.met_when == "all":
        if set(clock.met_by) - set(firsts):
            return None
        return max(firsts.values(), key=event_order)
    if len(firsts) == 1:
        for e in firsts.values():
            return e
    return min(firsts.values(), key=event_order)


def _starts(clock: Clock, rec: Record) -> list[tuple[object, Event]]:
    if clock.id == "winter-patch" and rec.length_ft is not None and not rec.length_ft > WINTER_PATCH_LENGTH_FT:
        return []  # no length on record: counted, and shown as unknown (below)
    if clock.id.startswith("permanent-patch-window") and rec.cdf:
        return []  # Canton 16-12 §11.4: the window is "except when installed over Controlled Density Fill"
    if clock.start == "expiry":
        if rec.issued is None:
            return []
        allowed = rec.rules.renewals_allowed
        if rec.renewed is not None and (allowed is None or rec.renewals < allowed):
            # another extension may be asked (310 CMR 10.05(8)(a)): count back from the current expiry
            return [(rec.expiry(), rec.renewed)]
        first_expiry = rec.calendar.when(rec.term or rec.rules.clock("permit-expiry").measure, rec.issued.date)[0]
        return [(extend(rec.rules.kind, rec.issued.date, first_expiry, rec.acts_declined)[0], rec.issued)]
    starts = rec.anchors.get(clock.start, [])
    if clock.id == "permit-expiry":
        return starts[:1]
    return starts


#: Date rules counted forward in hours: a start recorded by its date alone
#: counts from the end of that day (docs/reference/readings.md).
_HOURS_FORWARD = ("BUSINESS_HOURS_FORWARD", "HOURS_FORWARD")


def clock_date(rec: Record, clock: Clock, start) -> date:
    return rec.calendar.when(clock.measure, start)[0]


#: What :func:`evaluate_clocks` asks of one clock, read once per rule book (a
#: tuple, unpacked in the loop): the clock, its id, type, start anchor,
#: measure, met_by and citation; whether its starts are the anchor's as
#: recorded (see _starts); whether its count comes from the start event
#: (max_count); whether a date alone counts from the end of that day (an
#: hour clock); whether renewals and the Extension Acts move it
#: (permit-expiry); whether one event type alone meets it, so that the
#: first of that type after the start is the event (see met_event); and whether
#: it counts back (its Reckoning's direction is "before").
_PLANS: dict[int, tuple[PermitRules, tuple[tuple, ...]]] = {}
_SPECIAL_STARTS = ("winter-patch", "permit-expiry")


def _plans(rules: PermitRules) -> tuple[tuple, ...]:
    """The plans of ``rules``' clocks, made once per rule book (kept with
    the rule book, so its id cannot be reused while the entry stands)."""
    hit = _PLANS.get(id(rules))
    if hit is None:
        plans = tuple(
            (
                c,
                c.id,
                c.type,
                c.start,
                c.measure,
                c.met_by,
                c.citation,
                c.id not in _SPECIAL_STARTS and not c.id.startswith("permanent-patch-window") and c.start != "expiry",
                c.max_count is not None,
                c.measure.name in _HOURS_FORWARD,
                c.id == "permit-expiry",
                len(c.met_by) == 1 and c.id != "emergency-notice" and c.met_by[0] != "permanent-patch-placed",
                c.measure.direction == "before",
            )
            for c in rules.clocks
        )
        hit = _PLANS[id(rules)] = (rules, plans)
    return hit[1]


_PENDING_OR_UNKNOWN = (*PENDING, "unknown")


def evaluate_clocks(
    rec: Record, rules: PermitRules, as_of: date, final: bool, by_type: dict[str, list[Event]], prefix: str = ""
) -> list[ClockResult]:
    out: list[ClockResult] = []
    calendar, extensions, anchors = rec.calendar, rec.extensions, rec.anchors
    certified = rec.certified  # a complete Certificate closes what was still to come (workflows/certificates.py)
    when = calendar.when  # the day alone: the account (a Reckoning) is made when an explanation is read
    for clock, cid, ctype, start, measure, met_by, citation, plain, counted, hours, expiry, single, backward in _plans(rules):
        starts = anchors.get(start) if plain else _starts(clock, rec)
        if not starts:
            continue
        for value, start_event in starts:
            count = start_event.get("days") if counted else None
            end_of_day = False
            if hours and isinstance(value, date) and not isinstance(value, datetime):
                value, end_of_day = datetime.combine(value + timedelta(days=1), time.min), True
            day, at = when(measure, value, count)
            renewed = None
            acts = ""
            if expiry:
                if rec.term is not None and not prefix:  # a longer term the by-law allows (maintenance)
                    day, at = when(rec.term, value)
                if rec.renewals and rules.renewal is not None:
                    for _ in range(rec.renewals):
                        day = when(rules.renewal, day)[0]
                    renewed = (rec.renewals, day)
                if rec.issued is not None:
                    day, acts = extend(rules.kind, rec.issued.date, day, rec.acts_declined)
            ext = extensions.get(prefix + cid) if extensions else None
            if ext is not None:  # a waiver may be signed before its clock starts
                day, at = ext.get("to"), None
            if not met_by:
                met = None
            elif single:  # the first event of the one type after the start (any time, for a clock counted back)
                met = None
                candidates = by_type.get(met_by[0])
                if candidates:
                    if backward and start_event.type != "permit-renewed":
                        met = candidates[0]
                    else:
                        after = (start_event.date, start_event.position)
                        for e in candidates:
                            if (e.date, e.position) > after:
                                met = e
                                break
            else:
                met = met_event(clock, start_event, backward, by_type)
            if ctype == "deadline":  # the status as of ``as_of`` (inlined: one call fewer per clock)
                if met is not None:
                    if at is not None and met.at is not None:  # an hour clock met at a known time
                        status = "met" if met.at <= at else "late"
                    else:
                        status = "met" if met.date <= day or clock.open_ended else "late"
                elif not met_by:
                    status = "open" if as_of <= day else "met"
                else:
                    status = "open" if as_of <= day else "overdue"
            elif ctype == "earliest":
                status = "passed" if met is not None or as_of >= day else "waiting"
            else:
                status = "active" if as_of <= day else "expired"
            if met is not None and ctype == "earliest" and is_premature(met, day, at) and not _all_boards_reported(rec, met):
                status = "premature"
            if cid == "winter-patch" and rec.length_ft is None and status in PENDING:
                status = "unknown"
            missed_on = None
            if start == "hearing-date" and met_by and status in PENDING and rec.hearing_opened:
                status, missed_on = "missed", rec.hearing_opened_on  # a notice can no longer be given for it
            closed_by = None
            if certified is not None and closes(certified, ctype, status):
                status, closed_by = CLOSED, certified  # no longer due: the Certificate ended the permit
            if clock.optional and status == "overdue":
                continue  # an optional act whose day has passed: nothing is due any more
            if final and met_by and ctype != "expiry" and status in _PENDING_OR_UNKNOWN:
                continue  # the filing has ended: what it no longer needs is not due
                # (a period no act meets, such as the appeal period, still runs)
            explain = partial(
                explain_clock,
                clock,
                rules,
                (calendar, measure, value, count),
                renewed,
                ext,
                met,
                status,
                day,
                as_of,
                at,
                start_event if end_of_day else None,
                acts,
                missed_on,
                closed_by,
                rec.partial_certificates,
            )
            result = _new(ClockResult)  # ClockResult(...) without its __init__ and the explanation's descriptor
            result.__dict__ = {
                "id": prefix + cid,
                "type": ctype,
                "date": day,
                "status": status,
                "rule": citation,
                "_explanation": explain,
                "at": at,
                "binding": None,
                "start_position": start_event.position,
            }
            out.append(result)
    return out


_new = object.__new__


def _all_boards_reported(rec: Record, before: Event) -> bool:
    """Mansfield 25 §7.E: the hearing may open before day 41 once every
    board has reported (the board-reports clock's other way to pass)."""
    if rec.rules.kind != "land-disturbance":
        return False
    reported = {
        e.get("board").strip().lower() for e in rec.events if e.type == "board-reported" and event_order(e) < event_order(before)
    }
    return land_disturbance.REVIEWING_BOARDS <= reported
