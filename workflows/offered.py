"""Which events fit a filing now: the filing page's menu of events offers
only those the machine would accept if recorded today, and for each the
values of its choices that fit (the stages an inspection may be of now, the
clocks an extension may name).

Each candidate is tried as the recording would try it: the event, dated
today, with the form's defaults (today's date, the time now) and, for what
a person types, a plain stand-in that meets the field's own rules
(:data:`STAND_INS`: a hearing continued to a later day, a suspension of one
day), is stepped through the machine from where the filing's history
leaves it (:func:`workflows.replay.machine_record`), its guards asked.  An
event the guards refuse whatever is typed (an Order of Conditions before
the hearing closes, a renewal after the permit expired) is not offered;
one refused only for what is typed (a continuance to a day before the
session) is offered, and the form names the fault.

Not in the menu: the events with a form of their own (a void, a payment
against the fee) and the applicant's own online submission.

Pure: the day and the moment are passed in.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from .errors import FilingError
from .event_fields import EVENT_FIELDS, VOID
from .filing import Filing, parse_event

__all__ = ["Offer", "NOT_IN_THE_MENU", "STAND_INS", "offers", "probe_event", "stand_in"]

#: events recorded by a form of their own, or only by the applicant online
NOT_IN_THE_MENU = frozenset({VOID, "payment-received", "submitted"})

#: What a person would type in a required field the form leaves blank, as
#: the probe types it: plain values that meet each field's own rules (the
#: by-laws' limits on a suspension, a file number's shape).  Dates are
#: counted from the day of the event: ``to`` a week later, and so on.
STAND_INS: Mapping[str, Any] = {
    "to": timedelta(days=7),  # a continuance to a later day (Canton 15-5)
    "hearing": timedelta(days=14),
    "start": timedelta(days=7),
    "comply_by": timedelta(days=30),
    "days": 1,  # a suspension of 1 to 21 days (Canton 16-12 §12); an emergency certification of at most 30
    "hours": 1,
    "length_ft": 10,
    "number": "SE 073-1234",  # WPA Form 5, Section A
    "ticket": "20261234567",
    "board": "the Board of Health",
    "requested_by": "the permit holder",
    "work": "the work certified",
    "what": "the work seen",
    "reason": "as the record shows",
    "reasons": "as the record shows",
    "amount": "0.00",
}

#: the kinds of field a probe tries each value of
_CHOICE_KINDS = ("bool", "clock")


@dataclass(frozen=True)
class Offer:
    """An event that fits the filing now, and for each of its required
    choices (a choice, a yes or no, a clock) the values that fit."""

    event: str
    choices: Mapping[str, tuple] = field(default_factory=dict)


def _business_day_from(day: date, calendar) -> date:
    while calendar.closed_reason(day) is not None:
        day += timedelta(days=1)
    return day


def stand_in(name: str, kind_of_field, day: date, now: datetime, calendar=None):
    """The JSON value the probe gives a required field ``name`` of an event
    dated ``day`` that the form leaves blank (a choice: None, the caller
    tries each)."""
    if isinstance(kind_of_field, tuple) or kind_of_field in _CHOICE_KINDS:
        return None
    if kind_of_field == "moment":
        return now.isoformat(timespec="minutes")
    if kind_of_field in ("date", "day-or-moment"):
        if name == "date":
            return day.isoformat()
        if name == "preferred":  # a business day, on or after the day it is asked (Canton 16-12 §2, §10.2)
            return _business_day_from(day + timedelta(days=1), calendar).isoformat() if calendar else day.isoformat()
        offset = STAND_INS.get(name)
        return (day + offset).isoformat() if isinstance(offset, timedelta) else day.isoformat()
    if kind_of_field == "lines":
        return [str(STAND_INS.get(name, "as the record shows"))]
    if kind_of_field in ("int", "position"):
        value = STAND_INS.get(name, 1)
        return value if isinstance(value, int) else 1
    return str(STAND_INS.get(name, "as the record shows"))


def _required(kind: str, etype: str) -> Mapping[str, Any]:
    return EVENT_FIELDS[kind].get(etype) or {}


def _values_of(kind_of_field, clock_ids: Iterable[str]) -> tuple:
    if isinstance(kind_of_field, tuple):
        return kind_of_field
    if kind_of_field == "bool":
        return (True, False)
    return tuple(clock_ids)


def probe_event(kind: str, etype: str, day: date, now: datetime, calendar=None, choices: Mapping[str, Any] | None = None):
    """The raw event the probe tries: every required field given, the
    choices as ``choices`` names them."""
    raw: dict[str, Any] = {"type": etype}
    for name, kind_of_field in _required(kind, etype).items():
        if choices and name in choices:
            raw[name] = choices[name]
        else:
            value = stand_in(name, kind_of_field, day, now, calendar)
            if value is not None:
                raw[name] = value
    if etype == "notice-posted" and "at" not in raw:  # dated by its date, as the form allows
        raw.setdefault("date", day.isoformat())
    return raw


def offers(filing: Filing, as_of: date, now: datetime, clock_ids: Iterable[str] = ()) -> list[Offer]:
    """The events that fit ``filing`` if recorded on ``as_of`` (at ``now``,
    the town's wall time), in the machine's order, each with the values of
    its required choices that fit.  ``clock_ids``: the clocks the filing has
    started, which an extension may name."""
    from .replay import machine_record
    from .towns import town

    state, rec, machine = machine_record(filing)
    calendar = town(filing.town).calendar
    when = now if now.date() == as_of else datetime.combine(as_of, now.time())
    clocks = tuple(clock_ids)
    out = []
    for etype in machine.allowed(state):
        if etype in NOT_IN_THE_MENU:
            continue
        required = _required(filing.kind, etype)
        if not required and etype not in EVENT_FIELDS[filing.kind]:
            continue
        choice_fields = {n: _values_of(k, clocks) for n, k in required.items() if isinstance(k, tuple) or k in _CHOICE_KINDS}
        fitting: dict[str, list] = {n: [] for n in choice_fields}
        combos = itertools.product(*choice_fields.values()) if choice_fields else [()]
        fits = False
        for combo in combos:
            chosen = dict(zip(choice_fields, combo))
            if chosen and all(chosen[n] in fitting[n] for n in chosen):
                continue  # every value of this combination already fits with another
            raw = probe_event(filing.kind, etype, as_of, when, calendar, chosen)
            if _accepted(filing, raw, state, rec, machine):
                fits = True
                for n, v in chosen.items():
                    if v not in fitting[n]:
                        fitting[n].append(v)
        if fits:
            out.append(Offer(etype, {n: tuple(v for v in values if v in fitting[n]) for n, values in choice_fields.items()}))
    return out


def _accepted(filing: Filing, raw: Mapping[str, Any], state: str, rec, machine) -> bool:
    """Whether the machine takes ``raw`` as the filing's next event."""
    try:
        event = parse_event(filing.kind, len(filing.events) + 1, raw, filing.id, filing.events)
        machine.step(state, event, rec)
    except FilingError:
        return False
    return True
