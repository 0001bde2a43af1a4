"""What a replay has learned so far: the facts that guards read and the
anchors that clocks start from.  Filled event by event, after the machine
has accepted each event.  Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from calendars import BusinessCalendar, Months

from .errors import UnknownChoice
from .extension_acts import extend
from .filing import Event
from .rulebook import PermitRules, TownProfile
from .superseding import note_issued

__all__ = ["Record", "note_event", "WINTER_PATCH_LENGTH_FT", "EVENT_NOTES", "emergency_end"]

#: Canton 16-12 §11.3(c): work over 30 feet not permanently patched before
#: December 1 needs a Winter Preparation Patch.
WINTER_PATCH_LENGTH_FT = 30


@dataclass
class Record:
    filing_id: str
    town: TownProfile
    rules: PermitRules
    calendar: BusinessCalendar
    anchors: dict[str, list[tuple[Any, Event]]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    boards_reported: set[str] = field(default_factory=set)
    dig_safe_ticket: str | None = None
    issued: Event | None = None
    renewals: int = 0
    renewal_requested: Event | None = None
    renewed: Event | None = None  # the last permit-renewed
    acts_declined: list[Event] = field(default_factory=list)  # act-not-applied
    hearing_opened: bool = False
    hearing_opened_on: date | None = None
    hearing_date: Any = None
    cdf: bool = False
    applicant: str = "private"
    length_ft: int | None = None
    surface: str | None = None
    emergency: bool = False
    excavated: bool = False
    temporary_patch: date | None = None
    permanent_patch: date | None = None
    suspended_until: date | None = None
    revocation_hearing: date | None = None
    extensions: dict[str, Event] = field(default_factory=dict)
    emergency_certified: Event | None = None  # the latest emergency certification (310 CMR 10.06)
    #: the Certificate that certifies all the work (a complete ``certificate-issued``,
    #: or ``completion-certified``): it closes the permit's clocks (workflows/certificates.py)
    certified: Event | None = None
    #: partial Certificates, each closing the part it names; the rest stays in force
    partial_certificates: list[Event] = field(default_factory=list)
    known_clocks: frozenset = frozenset()
    #: the other laws the filing is heard under, (clock-id prefix, rule book) each (a joint filing's Act)
    also_rules: tuple = ()
    #: MassDEP's superseding order or determination, once on record: it is what is in force (workflows/superseding.py)
    superseding: Event | None = None
    #: the term the Order was issued for where the by-law allows a longer one
    #: (Canton 15-7, Saugus 508.08 §7.6: recurring maintenance), as a date rule; None: the rule book's
    term: Any = None
    state: str = "(start)"

    def clock_ids(self) -> frozenset:
        return self.known_clocks

    def anchor(self, name: str, value, event: Event) -> None:
        self.anchors.setdefault(name, []).append((value, event))

    def first(self, name: str):
        got = self.anchors.get(name)
        return got[0] if got else None

    def expiry(self) -> date | None:
        """The permit's expiry now: issuance + term, each renewal counted on
        from the expiry it replaces (docs/reference/filing-format.md)."""
        if self.issued is None:
            return None
        try:
            clock = self.rules.clock("permit-expiry")
        except UnknownChoice:
            return None
        day = self.calendar.when(self.term or clock.measure, self.issued.date)[0]
        for _ in range(self.renewals):
            day = self.calendar.when(self.rules.renewal, day)[0]
        return extend(self.rules.kind, self.issued.date, day, self.acts_declined)[0]

    def in_default(self, on: date) -> bool:
        return self.suspended_until is not None and on <= self.suspended_until


def note_event(rec: Record, e: Event) -> None:
    """Record what ``e`` tells, once the machine has accepted it."""
    rec.events.append(e)
    note = EVENT_NOTES.get(e.type)
    if note is not None:
        note(rec, e)


def _filed(rec: Record, e: Event) -> None:
    rec.anchor("received", e.date, e)
    fields = e.fields
    if fields.get("complete", True):
        rec.anchor("complete-application", e.date, e)
    if fields:  # a street opening's applicant, length, surface, emergency
        rec.applicant = fields.get("applicant", rec.applicant)
        rec.length_ft = fields.get("length_ft", rec.length_ft)
        rec.surface = fields.get("surface", rec.surface)
        rec.emergency = fields.get("emergency", rec.emergency) or rec.emergency


def _deemed_complete(rec: Record, e: Event) -> None:
    if "complete-application" not in rec.anchors:
        rec.anchor("complete-application", e.date, e)


def _hearing_scheduled(rec: Record, e: Event) -> None:
    if not rec.hearing_opened:
        # a hearing set again before it opens replaces the earlier date
        rec.hearing_date = e.at or e.get("hearing")
        rec.anchors["hearing-date"] = [(rec.hearing_date, e)]


def _hearing_opened(rec: Record, e: Event) -> None:
    if not rec.hearing_opened and "hearing-date" not in rec.anchors:
        rec.anchor("hearing-date", e.date, e)
    if not rec.hearing_opened:
        rec.hearing_opened_on = e.date
    rec.hearing_opened = True


def _boards_notified(rec: Record, e: Event) -> None:
    if "boards-notified" not in rec.anchors:
        rec.anchor("boards-notified", e.date, e)


def _board_reported(rec: Record, e: Event) -> None:
    rec.boards_reported.add(e.get("board").strip().lower())


def _hearing_closed(rec: Record, e: Event) -> None:
    rec.anchor("hearing-closed", e.date, e)


def _issued(rec: Record, e: Event) -> None:
    if rec.superseding is not None:
        return  # a local decision after MassDEP's is late and does not replace it
    rec.issued = e
    years = e.get("term_years")
    rec.term = Months(12 * years) if years else None
    rec.anchor("issuance", e.date, e)
    rec.anchor("final-action", e.date, e)


def _denied(rec: Record, e: Event) -> None:
    if rec.superseding is None:
        rec.anchor("final-action", e.date, e)


def _renewal_requested(rec: Record, e: Event) -> None:
    rec.renewal_requested = e


def _renewed(rec: Record, e: Event) -> None:
    rec.renewals += 1
    rec.renewal_requested = None
    rec.renewed = e


def _construction_noticed(rec: Record, e: Event) -> None:
    rec.anchor("construction-start", e.get("start"), e)


def _emergency_work_started(rec: Record, e: Event) -> None:
    rec.anchor("trench-open", e.date, e)
    rec.emergency = rec.excavated = True
    rec.anchor("emergency-start", e.at, e)
    rec.anchor("open-work", e.date, e)


def _dig_safe_obtained(rec: Record, e: Event) -> None:
    rec.dig_safe_ticket = e.get("ticket")
    if not rec.excavated:  # a new notice before digging replaces the earlier ticket
        rec.anchors["dig-safe-notice"] = [(e.at or e.date, e)]


def _patch_noticed(rec: Record, e: Event) -> None:
    rec.anchor("patch-noticed", e.at, e)


def _work_noticed(rec: Record, e: Event) -> None:
    rec.anchor("work-noticed", e.at, e)


def _excavation_started(rec: Record, e: Event) -> None:
    if not rec.excavated:  # the trench is open: its inspection before backfill (§10.2 a)
        rec.anchor("trench-open", e.date, e)
    rec.excavated = True
    if "open-work" not in rec.anchors:
        rec.anchor("open-work", e.date, e)


def _backfilled(rec: Record, e: Event) -> None:
    if e.get("material") == "cdf":
        rec.cdf = True
        rec.anchor("cdf-backfill", e.at or e.date, e)


def _temporary_patch(rec: Record, e: Event) -> None:
    rec.temporary_patch = e.date
    rec.anchor("temporary-patch", e.date, e)


def _permanent_patch(rec: Record, e: Event) -> None:
    rec.permanent_patch = e.date
    rec.anchor("permanent-patch", e.date, e)


def _certification_answered(rec: Record, e: Event) -> None:
    if e.get("granted"):  # the temporary patch now counts as permanent
        rec.permanent_patch = e.date
        rec.anchor("permanent-patch", e.date, e)


def _inspected(rec: Record, e: Event) -> None:
    if e.get("stage") == "settlement":
        rec.anchor("settlement-inspection", e.date, e)
    if e.get("result") == "fail" and e.get("reinspect") is not None:  # Canton 16-12 §10.2
        rec.anchor("reinspection", e.get("reinspect"), e)


def _certification_requested(rec: Record, e: Event) -> None:
    rec.anchor("certification-requested", e.date, e)


def _suspended(rec: Record, e: Event) -> None:
    rec.anchor("suspended", e.date, e)
    rec.suspended_until = e.date + timedelta(days=e.get("days"))


def _revocation_hearing_scheduled(rec: Record, e: Event) -> None:
    rec.revocation_hearing = e.get("hearing")
    rec.anchor("revocation-hearing", e.get("hearing"), e)


def _billed(rec: Record, e: Event) -> None:
    rec.anchor("billed", e.date, e)


def _act_not_applied(rec: Record, e: Event) -> None:
    rec.acts_declined.append(e)


def _clock_extended(rec: Record, e: Event) -> None:
    rec.extensions[e.get("clock")] = e


def _certificate_requested(rec: Record, e: Event) -> None:
    rec.anchor("certificate-requested", e.date, e)


def _certificate_issued(rec: Record, e: Event) -> None:
    if e.get("scope") == "complete":
        if rec.certified is None:
            rec.certified = e
    else:
        rec.partial_certificates.append(e)


def _completion_certified(rec: Record, e: Event) -> None:
    if rec.certified is None:
        rec.certified = e


def _emergency_certified(rec: Record, e: Event) -> None:
    rec.emergency_certified = e
    rec.anchor("emergency-certified", e.date, e)


def emergency_end(rec: Record) -> date | None:
    """The last day the latest emergency certification allows work: its
    date plus its days (day 0 the certification; never rolled), or None."""
    cert = rec.emergency_certified
    return None if cert is None else cert.date + timedelta(days=cert.get("days"))


def _work_observed(rec: Record, e: Event) -> None:
    """Work seen (or begun) after the emergency certification ended, with no Notice of
    Intent filed yet, starts the emergency-continuation clock (310 CMR 10.06)."""
    end = emergency_end(rec)
    if end is not None and e.date > end and "received" not in rec.anchors and "emergency-ended" not in rec.anchors:
        rec.anchor("emergency-ended", end, e)


def _street_restored(rec: Record, e: Event) -> None:
    if "restoration" not in rec.anchors:
        rec.anchor("restoration", e.date, e)


#: event type -> what it tells the record (an event not listed tells nothing
#: beyond its place in the history)
EVENT_NOTES = {
    "filed": _filed,
    "deemed-complete": _deemed_complete,
    "hearing-scheduled": _hearing_scheduled,
    "hearing-opened": _hearing_opened,
    "boards-notified": _boards_notified,
    "board-reported": _board_reported,
    "hearing-closed": _hearing_closed,
    "continuance-objected": _hearing_closed,
    "permit-issued": _issued,
    "determination-issued": _issued,
    "permit-denied": _denied,
    "renewal-requested": _renewal_requested,
    "permit-renewed": _renewed,
    "construction-noticed": _construction_noticed,
    "emergency-work-started": _emergency_work_started,
    "dig-safe-obtained": _dig_safe_obtained,
    "patch-noticed": _patch_noticed,
    "work-noticed": _work_noticed,
    "excavation-started": _excavation_started,
    "backfilled": _backfilled,
    "temporary-patch-placed": _temporary_patch,
    "permanent-patch-placed": _permanent_patch,
    "certification-answered": _certification_answered,
    "inspected": _inspected,
    "certification-requested": _certification_requested,
    "suspended": _suspended,
    "revocation-hearing-scheduled": _revocation_hearing_scheduled,
    "after-hours-billed": _billed,
    "act-not-applied": _act_not_applied,
    "clock-extended": _clock_extended,
    "certificate-requested": _certificate_requested,
    "certificate-issued": _certificate_issued,
    "completion-certified": _completion_certified,
    "emergency-certified": _emergency_certified,
    "work-observed": _work_observed,
    "work-started": _work_observed,
    "street-restored": _street_restored,
    "superseding-issued": note_issued,
}
