"""A street opening's inspection asked for online (Canton 16-12 §10.2):
the applicant or its contractor asks for the inspection of a stage that
fits the permit now (the stages are the machine's own:
:func:`workflows.inspections.fitting_stages`), on a preferred day that is
a business day of the town (a Saturday, a Sunday or a legal holiday is
refused in words, with its name).  The request is an
``inspection-requested`` event; it stays open until an inspection of its
stage is recorded after it (``inspected``), which answers it.

Pure: no I/O; the day and the town's calendar are passed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from .errors import PermitsError
from .inspections import STAGE_NAMES, fitting_stages
from .street_opening import preferred_day_problem

__all__ = ["REQUESTED", "NOTES_MAX", "InspectionRequestRefused", "Request", "request_event", "open_requests", "answered"]

REQUESTED = "inspection-requested"
BYLAW = "Canton 16-12 §10.2"
#: the longest note for the inspector kept
NOTES_MAX = 500


class InspectionRequestRefused(PermitsError):
    """An inspection that cannot be asked for as given; names the rule."""

    def __init__(self, filing_id: str, message: str):
        self.filing = filing_id
        super().__init__(f"{filing_id}: {message}")


@dataclass(frozen=True)
class Request:
    """An ``inspection-requested`` event read back, with its answer (the
    ``inspected`` event of its stage recorded after it), if any."""

    position: int
    asked_on: date
    stage: str
    preferred: date
    by: str
    notes: str
    result: str | None = None
    inspected_on: date | None = None

    @property
    def stage_name(self) -> str:
        return STAGE_NAMES.get(self.stage, self.stage)


def request_event(
    filing_id: str,
    *,
    state: str,
    stage: str,
    preferred: date,
    today: date,
    calendar,
    by: str,
    notes: str = "",
    machine=None,
    events: Iterable = (),
) -> dict:
    """The ``inspection-requested`` event's JSON, checked: ``stage`` fits a
    permit in ``state`` (``machine``: the filing's; None, Canton's street
    opening), ``preferred`` is ``today`` or later and a business day of
    ``calendar`` (a :class:`calendars.BusinessCalendar`), and no request of
    that stage is open among ``events`` (the filing's live events)."""
    fits = fitting_stages(state, machine=machine) if machine is not None else fitting_stages(state)
    if stage not in fits:
        offered = ", ".join(STAGE_NAMES[s] for s in fits) or "none"
        raise InspectionRequestRefused(
            filing_id,
            f"an inspection of the {STAGE_NAMES.get(stage, 'stage given')} does not fit the permit now; "
            f"the stages that fit: {offered} ({BYLAW})",
        )
    problem = preferred_day_problem(preferred, today, calendar)  # the machine's guard holds it on every path too
    if problem is not None:
        raise InspectionRequestRefused(filing_id, problem)
    if any(r.stage == stage and r.result is None for r in open_requests(events)):
        raise InspectionRequestRefused(filing_id, f"an inspection of the {STAGE_NAMES[stage]} is already asked for")
    raw = {"type": REQUESTED, "date": today.isoformat(), "stage": stage, "preferred": preferred.isoformat(), "by": by}
    notes = " ".join((notes or "").split())[:NOTES_MAX]
    if notes:
        raw["notes"] = notes
    return raw


def answered(events: Iterable) -> list[Request]:
    """Every request among ``events`` (live, in order), each with the
    first inspection of its stage recorded after it."""
    out: list[Request] = []
    for e in events:
        if e.type == REQUESTED:
            out.append(
                Request(e.position, e.date, e.get("stage"), _day(e.get("preferred")), e.get("by") or "", e.get("notes") or "")
            )
        elif e.type == "inspected":
            for i, r in enumerate(out):
                if r.result is None and r.stage == e.get("stage"):
                    out[i] = Request(r.position, r.asked_on, r.stage, r.preferred, r.by, r.notes, e.get("result"), e.date)
                    break
    return out


def _day(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def open_requests(events: Iterable) -> list[Request]:
    """The requests among ``events`` no inspection has answered yet."""
    return [r for r in answered(events) if r.result is None]
