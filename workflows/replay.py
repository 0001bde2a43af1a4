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

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from . import land_disturbance, noi, rda, street_excavation, street_opening
from .before_work import conditions
from .clocks import ClockResult, evaluate_clocks, event_order
from .errors import MalformedEvent
from .filing import PLAIN_HISTORY, VOID, Event, Filing
from .machine import START
from .maintenance import annual_notices
from .record import EVENT_NOTES, Record
from .rulebook import PermitRules
from .running_duties import monthly_reports
from .stage import stage_of_events
from .superseding import settle
from .towns import town
from .unpermitted import without_permit
from .violations import flagged

__all__ = ["MACHINES", "VARIANTS", "machine_for", "ClockResult", "Replay", "replay", "machine_record", "state_trail"]

MACHINES = {
    "noi": noi.MACHINE,
    "rda": rda.MACHINE,
    "land-disturbance": land_disturbance.MACHINE,
    "street-opening": street_opening.MACHINE,
}
#: Machines a town's rule book may pick instead of its kind's own
#: (``PermitRules.machine``): Mansfield's street excavation permit.
VARIANTS = {street_excavation.VARIANT: street_excavation.MACHINE}


def machine_for(rules: PermitRules):
    """The machine a filing under ``rules`` runs on: its kind's, or the
    variant its rule book names."""
    return VARIANTS[rules.machine] if rules.machine else MACHINES[rules.kind]


@dataclass
class Replay:
    town: str
    kind: str
    id: str
    state: str
    clocks: list[ClockResult] = field(default_factory=list)
    #: where the filing stands for people (:mod:`workflows.stage`): the state,
    #: but ``incomplete`` for an online application sent back
    stage: str = ""

    def __post_init__(self):
        if not self.stage:
            self.stage = str(self.state)

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


def live_events(filing: Filing) -> list[Event]:
    if filing.__dict__.get(PLAIN_HISTORY):  # parse_filing saw no voiding and the dates in order
        return list(filing.events)
    in_order, day, position = True, date.min, 0
    for e in filing.events:
        if e.type == VOID:
            break
        if e.date < day or (e.date == day and e.position < position):
            in_order = False
        day, position = e.date, e.position
    else:  # nothing voided; most histories are in date order already
        return list(filing.events) if in_order else sorted(filing.events, key=event_order)
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
    return sorted(live, key=event_order)


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
    """Mark the violations no earliest clock catches (:mod:`.violations`),
    and add the conditions before work (:mod:`.before_work`): a violation
    marks the clock of its id, or is added when the record never started
    it; a condition met or broken with no clock of its own is added."""
    found = [(cid, ctype, day, "violated", rule, text) for cid, ctype, day, rule, text in flagged(rec)]
    for clock_id, ctype, day, status, rule, text in found + conditions(rec) + without_permit(rec):
        mine = next((c for c in clocks if c.id == clock_id), None)
        if mine is None:
            clocks.append(ClockResult(clock_id, ctype, day, status, rule, text))
        elif status == "violated":
            mine.status = "violated"
            mine.explanation += f"; {text}"
            if mine.rule in rule:  # the violation names more law than the clock (the Act beside 310 CMR 10.06)
                mine.rule = rule


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


@dataclass
class _Run:
    """Where the machine leaves a filing: its state, the record its guards
    read, and what the clocks are counted from."""

    state: str
    rec: Record
    machine: object
    rules: PermitRules
    also: list
    by_type: dict


def _run(filing: Filing, trail: list | None = None) -> _Run:
    profile = town(filing.town)
    rules = profile.rules(filing.kind)
    also = [(f"{j}:", town(j).rules(filing.kind)) for j in filing.also] if filing.also else []
    machine = machine_for(rules)
    rec = Record(filing.id, profile, rules, profile.calendar)
    rec.known_clocks = _known_clocks(rules, also)
    rec.also_rules = tuple(also)
    state = START
    unguarded, events, by_type = machine.unguarded, rec.events, {}
    for e in live_events(filing):
        etype = e.type
        target = unguarded.get((state, etype))  # machine.step's answer where it has nothing to ask
        if target is None:
            rec.state = state  # what the guards and conditions read
            target = machine.step(state, e, rec)
        if trail is not None and target != state:
            trail.append((e, state, target))
        state = target
        events.append(e)  # record.note_event(rec, e), inlined; and the index by type
        note = EVENT_NOTES.get(etype)
        if note is not None:
            note(rec, e)
        same = by_type.get(etype)
        if same is None:
            by_type[etype] = [e]
        else:
            same.append(e)
    if state == START:
        raise MalformedEvent("a filing's history has at least one event", filing=filing.id)
    rec.state = state
    return _Run(state, rec, machine, rules, also, by_type)


def state_trail(filing: Filing) -> list[tuple[Event, str, str]]:
    """Each live event that moved the filing's state, with the state it
    left and the one it entered, in order: a permit's status changes (the
    open data's StatusChanges, :mod:`workflows.blds`).  Raises as
    :func:`replay` does."""
    trail: list = []
    _run(filing, trail)
    return [(e, str(getattr(a, "value", a)), str(getattr(b, "value", b))) for e, a, b in trail]


def machine_record(filing: Filing) -> tuple[str, Record, object]:
    """The filing's state, the record its machine's guards and conditions
    read after its last live event, and the machine: what
    :mod:`workflows.offered` asks whether one more event would be refused,
    without counting any clock.  Raises as :func:`replay` does."""
    run = _run(filing)
    return run.state, run.rec, run.machine


def replay(filing: Filing, as_of: date) -> Replay:
    """The filing's state and clocks as of ``as_of``.  Raises FilingError
    (MalformedEvent, TransitionRefused) naming the event, its position and
    the rule, or UnknownChoice for an unknown town or kind."""
    run = _run(filing)
    state, rec, machine, rules, also, by_type, events = (
        run.state,
        run.rec,
        run.machine,
        run.rules,
        run.also,
        run.by_type,
        run.rec.events,
    )
    final = state in machine.final
    clocks = evaluate_clocks(rec, rules, as_of, final, by_type)
    for prefix, other in also:
        clocks += evaluate_clocks(rec, other, as_of, final, by_type, prefix)
    if also:
        _mark_binding(clocks, [p for p, _ in also])
    clocks += annual_notices(rec, as_of, ClockResult) + monthly_reports(rec, as_of, ClockResult)
    _flag(rec, clocks)
    settle(rec, clocks)
    return Replay(filing.town, filing.kind, filing.id, state, clocks, stage_of_events(state, events))
