"""A filing is its history: the JSON form of docs/reference/filing-format.md.

:func:`parse_filing` turns the JSON object into a :class:`Filing` of
:class:`Event` values, checking every event's type and required fields;
unknown fields are kept (and written back by :meth:`Filing.to_json`) and
ignored.  The vocabulary it reads against is :mod:`workflows.event_fields`.
Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence  # isinstance against typing.Mapping is several times slower
from dataclasses import dataclass, field
from datetime import date, datetime
from types import MappingProxyType
from typing import Any

from .errors import MalformedEvent, UnknownChoice
from .event_fields import DATE_OR_AT, EVENT_FIELDS, MAX_LINES, VOID, optional_fields
from .ids import check_filing_id
from .inputs import check_values, is_clean
from .rulebook import CLOCK_TYPES, KINDS

__all__ = ["Event", "Filing", "parse_filing", "EVENT_FIELDS", "VOID"]

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # YYYY-MM-DD only: no week dates, no compact form
#: the years a filing's dates may fall in (the calendar serves these; a year
#: 9999 would overflow the first deadline counted from it)
FIRST_YEAR, LAST_YEAR = 2000, 2100


@dataclass(frozen=True)
class Event:
    """One dated event.  ``position`` is 1-based in the filing's history.
    ``date`` is always set (for an event given by ``at``, that moment's
    date); ``fields`` holds every other field, parsed."""

    position: int
    type: str
    date: date
    at: datetime | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def get(self, name: str, default=None):
        return self.fields.get(name, default)

    def to_json(self) -> dict:
        return dict(self.raw)


@dataclass(frozen=True)
class Filing:
    town: str
    kind: str
    id: str
    events: tuple[Event, ...]
    also: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict:
        out = {"town": self.town, "kind": self.kind, "id": self.id}
        if self.also:
            out["also"] = list(self.also)
        out.update({k: v for k, v in self.extra.items()})
        out["events"] = [e.to_json() for e in self.events]
        return out

    def with_event(self, raw_event: Mapping[str, Any]) -> Filing:
        """This filing with one more event at the end (checked for form)."""
        check_values(raw_event, filing=self.id)
        event = parse_event(self.kind, len(self.events) + 1, raw_event, self.id, self.events)
        return Filing(self.town, self.kind, self.id, self.events + (event,), self.also, self.extra)


def _bad(filing_id, position, etype, message) -> MalformedEvent:
    return MalformedEvent(message, filing=filing_id, position=position, event=etype)


def _convert(kind_of_field, value, name, filing_id, position, etype, earlier):
    if isinstance(kind_of_field, tuple):
        if value not in kind_of_field:
            raise _bad(filing_id, position, etype, f"field {name!r} is {value!r}; expected one of: {', '.join(kind_of_field)}")
        return value
    if kind_of_field == "date":
        try:
            day = date.fromisoformat(value) if isinstance(value, str) and _ISO_DAY.fullmatch(value) else _raise()
        except (ValueError, TypeError):
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not a date (YYYY-MM-DD)") from None
        _in_range(day.year, name, value, filing_id, position, etype)
        if len(_DAYS) >= _DAYS_KEPT:  # only days in range are remembered, so a hit needs no check
            _DAYS.clear()
        _DAYS[value] = day
        return day
    if kind_of_field == "day-or-moment":
        if isinstance(value, str) and "T" in value:
            return _convert("moment", value, name, filing_id, position, etype, earlier)
        return _convert("date", value, name, filing_id, position, etype, earlier)
    if kind_of_field == "moment":
        try:
            if not isinstance(value, str) or "T" not in value:
                _raise()
            moment = datetime.fromisoformat(value)
            if moment.tzinfo is not None:  # the town's local time, no offset (docs/reference/filing-format.md)
                _raise()
        except (ValueError, TypeError):
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not a time (YYYY-MM-DDTHH:MM)") from None
        _in_range(moment.year, name, value, filing_id, position, etype)
        return moment
    if kind_of_field == "bool":
        if not isinstance(value, bool):
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not true or false")
        return value
    if kind_of_field == "int":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not a whole number >= 0")
        return value
    if kind_of_field == "str":
        if not isinstance(value, str) or not value.strip():
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not a non-empty string")
        return value
    if kind_of_field == "lines":
        return _lines(value, name, filing_id, position, etype)
    if kind_of_field == "clock":
        if not isinstance(value, str) or value.split(":", 1)[-1] not in CLOCK_TYPES:
            raise _bad(filing_id, position, etype, f"field {name!r}: unknown clock {value!r}")
        return value
    if kind_of_field == "position":
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= len(earlier):
            raise _bad(
                filing_id,
                position,
                etype,
                f"field {name!r}: {value!r} is not the position of an earlier event (1-{len(earlier)})",
            )
        return value
    raise AssertionError(kind_of_field)  # pragma: no cover - declarations above


def _lines(value, name, filing_id, position, etype) -> tuple[str, ...]:
    """A "lines" field: a list of 1 to MAX_LINES non-empty strings (a
    permit's conditions, one each); the first thing wrong is named."""
    if not isinstance(value, list) or not value:
        problem = "is empty" if isinstance(value, list) else f"is {value!r:.60}, not a list"
        raise _bad(filing_id, position, etype, f"field {name!r} {problem}: give a list of strings, one condition each")
    if len(value) > MAX_LINES:
        raise _bad(filing_id, position, etype, f"field {name!r} has {len(value):,} items; the limit is {MAX_LINES}")
    for i, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            raise _bad(filing_id, position, etype, f"field {name!r}: item {i} ({item!r:.60}) is not a non-empty string")
    return tuple(value)


def _raise():
    raise ValueError


def _in_range(year, name, value, filing_id, position, etype) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is outside the years {FIRST_YEAR}-{LAST_YEAR}")


def _spec(kind: str, etype: str) -> tuple:
    """(required, optional) (name, kind of field) pairs of one event type,
    every field name it may carry, which of ``hearing`` and ``to`` it has
    (each may not be before the event's date) and whether it may carry
    ``voted``."""
    required = EVENT_FIELDS[kind][etype]
    optional = optional_fields(kind, etype)
    allowed = frozenset(required) | frozenset(optional) | {"type", "date", "at"} | _LENIENT.get(etype, set())
    ahead = tuple(n for n in ("hearing", "to") if n in required or n in optional)
    dated_only = tuple(required.items()) == (("date", "date"),)
    spec = (tuple(required.items()), tuple(optional.items()), allowed, ahead, "voted" in optional, dated_only)
    _SPECS[(kind, etype)] = spec
    return spec


_SPECS: dict[tuple[str, str], tuple] = {}
_AT_INSTEAD_OF_DATE = (("at", "moment"),)  # an event given by its moment (DATE_OR_AT)
_DAYS: dict[str, date] = {}  # "YYYY-MM-DD" -> date, the days already read (a filing repeats its days)
_DAYS_KEPT = 50_000
#: field kinds whose accepted values may still be strings check_values refuses
#: (a NUL, a lone surrogate, too long); a date, a choice, a number cannot be
_UNPROVEN = frozenset(("str", "clock", "moment", "day-or-moment", "lines"))
_SCALARS = (int, bool, type(None))


class _Unproven(Exception):
    """The parser cannot vouch that check_values would pass (internal)."""


def parse_event(kind: str, position: int, raw: Mapping[str, Any], filing_id: str | None, earlier: Sequence[Event] = ()) -> Event:
    """One event, checked for form.  ``raw`` is kept as given (not copied:
    the filing owns its JSON; :meth:`Event.to_json` returns a copy)."""
    return _event(kind, position, raw, filing_id, earlier, False)


def vouched_events(kind: str, raw_events: list, record_id: str) -> list[Event] | None:
    """The events of a record kept as a filing is (an enforcement case),
    each seeing those before it, vouched for as :func:`parse_filing` does
    (see _event): None when a value must first be held to check_values.
    A refusal is raised as parse_event's; the caller, like parse_filing,
    asks check_values before passing it on."""
    events: list[Event] = []
    try:
        for position, raw in enumerate(raw_events, start=1):
            events.append(_event(kind, position, raw, record_id, events, True))
    except _Unproven:
        return None
    return events


def _event(kind, position, raw, filing_id, earlier, vouch: bool, _new=object.__new__) -> Event:
    """:func:`parse_event`; with ``vouch``, also raise _Unproven unless every
    value of ``raw`` is one check_values accepts (a converted date or choice
    is; a free string and a field left unconverted are looked at)."""
    if type(raw) is not dict:
        if not isinstance(raw, Mapping):
            raise _bad(filing_id, position, None, "an event must be a JSON object")
        vouch = False  # check_values looks only into plain dicts
    etype = raw.get("type")
    spec = _SPECS.get((kind, etype)) if etype.__class__ is str else None
    if spec is None:
        if not isinstance(etype, str) or etype not in EVENT_FIELDS[kind]:
            shown = etype if isinstance(etype, str) and etype.isprintable() and len(etype) <= 64 else None
            raise _bad(
                filing_id,
                position,
                shown,
                f"unknown event type {etype!r:.80} for a {kind} filing (see docs/reference/filing-format.md)",
            )
        spec = _spec(kind, etype)
    required, optional, allowed, ahead_names, may_vote, dated_only = spec
    if dated_only and len(raw) == 2:  # {"type": ..., "date": a day already read}: most events
        day = raw.get("date")
        day = _DAYS.get(day) if day.__class__ is str else None
        if day is not None:
            e = _new(Event)
            e.__dict__.update(position=position, type=etype, date=day, at=None, fields={}, raw=raw)
            return e
    if etype in DATE_OR_AT and "date" not in raw and "at" in raw:  # an event given at a known time
        required = tuple(f for f in required if f[0] != "date") + _AT_INSTEAD_OF_DATE
    parsed: dict[str, Any] = {}
    if not raw.keys() <= allowed:
        unknown = sorted(str(k) for k in raw.keys() - allowed)
        names = [n for n, _ in required] + [n for n, _ in optional]
        known = ", ".join(dict.fromkeys(["type", *names]))
        raise _bad(filing_id, position, etype, f"unknown field {unknown[0]!r:.60} on a {etype} event; known: {known}")
    for name, kf in required:
        if name not in raw:
            if etype == "clock-extended" and name == "to":
                raise _bad(
                    filing_id,
                    position,
                    etype,
                    "missing required field 'to': an applicant's extension or waiver is valid only for a stated "
                    "period; give the day it ends (Canton 15-5; Saugus 508.08 §5.2; Mansfield 25 §7.G)",
                )
            raise _bad(filing_id, position, etype, f"missing required field {name!r}")
        value = raw[name]
        if value.__class__ is str and (kf == "date" or kf == "day-or-moment") and value in _DAYS:
            parsed[name] = _DAYS[value]
        else:
            parsed[name] = _convert(kf, value, name, filing_id, position, etype, earlier)
            if vouch and kf in _UNPROVEN and not is_clean(value, 3):
                raise _Unproven
    converted = len(required) + 1  # and "type"
    for name, kf in optional:
        if name in raw and name not in parsed:
            value = raw[name]
            parsed[name] = _convert(kf, value, name, filing_id, position, etype, earlier)
            converted += 1
            if vouch and kf in _UNPROVEN and not is_clean(value, 3):
                raise _Unproven
    if vouch and len(raw) != converted:  # a field kept as given ("at" beside "date"...)
        names = {n for n, _ in required} | {n for n, _ in optional if n in raw}
        for k, v in raw.items():
            if k != "type" and k not in names and type(v) not in _SCALARS and not is_clean(v, 3):
                raise _Unproven
    if etype == "hearing-scheduled":
        _hearing_moment(parsed, filing_id, position, etype)
    for name in ahead_names:
        ahead = parsed.get(name)
        if ahead is not None and "date" in parsed and isinstance(ahead, date) and _day_of(ahead) < parsed["date"]:
            raise _bad(
                filing_id, position, etype, f"field {name!r} ({_day_of(ahead)}) is before the event's own date, {parsed['date']}"
            )
    if may_vote and "voted" in parsed and "date" in parsed and parsed["voted"] > parsed["date"]:
        raise _bad(
            filing_id,
            position,
            etype,
            f"voted {parsed['voted']} after it issued on {parsed['date']}: a decision issues after its vote",
        )
    at = parsed.pop("at", None)
    day = parsed.pop("date", None) or (at.date() if at else None)
    e = _new(Event)  # Event(...) without the frozen dataclass's six object.__setattr__ calls: the same value
    e.__dict__.update(position=position, type=etype, date=day, at=at, fields=parsed, raw=raw)
    return e


_TOP_FIELDS = frozenset(("town", "kind", "id", "also", "events"))


def _day_of(value) -> date:
    return value.date() if isinstance(value, datetime) else value


#: Fields some events carry beyond their declared ones, kept and ignored.
_LENIENT: dict[str, set[str]] = {}


def _hearing_moment(parsed: dict, filing_id, position, etype) -> None:
    """A hearing's time is given as ``hearing`` with a time, or as ``at``
    beside a ``hearing`` day; either way the event's ``at`` is the hearing's
    moment and ``hearing`` its day, and the two must agree."""
    hearing, at = parsed["hearing"], parsed.get("at")
    if isinstance(hearing, datetime):
        if at is not None and at != hearing:
            raise _bad(filing_id, position, etype, f"field 'at' ({at:%Y-%m-%dT%H:%M}) and field 'hearing' disagree")
        parsed["at"], parsed["hearing"] = hearing, hearing.date()
    elif at is not None and at.date() != hearing:
        raise _bad(filing_id, position, etype, f"field 'at' ({at:%Y-%m-%dT%H:%M}) is not on the hearing's day, {hearing}")


def parse_filing(obj: Any) -> Filing:
    """Check and convert a filing's JSON object.  Raises MalformedEvent (or
    UnknownChoice for the kind) naming the event's position and field.

    The values are held to :func:`~workflows.inputs.check_values` before
    anything else is said of them.  For a plain dict the parser vouches for
    what it converts (a date, a choice) and looks only at the rest; when it
    cannot vouch, or refuses the filing, check_values is asked first, so its
    refusal is the one given, as when it ran before the parser."""
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise MalformedEvent("a filing must be a JSON object")
    filing_id = obj.get("id")
    if filing_id is None or filing_id == "":
        raise MalformedEvent("missing required field 'id' (the filing's id)")
    check_filing_id(filing_id)
    refused = None
    if type(obj) is dict:
        try:
            return build_filing(obj, filing_id, True)
        except _Unproven:
            pass
        except Exception as exc:  # re-raised below, once check_values has had its say
            refused = exc
    check_values(obj, filing=filing_id)
    if refused is not None:
        raise refused
    return build_filing(obj, filing_id, False)


def build_filing(obj, filing_id: str, vouch: bool) -> Filing:
    """parse_filing's work after the id (see _event for ``vouch``)."""
    if not isinstance(obj.get("town"), str):
        raise MalformedEvent("missing required field 'town'", filing=filing_id)
    kind = obj.get("kind")
    if not isinstance(kind, str):
        raise MalformedEvent("missing required field 'kind'", filing=filing_id)
    if kind not in KINDS:
        raise UnknownChoice("permit kind", kind, KINDS)
    also = obj.get("also", _NO_ALSO)
    if not isinstance(also, list) or (also and not all(isinstance(a, str) for a in also)):
        raise MalformedEvent("field 'also' must be a list of jurisdictions, e.g. [\"wpa\"]", filing=filing_id)
    raw_events = obj.get("events")
    if not isinstance(raw_events, list):
        raise MalformedEvent("missing required field 'events' (a list)", filing=filing_id)
    if vouch and (not is_clean(obj["town"], 1) or (also and not is_clean(also, 1))):
        raise _Unproven
    vouch_events = vouch and type(raw_events) is list  # check_values looks only into plain lists
    events: list[Event] = []  # the earlier events, for an event that names one by position
    dated_only, position = _DATED_ONLY[kind], 0
    plain, last = True, date.min  # no event voided, every one dated on or after the one before
    for raw in raw_events:
        position += 1
        if type(raw) is dict and len(raw) == 2:  # _event's short path, without the call: most events
            etype = raw.get("type")
            if etype.__class__ is str and etype in dated_only:
                day = raw.get("date")
                day = _DAYS.get(day) if day.__class__ is str else None
                if day is not None:
                    e = _new(Event)
                    e.__dict__.update(position=position, type=etype, date=day, at=None, fields={}, raw=raw)
                    events.append(e)
                    if day < last:
                        plain = False
                    last = day
                    continue
        e = _event(kind, position, raw, filing_id, events, vouch_events)
        events.append(e)
        if e.type == VOID or e.date is None or e.date < last:
            plain = False
        else:
            last = e.date
    if obj.keys() <= _TOP_FIELDS:
        extra = _NO_EXTRA
    else:
        extra = {k: v for k, v in obj.items() if k not in _TOP_FIELDS}
        if vouch and not is_clean(extra, 0):
            raise _Unproven
        extra = MappingProxyType(extra)
    filing = _new(Filing)  # Filing(...) without the frozen dataclass's six object.__setattr__ calls
    filing.__dict__.update(town=obj["town"], kind=kind, id=filing_id, events=tuple(events), also=tuple(also), extra=extra)
    if plain:
        filing.__dict__[PLAIN_HISTORY] = True
    return filing


#: Set (not a field) on a Filing read by parse_filing whose history voids
#: nothing and is in date order already: its replay takes the events as
#: they are (workflows.replay.live_events).  A Filing made otherwise has
#: no mark and is sorted and searched for voidings as before.
PLAIN_HISTORY = "_plain_history"


_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})
#: kind -> the event types whose one required field is the date
_DATED_ONLY = {
    kind: frozenset(t for t, fields in vocabulary.items() if tuple(fields.items()) == (("date", "date"),))
    for kind, vocabulary in EVENT_FIELDS.items()
}
_NO_ALSO: list = []  # never changed: read as "no other jurisdiction"
_new = object.__new__
