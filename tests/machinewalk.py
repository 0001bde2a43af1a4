"""A walk of every permit machine: from each first event, every event the
filing page would offer (:func:`workflows.offered.offers`) recorded with the
form's stand-ins, each choice that fits tried, day after day, until no new
state or event is met.  What the walk gives:

- :func:`walk`: for each machine, the histories it reached, as filing JSON:
  the first history that reached each state, and the first whose last event
  is each event type;
- :data:`MACHINE_TOWNS`: the machine, the town that runs it and the kind.

The event tests (the menu offers nothing it would refuse; every page and
the command line name the filing's stage alike) go over these histories, so
a machine's new state or event is covered without editing them.  Pure: the
walk replays, nothing is stored."""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache

from workflows.event_fields import EVENT_FIELDS, optional_fields
from workflows.filing import parse_filing
from workflows.machine import START
from workflows.offered import offers, probe_event
from workflows.replay import machine_for, replay
from workflows.towns import town

#: machine name -> (town, kind): every machine of workflows/, run by a town whose rule book picks it
MACHINE_TOWNS = {
    "noi": ("canton", "noi"),
    "rda": ("canton", "rda"),
    "land-disturbance": ("mansfield", "land-disturbance"),
    "street-opening": ("canton", "street-opening"),
    "street-excavation": ("mansfield", "street-opening"),
}
START_DAY = date(2026, 3, 2)
#: how far the walk lets time pass between two events: the next day, a few weeks, past a year
STEPS = (timedelta(days=1), timedelta(days=22), timedelta(days=400))
PARTIES = {
    "address": "40 Washington St",
    "parcel": "12-033",
    "site": {"address": "40 Washington St", "parcel": "12-033"},
    "applicant": {
        "name": "Neponset Builders LLC",
        "email": "ann@example.org",
        "address": {"street": "200 Turnpike St", "city": "Canton", "state": "MA", "zip": "02021"},
    },
    "owner": {"name": "M. Sullivan", "address": {"street": "40 Washington St", "city": "Canton", "state": "MA", "zip": "02021"}},
    "contractor": {"name": "Acme Paving"},
    "project": {"description": "a house within the buffer zone"},
    "authority": {"name": "Conservation Commission", "address": "801 Washington St", "signer": "Pat Rivera"},
    "plans": {"where": "the Conservation Office"},
    "hearing": {"place": "Town Hall, Room 201"},
}


@dataclass(frozen=True)
class Walked:
    """A history the walk reached: its filing JSON (no id yet), its
    machine's state and stage, and the day of its last event."""

    raw: dict
    state: str
    stage: str
    last: date

    @property
    def last_event(self) -> str:
        return self.raw["events"][-1]["type"]


def _optional_bools(kind: str, etype: str) -> list[str]:
    """The yes-or-no fields an event may carry (``complete`` of ``filed``):
    the form offers both, so the walk tries both."""
    return [n for n, k in optional_fields(kind, etype).items() if k == "bool" and n not in EVENT_FIELDS[kind].get(etype, {})]


def _choice_values(kind: str, raw: dict) -> tuple:
    """The values of an event's choices and yes-or-no fields (an
    inspection's stage and result), which lead the machine different ways."""
    table = {**optional_fields(kind, raw["type"]), **EVENT_FIELDS[kind].get(raw["type"], {})}
    return tuple(sorted((n, str(raw[n])) for n, k in table.items() if n in raw and (isinstance(k, tuple) or k == "bool")))


def _first_events(machine) -> list[str]:
    return sorted({t.event for t in machine.transitions if START in t.sources})


def filing_json(town_id: str, kind: str, events: list[dict], fid: str = "WALK-1") -> dict:
    return {"town": town_id, "kind": kind, "id": fid, **PARTIES, "events": events}


def _choices(offer) -> list[dict]:
    """Each combination of the offer's fitting choices (a clock: the first
    two only, the rest are alike)."""
    names = list(offer.choices)
    values = [offer.choices[n][:2] if n == "clock" else offer.choices[n] for n in names]
    return [dict(zip(names, combo)) for combo in itertools.product(*values)] if names else [{}]


@cache
def walk(machine_name: str) -> tuple[Walked, ...]:
    """The histories of ``machine_name`` the walk reached: the first to
    reach each state with each last event (and its choices: an inspection
    of each stage, passed or failed)."""
    town_id, kind = MACHINE_TOWNS[machine_name]
    machine = machine_for(town(town_id).rules(kind))
    calendar = town(town_id).calendar
    kept: dict[tuple[str, str], Walked] = {}
    queue: deque[Walked] = deque()
    for first in _first_events(machine):
        raw = probe_event(kind, first, START_DAY, datetime.combine(START_DAY, time(9, 0)), calendar)
        queue.append(_walked(town_id, kind, [raw], START_DAY))
        for name in _optional_bools(kind, first):
            for value in (True, False):
                queue.append(_walked(town_id, kind, [{**raw, name: value}], START_DAY))
    while queue:
        node = queue.popleft()
        key = (node.state, node.last_event, _choice_values(kind, node.raw["events"][-1]))
        if key in kept:
            continue
        kept[key] = node
        filing = parse_filing(filing_json(town_id, kind, node.raw["events"]))
        for step in STEPS:
            day = node.last + step
            now = datetime.combine(day, time(10, 0))
            clocks = [c.id for c in replay(filing, day).clocks]
            for offer in offers(filing, day, now, clocks):
                for chosen in _choices(offer):
                    raw = probe_event(kind, offer.event, day, now, calendar, chosen)
                    queue.append(_walked(town_id, kind, [*node.raw["events"], raw], day))
                    for name in _optional_bools(kind, offer.event):  # "filed" found incomplete on paper, an emergency
                        for value in (True, False):
                            queue.append(_walked(town_id, kind, [*node.raw["events"], {**raw, name: value}], day))
    out, ids = [], set()
    for node in kept.values():
        if id(node) not in ids:
            ids.add(id(node))
            out.append(node)
    return tuple(out)


def _walked(town_id: str, kind: str, events: list[dict], day: date) -> Walked:
    """The history as the replay takes it: an offered event it refused is
    the offer's fault, and fails the walk."""
    raw = filing_json(town_id, kind, events)
    result = replay(parse_filing(raw), day)
    return Walked({k: v for k, v in raw.items() if k != "id"}, str(result.state), result.stage, day)


def states_of(machine_name: str) -> set[str]:
    town_id, kind = MACHINE_TOWNS[machine_name]
    return {s.value for s in machine_for(town(town_id).rules(kind)).states}


def events_of(machine_name: str) -> set[str]:
    town_id, kind = MACHINE_TOWNS[machine_name]
    return set(machine_for(town(town_id).rules(kind)).events)
