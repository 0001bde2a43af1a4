"""What a replay has learned so far: the facts that guards read and the
anchors that clocks start from.  Filled event by event, after the machine
has accepted each event.  Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from calendars import BusinessCalendar

from .errors import UnknownChoice
from .extension_acts import extend
from .filing import Event
from .rulebook import PermitRules, TownProfile

__all__ = ["Record", "note_event", "WINTER_PATCH_LENGTH_FT"]

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
    known_clocks: frozenset = frozenset()
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
        from the expiry it replaces (docs/filing-format.md)."""
        if self.issued is None:
            return None
        try:
            clock = self.rules.clock("permit-expiry")
        except UnknownChoice:
            return None
        day = clock.measure.reckon(self.calendar, self.issued.date).date
        for _ in range(self.renewals):
            day = self.rules.renewal.reckon(self.calendar, day).date
        return extend(self.rules.kind, self.issued.date, day, self.acts_declined)[0]

    def in_default(self, on: date) -> bool:
        return self.suspended_until is not None and on <= self.suspended_until


def note_event(rec: Record, e: Event) -> None:
    """Record what ``e`` tells, once the machine has accepted it."""
    rec.events.append(e)
    t = e.type
    if t == "filed":
        rec.anchor("received", e.date, e)
        if e.get("complete", True):
            rec.anchor("complete-application", e.date, e)
        rec.applicant = e.get("applicant", rec.applicant)
        rec.length_ft = e.get("length_ft", rec.length_ft)
        rec.surface = e.get("surface", rec.surface)
        rec.emergency = e.get("emergency", rec.emergency) or rec.emergency
    elif t == "deemed-complete":
        if "complete-application" not in rec.anchors:
            rec.anchor("complete-application", e.date, e)
    elif t == "hearing-scheduled":
        if not rec.hearing_opened:
            # a hearing set again before it opens replaces the earlier date
            rec.hearing_date = e.at or e.get("hearing")
            rec.anchors["hearing-date"] = [(rec.hearing_date, e)]
    elif t == "hearing-opened":
        if not rec.hearing_opened and "hearing-date" not in rec.anchors:
            rec.anchor("hearing-date", e.date, e)
        if not rec.hearing_opened:
            rec.hearing_opened_on = e.date
        rec.hearing_opened = True
    elif t == "boards-notified":
        if "boards-notified" not in rec.anchors:
            rec.anchor("boards-notified", e.date, e)
    elif t == "board-reported":
        rec.boards_reported.add(e.get("board").strip().lower())
    elif t in ("hearing-closed", "continuance-objected"):
        rec.anchor("hearing-closed", e.date, e)
    elif t in ("permit-issued", "determination-issued"):
        rec.issued = e
        rec.anchor("issuance", e.date, e)
        rec.anchor("final-action", e.date, e)
    elif t == "permit-denied":
        rec.anchor("final-action", e.date, e)
    elif t == "renewal-requested":
        rec.renewal_requested = e
    elif t == "permit-renewed":
        rec.renewals += 1
        rec.renewal_requested = None
        rec.renewed = e
    elif t == "construction-noticed":
        rec.anchor("construction-start", e.get("start"), e)
    elif t == "emergency-work-started":
        rec.emergency = rec.excavated = True
        rec.anchor("emergency-start", e.at, e)
        rec.anchor("open-work", e.date, e)
    elif t == "dig-safe-obtained":
        rec.dig_safe_ticket = e.get("ticket")
        if not rec.excavated:  # a new notice before digging replaces the earlier ticket
            rec.anchors["dig-safe-notice"] = [(e.at or e.date, e)]
    elif t == "patch-noticed":
        rec.anchor("patch-noticed", e.at, e)
    elif t == "work-noticed":
        rec.anchor("work-noticed", e.at, e)
    elif t == "excavation-started":
        rec.excavated = True
        if "open-work" not in rec.anchors:
            rec.anchor("open-work", e.date, e)
    elif t == "backfilled":
        if e.get("material") == "cdf":
            rec.cdf = True
            rec.anchor("cdf-backfill", e.at or e.date, e)
    elif t == "temporary-patch-placed":
        rec.temporary_patch = e.date
        rec.anchor("temporary-patch", e.date, e)
    elif t == "permanent-patch-placed" or (t == "certification-answered" and e.get("granted")):
        rec.permanent_patch = e.date
    elif t == "inspected" and e.get("stage") == "settlement":
        rec.anchor("settlement-inspection", e.date, e)
    elif t == "certification-requested":
        rec.anchor("certification-requested", e.date, e)
    elif t == "suspended":
        rec.anchor("suspended", e.date, e)
        rec.suspended_until = e.date + timedelta(days=e.get("days"))
    elif t == "revocation-hearing-scheduled":
        rec.revocation_hearing = e.get("hearing")
        rec.anchor("revocation-hearing", e.get("hearing"), e)
    elif t == "after-hours-billed":
        rec.anchor("billed", e.date, e)
    elif t == "act-not-applied":
        rec.acts_declined.append(e)
    elif t == "clock-extended":
        rec.extensions[e.get("clock")] = e
