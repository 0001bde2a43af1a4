"""Replay a filing's history: where it stands and every clock it has
started, with each clock's status as of a given day and why.

    replay(filing, as_of) -> Replay

Events voided by a later ``event-voided`` are left out; the rest are taken
in date order (a correction recorded later but dated earlier falls in its
place).  Each event goes through the kind's machine, whose guards refuse a
history that cannot have happened; then every clock of the town's rule book
whose start is on record is counted on the town's calendar.  Late is a
status, not an error.  Pure: ``as_of`` is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import partial

from . import land_disturbance, noi, rda, street_opening
from .errors import MalformedEvent
from .extension_acts import extend
from .filing import VOID, Event, Filing
from .machine import START
from .record import _NOTES, WINTER_PATCH_LENGTH_FT, Record
from .rulebook import ANCHORS, Clock, PermitRules
from .towns import town
from .violations import flagged, is_premature, premature_text

__all__ = ["MACHINES", "ClockResult", "Replay", "replay"]

MACHINES = {
    "noi": noi.MACHINE,
    "rda": rda.MACHINE,
    "land-disturbance": land_disturbance.MACHINE,
    "street-opening": street_opening.MACHINE,
}

OYSTER_CREEK = (
    "a decision issued after its deadline is without effect and the state's superseding order "
    "controls (Oyster Creek v. Harwich, 449 Mass. 859 (2007))"
)

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


@dataclass
class Replay:
    town: str
    kind: str
    id: str
    state: str
    clocks: list[ClockResult] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "town": self.town,
            "kind": self.kind,
            "id": self.id,
            "state": self.state,
            "clocks": [c.as_dict() for c in self.clocks],
        }

    def clock(self, clock_id: str) -> ClockResult | None:
        return next((c for c in self.clocks if c.id == clock_id), None)

    def pending(self) -> list[ClockResult]:
        """Deadlines not yet met (open or overdue), soonest first."""
        return sorted(
            (c for c in self.clocks if c.type == "deadline" and c.status in ("open", "overdue")), key=lambda c: (c.date, c.id)
        )

    def next_deadline(self) -> ClockResult | None:
        pending = self.pending()
        return pending[0] if pending else None


def _order(e: Event):
    return (e.date, e.position)


def _live_events(filing: Filing) -> list[Event]:
    in_order, day, position = True, date.min, 0
    for e in filing.events:
        if e.type == VOID:
            break
        if e.date < day or (e.date == day and e.position < position):
            in_order = False
        day, position = e.date, e.position
    else:  # nothing voided; most histories are in date order already
        return list(filing.events) if in_order else sorted(filing.events, key=_order)
    voided: set[int] = set()
    by_pos = {e.position: e for e in filing.events}
    for e in filing.events:
        if e.type == VOID:
            target = e.get("voids")
            if target >= e.position:
                raise MalformedEvent(
                    f"event-voided must name an earlier event, not {target}", filing=filing.id, position=e.position, event=e.type
                )
            if by_pos[target].type == VOID:
                raise MalformedEvent(
                    f"event {target} is itself a voiding; record the event again instead",
                    filing=filing.id,
                    position=e.position,
                    event=e.type,
                )
            if target in voided:
                raise MalformedEvent(f"event {target} is already voided", filing=filing.id, position=e.position, event=e.type)
            voided.add(target)
    live = [e for e in filing.events if e.type != VOID and e.position not in voided]
    return sorted(live, key=_order)


def _met(clock: Clock, start: Event, backward: bool, by_type: dict[str, list[Event]]) -> Event | None:
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
                if patch is None or _order(e) < _order(patch):
                    firsts["permanent-patch-placed"] = e
                break
    if not firsts:
        return None
    if clock.met_when == "all":
        if set(clock.met_by) - set(firsts):
            return None
        return max(firsts.values(), key=_order)
    if len(firsts) == 1:
        for e in firsts.values():
            return e
    return min(firsts.values(), key=_order)


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
        first_expiry = clock_date(rec, rec.rules.clock("permit-expiry"), rec.issued.date)
        return [(extend(rec.rules.kind, rec.issued.date, first_expiry, rec.acts_declined)[0], rec.issued)]
    starts = rec.anchors.get(clock.start, [])
    if clock.id == "permit-expiry":
        return starts[:1]
    return starts


#: Date rules counted forward in hours: a start recorded by its date alone
#: counts from the end of that day (docs/readings.md).
_HOURS_FORWARD = ("BUSINESS_HOURS_FORWARD", "HOURS_FORWARD")


def clock_date(rec: Record, clock: Clock, start) -> date:
    return rec.calendar.when(clock.measure, start)[0]


#: What :func:`_evaluate` asks of one clock, read once per rule book (a
#: tuple, unpacked in the loop): the clock, its id, type, start anchor,
#: measure, met_by and citation; whether its starts are the anchor's as
#: recorded (see _starts); whether its count comes from the start event
#: (max_count); whether a date alone counts from the end of that day (an
#: hour clock); whether renewals and the Extension Acts move it
#: (permit-expiry); whether one event type alone meets it, so that the
#: first of that type after the start is the event (see _met); and whether
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


def _evaluate(
    rec: Record, rules: PermitRules, as_of: date, final: bool, by_type: dict[str, list[Event]], prefix: str = ""
) -> list[ClockResult]:
    out: list[ClockResult] = []
    calendar, extensions, anchors = rec.calendar, rec.extensions, rec.anchors
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
                met = _met(clock, start_event, backward, by_type)
            status = _status(ctype, day, met, as_of, bool(met_by), at)
            if met is not None and ctype == "earliest" and is_premature(met, day, at) and not _all_boards_reported(rec, met):
                status = "premature"
            if cid == "winter-patch" and rec.length_ft is None and status in PENDING:
                status = "unknown"
            missed_on = None
            if start == "hearing-date" and met_by and status in PENDING and rec.hearing_opened:
                status, missed_on = "missed", rec.hearing_opened_on  # a notice can no longer be given for it
            if clock.optional and status == "overdue":
                continue  # an optional act whose day has passed: nothing is due any more
            if final and met_by and ctype != "expiry" and status in _PENDING_OR_UNKNOWN:
                continue  # the filing has ended: what it no longer needs is not due
                # (a period no act meets, such as the appeal period, still runs)
            explain = partial(
                _explain,
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
            )
            result = _new(ClockResult)
            result.__dict__.update(
                id=prefix + cid,
                type=ctype,
                date=day,
                status=status,
                rule=citation,
                _explanation=explain,
                at=at,
                binding=None,
                start_position=start_event.position,
            )
            out.append(result)
    return out


_new = object.__new__


def _explain(
    clock: Clock,
    rules: PermitRules,
    question,
    renewed,
    ext,
    met,
    status: str,
    day: date,
    as_of: date,
    at=None,
    dated_start=None,
    acts: str = "",
    missed_on=None,
) -> str:
    """How the clock's day was reached and what met it, built only when read.
    ``question`` is (calendar, date rule, start, count) as the replay asked
    it (the calendar's account of it is made now); ``renewed`` is (renewals, the day they reach) or None; ``dated_start`` the
    start event of an hour clock recorded by its date alone; ``acts`` what
    the Permit Extension Acts did to an expiry; ``missed_on`` the day the
    hearing opened without this notice."""
    calendar, measure, start, count = question  # what was asked of the calendar: its account now
    r = calendar.reckon(measure, start, count)
    text = r.describe(ANCHORS[clock.start])
    if dated_start is not None:
        text += f"; {dated_start.type} recorded without a time: counted from the end of {dated_start.date}"
    if r.rolled and r.roll == "forward":
        text += " (a wetlands period: moved under 310 CMR 10.05(1))"
    if renewed is not None:
        count, to = renewed
        text += f"; renewed {count} time(s), {rules.renewal.summary()} each, to {to} ({rules.renewal_citation})"
    text += acts
    if ext is not None:
        text += f"; extended in writing on {ext.date} to {day} (event {ext.position})"
    if met is not None:
        text += f"; {met.type} on {met.date} (event {met.position})"
        if met.get("voted") is not None and met.get("voted") != met.date:
            text += f", voted {met.get('voted')}: judged on the day it issued, not the vote"
        if status == "late" and met.date == day:
            text += f", at {met.at.isoformat(timespec='minutes')}, after the deadline"
        elif status == "late":
            text += f", {(met.date - day).days} days after the deadline"
            if clock.id == "decision" and rules.kind in ("noi", "rda"):
                text += f": {OYSTER_CREEK}"
        if status == "premature":
            text += premature_text(clock, met, day, at)
    elif clock.type == "deadline" and not clock.met_by and as_of > day:
        text += "; the period has run"
    if status == "unknown":
        text += (
            f"; the filing gives no length (length_ft on the filed event): whether the work is over "
            f"{WINTER_PATCH_LENGTH_FT} ft, and so needs a Winter Preparation Patch, is unknown ({clock.citation})"
        )
    if missed_on is not None:
        text += f"; the hearing opened on {missed_on} with this not on record: no longer a task ({clock.citation})"
    return text


def _all_boards_reported(rec: Record, before: Event) -> bool:
    """Mansfield 25 §7.E: the hearing may open before day 41 once every
    board has reported (the board-reports clock's other way to pass)."""
    if rec.rules.kind != "land-disturbance":
        return False
    reported = {e.get("board").strip().lower() for e in rec.events if e.type == "board-reported" and _order(e) < _order(before)}
    return land_disturbance.REVIEWING_BOARDS <= reported


def _status(kind: str, day: date, met: Event | None, as_of: date, has_met_by: bool, at: datetime | None = None) -> str:
    if kind == "deadline":
        if met is not None:
            if at is not None and met.at is not None:  # an hour clock met at a known time
                return "met" if met.at <= at else "late"
            return "met" if met.date <= day else "late"
        if not has_met_by:
            return "open" if as_of <= day else "met"
        return "open" if as_of <= day else "overdue"
    if kind == "earliest":
        return "passed" if met is not None or as_of >= day else "waiting"
    return "active" if as_of <= day else "expired"


def _mark_binding(clocks: list[ClockResult], prefixes: Iterable[str]) -> None:
    if not prefixes:
        return
    own = {c.id: c for c in clocks if ":" not in c.id and c.type == "deadline"}
    for p in prefixes:
        for c in clocks:
            if c.id.startswith(p) and c.type == "deadline":
                mine = own.get(c.id[len(p) :])
                if mine is None:
                    continue
                mine.binding = mine.date <= c.date
                c.binding = c.date <= mine.date


def _flag(rec: Record, clocks: list[ClockResult]) -> None:
    """Mark the violations no earliest clock catches (:mod:`.violations`)."""
    for clock_id, ctype, day, rule, text in flagged(rec):
        mine = next((c for c in clocks if c.id == clock_id), None)
        if mine is None:
            clocks.append(ClockResult(clock_id, ctype, day, "violated", rule, text))
        else:
            mine.status = "violated"
            mine.explanation += f"; {text}"


_KNOWN: dict[tuple, tuple] = {}


def _known_clocks(rules: PermitRules, also: list[tuple[str, PermitRules]]) -> frozenset:
    """The clock ids a filing under ``rules`` (and ``also``) may name, made
    once per combination of rule books (the rule books are kept in the
    value, so their ids cannot be reused while the entry stands)."""
    key = (id(rules), *((p, id(r)) for p, r in also)) if also else id(rules)
    hit = _KNOWN.get(key)
    if hit is None:
        ids = frozenset([c.id for c in rules.clocks] + [p + c.id for p, r in also for c in r.clocks])
        hit = _KNOWN[key] = (ids, rules, also)
    return hit[0]


def replay(filing: Filing, as_of: date) -> Replay:
    """The filing's state and clocks as of ``as_of``.  Raises FilingError
    (MalformedEvent, TransitionRefused) naming the event, its position and
    the rule, or UnknownChoice for an unknown town or kind."""
    profile = town(filing.town)
    rules = profile.rules(filing.kind)
    also = [(f"{j}:", town(j).rules(filing.kind)) for j in filing.also] if filing.also else []
    machine = MACHINES[filing.kind]
    rec = Record(filing.id, profile, rules, profile.calendar)
    rec.known_clocks = _known_clocks(rules, also)
    state = START
    unguarded, events, by_type = machine.unguarded, rec.events, {}
    for e in _live_events(filing):
        rec.state = state
        etype = e.type
        target = unguarded.get((state, etype))  # machine.step's answer where it has nothing to ask
        state = target if target is not None else machine.step(state, e, rec)
        events.append(e)  # record.note_event(rec, e), inlined; and the index by type
        note = _NOTES.get(etype)
        if note is not None:
            note(rec, e)
        same = by_type.get(etype)
        if same is None:
            by_type[etype] = [e]
        else:
            same.append(e)
    if state == START:
        raise MalformedEvent("a filing's history has at least one event", filing=filing.id)
    final = state in machine.final
    clocks = _evaluate(rec, rules, as_of, final, by_type)
    for prefix, other in also:
        clocks += _evaluate(rec, other, as_of, final, by_type, prefix)
    _mark_binding(clocks, [p for p, _ in also])
    _flag(rec, clocks)
    return Replay(filing.town, filing.kind, filing.id, state, clocks)
