"""The rule book: every clock of every town and permit kind, as data.

A town is one module in :mod:`workflows.towns` that defines ``PROFILE``, a
:class:`TownProfile`.  Each of its permit kinds is a :class:`PermitRules`
listing :class:`Clock` declarations: the clock id (docs/reference/filing-format.md), the
date rule that measures it (:mod:`calendars.rules`), the anchor it starts
from, the events that meet it, and the section it comes from.  Adding a town
is adding a file; the engine is not edited.

Declarations are checked when they are made: a malformed one raises
:class:`~workflows.errors.RuleBookError` naming the town and the clock, so a
bad rule book fails at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from types import MappingProxyType

from calendars import BusinessCalendar, DateRule

from .abutter_rules import AbutterRule
from .departments import DEPARTMENTS
from .errors import RuleBookError, UnknownChoice
from .fines import FineSchedule
from .offices import Office, Place, Signer

__all__ = [
    "KINDS",
    "CLOCK_TYPES",
    "ANCHORS",
    "Clock",
    "PermitRules",
    "TownProfile",
    "adopting",
    "Office",
    "Place",
    "Signer",
]

KINDS = ("noi", "rda", "land-disturbance", "street-opening")

#: Clock id -> type, as docs/reference/filing-format.md fixes them.
CLOCK_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "hearing-open": "deadline",
        "newspaper-notice": "deadline",
        "hearing-posting": "deadline",
        "hearing-notice": "deadline",
        "board-comment": "earliest",
        "board-reports": "earliest",
        "decision": "deadline",
        "appeal-period": "deadline",
        "permit-expiry": "expiry",
        "renewal-request": "deadline",
        "construction-notice": "deadline",
        "work-notice": "earliest",
        "emergency-filing": "deadline",
        "temporary-patch-maintenance": "expiry",
        "permanent-patch-window-opens": "earliest",
        "permanent-patch-window-closes": "deadline",
        "cdf-cure": "earliest",
        "winter-patch": "deadline",
        "settlement-answer": "deadline",
        "certification-answer": "deadline",
        "suspension-ends": "expiry",
        "revocation-notice": "deadline",
        "after-hours-payment": "deadline",
        "dig-safe-wait": "earliest",
        "dig-safe-expiry": "expiry",
        "emergency-notice": "deadline",
        "patch-notice": "earliest",
        "recording-before-work": "earliest",
        "mail-receipts": "earliest",
        "surety": "earliest",
        "certificate-decision": "deadline",
        "appeal-before-work": "earliest",
        "emergency-certification": "expiry",
        "emergency-continuation": "deadline",
        "repair-liability": "expiry",
        "trench-inspection": "deadline",
        "patch-inspection": "deadline",
        "final-inspection": "deadline",
        "re-inspection": "deadline",
        "work-without-permit": "earliest",
        "annual-notice": "deadline",
        "trench-overnight": "earliest",
        "trench-length": "earliest",
        "project-change": "earliest",
        "om-plan": "earliest",
        "monthly-report": "deadline",
    }
)

#: What a clock can start from, and how an explanation names it.
ANCHORS: Mapping[str, str] = MappingProxyType(
    {
        "complete-application": "filed, complete",
        "hearing-date": "the scheduled hearing",
        "boards-notified": "boards notified",
        "hearing-closed": "hearing closed",
        "issuance": "date of issuance",
        "final-action": "date of issuance of the decision",
        "expiry": "the permit's expiry",
        "construction-start": "construction start",
        "work-noticed": "work notice given",
        "emergency-start": "emergency work started",
        "temporary-patch": "temporary patch placed",
        "cdf-backfill": "flowable fill (CDF) placed",
        "open-work": "excavation started, over 30 ft",
        "settlement-inspection": "settlement inspection",
        "certification-requested": "certification requested",
        "suspended": "suspension",
        "revocation-hearing": "the revocation hearing",
        "billed": "after-hours inspection billed",
        "dig-safe-notice": "Dig Safe notice given",
        "received": "request received",
        "patch-noticed": "permanent patch noticed",
        "certificate-requested": "Certificate of Compliance requested in writing",
        "emergency-certified": "emergency certification",
        "emergency-ended": "the last day the emergency certification allows work, with work seen after it",
        "restoration": "street restored",
        "trench-open": "the trench opened",
        "permanent-patch": "permanent patch placed",
        "reinspection": "the second look set when an inspection failed",
    }
)


@dataclass(frozen=True)
class Clock:
    """One clock of one permit kind in one town.

    ``measure`` counts from the ``start`` anchor; ``met_by`` are the event
    types that satisfy it (for an ``earliest`` clock: the acts it holds
    back).  ``max_count`` bounds a count the record supplies (a suspension
    of at most 21 days)."""

    id: str
    measure: DateRule
    start: str
    citation: str
    met_by: tuple[str, ...] = ()
    note: str = ""
    max_count: int | None = None
    met_when: str = "any"  # "any" of met_by meets it, or "all" of them
    optional: bool = False  # a chance, not a duty: once passed unmet it is dropped, never overdue
    #: a call, not a time limit: listed from its day until an act meets it,
    #: and an act after the day is on time (the DPW's inspections, 16-12 §10.2)
    open_ended: bool = False

    @property
    def type(self) -> str:
        return CLOCK_TYPES[self.id]

    def check(self, town: str) -> None:
        if self.id not in CLOCK_TYPES:
            raise RuleBookError(town, self.id, f"unknown clock id; known: {', '.join(CLOCK_TYPES)}")
        if not isinstance(self.measure, DateRule):
            raise RuleBookError(town, self.id, f"measure must be a calendars date rule, not {self.measure!r}")
        if self.start not in ANCHORS:
            raise RuleBookError(town, self.id, f"unknown start {self.start!r}; known: {', '.join(ANCHORS)}")
        if not self.citation or not self.citation.strip():
            raise RuleBookError(town, self.id, "no citation: every clock names the section it comes from")
        if isinstance(self.met_by, str) or not all(isinstance(e, str) for e in self.met_by):
            raise RuleBookError(town, self.id, "met_by must be a tuple of event types")
        if self.met_when not in ("any", "all"):
            raise RuleBookError(town, self.id, f"met_when must be 'any' or 'all', not {self.met_when!r}")
        if self.max_count is not None and self.max_count < 0:
            raise RuleBookError(town, self.id, "max_count must be >= 0")

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "type": self.type,
            "measure": self.measure.summary(),
            "rule": self.measure.name,
            "start": self.start,
            "met_by": list(self.met_by),
            "citation": self.citation,
            "note": self.note,
        }


@dataclass(frozen=True)
class PermitRules:
    """The clocks and the permit-level settings of one kind in one town."""

    kind: str
    bylaw: str  # the by-law this kind is heard under, cited
    clocks: tuple[Clock, ...]
    hearing_required: bool = True
    renewal: DateRule | None = None  # how far a renewal moves permit-expiry
    renewals_allowed: int | None = 0  # None: as many as asked (310 CMR 10.05(8)(a))
    renewal_citation: str = ""
    #: The by-law that closes the hearing when the applicant objects to a
    #: continuance (Canton 15-5), cited; "" where none does.
    objection_closes_hearing: str = ""
    #: The by-law that forbids work until the permit is recorded at the
    #: Registry of Deeds and the holder certifies it in writing (Saugus
    #: 508.08 §7.9), cited; "" where none does.
    recording_before_work: str = ""
    #: The by-law that has the DPW inspect a temporary patch (Canton 16-12
    #: §10.2: the first business day after it is placed), cited; "" where
    #: none does (no such inspection on the DPW schedule).
    patch_inspection: str = ""
    #: Who receives the abutter notice (:mod:`workflows.abutter_rules`);
    #: None where the kind has none of its own (the state's rule then
    #: applies to a wetlands filing: :func:`workflows.towns.abutter_rule`).
    abutters: AbutterRule | None = None
    #: The by-law that has the holder certify the recording in writing
    #: before work (Saugus 508.08 §7.9), cited; "" where recording alone
    #: will do (:attr:`recording_before_work`).
    recording_certified: str = ""
    #: The by-law that refuses a street permit without a Dig Safe number
    #: (Canton 16-12 §10.4), cited; "" where none does (Dig Safe itself,
    #: M.G.L. c.82 §40A, still holds the excavation back).
    dig_safe_before_issue: str = ""
    #: Conditions the by-law itself sets on every permit of the kind, each
    #: (condition, citation): the permit notice prints them first
    #: (Mansfield Ch. 5 §IV-V: barriers, lanterns, restoration, repairs).
    standing_conditions: tuple[tuple[str, str], ...] = ()
    #: The machine a kind runs on where it is not the kind's own
    #: (``street-excavation``: a street permit with only Mansfield Ch. 5
    #: §IV-V's rules, :mod:`workflows.street_excavation`); "" for the kind's.
    machine: str = ""
    #: The kind's rules are the Wetlands Protection Act's own (the state
    #: defaults, :mod:`workflows.towns.wpa`, or a town that adopts them):
    #: a filing under them needs no ``also: ["wpa"]`` to be a state filing.
    under_the_act: bool = False
    #: The law that forbids work with no permit in force ("No activities
    #: shall commence without receiving and complying with a permit",
    #: Canton 15-4; M.G.L. c.131 §40; Saugus 508.08 §3; Mansfield 25 §4),
    #: cited: work seen with no Order, Determination or permit in force is
    #: a violation (:mod:`workflows.unpermitted`); "" where none is judged.
    work_without_permit: str = ""
    #: The longest term, in years, a permit for recurring or continuous
    #: maintenance may run (Canton 15-7, Saugus 508.08 §7.6: five, with
    #: annual notice), and its citation; 0 where the term is fixed
    #: (:mod:`workflows.maintenance`).
    maintenance_years: int = 0
    maintenance_citation: str = ""
    #: The by-law that limits an open trench (Canton 16-12 §10.9: 300 feet
    #: without permission; §10.13: plated overnight), cited; "" where none
    #: does (:mod:`workflows.running_duties`).
    trench_limits: str = ""

    def clock(self, clock_id: str) -> Clock:
        c = self._by_id.get(clock_id)
        if c is None:
            raise UnknownChoice(f"clock for {self.kind}", clock_id, [c.id for c in self.clocks])
        return c

    @cached_property
    def _by_id(self) -> dict[str, Clock]:
        """Clock id -> the first clock declared with it (a replay asks for
        permit-expiry, renewal-request... several times a filing)."""
        out: dict[str, Clock] = {}
        for c in self.clocks:
            out.setdefault(c.id, c)
        return out

    def check(self, town: str) -> None:
        if self.kind not in KINDS:
            raise RuleBookError(town, None, f"unknown permit kind {self.kind!r}; known: {', '.join(KINDS)}")
        if not self.bylaw.strip():
            raise RuleBookError(town, None, f"{self.kind}: no by-law citation")
        seen = set()
        for c in self.clocks:
            if not isinstance(c, Clock):
                raise RuleBookError(town, None, f"{self.kind}: {c!r} is not a Clock")
            c.check(town)
            if c.id in seen:
                raise RuleBookError(town, c.id, f"{self.kind}: declared twice")
            seen.add(c.id)
        if self.renewals_allowed != 0 and (self.renewal is None or not self.renewal_citation):
            raise RuleBookError(town, "permit-expiry", f"{self.kind}: renewals allowed but no renewal period or citation")
        if "renewal-request" in seen and "permit-expiry" not in seen:
            raise RuleBookError(town, "renewal-request", f"{self.kind}: counts back from permit-expiry, which is not declared")
        if self.abutters is not None:
            if not isinstance(self.abutters, AbutterRule):
                raise RuleBookError(town, None, f"{self.kind}: abutters is not an AbutterRule declaration")
            self.abutters.check(town, self.kind)


@dataclass(frozen=True)
class TownProfile:
    """A town: its calendar facts, the permit kinds it runs and the offices
    that run them."""

    id: str
    name: str
    county: str
    permits: Mapping[str, PermitRules]
    closures: Mapping[date, str] = field(default_factory=dict)
    settings: Mapping[str, object] = field(default_factory=dict)
    offices: Mapping[str, Office] = field(default_factory=dict)
    #: The town meeting's vote under M.G.L. c.41 §110A closing the town's
    #: offices on Saturdays, cited; "" when there is none.  Only with it does
    #: M.G.L. c.4 §9 move a by-law's last day off a Saturday (310 CMR
    #: 10.05(1) moves wetlands periods off Saturdays in any town).
    saturday_closure: str = ""
    #: The town's fine schedules for non-criminal disposition (M.G.L. c.40
    #: §21D), by by-law id (``wetlands``, ``stormwater``): what an
    #: enforcement case is opened under (:mod:`workflows.fines`).
    fines: Mapping[str, FineSchedule] = field(default_factory=dict)
    #: The town's short code in record ids (``CAN-ENF-2026-0001``); the
    #: id's first three letters unless given (Manchester-by-the-Sea: MBS).
    code: str = ""
    #: The town's application fees, by permit kind: one
    #: :class:`workflows.fees.FeeRule` each, with its citation.
    fees: Mapping[str, object] = field(default_factory=dict)
    #: The Town Clerk's office: where a fine is paid by mail (M.G.L. c.40
    #: §21D), with its address, telephone and hours.
    clerk: Place | None = None
    #: The District Court with jurisdiction over the town's by-law
    #: violations: where a ticket is answered or contested (c.40 §21D).
    court: Place | None = None

    def __post_init__(self):
        for kind, rule in self.fees.items():
            if kind not in self.permits or getattr(rule, "kind", None) != kind:
                raise RuleBookError(self.id, None, f"fees[{kind!r}]: not a fee rule of a permit kind the town runs")
        if not self.code:
            object.__setattr__(self, "code", self.id.replace("-", "")[:3].upper())
        if not self.id or not self.id.replace("-", "").isalnum() or self.id != self.id.lower():
            raise RuleBookError(self.id or "?", None, "town id must be lower-case letters, digits and dashes")
        for kind, rules in self.permits.items():
            if not isinstance(rules, PermitRules):
                raise RuleBookError(self.id, None, f"{kind}: not a PermitRules declaration")
            if rules.kind != kind:
                raise RuleBookError(self.id, None, f"permits[{kind!r}] declares kind {rules.kind!r}")
            rules.check(self.id)
            office = self.offices.get(DEPARTMENTS[kind])
            if self.offices and office is None:
                raise RuleBookError(self.id, None, f"{kind}: no {DEPARTMENTS[kind]} office declared")
            billed = any(c.id == "after-hours-payment" for c in rules.clocks)
            if billed and (office is None or "after-hours-inspection" not in office.rates):
                raise RuleBookError(
                    self.id, "after-hours-payment", f"{kind}: bills after-hours inspections but its office sets no rate"
                )
        for department, office in self.offices.items():
            if not isinstance(office, Office):
                raise RuleBookError(self.id, None, f"office {department!r}: not an Office declaration")
            office.check(self.id, department)
        for day, reason in self.closures.items():
            if not isinstance(day, date) or not str(reason).strip():
                raise RuleBookError(self.id, None, f"closure {day!r}: needs a date and a reason")
        for bylaw, schedule in self.fines.items():
            if not isinstance(schedule, FineSchedule) or schedule.id != bylaw:
                raise RuleBookError(self.id, None, f"fines[{bylaw!r}]: not a FineSchedule declared as {bylaw!r}")
            schedule.check(self.id)
        for what in ("clerk", "court"):
            place = getattr(self, what)
            if place is not None:
                if not isinstance(place, Place):
                    raise RuleBookError(self.id, None, f"{what}: not a Place declaration")
                place.check(self.id, what)
        if self.fines and (self.clerk is None or self.court is None):
            raise RuleBookError(self.id, None, "fines declared with no clerk or court: a ticket says where to pay and appear")

    @property
    def suffolk(self) -> bool:
        return self.county.strip().lower() == "suffolk"

    @cached_property
    def calendar(self) -> BusinessCalendar:
        return BusinessCalendar(
            self.id, suffolk=self.suffolk, closures=self.closures, saturdays_closed_by_vote=bool(self.saturday_closure)
        )

    def office(self, kind: str) -> Office | None:
        """The office that runs permit ``kind`` here, or None for a profile
        that declares none (the state defaults)."""
        return self.offices.get(DEPARTMENTS[kind])

    def fine_schedule(self, bylaw: str) -> FineSchedule:
        """The fine schedule of by-law ``bylaw`` here (UnknownChoice naming
        the town's own)."""
        try:
            return self.fines[bylaw]
        except KeyError:
            raise UnknownChoice(f"by-law with a fine schedule in {self.name}", bylaw, self.fines) from None

    def rules(self, kind: str) -> PermitRules:
        try:
            return self.permits[kind]
        except KeyError:
            raise UnknownChoice(f"permit kind for {self.name}", kind, self.permits) from None


def adopting(rules: PermitRules, adopted_by: str) -> PermitRules:
    """A town's copy of another jurisdiction's rules, each citation saying
    the town adopts it (Mansfield Ch. 15 §4.1 defers to the state)."""
    clocks = tuple(replace(c, citation=f"{c.citation}, as {adopted_by} adopts it") for c in rules.clocks)
    return replace(
        rules,
        bylaw=f"{rules.bylaw}, as {adopted_by} adopts it",
        clocks=clocks,
        renewal_citation=(f"{rules.renewal_citation}, as {adopted_by} adopts it" if rules.renewal_citation else ""),
        work_without_permit=(f"{rules.work_without_permit}, as {adopted_by} adopts it" if rules.work_without_permit else ""),
        abutters=(
            replace(rules.abutters, citation=f"{rules.abutters.citation}, as {adopted_by} adopts it") if rules.abutters else None
        ),
    )
