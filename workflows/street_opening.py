"""Street Opening Permit (Canton Street Opening By-Law 16-12): application,
Dig Safe, the permit's 30-day term, the trench, backfill, temporary and
permanent patches, the four inspections, suspension and revocation, and the
deposit refund."""

from __future__ import annotations

from enum import Enum

from .fees import payment_rows
from .guards import COMMON_GUARDS
from .machine import ANY, START, Guard, Machine
from .machine import Transition as T
from .submission import submission_rows

__all__ = ["StreetOpeningState", "MACHINE"]

BYLAW = "Canton 16-12"


class StreetOpeningState(str, Enum):
    SUBMITTED = "submitted"
    EMERGENCY = "emergency-work"
    APPLIED = "applied"
    ISSUED = "issued"
    EXCAVATING = "excavating"
    BACKFILLED = "backfilled"
    TEMPORARY_PATCH = "temporary-patch"
    PERMANENT_PATCH = "permanent-patch"
    FINAL_INSPECTED = "final-inspected"
    CLOSED = "closed"
    DENIED = "denied"
    REVOKED = "revoked"
    WITHDRAWN = "withdrawn"


S = StreetOpeningState
V = lambda *states: tuple(s.value for s in states)  # noqa: E731
LIVE = V(S.ISSUED, S.EXCAVATING, S.BACKFILLED, S.TEMPORARY_PATCH, S.PERMANENT_PATCH, S.FINAL_INSPECTED)
OPEN_TRENCH = V(S.EXCAVATING, S.BACKFILLED, S.TEMPORARY_PATCH)


def dig_safe_number_given(ctx, e):
    if not ctx.dig_safe_ticket:
        return f"Can't issue the permit: no Dig Safe number ({BYLAW} §10.4)"
    return None


def excavation_under_way(ctx, e):
    if not ctx.excavated:
        return f"nothing has been excavated: record excavation-started first ({BYLAW} §10.2)"
    return None


def temporary_patch_first_on_cement_concrete(ctx, e):
    """Over flowable fill a temporary patch "need not be installed" (§11.2),
    but a cement concrete way is "Temporarily Patched as described in
    paragraph 3" before its permanent patch (§11.5)."""
    if ctx.surface == "cement-concrete" and ctx.temporary_patch is None:
        return (
            f"an excavation in a cement concrete way is temporarily patched before its permanent patch, "
            f"flowable fill or not: record temporary-patch-placed first ({BYLAW} §11.5, §11.2)"
        )
    return None


def certification_asked_within_window(ctx, e):

    start = ctx.temporary_patch
    # the window as the rule book counts it (the closing day rolls off a closed day)
    opens = ctx.calendar.when(ctx.rules.clock("permanent-patch-window-opens").measure, start)[0]
    closes = ctx.calendar.when(ctx.rules.clock("permanent-patch-window-closes").measure, start)[0]
    if not opens <= e.date <= closes:
        return (
            f"certification of the temporary patch is asked within the permanent patch window, "
            f"{opens} to {closes} (12 to 18 months after {start}); {e.date} is outside it ({BYLAW} §11.4)"
        )
    return None


def certification_was_requested(ctx, e):
    if "certification-requested" not in ctx.anchors:
        return f"no certification request is on record to answer ({BYLAW} §11.4(d))"
    return None


def settlement_inspection_on_record(ctx, e):
    if "settlement-inspection" not in ctx.anchors:
        return f"no settlement inspection is on record to answer ({BYLAW} §11.4)"
    return None


def suspension_at_most_21_days(ctx, e):
    if not 1 <= e.get("days") <= 21:
        return f"a suspension lasts from 1 to 21 days, not {e.get('days')} ({BYLAW} §12)"
    return None


def revoked_after_noticed_hearing(ctx, e):
    if ctx.revocation_hearing is None:
        return f"a permit is revoked only after a hearing with at least 5 days' written notice; none is scheduled ({BYLAW} §12)"
    if e.date < ctx.revocation_hearing:
        return f"the revocation on {e.date} comes before its hearing on {ctx.revocation_hearing} ({BYLAW} §12)"
    return None


def deposit_not_in_default(ctx, e):
    if ctx.in_default(e.date):
        return (
            f"the deposit is not refunded while the holder is in Default: suspended until "
            f"{ctx.suspended_until} ({BYLAW} §5, §11.4(f))"
        )
    return None


def inspection_fits_the_stage(ctx, e):
    return (
        f"a {e.get('stage')} inspection does not fit a permit that is {ctx.state!r}; inspections are before "
        f"backfill, after the temporary patch, in the permanent patch window, and after the permanent patch "
        f"({BYLAW} §10.2)"
    )


def preferred_day_problem(preferred, asked_on, calendar) -> str | None:
    """Why an inspection cannot be asked for on ``preferred`` (asked on
    ``asked_on``), or None: the day has passed, or is not a business day
    of the town (§2, Normal Working Hours: "Monday through Friday excluding
    holidays"; workflows/inspection_requests.py)."""
    if preferred < asked_on:
        return f"the preferred day {preferred.isoformat()} has passed"
    closed = calendar.closed_reason(preferred)
    if closed is not None:
        return (
            f"the preferred day {preferred.isoformat()} is not a business day ({closed}): the DPW inspects in its "
            f"Normal Working Hours, Monday through Friday excluding holidays ({BYLAW} §2, Normal Working Hours)"
        )
    return None


def inspection_asked_for_a_business_day(ctx, e):
    return preferred_day_problem(e.get("preferred"), e.date, ctx.calendar)


def reinspection_follows_a_fail(ctx, e):
    """A re-inspection day and a defect belong to a failed inspection, and
    the re-inspection comes after it; an inspection's time is on its day."""
    reinspect, defect = e.get("reinspect"), e.get("defect")
    if e.get("result") != "fail" and (reinspect is not None or defect is not None):
        return f"a defect and a re-inspection day are given only when the inspection fails ({BYLAW} §10.2)"
    if reinspect is not None and reinspect <= e.date:
        return f"the re-inspection on {reinspect} is not after the inspection on {e.date} ({BYLAW} §10.2)"
    if e.at is not None and e.at.date() != e.date:
        return f"the inspection's time {e.at:%Y-%m-%d %H:%M} is not on its day, {e.date}"
    return None


def refund_adds_up(ctx, e):
    """The refund's amount and what was held back are dollar amounts, and
    what was held back says why (§5: "the unexpended balance ... released";
    the ledger checks they add up to the permit's deposit)."""
    from .deposits import LedgerRefused, parse_dollars

    for name in ("amount", "held_back"):
        value = e.get(name)
        if value is None or (name == "amount" and value.strip() in ("0", "0.00")):
            continue
        try:
            parse_dollars(value)
        except LedgerRefused:
            return f"{name.replace('_', ' ')} {value!r} is not a dollar amount such as 1250.00 ({BYLAW} §5)"
    if e.get("held_back") is not None and not (e.get("reason") or "").strip():
        return f"say why part of the deposit is held back: the cost of which repair ({BYLAW} §5, §13)"
    return None


def _stage(name):
    return lambda ctx, e: e.get("stage") == name


_guards = [
    Guard("dig_safe_number_given", dig_safe_number_given, f"{BYLAW} §10.4"),
    Guard("excavation_under_way", excavation_under_way, f"{BYLAW} §10.2"),
    Guard("temporary_patch_first_on_cement_concrete", temporary_patch_first_on_cement_concrete, f"{BYLAW} §11.5, §11.2"),
    Guard("certification_asked_within_window", certification_asked_within_window, f"{BYLAW} §11.4"),
    Guard("certification_was_requested", certification_was_requested, f"{BYLAW} §11.4(d)"),
    Guard("settlement_inspection_on_record", settlement_inspection_on_record, f"{BYLAW} §11.4"),
    Guard("suspension_at_most_21_days", suspension_at_most_21_days, f"{BYLAW} §12"),
    Guard("revoked_after_noticed_hearing", revoked_after_noticed_hearing, f"{BYLAW} §12"),
    Guard("deposit_not_in_default", deposit_not_in_default, f"{BYLAW} §5, §11.4(f)"),
    Guard("inspection_fits_the_stage", inspection_fits_the_stage, f"{BYLAW} §10.2"),
    Guard("reinspection_follows_a_fail", reinspection_follows_a_fail, f"{BYLAW} §10.2"),
    Guard("refund_adds_up", refund_adds_up, f"{BYLAW} §5"),
    Guard("inspection_asked_for_a_business_day", inspection_asked_for_a_business_day, f"{BYLAW} §2, §10.2"),
]

MACHINE = Machine(
    kind="street-opening",
    states=StreetOpeningState,
    final=frozenset(V(S.CLOSED, S.DENIED, S.REVOKED, S.WITHDRAWN)),
    transitions=(
        T("emergency-work-started", (START,), S.EMERGENCY.value),
        *submission_rows(S.SUBMITTED.value),
        *payment_rows(),
        T("filed", (START, S.SUBMITTED.value, S.EMERGENCY.value), S.APPLIED.value),
        T("dig-safe-obtained", (ANY,), None),
        T("open-trench-permitted", (ANY,), None),  # Canton 16-12 §10.9
        T("permit-issued", V(S.APPLIED), S.ISSUED.value, guards=("dig_safe_number_given",)),
        T("permit-denied", V(S.APPLIED), S.DENIED.value),
        T("withdrawn", V(S.SUBMITTED, S.APPLIED, S.EMERGENCY), S.WITHDRAWN.value),
        T("renewal-requested", LIVE, None, guards=("renews_at_most_once", "renewal_asked_before_expiry")),
        T("permit-renewed", LIVE, None, guards=("renews_at_most_once", "renewal_was_requested")),
        T("work-noticed", V(S.APPLIED, S.ISSUED), None),
        T("excavation-started", V(S.ISSUED), S.EXCAVATING.value),
        T(
            "inspected",
            V(S.EXCAVATING, S.ISSUED),
            None,
            cond="pre_backfill",
            guards=("excavation_under_way", "reinspection_follows_a_fail"),
        ),
        T("backfilled", V(S.EXCAVATING), S.BACKFILLED.value),
        T("backfilled", V(S.ISSUED), S.BACKFILLED.value, guards=("excavation_under_way",)),
        T("temporary-patch-placed", V(S.BACKFILLED), S.TEMPORARY_PATCH.value),
        T("winter-patch-placed", OPEN_TRENCH, None),
        T("inspected", V(S.TEMPORARY_PATCH), None, cond="temporary_patch_stage", guards=("reinspection_follows_a_fail",)),
        T("inspected", V(S.TEMPORARY_PATCH), None, cond="settlement_stage", guards=("reinspection_follows_a_fail",)),
        T("settlement-answered", V(S.TEMPORARY_PATCH), None, guards=("settlement_inspection_on_record",)),
        T("certification-requested", V(S.TEMPORARY_PATCH), None, guards=("certification_asked_within_window",)),
        T(
            "certification-answered",
            V(S.TEMPORARY_PATCH),
            S.PERMANENT_PATCH.value,
            cond="granted",
            guards=("certification_was_requested",),
        ),
        T("certification-answered", V(S.TEMPORARY_PATCH), None, guards=("certification_was_requested",)),
        T(
            "permanent-patch-placed",
            V(S.BACKFILLED, S.TEMPORARY_PATCH),
            S.PERMANENT_PATCH.value,
            guards=("temporary_patch_first_on_cement_concrete",),
        ),
        T(
            "inspected",
            V(S.PERMANENT_PATCH),
            S.FINAL_INSPECTED.value,
            cond="final_pass",
            guards=("reinspection_follows_a_fail",),
        ),
        T("inspected", V(S.PERMANENT_PATCH), None, cond="final_fail", guards=("reinspection_follows_a_fail",)),
        T("inspected", (ANY,), None, guards=("inspection_fits_the_stage",)),
        T(
            "deposit-refunded",
            V(S.FINAL_INSPECTED),
            S.CLOSED.value,
            guards=("deposit_not_in_default", "refund_adds_up"),
        ),
        T("suspended", LIVE, None, guards=("suspension_at_most_21_days",)),
        T("revocation-hearing-scheduled", LIVE, None),
        T("permit-revoked", LIVE, S.REVOKED.value, guards=("revoked_after_noticed_hearing",)),
        T("patch-noticed", (ANY,), None),
        T("after-hours-billed", (ANY,), None),
        T("after-hours-paid", (ANY,), None),
        T(
            "inspection-requested", LIVE, None, guards=("inspection_asked_for_a_business_day",)
        ),  # Canton 16-12 §10.2, asked online (services/inspection_requests.py)
        T("clock-extended", (ANY,), None, guards=("extension_names_a_clock_of_this_filing",)),
    ),
    guards={**COMMON_GUARDS, **{g.name: g for g in _guards}},
    conds={
        "pre_backfill": _stage("pre-backfill"),
        "temporary_patch_stage": _stage("temporary-patch"),
        "settlement_stage": _stage("settlement"),
        "final_pass": lambda ctx, e: e.get("stage") == "permanent-patch" and e.get("result") == "pass",
        "final_fail": lambda ctx, e: e.get("stage") == "permanent-patch" and e.get("result") == "fail",
        "granted": lambda ctx, e: bool(e.get("granted")),
    },
)
