"""Guards shared by the permit machines, each named after the rule it
enforces.  A guard returns None when the event may happen, else the reason,
which names the rule (its citation comes from the town's rule book where
the rule is the town's)."""

from __future__ import annotations

import re

from .errors import UnknownChoice
from .machine import Guard
from .maintenance import term_the_bylaw_allows

__all__ = ["COMMON_GUARDS"]


def _renew_citation(ctx) -> str:
    return ctx.rules.renewal_citation or ctx.rules.bylaw


def renews_at_most_once(ctx, e):
    allowed = ctx.rules.renewals_allowed
    if allowed == 0:
        return f"this {ctx.rules.kind} permit cannot be renewed ({ctx.rules.bylaw} provides no renewal)"
    if allowed is not None and ctx.renewals >= allowed:
        return f"a permit may be renewed only once ({_renew_citation(ctx)})"
    return None


def renewal_asked_before_expiry(ctx, e):
    expiry = ctx.expiry()
    if expiry is not None and e.date > expiry:
        return (
            f"the renewal was asked on {e.date}, after the permit expired on {expiry}: "
            f"an expired permit cannot be renewed ({_renew_citation(ctx)})"
        )
    return None


def renewal_was_requested(ctx, e):
    """A renewal is granted on a written request received in time: by the
    renewal-request clock's day (Saugus §7.6 and 310 CMR 10.05(8): 30 days
    before expiry; Canton 15-7 and 16-12 §10.1: before expiry)."""
    asked = ctx.renewal_requested
    if asked is None:
        return f"no renewal request is on record: a renewal is granted on a written request ({_renew_citation(ctx)})"
    expiry = ctx.expiry()
    try:
        clock = ctx.rules.clock("renewal-request")
    except UnknownChoice:
        clock = None
    if clock is not None and expiry is not None:
        last = ctx.calendar.when(clock.measure, expiry)[0]
        if asked.date > last:
            return (
                f"the renewal request of {asked.date} came after the last day to ask, {last} "
                f"({clock.measure.summary()} before the expiry on {expiry}): the permit cannot be renewed "
                f"({_renew_citation(ctx)})"
            )
    return None


def continued_to_a_later_date(ctx, e):
    if e.get("to") <= e.date:
        return (
            f"a hearing is continued to a date certain after the session; {e.get('to')} is not after {e.date} ({ctx.rules.bylaw})"
        )
    return None


#: a MassDEP file number: the region's letters (optional), the town's number, the filing's ("SE 073-1234")
_MASSDEP_FILE = re.compile(r"(?:[A-Z]{2} )?\d{2,3}-\d{1,5}")


def massdep_file_number_well_formed(ctx, e):
    number = e.get("number")
    if not _MASSDEP_FILE.fullmatch(number):
        return f"a MassDEP file number reads like SE 073-1234 (region, town number, filing number); {number[:40]!r} does not (WPA Form 5, Section A)"
    return None


def extension_names_a_clock_of_this_filing(ctx, e):
    name = e.get("clock")
    known = ctx.clock_ids()
    if name not in known:
        return f"clock-extended names clock {name!r}, which this filing does not have; it has: {', '.join(sorted(known))}"
    return None


def objection_closes_the_hearing(ctx, e):
    if not ctx.rules.objection_closes_hearing:
        return (
            f"{ctx.rules.bylaw} does not close a hearing on the applicant's objection to a continuance; "
            f"record hearing-closed when the board closes it"
        )
    return None


def emergency_projects_provided(ctx, e):
    try:
        ctx.rules.clock("emergency-filing")
    except UnknownChoice:
        return f"{ctx.rules.bylaw} provides no emergency project before a {ctx.rules.kind} application; file first"
    return None


def certified_for_at_most_30_days(ctx, e):
    """310 CMR 10.06(3): the time for emergency work "shall not exceed 30
    days ... unless written approval of the Commissioner is obtained"."""
    days = e.get("days")
    if days < 1:
        return "an emergency certification allows the certified work for at least one day (310 CMR 10.06(3))"
    if days > 30 and not e.get("commissioner_approved"):
        return (
            f"an emergency certification allows at most 30 days of work, not {days}, unless the Commissioner "
            f"approves more in writing (commissioner_approved: true) (310 CMR 10.06(3))"
        )
    return None


def an_appeal_to_decide(ctx, e):
    if not any(x.type == "appeal-requested" for x in ctx.events):
        return "no appeal of the Order is on record to be decided (310 CMR 10.05(7)(c))"
    return None


def hearing_has_opened(ctx, e):
    return f"a hearing cannot close before it opens ({ctx.rules.bylaw})"


def decision_follows_close_where_required(ctx, e):
    if ctx.rules.hearing_required:
        return (
            f"a decision cannot come before the hearing closes: {ctx.rules.bylaw} requires a public hearing "
            f"and a decision after its close"
        )
    return None


COMMON_GUARDS = {
    g.name: g
    for g in (
        Guard("term_the_bylaw_allows", term_the_bylaw_allows, "Canton 15-7; Saugus 508.08 §7.6"),
        Guard("renews_at_most_once", renews_at_most_once, "Canton 15-7; Saugus 508.08 §7.6; Canton 16-12 §10.1"),
        Guard("renewal_asked_before_expiry", renewal_asked_before_expiry, "Canton 15-7; Saugus 508.08 §7.6; 310 CMR 10.05(8)"),
        Guard("renewal_was_requested", renewal_was_requested, "Canton 15-7; Saugus 508.08 §7.6; Canton 16-12 §10.1"),
        Guard("continued_to_a_later_date", continued_to_a_later_date, "Canton 15-5; Saugus 508.08 §5.2"),
        Guard("massdep_file_number_well_formed", massdep_file_number_well_formed, "WPA Form 5, Section A (MassDEP file number)"),
        Guard(
            "extension_names_a_clock_of_this_filing",
            extension_names_a_clock_of_this_filing,
            "docs/reference/filing-format.md, clock-extended",
        ),
        Guard("objection_closes_the_hearing", objection_closes_the_hearing, "Canton Wetlands By-Law 15-5"),
        Guard("emergency_projects_provided", emergency_projects_provided, "Canton Wetlands By-Law 15-3 (emergency projects)"),
        Guard("hearing_has_opened", hearing_has_opened, "Canton 15-5; Saugus 508.08 §5.2; Mansfield 25 §7.G"),
        Guard("certified_for_at_most_30_days", certified_for_at_most_30_days, "310 CMR 10.06(3)"),
        Guard("an_appeal_to_decide", an_appeal_to_decide, "310 CMR 10.05(7)(c)"),
        Guard(
            "decision_follows_close_where_required",
            decision_follows_close_where_required,
            "Canton 15-5, 15-7; Saugus 508.08 §7.1; Mansfield 25 §7.G",
        ),
    )
}
