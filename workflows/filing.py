"""A filing is its history: the JSON form of docs/filing-format.md.

:func:`parse_filing` turns the JSON object into a :class:`Filing` of
:class:`Event` values, checking every event's type and required fields;
unknown fields are kept (and written back by :meth:`Filing.to_json`) and
ignored.  Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence  # isinstance against typing.Mapping is several times slower
from dataclasses import dataclass, field
from datetime import date, datetime
from types import MappingProxyType
from typing import Any

from .errors import MalformedEvent, UnknownChoice
from .ids import check_filing_id
from .inputs import check_values
from .rulebook import CLOCK_TYPES, KINDS

__all__ = ["Event", "Filing", "parse_filing", "EVENT_FIELDS", "VOID"]

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # YYYY-MM-DD only: no week dates, no compact form
#: the years a filing's dates may fall in (the calendar serves these; a year
#: 9999 would overflow the first deadline counted from it)
FIRST_YEAR, LAST_YEAR = 2000, 2100

#: The event that voids an earlier, mistaken one; both stay in the history.
VOID = "event-voided"

# field kinds: "date", "moment" (YYYY-MM-DDTHH:MM), "bool", "int", "str",
# "clock" (a clock id), "position" (an earlier event's 1-based position),
# or a tuple of allowed strings.
_COMMON = {
    "clock-extended": {"date": "date", "clock": "clock", "to": "date"},
    "withdrawn": {"date": "date"},
    "submitted": {"date": "date"},  # filed online; no clock runs (workflows.submission)
    "found-incomplete": {"date": "date", "reasons": "str"},
    VOID: {"date": "date", "voids": "position", "reason": "str"},
}

_WETLANDS = {
    "filed": {"date": "date"},
    "deemed-complete": {"date": "date"},
    "abutters-notified": {"date": "date"},
    "boards-notified": {"date": "date"},
    "board-reported": {"date": "date", "board": "str"},
    "hearing-scheduled": {"date": "date", "hearing": "day-or-moment"},  # the hearing's time: at, or hearing=...THH:MM
    "notice-published": {"date": "date"},
    "notice-posted": {"date": "date"},  # or `at`
    "hearing-opened": {"date": "date"},
    "hearing-continued": {"date": "date", "to": "date"},
    "hearing-closed": {"date": "date"},
    "permit-issued": {"date": "date"},
    "permit-denied": {"date": "date"},
    "determination-issued": {"date": "date", "positive": "bool"},
    "permit-recorded": {"date": "date"},
    "renewal-requested": {"date": "date"},
    "permit-renewed": {"date": "date"},
    "permit-revoked": {"date": "date"},
    "construction-noticed": {"date": "date", "start": "date"},
    "completion-certified": {"date": "date"},
    # Canton wetlands emergency projects (canton.txt lines 6-17): work first, notice within 24 hours
    "emergency-work-started": {"at": "moment"},
    "emergency-noticed": {"at": "moment"},
    "continuance-objected": {"date": "date"},  # Canton 15-5: the applicant objects, the hearing closes
    "recording-certified": {"date": "date"},  # Saugus 508.08 §7.9: the holder certifies the recording in writing
    "work-started": {"date": "date"},  # work under a wetlands permit begins (land disturbance starts)
    # Mansfield 25 §7.G, §12, §13: receipts, surety, final report and as-built plan
    "mail-receipts-submitted": {"date": "date"},
    "surety-required": {"date": "date"},
    "surety-posted": {"date": "date"},
    "final-report-filed": {"date": "date"},
    "surety-released": {"date": "date"},
    # a Permit Extension Act does not apply (holder's election, court ruling): workflows/extension_acts.py
    "act-not-applied": {"date": "date", "act": ("pea-2010", "covid-tolling", "pea-2024"), "reason": "str"},
}

_STREET = {
    "filed": {"date": "date"},
    "emergency-work-started": {"at": "moment"},
    "dig-safe-obtained": {"date": "date", "ticket": "str"},
    "permit-issued": {"date": "date"},
    "permit-denied": {"date": "date"},
    "renewal-requested": {"date": "date"},
    "permit-renewed": {"date": "date"},
    "work-noticed": {"at": "moment"},
    "excavation-started": {"date": "date"},
    "inspected": {
        "date": "date",
        "stage": ("pre-backfill", "temporary-patch", "settlement", "permanent-patch"),
        "result": ("pass", "fail"),
    },
    "backfilled": {"date": "date", "material": ("gravel", "excavated", "cdf")},
    "temporary-patch-placed": {"date": "date"},
    "winter-patch-placed": {"date": "date"},
    "settlement-answered": {"date": "date"},
    "certification-requested": {"date": "date"},
    "certification-answered": {"date": "date", "granted": "bool"},
    "permanent-patch-placed": {"date": "date"},
    "patch-noticed": {"at": "moment"},  # Canton 16-12 §11.4: a utility's own permanent patch, 72 hours ahead
    "suspended": {"date": "date", "days": "int"},
    "revocation-hearing-scheduled": {"date": "date", "hearing": "date"},
    "permit-revoked": {"date": "date"},
    "deposit-refunded": {"date": "date"},
    "after-hours-billed": {"date": "date", "hours": "int"},
    "after-hours-paid": {"date": "date"},
}

#: Optional fields with their kinds, checked when present.
_OPTIONAL = {
    ("street-opening", "filed"): {
        "applicant": ("private", "utility", "municipal"),
        "length_ft": "int",
        "emergency": "bool",
        "surface": ("bituminous", "cement-concrete"),  # Canton 16-12 §11.5
    },
    ("*", "filed"): {"complete": "bool"},
    ("*", "notice-posted"): {"at": "moment"},
    ("*", "hearing-scheduled"): {"at": "moment"},
    # the day of the vote, when it is not the day the decision issued (filed with the clerk or mailed)
    ("*", "permit-issued"): {"voted": "date"},
    ("*", "permit-denied"): {"voted": "date"},
    ("*", "determination-issued"): {"voted": "date"},
    ("street-opening", "dig-safe-obtained"): {"at": "moment"},  # M.G.L. c.82 §40A counts hours from the notice
    ("street-opening", "backfilled"): {"at": "moment"},  # Canton 16-12 §11.2: the cure runs from placement
    ("street-opening", "excavation-started"): {"at": "moment"},  # judged against hour clocks
    ("street-opening", "permanent-patch-placed"): {"at": "moment"},
}

#: Events dated by ``date`` or, when the time is known, by ``at`` instead.
_DATE_OR_AT = frozenset({"notice-posted", "dig-safe-obtained", "backfilled", "excavation-started", "permanent-patch-placed"})

#: kind -> event type -> required fields
EVENT_FIELDS: Mapping[str, Mapping[str, Mapping[str, Any]]] = MappingProxyType(
    {
        "noi": {**_WETLANDS, **_COMMON},
        "rda": {**_WETLANDS, **_COMMON},
        "land-disturbance": {**_WETLANDS, **_COMMON},
        "street-opening": {**_STREET, **_COMMON},
    }
)


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
            if moment.tzinfo is not None:  # the town's local time, no offset (docs/filing-format.md)
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


def _raise():
    raise ValueError


def _in_range(year, name, value, filing_id, position, etype) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is outside the years {FIRST_YEAR}-{LAST_YEAR}")


def _spec(kind: str, etype: str) -> tuple[tuple, tuple, frozenset]:
    """(required, optional) (name, kind of field) pairs of one event type,
    and every field name it may carry."""
    required = EVENT_FIELDS[kind][etype]
    optional = {**_OPTIONAL.get(("*", etype), {}), **_OPTIONAL.get((kind, etype), {})}
    allowed = frozenset(required) | frozenset(optional) | {"type", "date", "at"} | _LENIENT.get(etype, set())
    spec = _SPECS[(kind, etype)] = (tuple(required.items()), tuple(optional.items()), allowed)
    return spec


_SPECS: dict[tuple[str, str], tuple[tuple, tuple, frozenset]] = {}
_AT_INSTEAD_OF_DATE = (("at", "moment"),)  # an event given by its moment (_DATE_OR_AT)
_DAYS: dict[str, date] = {}  # "YYYY-MM-DD" -> date, the days already read (a filing repeats its days)
_DAYS_KEPT = 50_000


def _new_event(position, etype, day, at, fields, raw, _new=object.__new__) -> Event:
    """``Event(position, etype, day, at, fields, raw)`` without the frozen
    dataclass's six ``object.__setattr__`` calls (a tenth of a replay): the
    same value, built for the parser's hot loop."""
    e = _new(Event)
    e.__dict__.update(position=position, type=etype, date=day, at=at, fields=fields, raw=raw)
    return e


def parse_event(kind: str, position: int, raw: Mapping[str, Any], filing_id: str | None, earlier: Sequence[Event] = ()) -> Event:
    """One event, checked for form.  ``raw`` is kept as given (not copied:
    the filing owns its JSON; :meth:`Event.to_json` returns a copy)."""
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise _bad(filing_id, position, None, "an event must be a JSON object")
    etype = raw.get("type")
    spec = _SPECS.get((kind, etype)) if etype.__class__ is str else None
    if spec is None:
        if not isinstance(etype, str) or etype not in EVENT_FIELDS[kind]:
            shown = etype if isinstance(etype, str) and etype.isprintable() and len(etype) <= 64 else None
            raise _bad(
                filing_id, position, shown, f"unknown event type {etype!r:.80} for a {kind} filing (see docs/filing-format.md)"
            )
        spec = _spec(kind, etype)
    required, optional, allowed = spec
    if etype in _DATE_OR_AT and "date" not in raw and "at" in raw:  # an event given at a known time
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
        if kf == "date" and value.__class__ is str and value in _DAYS:
            parsed[name] = _DAYS[value]
        else:
            parsed[name] = _convert(kf, value, name, filing_id, position, etype, earlier)
    for name, kf in optional:
        if name in raw and name not in parsed:
            parsed[name] = _convert(kf, raw[name], name, filing_id, position, etype, earlier)
    if etype == "hearing-scheduled":
        _hearing_moment(parsed, filing_id, position, etype)
    for name in ("hearing", "to"):
        ahead = parsed.get(name)
        if ahead is not None and "date" in parsed and isinstance(ahead, date) and _day_of(ahead) < parsed["date"]:
            raise _bad(
                filing_id, position, etype, f"field {name!r} ({_day_of(ahead)}) is before the event's own date, {parsed['date']}"
            )
    if "voted" in parsed and "date" in parsed and parsed["voted"] > parsed["date"]:
        raise _bad(
            filing_id,
            position,
            etype,
            f"voted {parsed['voted']} after it issued on {parsed['date']}: a decision issues after its vote",
        )
    at = parsed.pop("at", None)
    day = parsed.pop("date", None) or (at.date() if at else None)
    return _new_event(position, etype, day, at, parsed, raw)


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
    UnknownChoice for the kind) naming the event's position and field."""
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise MalformedEvent("a filing must be a JSON object")
    filing_id = obj.get("id")
    if filing_id is None or filing_id == "":
        raise MalformedEvent("missing required field 'id' (the filing's id)")
    check_filing_id(filing_id)
    check_values(obj, filing=filing_id)
    for name in ("town", "kind"):
        if not isinstance(obj.get(name), str):
            raise MalformedEvent(f"missing required field {name!r}", filing=filing_id)
    kind = obj["kind"]
    if kind not in KINDS:
        raise UnknownChoice("permit kind", kind, KINDS)
    also = obj.get("also", [])
    if not isinstance(also, list) or not all(isinstance(a, str) for a in also):
        raise MalformedEvent("field 'also' must be a list of jurisdictions, e.g. [\"wpa\"]", filing=filing_id)
    raw_events = obj.get("events")
    if not isinstance(raw_events, list):
        raise MalformedEvent("missing required field 'events' (a list)", filing=filing_id)
    events: list[Event] = []  # the earlier events, for an event that names one by position
    for i, raw in enumerate(raw_events, start=1):
        events.append(parse_event(kind, i, raw, filing_id, events))
    extra = {k: v for k, v in obj.items() if k not in _TOP_FIELDS}
    return Filing(obj["town"], kind, filing_id, tuple(events), tuple(also), MappingProxyType(extra))
