"""Ask for a street opening's next inspection online (Canton 16-12 §10.2)
and read the requests back: the applicant's status page asks
(:func:`ask_inspection`), the DPW schedule lists the open requests of the
user's towns (:func:`requests_for_schedule`), and the inspector records
the inspection against one from the schedule
(:func:`services.inspections.record_inspection`), which answers it.

The rule is the core's (:func:`workflows.inspection_requests.request_event`:
the stage must fit the permit now, through the machine's own rows; the
preferred day must be a business day of the town); the request is an
``inspection-requested`` event recorded in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

__all__ = ["ask_inspection", "stages_to_ask", "requests_of", "requests_for_schedule", "ScheduledRequest"]

STREET = "street-opening"


def _machine(filing):
    from workflows.replay import machine_for
    from workflows.towns import town

    return machine_for(town(filing.town).rules(filing.kind))


def stages_to_ask(filing, state: str) -> tuple[str, ...]:
    """The stages an inspection may be asked for now (none for a filing
    that is not a street opening, or whose machine has no inspections)."""
    from workflows.inspections import dug, fitting_stages
    from workflows.replay import live_events

    if filing.kind != STREET:
        return ()
    return fitting_stages(state, excavated=dug(live_events(filing)), machine=_machine(filing))


def requests_of(filing):
    """Every request of the filing with its answer, if inspected."""
    from workflows.inspection_requests import answered
    from workflows.replay import live_events

    return answered(live_events(filing))


def ask_inspection(
    store,
    filing_id: str,
    *,
    stage: str,
    preferred: date,
    by: str,
    notes: str = "",
    today: date,
    expect_seq: int | None = None,
):
    """Record that ``by`` (the applicant's account, or its contractor's)
    asks for the inspection of ``stage`` on ``preferred``.  Returns
    :class:`services.record.Recorded`.  Refused, nothing written:
    InspectionRequestRefused (not a street opening, a stage that does not
    fit, a day that is not a business day or has passed, a request of that
    stage open already), StaleFiling."""
    from services.record import Recorded
    from workflows.inspection_requests import InspectionRequestRefused, request_event
    from workflows.replay import live_events
    from workflows.towns import town

    filing, row = store.load(filing_id)
    if filing.kind != STREET:
        raise InspectionRequestRefused(filing_id, "only a street opening's inspections are asked for online")
    raw = request_event(
        filing_id,
        state=row.state,
        stage=stage,
        preferred=preferred,
        today=today,
        calendar=town(filing.town).calendar,
        by=by,
        notes=notes,
        machine=_machine(filing),
        events=live_events(filing),
    )
    from .record import record_in
    from .unit_of_work import UnitOfWork

    with UnitOfWork(store) as uow:
        (seq, state), _ = record_in(uow, filing_id, raw, by=by, expect_seq=expect_seq, today=today)
    return Recorded(seq, state)


@dataclass(frozen=True)
class ScheduledRequest:
    """An open request as the DPW schedule lists it: the filing, its site,
    its sequence number (for the recording form) and the stages that fit."""

    filing: str
    town: str
    address: str
    last_seq: int
    request: object
    stages: tuple[str, ...]


def requests_for_schedule(store, *, towns: Sequence[str] | None) -> list[ScheduledRequest]:
    """The open requests of the street openings of ``towns`` (None: all),
    the earliest preferred day first."""
    from models.read.inspection_requests import requested_filings
    from workflows.inspection_requests import open_requests
    from workflows.replay import live_events

    out = []
    for fid in requested_filings(store.engine, towns=towns):
        filing, row = store.load(fid)
        pending = open_requests(live_events(filing))
        if not pending:
            continue
        stages = stages_to_ask(filing, row.state)
        for r in pending:
            site = row.address or filing.extra.get("address") or ""  # the permit's site, however it was filed
            out.append(ScheduledRequest(fid, filing.town, site, row.last_seq, r, stages))
    out.sort(key=lambda s: (s.request.preferred, s.filing))
    return out
