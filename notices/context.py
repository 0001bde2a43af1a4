"""The template context: a plain object built from the filing's record and
its replay, never a database row.

Dates come from two places only: the replay's clocks (every deadline,
earliest date and expiry, with its rule) and the dated events of the record
(the hearing the commission scheduled, the day a permit issued).  Nothing is
typed.  Details the filing format does not carry (address, applicant,
conditions...) are read from the filing's optional top-level fields
(``Filing.extra``) through :class:`Record`, which names the missing field
when a template asks for one that is not there.  A permit's conditions
given with its decision (the latest live ``permit-issued`` event's
``conditions``) take the place of the top-level ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from workflows.event_fields import VOID
from workflows.jurisdictions import ACT_ID, laws_heard_under
from workflows.numbers import massdep_file
from workflows.towns.wpa import ACT

__all__ = [
    "Record",
    "ClockView",
    "EventView",
    "Party",
    "build_context",
    "PERMIT_LABELS",
    "massdep_file",
    "with_office_defaults",
    "parties_differ",
    "decided_conditions",
    "binding_clocks",
]

PERMIT_LABELS = {
    "noi": "Notice of Intent",
    "rda": "Request for Determination of Applicability",
    "land-disturbance": "Land Disturbance Permit application",
    "street-opening": "Street Opening Permit",
}


class Record:
    """Read-only view of the filing's extra fields that knows its own path
    (``filing.applicant.name``), so a missing one is reported by name."""

    __slots__ = ("_data", "_path")

    def __init__(self, data: Mapping[str, Any], path: str = "filing"):
        self._data, self._path = data, path

    def __getitem__(self, key):
        return _wrap(self._data[key], f"{self._path}.{key}")

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"{self._path}.{key}") from None  # the full path, for MissingField

    def __contains__(self, key) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def get(self, key, default=None):
        return self[key] if key in self._data else default

    def __repr__(self):
        return f"Record({self._path})"


def _wrap(value, path):
    if isinstance(value, Mapping):
        return Record(value, path)
    if isinstance(value, list):
        return [_wrap(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


@dataclass(frozen=True)
class ClockView:
    id: str
    type: str
    date: date
    at: datetime | None
    status: str
    rule: str
    explanation: str


@dataclass(frozen=True)
class EventView:
    type: str
    date: date
    at: datetime | None
    fields: Mapping[str, Any]

    def __getattr__(self, key):
        try:
            return self.fields[key]
        except KeyError:
            raise AttributeError(key) from None


#: full stops and commas read as spaces when two owners' names and addresses are compared (Party.key)
_STOPS = str.maketrans(".,", "  ")


@dataclass(frozen=True)
class Party:
    """A recipient: a name and a mailing address in the post office's parts."""

    name: str
    street: str
    city: str
    state: str
    zip: str
    parcels: tuple[str, ...] = ()
    ring: str = ""
    role: str = ""

    @property
    def city_line(self) -> str:
        return f"{self.city}, {self.state} {self.zip}".strip(", ")

    @property
    def key(self) -> str:
        """Same owner at the same address is one recipient."""
        return "|".join(" ".join(p.upper().translate(_STOPS).split()) for p in (self.name, self.street, self.city, self.zip[:5]))


def party_from_record(rec: Record, role: str) -> Party:
    """A party from ``{"name", "address": {"street","city","state","zip"}}``
    (the ``applicant`` and ``owner`` fields); a missing part raises
    AttributeError naming it, which the renderer reports."""
    addr = rec.address
    return Party(rec.name, addr.street, addr.city, addr.state, str(addr.zip), role=role)


def parties_differ(filing_extra: Mapping[str, Any]) -> bool:
    owner, applicant = filing_extra.get("owner"), filing_extra.get("applicant")
    if not owner or not applicant:
        return False
    return (
        party_from_record(Record(owner, "filing.owner"), "owner").key
        != party_from_record(Record(applicant, "filing.applicant"), "applicant").key
    )


@dataclass
class NoticeContext:
    """Everything a notice template may use; :meth:`variables` is what it sees."""

    notice: Any
    town: Any
    permit: Mapping[str, str]
    filing_id: str
    state: str
    filing: Record
    clocks: Mapping[str, ClockView]
    events: Mapping[str, EventView]  # the last event of each type
    history: tuple[EventView, ...]
    hearing: Mapping[str, Any] | None
    dated: datetime
    extra: dict = field(default_factory=dict)

    def variables(self, **more) -> dict:
        out = {
            "notice": self.notice,
            "town": self.town,
            "permit": self.permit,
            "filing_id": self.filing_id,
            "state": self.state,
            "filing": self.filing,
            "clocks": self.clocks,
            "events": self.events,
            "history": self.history,
            "dated": self.dated,
            **self.extra,
            **more,
        }
        if self.hearing is not None:
            out["hearing"] = self.hearing
        return out


def with_office_defaults(extra: Mapping[str, Any], office) -> dict:
    """The filing's extra fields with what the town's office supplies filled
    in where the filing is silent: the letterhead (``authority``: name,
    address, signer), the hearing's place, the newspaper and where the plans
    may be seen (the office itself).  A field the
    filing gives wins, one by one."""
    out = dict(extra)
    given = extra.get("authority")
    if isinstance(given, Mapping) and _not_a_signature(given.get("signer")):
        given = {k: v for k, v in given.items() if k != "signer"}  # an email address signs nothing
        out["authority"] = given
    if office is None:
        return out
    authority = {
        "name": office.name,
        "address": office.address,
        "telephone": office.telephone,
        "hours": office.hours,
        "signer": office.signer,
        "signer_name": office.signer_name,
        "members": [{"name": m.name, "title": m.title} for m in office.members],
    }
    if isinstance(given, Mapping):
        if "signer" in given and "signer_name" not in given:
            authority["signer_name"] = ""  # the filing names who signs: not the office's person under its title
        out["authority"] = {**authority, **given}
    else:
        out["authority"] = authority
    if office.meeting_place:
        hearing = extra.get("hearing")
        out["hearing"] = (
            {"place": office.meeting_place, **hearing} if isinstance(hearing, Mapping) else {"place": office.meeting_place}
        )
    if office.newspaper and "newspaper" not in extra:
        out["newspaper"] = office.newspaper
    if "plans" not in extra:
        out["plans"] = {"where": f"the office of the {office.name}, {office.address}, during office hours"}
    return out


def _not_a_signature(signer) -> bool:
    """A filing's ``authority.signer`` that is no person's name and title:
    an email address (the workbench once wrote its user's), or nothing."""
    return not isinstance(signer, str) or not signer.strip() or "@" in signer


def decided_conditions(events) -> tuple[str, ...] | None:
    """The conditions recorded with the decision: those of the latest
    ``permit-issued`` event not voided, or None when it carries none (the
    filing's top-level ``conditions`` then stand, as before)."""
    voided = {e.fields.get("voids") for e in events if e.type == VOID}
    for e in reversed(events):
        if e.type == "permit-issued" and e.position not in voided:
            return e.fields.get("conditions")
    return None


def binding_clocks(clocks) -> dict[str, ClockView]:
    """One clock per act (``decision``, ``permit-expiry``...): of a joint
    filing's two (the by-law's and the Act's ``wpa:``), the earlier binds,
    the by-law's on a tie, as :func:`workflows.clock_rows.one_row_per_act`
    decides for the workbench."""
    from workflows.clock_rows import act_of

    out: dict[str, ClockView] = {}
    for c in clocks:
        act, seen = act_of(c.id), out.get(act_of(c.id))
        if seen is None or (c.date, ":" in c.id) < (seen.date, ":" in seen.id):
            out[act] = c
    return out


def _clock_view(c) -> ClockView:
    return ClockView(c.id, c.type, c.date, getattr(c, "at", None), c.status, c.rule, c.explanation)


def build_context(filing, replay, profile, kind, *, dated: datetime) -> NoticeContext:
    """The context shared by every copy of one notice (recipients are added
    per copy by the renderer).  ``dated`` is the notice's own date and time,
    passed in by the edge: the core never reads the clock."""
    office = profile.office(filing.kind)
    record = with_office_defaults(filing.extra, office)
    conditions = decided_conditions(filing.events)
    if conditions is not None:
        record["conditions"] = list(conditions)
    events: dict[str, EventView] = {}
    history = []
    for e in filing.events:
        view = EventView(e.type, e.date, e.at, e.fields)
        history.append(view)
        events[e.type] = view
    rules = profile.rules(filing.kind)
    hearing = None
    sched = events.get("hearing-scheduled")
    if sched is not None:
        day, at = sched.hearing, sched.at  # the event's `at` is the hearing's time
        cont = events.get("hearing-continued")
        if cont is not None and cont.date >= sched.date:
            day, at = cont.to, cont.at  # the continued session's time, when given
        extra_hearing = Record(record.get("hearing", {}), "filing.hearing")
        hearing = {"date": day, "at": at, "record": extra_hearing}
    ctx = NoticeContext(
        notice=kind,
        town=profile,
        filing_id=filing.id,
        state=replay.state,
        permit={
            "kind": filing.kind,
            "label": PERMIT_LABELS[filing.kind],
            "bylaw": rules.bylaw,  # the town's rules, cited
            "laws": laws_heard_under(filing.town, filing.kind, filing.also),  # every law it is heard under
            "joint": ACT_ID in filing.also,
            "act": ACT if ACT_ID in filing.also else "",  # the Act, cited, when the filing is heard under it too
        },
        filing=Record(record),
        clocks={c.id: _clock_view(c) for c in replay.clocks},
        events=events,
        history=tuple(history),
        hearing=hearing,
        dated=dated,
    )
    ctx.extra["massdep_file"] = massdep_file(filing)
    ctx.extra["binding"] = binding_clocks(ctx.clocks.values())
    ctx.extra["state_filing"] = ACT_ID in filing.also or rules.under_the_act or ctx.extra["massdep_file"] is not None
    if kind.id == "board-memo":
        names, citation = (office.boards, office.boards_citation) if office and office.boards else ((), rules.bylaw)
        ctx.extra["boards"] = {"names": names, "citation": citation}
    if kind.id == "after-hours-invoice":
        rate, citation = office.rates["after-hours-inspection"]  # the notice applies only where it is set
        hours = events["after-hours-billed"].hours
        ctx.extra["invoice"] = {"rate": rate, "hours": hours, "amount": rate * hours, "citation": citation}
    if kind.id == "street-permit":  # the by-law's own conditions on every permit (Mansfield Ch. 5 §IV-V)
        ctx.extra["standing"] = rules.standing_conditions
    if kind.id == "inspection-result":
        ctx.extra["inspection"] = events["inspected"]
    if kind.id == "settlement-answer":
        settlement = [e for e in history if e.type == "inspected" and e.stage == "settlement"]
        ctx.extra["inspection"] = settlement[-1] if settlement else None
    return ctx
