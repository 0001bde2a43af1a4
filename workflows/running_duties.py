"""Duties while the work goes on: Canton's trench, and Mansfield's Land
Disturbance Permit.  Each is a violation the record can show (or, for the
monthly reports, a deadline each month).

Canton 16-12 (street openings):

- §10.13: "No open un-plated trenches are permitted overnight": an
  ``inspected`` that records ``unplated_overnight: true`` is a violation
  (``trench-overnight``);
- §10.9: "An open trench may not exceed three hundred (300) feet unless
  specifically permitted by the Awarding Authority or its Representative":
  an ``inspected`` that records ``open_trench_ft`` over 300, with no
  ``open-trench-permitted`` before it allowing that length (``feet``), is a
  violation (``trench-length``).

Mansfield Ch. 25 Part B (Land Disturbance):

- §7.I: the permittee notifies the agent in writing "of any change or
  alteration of a land-disturbing activity before the change or alteration
  occurs": ``project-changed`` with no ``project-change-noticed`` before it
  is a violation (``project-change``);
- §11.B: the permittee "shall submit monthly reports": from
  ``work-started``, one ``monthly-report`` deadline a month (due at the
  month's end counted from the start), met by ``monthly-report-filed``
  within it, until the final report or the certificate of completion;
- §10.A: the Operation and Maintenance Plan "shall be recorded at the
  Bristol County Registry of Deeds by the Permittee": a certificate of
  completion with no ``om-plan-recorded`` before it is a violation
  (``om-plan``); the engine reads the recording as due before the
  certificate (docs/reference/readings.md).

Pure: no I/O.
"""

from __future__ import annotations

from datetime import date

from calendars import Months

__all__ = ["STREET_LIMIT_FT", "trench", "stormwater", "monthly_reports"]

#: Canton 16-12 §10.9: the longest open trench without the Authority's permission
STREET_LIMIT_FT = 300
STREETS = "Canton Street Opening By-Law 16-12"
STORMWATER = "Mansfield Stormwater By-Law Ch. 25 Part B"


def _order(e):
    return (e.date, e.position)


def _did(e) -> str:
    return f"{e.type} on {e.date} (event {e.position})"


def trench(rec) -> list[tuple]:
    """Canton's overnight plating and 300-foot limit, as found by the DPW's
    inspections (``(clock id, type, day, rule, explanation)`` each)."""
    if not rec.rules.trench_limits:
        return []
    out = []
    seen = [e for e in rec.events if e.type == "inspected"]
    night = next((e for e in seen if e.get("unplated_overnight")), None)
    if night is not None:
        rule = f"{STREETS} §10.13"
        out.append(
            (
                "trench-overnight",
                "earliest",
                night.date,
                rule,
                f"{_did(night)} found a trench open and un-plated overnight: at the end of each day every trench is "
                f"plated, or backfilled and temporarily patched; a violation on record ({rule})",
            )
        )
    for e in seen:
        feet = e.get("open_trench_ft")
        if feet is None or feet <= STREET_LIMIT_FT:
            continue
        allowed = max(
            (p.get("feet") for p in rec.events if p.type == "open-trench-permitted" and _order(p) < _order(e)), default=0
        )
        if feet > max(allowed, STREET_LIMIT_FT):
            rule = f"{STREETS} §10.9"
            given = f"; the Authority permitted {allowed} feet" if allowed else ", with no permission of the Authority on record"
            out.append(
                (
                    "trench-length",
                    "earliest",
                    e.date,
                    rule,
                    f"{_did(e)} found {feet} feet of open trench{given}: an open trench may not exceed 300 feet "
                    f"unless the Awarding Authority or its Representative permits it; a violation on record ({rule})",
                )
            )
            break
    return out


def stormwater(rec) -> list[tuple]:
    """Mansfield's project-change notice (§7.I) and the O&M plan recorded
    before the certificate of completion (§10.A)."""
    if rec.rules.kind != "land-disturbance":
        return []
    out = []
    for changed in (e for e in rec.events if e.type == "project-changed"):
        noticed = any(n.type == "project-change-noticed" and _order(n) < _order(changed) for n in rec.events)
        if not noticed:
            rule = f"{STORMWATER} §7.I"
            out.append(
                (
                    "project-change",
                    "earliest",
                    changed.date,
                    rule,
                    f"{_did(changed)} with no written notice to the Commission's agent before it: a change or "
                    f"alteration of the land-disturbing activity is noticed before it occurs; a violation on record ({rule})",
                )
            )
            break
    cert = next((e for e in rec.events if e.type in ("certificate-issued", "completion-certified")), None)
    if cert is not None and not any(e.type == "om-plan-recorded" and _order(e) < _order(cert) for e in rec.events):
        rule = f"{STORMWATER} §10.A"
        out.append(
            (
                "om-plan",
                "earliest",
                cert.date,
                rule,
                f"{_did(cert)} with no om-plan-recorded before it: the Operation and Maintenance Plan is recorded at "
                f"the Registry of Deeds by the permittee; a violation on record ({rule})",
            )
        )
    return out


def monthly_reports(rec, as_of: date, clock) -> list:
    """§11.B: one ``monthly-report`` deadline for each month of work begun
    by ``as_of``, from ``work-started`` until the final report or the
    certificate of completion."""
    if rec.rules.kind != "land-disturbance":
        return []
    start = next((e for e in rec.events if e.type == "work-started"), None)
    if start is None:
        return []
    end = next((e for e in rec.events if e.type in ("final-report-filed", "certificate-issued", "completion-certified")), None)
    stop = min(as_of, end.date) if end is not None else as_of
    reports = [e for e in rec.events if e.type == "monthly-report-filed"]
    rule = f"{STORMWATER} §11.B"
    out, k = [], 1
    while True:
        begins = start.date if k == 1 else rec.calendar.when(Months(k - 1), start.date)[0]
        if begins > stop or k > 240:
            break
        due = rec.calendar.when(Months(k), start.date)[0]
        met = next((r for r in reports if begins <= r.date <= due), None)
        if met is not None:
            status = "met"
        else:
            status = "open" if as_of <= due else "overdue"
        text = (
            f"month {k} of the work begun {start.date} (event {start.position}), {begins} to {due}: the permittee's "
            f"report of its inspections of the control measures"
            + (f"; monthly-report-filed on {met.date} (event {met.position})" if met is not None else "")
        )
        out.append(clock("monthly-report", "deadline", due, status, rule, text, start_position=start.position))
        k += 1
    return out
