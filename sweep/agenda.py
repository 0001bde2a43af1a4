"""What the morning needs to know (the sweep's agenda), from replayed filings: pure functions.

Every function here reads a filing's :class:`~workflows.replay.Replay`
(duck-typed: ``.town .kind .id .state .clocks``, each clock with ``.id .type
.date .at .status .rule .explanation``) and an ``as_of`` date, and returns
plain values.  No clock, no disk, no Prefect, no Jinja:

- :func:`docket_entries`: the filing's lines of the docket digest
  (overdue, due soon, may act from, expiring, met late);
- :func:`inspection_schedule`: a street opening's lines of the DPW
  inspection schedule for the coming weeks;
- :func:`reminders_due`: reminders for clocks coming due (renewal requests,
  appeal periods ending, permits expiring), each with a stable key;
- :func:`notices_due`: the notice kinds now due, each with a stable key,
  decided from the state, the clocks and the recent events.

A key names the output once and for all (``notice:hearing-notice:2026-12-15``):
the sweep records it on the filing when the output is made and never makes
it again.  A moved clock (a continuance, an extension) gives a new key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from workflows.departments import PATCH_INSPECTION, department_of, pending_patch_inspection
from workflows.docket import VIOLATIONS, is_optional

__all__ = [
    "patch_inspection_entry",
    "Entry",
    "docket_entries",
    "inspection_schedule",
    "Reminder",
    "reminders_due",
    "NoticeDue",
    "notices_due",
    "notice_occasion",
    "TERMINAL_STATES",
    "DUE_WITHIN_DAYS",
    "SCHEDULE_DAYS",
    "REMINDER_LEAD_DAYS",
    "CLOCK_NOTICES",
    "EVENT_NOTICES",
    "is_open",
]


def _final_states() -> dict[str, frozenset]:
    from workflows.replay import MACHINES

    return {kind: frozenset(m.final) for kind, m in MACHINES.items()}


#: Per kind, the states after which nothing more is due (the machines' final
#: states): the sweep records them and skips the rest.
TERMINAL_STATES: dict[str, frozenset] = _final_states()

#: The docket shows deadlines due within this many days of ``as_of``.
DUE_WITHIN_DAYS = 14
#: The DPW inspection schedule looks this far ahead ("the coming weeks").
SCHEDULE_DAYS = 42
#: Reminders go out this many days before the clock's date.
REMINDER_LEAD_DAYS = {"renewal-request": 45, "appeal-period": 10, "permit-expiry": 60}


def is_open(replay) -> bool:
    return str(replay.state) not in TERMINAL_STATES.get(replay.kind, ())


def _day(value) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def _base(clock_id: str) -> str:
    """``wpa:decision`` -> ``decision``: the clock, whatever jurisdiction."""
    return clock_id.rsplit(":", 1)[-1]


@dataclass(frozen=True)
class Entry:
    """One line of a docket or of the inspection schedule."""

    town: str
    department: str
    filing: str
    kind: str
    state: str
    category: str  # violation | overdue | due | waiting | expiring | late | inspection
    what: str  # the clock id, or the inspection's name
    date: str
    days: int  # date - as_of: negative when overdue
    status: str
    rule: str
    explanation: str
    at: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))  # every field a scalar: asdict's deep copy was a tenth of the report


def _entry(replay, clock, category: str, as_of: date, what: str | None = None) -> Entry:
    day = _day(clock.date)
    at = getattr(clock, "at", None)
    return Entry(
        town=replay.town,
        department=department_of(replay.kind),
        filing=replay.id,
        kind=replay.kind,
        state=str(replay.state),
        category=category,
        what=what or clock.id,
        date=day.isoformat(),
        days=(day - as_of).days,
        status=clock.status,
        rule=clock.rule,
        explanation=clock.explanation,
        at=(at.isoformat(timespec="minutes") if hasattr(at, "isoformat") and not isinstance(at, str) else at),
    )


def docket_entries(replay, as_of: date, due_within: int = DUE_WITHIN_DAYS) -> list[Entry]:
    """The filing's docket lines on ``as_of``:

    - ``overdue``: a deadline passed and not met;
    - ``due``: a deadline open and falling within ``due_within`` days;
    - ``waiting``: an earliest date still ahead within that window (the
      board may not act before it);
    - ``expiring``: a permit or patch expiry within twice that window;
    - ``late``: a deadline met after its date (a late decision may be
      without effect: Oyster Creek v. Harwich);
    - ``violation``: an act on record done before its earliest day
      (``premature``) or without leave (``violated``: work on an expired
      street permit, excavation with no work notice), whatever its date.

    A deadline the holder may let pass (``renewal-request``,
    the rule book's ``optional``) is shown only while open, as the
    store's docket shows it."""
    horizon = as_of + timedelta(days=due_within)
    out: list[Entry] = []
    for c in replay.clocks:
        day = _day(c.date)
        if c.status == "overdue" and is_optional(replay.town, replay.kind, c.id):
            continue  # a renewal not asked for: the permit simply expires
        if c.status in VIOLATIONS:
            out.append(_entry(replay, c, "violation", as_of))
        elif c.status == "overdue":
            out.append(_entry(replay, c, "overdue", as_of))
        elif c.status in ("open", "unknown") and day <= horizon:
            out.append(_entry(replay, c, "due", as_of))  # unknown: the record lacks a fact the clock needs
        elif c.status == "waiting" and day <= horizon:
            out.append(_entry(replay, c, "waiting", as_of))
        elif c.status == "active" and day <= as_of + timedelta(days=2 * due_within):
            out.append(_entry(replay, c, "expiring", as_of))
        elif c.status == "late":
            out.append(_entry(replay, c, "late", as_of))
    return out


#: Street-opening clocks on the DPW schedule: clock id -> (what the crew
#: does, the statuses that put it on the schedule).
_SCHEDULE_CLOCKS = {
    "permanent-patch-window-opens": ("permanent patch window opens: inspect during the window", ("waiting",)),
    "permanent-patch-window-closes": ("permanent patch window closes", ("open", "overdue")),
    "winter-patch": ("winter preparation patch due before December 1", ("open", "overdue", "unknown")),
    "temporary-patch-maintenance": ("temporary patch maintenance year ends", ("active",)),
    "suspension-ends": ("suspension ends", ("active",)),
    "permit-expiry": ("permit expires", ("active",)),
    "cdf-cure": ("flowable fill cured: permanent patch and inspection", ("waiting",)),
    "dig-safe-wait": ("Dig Safe 72 hours run: excavation may start", ("waiting",)),
    "dig-safe-expiry": ("Dig Safe ticket expires (220 CMR 99.07(2))", ("active",)),
    "repair-liability": ("the permittee's year of repairs ends: inspect the street (Mansfield Ch. 5 §V)", ("active",)),
}


#: Street-opening states before any excavation: the Dig Safe clocks matter then.
_BEFORE_DIGGING = ("applied", "issued")


def inspection_schedule(replay, as_of: date, events: Iterable = (), within: int = SCHEDULE_DAYS) -> list[Entry]:
    """A street opening's lines of the DPW schedule (Canton 16-12 §10.2,
    §11.3, §11.4, §12) for the ``within`` days after ``as_of``; overdue
    items stay on it whatever their date.

    ``events`` (the filing's :class:`~workflows.filing.Event` values) add the
    inspection after a temporary patch not yet inspected
    (:func:`patch_inspection_entry`)."""
    if replay.kind != "street-opening":
        return []
    horizon = as_of + timedelta(days=within)
    out: list[Entry] = []
    for c in replay.clocks:
        spec = _SCHEDULE_CLOCKS.get(_base(c.id))
        if spec is None or c.status not in spec[1]:
            continue
        if _base(c.id).startswith("dig-safe") and str(replay.state) not in _BEFORE_DIGGING:
            continue  # the ticket has done its work once the excavation has started
        day = _day(c.date)
        if c.status == "overdue" or day <= horizon:
            out.append(_entry(replay, c, "inspection", as_of, what=spec[0]))
    patch = patch_inspection_entry(replay.town, replay.id, str(replay.state), events, as_of)
    if patch is not None:
        out.append(patch)
    return sorted(out, key=lambda e: (e.date, e.what))


def patch_inspection_entry(town_id: str, filing_id: str, state: str, events: Iterable, as_of: date) -> Entry | None:
    """The DPW's inspection of a temporary patch not yet inspected
    (:func:`workflows.departments.pending_patch_inspection`), as a schedule
    line: on the first business day from the day the patch was placed, by
    the town's own section (Canton 16-12 §10.2:
    :attr:`~workflows.rulebook.PermitRules.patch_inspection`); None when no
    patch waits or the town's by-law sets no such inspection.  The sweep's
    schedule and the workbench's both take it from here."""
    from workflows.towns import town

    patched = pending_patch_inspection(events)
    if patched is None:
        return None
    profile = town(town_id)
    rule = profile.rules("street-opening").patch_inspection
    if not rule:
        return None
    inspect_on = profile.calendar.roll_forward(patched.date)
    return Entry(
        town=town_id,
        department=department_of("street-opening"),
        filing=filing_id,
        kind="street-opening",
        state=state,
        category="inspection",
        what=PATCH_INSPECTION,
        date=inspect_on.isoformat(),
        days=(inspect_on - as_of).days,
        status="open" if inspect_on >= as_of else "overdue",
        rule=rule,
        explanation=f"inspection after the temporary patch placed {patched.date.isoformat()}",
    )


@dataclass(frozen=True)
class Reminder:
    filing: str
    town: str
    department: str
    clock: str
    date: str
    key: str
    text: str
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))  # every field a scalar: asdict's deep copy was a tenth of the report


def reminders_due(replay, as_of: date, lead: dict[str, int] | None = None) -> list[Reminder]:
    """Reminders for clocks coming due: an open ``renewal-request``, an open
    ``appeal-period`` or an ``active`` ``permit-expiry`` whose date is
    within its lead time (:data:`REMINDER_LEAD_DAYS`) and not past.  The
    key carries the clock's date, so a renewal that moves the expiry gives
    a new reminder, and the same one is never sent twice."""
    lead = REMINDER_LEAD_DAYS if lead is None else lead
    out = []
    for c in replay.clocks:
        base = _base(c.id)
        if base not in lead or c.status not in ("open", "active"):
            continue
        if replay.kind == "street-opening" and base == "permit-expiry":
            continue  # 30-day street permits are on the DPW schedule instead
        day = _day(c.date)
        if not as_of <= day <= as_of + timedelta(days=lead[base]):
            continue
        text = {
            "renewal-request": f"ask for renewal in writing by {day.isoformat()}",
            "appeal-period": f"appeal period ends {day.isoformat()}; no work until it has ended",
            "permit-expiry": f"permit expires at the end of {day.isoformat()}",
        }[base]
        out.append(
            Reminder(
                replay.id,
                replay.town,
                department_of(replay.kind),
                c.id,
                day.isoformat(),
                f"reminder:{c.id}:{day.isoformat()}",
                text,
                c.rule,
            )
        )
    return out


@dataclass(frozen=True)
class NoticeDue:
    filing: str
    town: str
    kind: str  # the notice kind, as the notices module names its templates
    key: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))  # every field a scalar: asdict's deep copy was a tenth of the report


#: Notices due while a clock runs: (notice kind, clock id, statuses, filing
#: states or None for any).  Due from the day the clock starts until it is
#: met; a memo asking the boards to comment is pointless once the hearing
#: has closed.  Kinds are the notices
#: module's ids (``permits notices --list``); the abutter notice needs an
#: abutter list and is made by hand, not by the sweep.
_BEFORE_CLOSE = ("filed", "hearing-scheduled", "hearing-open")

CLOCK_NOTICES = (
    ("legal-notice", "newspaper-notice", ("open", "overdue"), None),
    ("legal-notice", "hearing-notice", ("open", "overdue"), None),
    ("hearing-posting", "hearing-posting", ("open", "overdue"), None),
    ("board-memo", "board-comment", ("waiting",), _BEFORE_CLOSE),
    ("board-memo", "board-reports", ("waiting",), _BEFORE_CLOSE),
    ("settlement-answer", "settlement-answer", ("open", "overdue"), None),
    ("revocation-hearing", "revocation-notice", ("open", "overdue"), None),
)

_WETLANDS = ("noi", "rda", "land-disturbance")
_PERMITS = ("noi", "land-disturbance")
_STREET = ("street-opening",)

#: Notices due because something happened: (notice kind, event types,
#: permit kinds).  Only the latest such event, and only within
#: ``EVENT_LOOKBACK_DAYS`` of ``as_of``: a first sweep of an old store does
#: not mail every decision of the last three years.
EVENT_NOTICES = (
    ("permit", ("permit-issued",), _PERMITS),
    ("denial", ("permit-denied",), _PERMITS),
    ("determination", ("determination-issued",), ("rda",)),
    ("certificate-of-compliance", ("certificate-issued",), ("noi",)),
    ("certificate-denial", ("certificate-denied",), ("noi",)),
    ("certificate-of-completion", ("certificate-issued",), ("land-disturbance",)),
    ("street-permit", ("permit-issued",), _STREET),
    ("street-refusal", ("permit-denied",), _STREET),
    ("inspection-result", ("inspected",), _STREET),
    ("certification-answer", ("certification-answered",), _STREET),
    ("suspension", ("suspended",), _STREET),
    ("after-hours-invoice", ("after-hours-billed",), _STREET),
    ("deposit-refund", ("deposit-refunded",), _STREET),
)
EVENT_LOOKBACK_DAYS = 30


def notice_occasion(replay, kind: str, events: Iterable = ()) -> str:
    """The occasion a notice of ``kind`` is for, as :func:`notices_due` keys
    it, whatever its clock's status now: the date of its clock (the one the
    sweep would make it for now, else the first), or ``event-N`` for the
    latest event that calls for it; ``""`` when it has neither.  A notice
    made by hand and one the sweep makes are then the same notice
    (:mod:`services.notices`)."""
    found = []
    for k, clock_id, statuses, _ in CLOCK_NOTICES:
        if k != kind:
            continue
        for c in replay.clocks:
            if _base(c.id) == clock_id:
                found.append((c.status not in statuses, len(found), _day(c.date).isoformat()))
    if found:
        return min(found)[2]
    for k, types, permit_kinds in EVENT_NOTICES:
        if k == kind and replay.kind in permit_kinds:
            latest = None
            for e in events:
                if e.type in types:
                    latest = e
            if latest is not None:
                return f"event-{latest.position}"
    return ""


def notices_due(replay, as_of: date, events: Iterable = (), lookback: int = EVENT_LOOKBACK_DAYS) -> list[NoticeDue]:
    """The notices now due for the filing, each keyed once and for all:
    by the clock's date for a clock notice (a hearing moved to another date
    needs a new notice), by the event's position for an event notice (the
    latest event of its type, within ``lookback`` days)."""
    out: list[NoticeDue] = []
    seen = set()
    by_base = {}
    for c in replay.clocks:
        by_base.setdefault(_base(c.id), []).append(c)
    for kind, clock_id, statuses, states in CLOCK_NOTICES:
        if states is not None and str(replay.state) not in states:
            continue
        for c in by_base.get(clock_id, ()):
            if c.status in statuses:
                day = _day(c.date).isoformat()
                key = f"notice:{kind}:{day}"
                if key not in seen:
                    seen.add(key)
                    out.append(NoticeDue(replay.id, replay.town, kind, key, f"{c.id} {c.status}, due {day} ({c.rule})"))
    since = as_of - timedelta(days=lookback)
    latest = {}
    for e in events:
        latest[e.type] = e
    for kind, types, permit_kinds in EVENT_NOTICES:
        if replay.kind not in permit_kinds:
            continue
        for t in types:
            e = latest.get(t)
            if e is not None and since <= e.date <= as_of:
                out.append(
                    NoticeDue(
                        replay.id,
                        replay.town,
                        kind,
                        f"notice:{kind}:event-{e.position}",
                        f"{e.type} on {e.date.isoformat()} (event {e.position})",
                    )
                )
    return out
