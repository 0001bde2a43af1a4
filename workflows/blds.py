"""Open permit data in BLDS, the Building and Land Development
Specification (version 1.2, permitdata.org): a filing as a row of the core
Permits dataset, its inspections as rows of the Inspections dataset and
its status changes as rows of the Permit Status Change dataset, in BLDS's
own field names.  Pure: the caller passes the filing, its replay, its
state trail (:func:`workflows.replay.state_trail`) and the facts the record
keeps beside it (the parcel's point, the fee).

What is published is what a Conservation Commission's and a DPW's public
record holds (the filing, its site, its decision's dates, its status, the
fee): never an email address, a telephone number, a payment, an upload or
an enforcement case.  docs/reference/open-data.md tells a town's GIS how
each field is filled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

__all__ = [
    "PERMIT_FIELDS",
    "PERMIT_REQUIRED",
    "INSPECTION_FIELDS",
    "INSPECTION_REQUIRED",
    "STATUS_CHANGE_FIELDS",
    "STATUS_MAPPED",
    "PERMIT_TYPE_DESC",
    "permit_row",
    "inspection_rows",
    "status_change_rows",
]

#: the core Permits dataset's required fields (AppliedDate or IssuedDate,
#: CompletedDate or StatusCurrent: each pair's first that the record has)
PERMIT_REQUIRED = (
    "PermitNum",
    "Description",
    "AppliedDate",
    "IssuedDate",
    "CompletedDate",
    "StatusCurrent",
    "OriginalAddress1",
    "OriginalAddress2",
    "OriginalCity",
    "OriginalState",
    "OriginalZip",
)
#: every field published, in BLDS's order: the required, then the recommended and optional ones the record fills
PERMIT_FIELDS = (
    *PERMIT_REQUIRED,
    "Jurisdiction",
    "StatusCurrentMapped",
    "PermitType",
    "PermitTypeMapped",
    "PermitTypeDesc",
    "StatusDate",
    "Latitude",
    "Longitude",
    "PIN",
    "ContractorCompanyName",
    "ExpiresDate",
    "VoidDate",
    "Publisher",
    "Fee",
    "ExtraFields",
)
#: the Inspections dataset's required fields (ScheduledDate or InspectedDate)
INSPECTION_REQUIRED = ("PermitNum", "InspType", "InspTypeMapped", "Result", "ResultMapped", "ScheduledDate", "InspectedDate")
INSPECTION_FIELDS = (*INSPECTION_REQUIRED, "InspectionNotes", "Description", "Final", "ReInspection", "ExtraFields")
#: the Permit Status Change dataset: the status a permit left, on which day, and (ours) the one it entered
STATUS_CHANGE_FIELDS = (
    "PermitNum",
    "StatusPrevious",
    "StatusPreviousDate",
    "StatusPreviousMapped",
    "StatusNew",
    "StatusNewMapped",
    "StatusChangeDate",
)

#: the permit kinds as BLDS's PermitTypeDesc reads them
PERMIT_TYPE_DESC = {
    "noi": "Notice of Intent (Wetlands Protection Act, M.G.L. c.131 §40, and the town's wetlands by-law)",
    "rda": "Request for Determination of Applicability (Wetlands Protection Act and the town's wetlands by-law)",
    "land-disturbance": "Land Disturbance Permit (the town's stormwater by-law)",
    "street-opening": "Street Opening Permit (the town's street excavation by-law)",
}
#: BLDS's standard permit types: a stormwater permit is its Grading; none names wetlands or street openings
PERMIT_TYPE_MAPPED = {"land-disturbance": "Grading"}

_ACCEPTED, _REVIEW, _ISSUED, _INSPECTION = "Application Accepted", "In Review", "Permit Issued", "Inspection Phase"
_FINALED, _CANCELLED = "Permit Finaled", "Permit Cancelled"
#: each state as BLDS's StatusCurrentMapped (docs/reference/open-data.md says why each)
STATUS_MAPPED: Mapping[str, str] = {
    "submitted": _ACCEPTED,
    "incomplete": _ACCEPTED,
    "filed": _ACCEPTED,
    "applied": _ACCEPTED,
    "emergency-work": _REVIEW,
    "hearing-scheduled": _REVIEW,
    "hearing-open": _REVIEW,
    "hearing-closed": _REVIEW,
    "issued": _ISSUED,
    "renewed": _ISSUED,
    "negative-determination": _ISSUED,
    "positive-determination": _FINALED,
    "excavating": _INSPECTION,
    "backfilled": _INSPECTION,
    "temporary-patch": _INSPECTION,
    "permanent-patch": _INSPECTION,
    "final-inspected": _FINALED,
    "restored": _FINALED,
    "closed": _FINALED,
    "certified": _FINALED,
    "completed": _FINALED,
    "denied": _CANCELLED,
    "revoked": _CANCELLED,
    "withdrawn": _CANCELLED,
}
#: the events that issue a permit or a determination (IssuedDate)
_ISSUING = ("permit-issued", "determination-issued")
#: the states a permit is complete in (CompletedDate: the day it entered the first)
_COMPLETE = ("certified", "completed", "final-inspected", "restored", "closed", "positive-determination")
#: the inspection stages as BLDS's InspTypeMapped reads them (Canton 16-12 §10.2 a-d)
_INSPECTION_MAPPED = {
    "pre-backfill": "Trench - Prior to Backfill",
    "temporary-patch": "Temporary Patch",
    "settlement": "Settlement of the Patch",
    "permanent-patch": "Final - Permanent Patch",
}


def _day(value) -> str:
    return value.isoformat() if isinstance(value, date) else ""


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _site(filing) -> tuple[str, str]:
    """(street address, ZIP) of the filing's site, as filed."""
    import re

    extra = filing.extra
    site = extra.get("site") if isinstance(extra.get("site"), Mapping) else {}
    address = _text(extra.get("address")) or _text(site.get("address"))
    zip_code = _text(site.get("zip"))
    if not zip_code:
        found = re.search(r"\b(0[0-9]{4})(?:-[0-9]{4})?\s*$", address)
        zip_code = found.group(1) if found else ""
    return address, zip_code


def _description(filing, kind_desc: str, address: str) -> str:
    extra = filing.extra
    project = extra.get("project") if isinstance(extra.get("project"), Mapping) else {}
    application = extra.get("application") if isinstance(extra.get("application"), Mapping) else {}
    said = _text(project.get("description")) or _text(extra.get("description")) or _text(application.get("description"))
    return said or f"{kind_desc.split(' (')[0]}{', ' + address if address else ''}"


def permit_row(
    filing,
    replay,
    trail: Sequence,
    *,
    town_name: str,
    stage_words: str,
    parcel: str = "",
    point: tuple[float, float] | None = None,
    fee_dollars: int | None = None,
    massdep_file: str | None = None,
    events: Sequence = (),
) -> dict:
    """The filing as a row of BLDS's core Permits dataset: ``trail`` its
    state changes, ``stage_words`` its state in people's words (the raw
    StatusCurrent), ``point`` the parcel's (longitude, latitude), ``events``
    its live events."""
    address, zip_code = _site(filing)
    kind = filing.kind
    applied = next((e.date for e in events if e.type in ("filed", "submitted")), None) or (events[0].date if events else None)
    issued = next((e.date for e in events if e.type in _ISSUING), None)
    completed = next((e.date for e, _, entered in trail if entered in _COMPLETE), None)
    voided = next((e.date for e, _, entered in trail if entered in ("withdrawn", "revoked")), None)
    expiry = replay.clock("permit-expiry")
    contractor = filing.extra.get("contractor")
    extra = {"Town": town_name, "HeardUnder": list(getattr(filing, "also", ()) or ())}
    if massdep_file:
        extra["MassDEPFileNumber"] = massdep_file
    return {
        "PermitNum": filing.id,
        "Description": _description(filing, PERMIT_TYPE_DESC[kind], address),
        "AppliedDate": _day(applied),
        "IssuedDate": _day(issued),
        "CompletedDate": _day(completed),
        "StatusCurrent": stage_words,
        "OriginalAddress1": address,
        "OriginalAddress2": "",
        "OriginalCity": town_name,
        "OriginalState": "MA",
        "OriginalZip": zip_code,
        "Jurisdiction": f"{town_name}, Massachusetts",
        "StatusCurrentMapped": STATUS_MAPPED.get(str(replay.state), ""),
        "PermitType": kind,
        "PermitTypeMapped": PERMIT_TYPE_MAPPED.get(kind, ""),
        "PermitTypeDesc": PERMIT_TYPE_DESC[kind],
        "StatusDate": _day(events[-1].date) if events else "",
        "Latitude": round(point[1], 6) if point else "",
        "Longitude": round(point[0], 6) if point else "",
        "PIN": parcel,
        "ContractorCompanyName": _text(contractor.get("name")) if isinstance(contractor, Mapping) else _text(contractor),
        "ExpiresDate": _day(expiry.date) if expiry is not None and expiry.type == "expiry" else "",
        "VoidDate": _day(voided),
        "Publisher": f"Town of {town_name}",
        "Fee": fee_dollars if fee_dollars is not None else "",
        "ExtraFields": extra,
    }


def inspection_rows(filing, events: Sequence, stage_names: Mapping[str, str]) -> list[dict]:
    """Each inspection recorded on a street opening (an ``inspected``
    event) as a row of BLDS's Inspections dataset."""
    rows = []
    for e in events:
        if e.type != "inspected":
            continue
        stage, result = str(e.get("stage") or ""), str(e.get("result") or "")
        reinspect = e.get("reinspect")
        rows.append(
            {
                "PermitNum": filing.id,
                "InspType": stage,
                "InspTypeMapped": _INSPECTION_MAPPED.get(stage, stage_names.get(stage, stage)),
                "Result": result,
                "ResultMapped": {"pass": "Passed", "fail": "Rejected"}.get(result, result),
                "ScheduledDate": "",
                "InspectedDate": _day(e.date),
                "InspectionNotes": _text(e.get("defect")) if result == "fail" else "",
                "Description": stage_names.get(stage, stage),
                "Final": "Yes" if stage == "permanent-patch" else "No",
                "ReInspection": "Yes" if reinspect else "No",
                "ExtraFields": {"ReInspectionDate": str(reinspect)} if reinspect else {},
            }
        )
    return rows


def status_change_rows(filing, trail: Sequence, stage_name) -> list[dict]:
    """Each change of the filing's state after its first, as a row of
    BLDS's Permit Status Change dataset: the status it left and since when,
    the one it entered and on which day; ``stage_name(kind, state)`` gives a
    state's words."""
    rows = []
    since = None
    for e, left, entered in trail:
        if since is not None:
            rows.append(
                {
                    "PermitNum": filing.id,
                    "StatusPrevious": stage_name(filing.kind, left),
                    "StatusPreviousDate": _day(since),
                    "StatusPreviousMapped": STATUS_MAPPED.get(left, ""),
                    "StatusNew": stage_name(filing.kind, entered),
                    "StatusNewMapped": STATUS_MAPPED.get(entered, ""),
                    "StatusChangeDate": _day(e.date),
                }
            )
        since = e.date
    return rows
