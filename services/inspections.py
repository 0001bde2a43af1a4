"""Record an inspection of a street opening (Canton 16-12 §10.2) from the
DPW's schedule or the command line: its day and time, the stage (one that
fits the permit now), the result, the inspector's notes, the photos, and
on a fail the defect and the day of the re-inspection, which the rule book
counts as the ``re-inspection`` clock.

The photos are checked (JPEG or PNG by their content, within the upload
limit: :meth:`models.store.uploads.Uploads.check_photo`) before anything is
written; each is written under a random name, and the ``inspected`` event
(naming the photos' tokens) with what it causes and the photos' rows
commit in one unit of work, or none of it does (the files are then removed).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from datetime import date, datetime, time

from workflows.errors import PermitsError

__all__ = ["InspectionRefused", "MAX_PHOTOS", "NOTES_MAX", "inspection_event", "record_inspection"]

#: photos one inspection takes
MAX_PHOTOS = 3
#: the longest notes or defect kept
NOTES_MAX = 2000
BYLAW = "Canton 16-12 §10.2"


class InspectionRefused(PermitsError):
    """An inspection the schedule's form cannot record; names the rule."""

    def __init__(self, filing_id: str, message: str):
        self.filing = filing_id
        super().__init__(f"{filing_id}: {message}")


def inspection_event(
    filing_id: str,
    *,
    day: date,
    stage: str,
    result: str,
    at: time | None = None,
    notes: str = "",
    defect: str = "",
    reinspect: date | None = None,
    photos: Sequence[str] = (),
) -> dict:
    """The ``inspected`` event's JSON (docs/reference/filing-format.md); a
    fail must name its defect and the re-inspection day (§10.2)."""
    if result not in ("pass", "fail"):
        raise InspectionRefused(filing_id, f"the result is pass or fail, not {result!r}")
    notes, defect = (notes or "").strip()[:NOTES_MAX], (defect or "").strip()[:NOTES_MAX]
    raw: dict = {"type": "inspected", "date": day.isoformat(), "stage": stage, "result": result}
    if at is not None:
        raw["at"] = datetime.combine(day, at).isoformat(timespec="minutes")
    if notes:
        raw["notes"] = notes
    if result == "fail":
        if not defect or reinspect is None:
            raise InspectionRefused(filing_id, f"a failed inspection names the defect and the day of the re-inspection ({BYLAW})")
        raw["defect"], raw["reinspect"] = defect, reinspect.isoformat()
    elif defect or reinspect is not None:
        raise InspectionRefused(filing_id, f"a defect and a re-inspection day are given only when it fails ({BYLAW})")
    if photos:
        raw["photos"] = list(photos)
    return raw


def record_inspection(
    store,
    uploads,
    filing_id: str,
    *,
    day: date,
    stage: str,
    result: str,
    at: time | None = None,
    notes: str = "",
    defect: str = "",
    reinspect: date | None = None,
    photos: Sequence[tuple[str, bytes]] = (),
    by: str,
    today: date,
    now: datetime,
    mail_from: str,
    expect_seq: int | None = None,
):
    """Record the inspection on ``filing_id`` with its ``photos`` ((file
    name, bytes) each), in one unit of work, as every event is recorded
    (:func:`services.record.record_in`: the deposit ledger, and the
    result emailed to the applicant, ``now`` its date, from ``mail_from``);
    the stage must be one that fits
    the permit now (:func:`workflows.inspections.fitting_stages`).  Returns
    :class:`services.record.Recorded`.  Refused (nothing written):
    InspectionRefused, UploadRefused, the core's TransitionRefused,
    StaleFiling, EventFromTheFuture."""
    from models.read import workbench
    from services.record import record_in
    from services.unit_of_work import UnitOfWork
    from workflows.inspections import STAGE_NAMES, dug, fitting_stages
    from workflows.replay import live_events

    summary = workbench.summary(store, filing_id)
    if summary.kind != "street-opening":
        raise InspectionRefused(filing_id, "only a street opening is inspected from the DPW schedule")
    filing, _ = store.load(filing_id)
    fits = fitting_stages(summary.state, excavated=dug(live_events(filing)))
    if stage not in fits:
        offered = ", ".join(STAGE_NAMES[s] for s in fits) or "none"
        raise InspectionRefused(
            filing_id,
            f"a {STAGE_NAMES.get(stage, repr(stage))} inspection does not fit a permit that is {summary.state!r}; "
            f"the stages that fit now: {offered} ({BYLAW})",
        )
    if len(photos) > MAX_PHOTOS:
        raise InspectionRefused(filing_id, f"at most {MAX_PHOTOS} photos an inspection")
    for name, data in photos:  # every photo checked before anything is written
        uploads.check_photo(name, data)
    with ExitStack() as files:
        staged = [files.enter_context(uploads.staged(name, data, photo=True)) for name, data in photos]
        raw = inspection_event(
            filing_id,
            day=day,
            stage=stage,
            result=result,
            at=at,
            notes=notes,
            defect=defect,
            reinspect=reinspect,
            photos=[s.token for s in staged],
        )

        with UnitOfWork(store) as uow:
            for s in staged:
                uploads.record(uow.conn, s, by=by, filing_id=filing_id)
            recorded, _ = record_in(uow, filing_id, raw, by=by, today=today, now=now, mail_from=mail_from, expect_seq=expect_seq)
        return recorded
