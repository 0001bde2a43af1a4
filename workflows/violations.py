"""Acts the record shows were done when the rules did not allow them.

A violation is a status, not a refusal: the act happened and the record
keeps it (docs/reference/filing-format.md: a filing is its history).  The replay marks it
and the docket lists it, naming the act, the day it was allowed and the
rule.

- ``premature``: an ``earliest`` clock met before its day (a final action
  inside Canton's 14-day board window, 15-6; excavation before the 72-hour
  work notice has run, 16-12 §10.3; a permanent patch before the window
  opens or the flowable fill has cured, §11.2, §11.4);
- ``violated``: an act with no clock to be early against: excavation on an
  expired street permit (16-12 §10.1), excavation with no work notice on
  record (16-12 §10.3), excavation with no Dig Safe notice or after the
  ticket lapsed (M.G.L. c.82 §40A; 220 CMR 99.07(2)).

A wetlands or stormwater permit's conditions before and during work
(recording, appeals, expiry) are :mod:`workflows.before_work`'s.

Pure: no I/O.
"""

from __future__ import annotations

from datetime import date, datetime

from .running_duties import stormwater, trench

__all__ = ["VIOLATIONS", "is_premature", "premature_text", "flagged"]

#: The replay statuses that are violations on record.
VIOLATIONS = ("premature", "violated")

STREETS = "Canton Street Opening By-Law 16-12"
DIG_SAFE = "M.G.L. c.82 §40A"


def is_premature(met, day: date, at: datetime | None) -> bool:
    """Whether the act ``met`` came before an earliest clock's day (or its
    moment, when both are known).  An act known only by its date, on the
    clock's own day, is given the benefit of the doubt."""
    if met.date < day:
        return True
    return met.date == day and at is not None and met.at is not None and met.at < at


def premature_text(clock, met, day: date, at: datetime | None) -> str:
    allowed = at.isoformat(timespec="minutes") if at is not None else day.isoformat()
    done = met.at.isoformat(timespec="minutes") if met.at is not None else met.date.isoformat()
    return (
        f"; PREMATURE: {met.type} on {done} (event {met.position}) came before {allowed}, "
        f"the earliest this rule allows: a violation on record ({clock.citation})"
    )


def _unnoticed_patch(rec) -> list:
    """Canton 16-12 §11.4: a utility or town department may place its
    permanent patches without the town's approval, but with "not less than
    seventy-two hours prior notice"; with neither on record, flagged."""
    if rec.applicant not in ("utility", "municipal") or "patch-noticed" in rec.anchors:
        return []
    patch = next((e for e in rec.events if e.type == "permanent-patch-placed"), None)
    approved = any(
        e.type == "settlement-answered" or (e.type == "certification-answered" and e.get("granted")) for e in rec.events
    )
    if patch is None or approved or rec.cdf:
        return []
    return [
        (
            "patch-notice",
            "earliest",
            patch.date,
            f"{STREETS} §11.4",
            f"permanent-patch-placed on {patch.date} (event {patch.position}) by a {rec.applicant} applicant with no "
            f"72 hours' notice and no approval on record; a violation on record ({STREETS} §11.4)",
        )
    ]


STORMWATER = "Mansfield Stormwater By-Law Ch. 25 Part B"


def _first(rec, etype, before=None):
    for e in rec.events:
        if e.type == etype and (before is None or (e.date, e.position) <= (before.date, before.position)):
            return e
    return None


def _land_disturbance(rec) -> list:
    """Mansfield 25 §7.G: "Copies of the certified mail receipts shall be
    submitted ... prior to opening the public hearing"; §12: a surety the
    Commission requires is posted "before the start of land disturbance
    activity" and "may not be fully released until the Commission has
    received the final report and as-built plan ... and issued a
    certificate of completion"."""
    out = []
    opened = _first(rec, "hearing-opened")
    if opened is not None and _first(rec, "mail-receipts-submitted", opened) is None:
        out.append(
            (
                "mail-receipts",
                "earliest",
                opened.date,
                f"{STORMWATER} §7.G",
                f"hearing-opened on {opened.date} (event {opened.position}) with no certified mail receipts submitted "
                f"before it; a violation on record ({STORMWATER} §7.G)",
            )
        )
    required, work = _first(rec, "surety-required"), _first(rec, "work-started")
    if required is not None and work is not None and _first(rec, "surety-posted", work) is None:
        out.append(
            (
                "surety",
                "earliest",
                work.date,
                f"{STORMWATER} §12",
                f"work-started on {work.date} (event {work.position}) before the required surety was posted; "
                f"a violation on record ({STORMWATER} §12)",
            )
        )
    released = next((e for e in rec.events if e.type == "surety-released" and not e.get("phase")), None)
    if released is not None:  # a full release: a phase's share (``phase``) may go before (§12)
        missing = [t for t in ("final-report-filed", "certificate-issued") if _first(rec, t, released) is None]
        if "certificate-issued" in missing and _first(rec, "completion-certified", released) is not None:
            missing.remove("certificate-issued")  # the one event of before
        if missing:
            out.append(
                (
                    "surety",
                    "earliest",
                    released.date,
                    f"{STORMWATER} §12, §13, §15",
                    f"surety-released on {released.date} (event {released.position}) with no {' and no '.join(missing)} "
                    f"before it; a violation on record ({STORMWATER} §12)",
                )
            )
    return out


def flagged(rec) -> list[tuple[str, str, date, str, str]]:
    """Violations with no earliest clock to be early against, each as
    ``(clock id, type, day, rule, explanation)``: the replay marks the clock
    of that id ``violated``, or adds it when the record never started it."""
    if rec.rules.kind == "land-disturbance":
        return _land_disturbance(rec) + stormwater(rec)
    if rec.rules.kind != "street-opening":
        return []  # a wetlands permit's: workflows.before_work
    out = trench(rec)
    dug = next((e for e in rec.events if e.type == "excavation-started"), None)
    if dug is None:
        return out
    expiry = rec.expiry()
    if expiry is not None and dug.date > expiry:
        out.append(
            (
                "permit-expiry",
                "expiry",
                expiry,
                f"{STREETS} §10.1",
                f"excavation-started on {dug.date} (event {dug.position}) after the permit expired on {expiry}: "
                f"a Street Opening Permit is valid for thirty days, renewable once on written request; "
                f"work on an expired permit is a violation on record ({STREETS} §10.1)",
            )
        )
    out += _unnoticed_patch(rec)
    ticket = rec.first("dig-safe-notice")
    if ticket is not None and "dig-safe-expiry" in rec.known_clocks:
        value, notice = ticket
        last = rec.calendar.when(rec.rules.clock("dig-safe-expiry").measure, value)[0]
        if dug.date > last:
            out.append(
                (
                    "dig-safe-expiry",
                    "expiry",
                    last,
                    f"{DIG_SAFE}; 220 CMR 99.07(2)",
                    f"excavation-started on {dug.date} (event {dug.position}) after the Dig Safe ticket of "
                    f"{notice.date} (event {notice.position}) lapsed on {last}: excavation at most 30 days after "
                    f"the notice, a ticket valid 30 calendar days; a violation on record ({DIG_SAFE}; 220 CMR 99.07(2))",
                )
            )
    if ticket is None and not rec.emergency and "dig-safe-wait" in rec.known_clocks:
        out.append(
            (
                "dig-safe-wait",
                "earliest",
                dug.date,
                DIG_SAFE,
                f"excavation-started on {dug.date} (event {dug.position}) with no Dig Safe notice on record: "
                f"excavation at least 72 hours, not counting Saturdays, Sundays and legal holidays, after notice "
                f"to the utilities; a violation on record ({DIG_SAFE})",
            )
        )
    if "work-noticed" not in rec.anchors and not rec.emergency and "work-notice" in rec.known_clocks:
        out.append(
            (
                "work-notice",
                "earliest",
                dug.date,
                f"{STREETS} §10.3",
                f"excavation-started on {dug.date} (event {dug.position}) with no work notice on record: the holder "
                f"must give the Superintendent seventy-two hours' notice of the work, except in an emergency; "
                f"a violation on record ({STREETS} §10.3)",
            )
        )
    return out
