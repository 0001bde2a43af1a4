"""An application filed online, before the town has found it complete.

    submitted          (start) -> submitted    the applicant's application, sent online;
                       submitted -> submitted  sent again after the town found it incomplete
    found-incomplete   submitted -> (stays)    the town's reasons, which go to the applicant
    filed              submitted -> filed      the town finds it complete (street opening:
                                               applied): the day of receipt of a complete
                                               application, from which the clocks count

No clock starts while a filing is ``submitted``: every clock of the rule
book counts from the receipt of a *complete* application or a later act
(Canton 15-5 "receipt of a completed application"; Saugus 508.08 §5.2
"receipt of the completed NOI"; Mansfield 25 §7.D "completeness is
determined first"), and the receipt of a complete application is the
``filed`` event staff record, not the submission.  A decision, a hearing or
a permit is refused while the filing is ``submitted``.

On paper the same thing is ``filed`` with ``complete: false`` then
``deemed-complete``; that path still works, and ``filed`` with
``complete: false`` after ``submitted`` means the same as it does on paper.

Pure: no I/O; the day is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from .errors import MalformedEvent
from .filing import VOID, Filing
from .machine import START
from .machine import Transition as T

__all__ = [
    "SUBMITTED",
    "submission_rows",
    "Submission",
    "submission_of",
    "complete_event",
    "incomplete_event",
    "submitted_event",
]

SUBMITTED = "submitted"


def submission_rows(submitted: str) -> tuple[T, ...]:
    """The rows every machine shares for an online application."""
    return (
        T("submitted", (START, submitted), submitted),
        T("found-incomplete", (submitted,), None),
    )


@dataclass(frozen=True)
class Submission:
    """Where an online application stands, read from its history.

    ``submitted_on``: the latest submission; ``incomplete_on`` and
    ``reasons``: the town's latest finding that it is incomplete, if none
    came after it (a new submission answers it); ``complete_on``: the day of
    receipt of the complete application (the ``filed`` event), if recorded."""

    online: bool
    submitted_on: date | None = None
    incomplete_on: date | None = None
    reasons: str | None = None
    complete_on: date | None = None

    @property
    def awaiting_applicant(self) -> bool:
        """Sent back as incomplete; the applicant is to submit again."""
        return self.online and self.complete_on is None and self.incomplete_on is not None


def submission_of(filing: Filing) -> Submission:
    """The submission's standing from the filing's live events (voided ones
    left out), in date order as the replay takes them."""
    voided = {e.get("voids") for e in filing.events if e.type == VOID}
    live = sorted((e for e in filing.events if e.type != VOID and e.position not in voided), key=lambda e: (e.date, e.position))
    if not live or live[0].type != "submitted":
        return Submission(online=False)
    submitted_on = incomplete_on = reasons = complete_on = None
    for e in live:
        if e.type == "submitted" and complete_on is None:
            submitted_on, incomplete_on, reasons = e.date, None, None
        elif e.type == "found-incomplete" and complete_on is None:
            incomplete_on, reasons = e.date, e.get("reasons")
        elif e.type in ("filed", "deemed-complete") and complete_on is None:
            if e.type == "deemed-complete" or e.get("complete", True):
                complete_on, incomplete_on, reasons = e.date, None, None
    return Submission(True, submitted_on, incomplete_on, reasons, complete_on)


def _day(day: date) -> str:
    if not isinstance(day, date):
        raise MalformedEvent(f"{day!r} is not a date")
    return day.isoformat()


def submitted_event(day: date) -> dict[str, Any]:
    return {"type": "submitted", "date": _day(day)}


def complete_event(day: date) -> dict[str, Any]:
    """Staff find the application complete on ``day``: the day of receipt of
    a complete application, from which the clocks count."""
    return {"type": "filed", "date": _day(day)}


def incomplete_event(day: date, reasons: str) -> Mapping[str, Any]:
    """Staff find the application incomplete on ``day``, for ``reasons``
    (which go to the applicant); no clock starts."""
    text = reasons.strip() if isinstance(reasons, str) else ""
    if not text:
        raise MalformedEvent("an application found incomplete needs its reasons, for the applicant to put right")
    return {"type": "found-incomplete", "date": _day(day), "reasons": text}
