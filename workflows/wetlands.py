"""The rows the wetlands and stormwater machines share (NOI, RDA, Land
Disturbance): an online submission, filing, completeness, notices, the
hearing and its continuances, extensions and withdrawal."""

from __future__ import annotations

from .fees import payment_rows
from .machine import ANY, START
from .machine import Transition as T
from .submission import submission_rows

__all__ = ["NOTICE_EVENTS", "hearing_rows", "permit_rows", "incomplete"]

NOTICE_EVENTS = ("abutters-notified", "boards-notified", "board-reported", "notice-published", "notice-posted")


def incomplete(ctx, e) -> bool:
    return e.get("complete", True) is False


def hearing_rows(S, opened_guards: tuple[str, ...] = ()) -> tuple[T, ...]:
    """Rows from filing to the close of the hearing, for a state enum ``S``
    with SUBMITTED, FILED, INCOMPLETE, HEARING_SCHEDULED, HEARING_OPEN,
    HEARING_CLOSED and WITHDRAWN.  ``filed`` after ``submitted`` is the
    town finding the online application complete (or, with complete: false,
    incomplete, as on paper)."""
    before_open = (S.FILED.value, S.INCOMPLETE.value, S.HEARING_SCHEDULED.value)
    return (
        *submission_rows(S.SUBMITTED.value),
        *payment_rows(),
        T("filed", (START, S.SUBMITTED.value), S.INCOMPLETE.value, cond="incomplete"),
        T("filed", (START, S.SUBMITTED.value), S.FILED.value),
        T("deemed-complete", (S.INCOMPLETE.value,), S.FILED.value),
        *(T(ev, (ANY,), None) for ev in NOTICE_EVENTS),
        T("file-number-assigned", (ANY,), None, guards=("massdep_file_number_well_formed",)),
        T("clock-extended", (ANY,), None, guards=("extension_names_a_clock_of_this_filing",)),
        T("hearing-scheduled", (S.FILED.value, S.HEARING_SCHEDULED.value), S.HEARING_SCHEDULED.value),
        T("hearing-opened", (S.FILED.value, S.HEARING_SCHEDULED.value), S.HEARING_OPEN.value, guards=opened_guards),
        T("hearing-continued", (S.HEARING_OPEN.value,), None, guards=("continued_to_a_later_date",)),
        T("continuance-objected", (S.HEARING_OPEN.value,), S.HEARING_CLOSED.value, guards=("objection_closes_the_hearing",)),
        T("hearing-closed", (S.HEARING_OPEN.value,), S.HEARING_CLOSED.value),
        T("hearing-closed", before_open, S.HEARING_CLOSED.value, guards=("hearing_has_opened",)),
        T("withdrawn", (ANY,), S.WITHDRAWN.value),
    )


def permit_rows(S) -> tuple[T, ...]:
    """Decision and the permit's life, for machines whose decision is
    permit-issued / permit-denied (NOI, Land Disturbance)."""
    before_close = (S.FILED.value, S.INCOMPLETE.value, S.HEARING_SCHEDULED.value, S.HEARING_OPEN.value)
    live = (S.ISSUED.value, S.RENEWED.value)
    ended = (S.DENIED.value, S.REVOKED.value, S.WITHDRAWN.value)  # work after them is work without a permit
    return (
        T("permit-issued", (S.HEARING_CLOSED.value,), S.ISSUED.value, guards=("term_the_bylaw_allows",)),
        T("permit-denied", (S.HEARING_CLOSED.value,), S.DENIED.value),
        T(
            "permit-issued",
            before_close,
            S.ISSUED.value,
            guards=("decision_follows_close_where_required", "term_the_bylaw_allows"),
        ),
        T("permit-denied", before_close, S.DENIED.value, guards=("decision_follows_close_where_required",)),
        T("permit-recorded", live, None),
        T("act-not-applied", live, None),
        T("recording-certified", live, None),
        # work seen on the site, judged against what is in force (workflows/before_work.py, unpermitted.py)
        T("work-started", (ANY, *ended), None),
        T("construction-noticed", live, None),
        T("maintenance-noticed", live, None),
        T("renewal-requested", live, None, guards=("renews_at_most_once", "renewal_asked_before_expiry")),
        T("permit-renewed", live, S.RENEWED.value, guards=("renews_at_most_once", "renewal_was_requested")),
        T("completion-certified", live, S.COMPLETED.value),
        T("permit-revoked", live, S.REVOKED.value),
        T("work-observed", (ANY, *ended), None),
    )
