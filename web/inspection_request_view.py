"""A street opening's inspections asked for online, as the pages show
them: the status page's section (the requests with their answers, the
results, the stages that may be asked for now: :func:`request_section`)
and the DPW schedule's open requests (:func:`schedule_requests`).  The
asking route is :mod:`web.applicant.inspection_request_pages`."""

from __future__ import annotations

__all__ = ["request_section", "schedule_requests"]


def request_section(filing, state: str) -> dict:
    """The status page's inspections: the requests with their answers,
    the inspections recorded with their results, and the stages that may
    be asked for now (empty: none, or not a street opening)."""
    from services.inspection_requests import requests_of, stages_to_ask
    from workflows.inspections import STAGE_NAMES
    from workflows.replay import live_events

    if filing.kind != "street-opening":
        return {"inspection_requests": None}
    inspected = [
        {
            "date": e.date,
            "stage": STAGE_NAMES.get(e.get("stage"), ""),
            "result": e.get("result"),
            "defect": e.get("defect") or "",
            "reinspect": e.get("reinspect"),
        }
        for e in live_events(filing)
        if e.type == "inspected"
    ]
    return {
        "inspection_requests": requests_of(filing),
        "inspections_done": inspected,
        "ask_stages": [(s, STAGE_NAMES[s]) for s in stages_to_ask(filing, state)],
    }


def schedule_requests(store, towns) -> list:
    """The open requests of ``towns`` (None: all) for the DPW schedule."""
    from services.inspection_requests import requests_for_schedule

    return requests_for_schedule(store, towns=towns)
