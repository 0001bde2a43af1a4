"""A filing is its history: the JSON form of ../shared/FILING-FORMAT.md.

:func:`parse_filing` turns the JSON object into a :class:`Filing` of
:class:`Event` values, checking every event's type and required fields;
unknown fields are kept (and written back by :meth:`Filing.to_json`) and
ignored.  Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping  # isinstance against typing.Mapping is several times slower
from dataclasses import dataclass, field
from datetime import date, datetime
from types import MappingProxyType
from typing import Any

from .errors import MalformedEvent, UnknownChoice
from .rulebook import CLOCK_TYPES, KINDS

__all__ = ["Event", "Filing", "parse_filing", "EVENT_FIELDS", "VOID"]

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # YYYY-MM-DD only: no week dates, no compact form

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
    "hearing-scheduled": {"date": "date", "hearing": "date"},
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
    "suspended": {"date": "date", "days": "int"},
    "revocation-hearing-scheduled": {"date": "date", "hearing": "date"},
    "permit-revoked": {"date": "date"},
    "deposit-refunded": {"date": "date"},
    "after-hours-billed": {"date": "date", "hours": "int"},
    "after-hours-paid": {"date": "date"},
}

#: Optional fields with their kinds, checked when present.
_OPTIONAL = {
    ("street-opening", "filed"): {"applicant": ("private", "utility", "municipal"), "length_ft": "int", "emergency": "bool"},
    ("*", "filed"): {"complete": "bool"},
    ("*", "notice-posted"): {"at": "moment"},
    ("*", "hearing-scheduled"): {"at": "moment"},
}

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
            return date.fromisoformat(value) if isinstance(value, str) and _ISO_DAY.fullmatch(value) else _raise()
        except (ValueError, TypeError):
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not a date (YYYY-MM-DD)") from None
    if kind_of_field == "moment":
        try:
            if not isinstance(value, str) or "T" not in value:
                _raise()
            moment = datetime.fromisoformat(value)
            if moment.tzinfo is not None:  # the town's local time, no offset (FILING-FORMAT.md)
                _raise()
            return moment
        except (ValueError, TypeError):
            raise _bad(filing_id, position, etype, f"field {name!r}: {value!r} is not a time (YYYY-MM-DDTHH:MM)") from None
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
        base = value.split(":", 1)[-1] if isinstance(value, str) else value
        if base not in CLOCK_TYPES:
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


def parse_event(
    kind: str, position: int, raw: Mapping[str, Any], filing_id: str | None, earlier: tuple[Event, ...] = ()
) -> Event:
    if not isinstance(raw, Mapping):
        raise _bad(filing_id, position, None, "an event must be a JSON object")
    etype = raw.get("type")
    table = EVENT_FIELDS[kind]
    if etype not in table:
        raise _bad(filing_id, position, str(etype), f"unknown event type {etype!r} for a {kind} filing (see FILING-FORMAT.md)")
    required = dict(table[etype])
    optional = {**_OPTIONAL.get(("*", etype), {}), **_OPTIONAL.get((kind, etype), {})}
    if etype == "notice-posted" and "date" not in raw and "at" in raw:
        required.pop("date")
        required["at"] = "moment"
    parsed: dict[str, Any] = {}
    for name, kf in required.items():
        if name not in raw:
            raise _bad(filing_id, position, etype, f"missing required field {name!r}")
        parsed[name] = _convert(kf, raw[name], name, filing_id, position, etype, earlier)
    for name, kf in optional.items():
        if name in raw and name not in parsed:
            parsed[name] = _convert(kf, raw[name], name, filing_id, position, etype, earlier)
    at = parsed.pop("at", None)
    day = parsed.pop("date", None) or (at.date() if at else None)
    return Event(position, etype, day, at, MappingProxyType(parsed), MappingProxyType(dict(raw)))


def parse_filing(obj: Any) -> Filing:
    """Check and convert a filing's JSON object.  Raises MalformedEvent (or
    UnknownChoice for the kind) naming the event's position and field."""
    if not isinstance(obj, Mapping):
        raise MalformedEvent("a filing must be a JSON object")
    filing_id = obj.get("id")
    if not isinstance(filing_id, str) or not filing_id.strip():
        raise MalformedEvent("missing required field 'id' (the filing's id)")
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
    events: list[Event] = []
    for i, raw in enumerate(raw_events, start=1):
        events.append(parse_event(kind, i, raw, filing_id, tuple(events)))
    extra = {k: v for k, v in obj.items() if k not in ("town", "kind", "id", "also", "events")}
    return Filing(obj["town"], kind, filing_id, tuple(events), tuple(also), MappingProxyType(extra))
