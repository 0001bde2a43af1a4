"""An applicant's online application and its resubmission: the filing, its
plans and the applicant's link to it written in one unit of work.

:func:`apply_online` checks the plans (before anything is written), writes
the plan's file (fsynced, under a random name), then in one unit of work
imports the filing (a town's Notice of Intent or Request for Determination
heard under the Wetlands Protection Act too: :mod:`workflows.jurisdictions`), records the upload and links the account; if any of it
fails the file is removed and nothing is recorded.  A process killed
between the file and the commit leaves a file no row names, which
:meth:`models.store.uploads.Uploads.tidy` removes (the web app tidies at start).
Given the sender (``mail_from``) and the moment (``now``), the applicant's
receipt is queued in the same unit of work (:mod:`services.word`).

:func:`resubmit` sends an application the town found incomplete again, with
corrected plans and corrected particulars (:mod:`workflows.corrections`):
its ``submitted`` event keeps one line per change (``corrected``) and the
filing's fields are rewritten in the same unit of work; a correction
refused (:class:`workflows.corrections.BadCorrection`) writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from datetime import date, datetime
from typing import Any

from workflows.errors import PermitsError

from .unit_of_work import UnitOfWork

__all__ = ["apply_online", "resubmit", "ask_renewal", "NotSentBack"]


class NotSentBack(PermitsError):
    """A resubmission of an application the town has not sent back."""

    def __init__(self, filing_id: str):
        self.filing = filing_id
        super().__init__(f"{filing_id}: the town has not sent this application back")


def apply_online(
    store,
    uploads,
    account,
    application: Mapping[str, Any],
    plan_name: str,
    plan: bytes,
    *,
    limits=None,
    now: datetime | None = None,
    mail_from: str | None = None,
) -> str:
    """Submit ``application`` (the filing JSON of an online application:
    its ``submitted`` history; numbered here, the next of its town's
    running numbers: :mod:`services.numbering`) for ``account``, with the plans
    ``plan_name`` / ``plan``; the new filing's id.  UploadRefused (nothing
    written) for plans that are not a PDF within the limit;
    DailyLimitReached (nothing written) past the account's ``limits`` for
    the day (:class:`models.accounts.daily_limits.DailyLimits`; None: no daily
    limit); the core's errors for an application it refuses."""
    from models.accounts.applicants import Applicants
    from models.accounts.daily_limits import check_daily
    from models.store.filings import import_filings
    from workflows.jurisdictions import with_act_default

    from .numbering import numbered

    application = with_act_default(application)  # a town's NOI or RDA is heard under the Act too
    by = f"applicant:{account.email}"
    name = uploads.check(plan_name, plan)
    with uploads.staged(name, plan) as staged, UnitOfWork(store) as uow:
        conn = uow.conn
        if limits is not None:
            check_daily(conn, account.id, limits, store.now(), new_bytes=len(plan), new_application=True)
        [filing_id] = import_filings(conn, store, [numbered(conn, application)], by=by)
        uploads.record(conn, staged, by=by, filing_id=filing_id, account_id=account.id)
        Applicants(store).link(conn, account, filing_id, "submitted")
        if mail_from and now is not None:
            _receipt(store, conn, filing_id, now=now, mail_from=mail_from)
    return filing_id


def _receipt(store, conn, filing_id: str, *, now: datetime, mail_from: str) -> None:
    """Queue the receipt of the application's submission, with the fee the
    town charges for it (:func:`services.word.queue_word`)."""
    from .word import queue_word

    filing, _ = store.load(filing_id, conn)
    submitted = [e for e in filing.events if e.type == "submitted"][-1]
    queue_word(conn, filing, today=submitted.date, now=now, recorded_at=store.now(), mail_from=mail_from, event=submitted)


def resubmit(
    store,
    uploads,
    account,
    filing_id: str,
    *,
    today: date,
    expect_seq: int,
    plan_name: str = "",
    plan: bytes = b"",
    limits=None,
    corrections: Mapping[str, str] | None = None,
    now: datetime | None = None,
    mail_from: str | None = None,
):
    """Send an application the town found incomplete again (a new
    ``submitted`` event: no clock runs until the town finds it complete),
    with corrected plans when given and the particulars ``corrections``
    (form name to text, :data:`workflows.corrections.CORRECTABLE`); one
    transaction, with the receipt queued when ``mail_from`` and ``now``
    are given.  NotSentBack when the town has not sent it back;
    BadCorrection for a correction the form refuses; DailyLimitReached
    when the plans pass the account's upload ``limits`` for the day (None:
    no daily limit).  Nothing is written on any refusal."""
    from models.store.corrections import rewrite_fields
    from workflows.corrections import corrected
    from workflows.submission import submission_of, submitted_event

    filing, _ = store.load(filing_id)
    if not submission_of(filing).awaiting_applicant:
        raise NotSentBack(filing_id)
    by = f"applicant:{account.email}"
    name = uploads.check(plan_name, plan) if plan else ""
    fields, lines = corrected(filing.extra, corrections or {})
    event = submitted_event(today)
    if lines:
        event["corrected"] = lines

    from .record import record_in

    with uploads.staged(name, plan) if plan else nullcontext() as staged, UnitOfWork(store) as uow:
        if plan:
            from models.accounts.daily_limits import check_daily

            if limits is not None:
                check_daily(uow.conn, account.id, limits, store.now(), new_bytes=len(plan), new_application=False)
            uploads.record(uow.conn, staged, by=by, filing_id=filing_id, account_id=account.id)
        if lines:  # the fields corrected first: the receipt reads them
            rewrite_fields(uow.conn, filing, fields)
        recorded, _ = record_in(uow, filing_id, event, by=by, expect_seq=expect_seq, today=today, now=now, mail_from=mail_from)
    return recorded


def ask_renewal(store, account, filing_id: str, *, today: date, expect_seq: int):
    """The holder asks in writing for the permit's renewal (a
    ``renewal-requested`` event dated ``today``)."""
    from .record import record_in

    raw = {"type": "renewal-requested", "date": today.isoformat()}
    with UnitOfWork(store) as uow:
        recorded, _ = record_in(uow, filing_id, raw, by=f"applicant:{account.email}", expect_seq=expect_seq, today=today)
    return recorded
