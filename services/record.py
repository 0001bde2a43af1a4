"""Record an event on a filing, void one, and find an online application
complete or incomplete: ``permits record`` / ``permits void`` and the
workbench's event, void, "complete" and "incomplete" forms all call these.

What an event causes is done in the transaction that records it
(:meth:`models.store.filings.Store.record`'s ``then``), on SQLite and PostgreSQL
alike, however it was recorded:

- ``found-incomplete`` on an online application queues the town's reasons
  by email to the applicant (:func:`notices.email.incomplete_email`);
- a step the applicant hears of (found complete, a hearing scheduled or
  continued, a decision, a certificate, an inspection, a deposit refunded)
  queues its email to the applicant (:mod:`services.word`);
- ``filed`` on a street opening's online application carries what its
  ``filed`` event needs from the application when the event does not say
  it (``applicant``, ``length_ft``: docs/reference/filing-format.md);
- ``payment-received`` is refused unless the payments on record add up
  to at most the fee due (:func:`workflows.fees.check_filing`);
- any event of a street opening fills its deposit ledger with the lines its
  events call for (:func:`services.deposits.fill_ledger`: the fee and deposit
  of ``filed``, after-hours fees, the refund and what was held back); a
  void of one of its events reverses that event's lines.

A ``hearing-opened`` on a day for which no session of the hearing was
noticed (the day it was scheduled for, or continued to) is refused with
:class:`workflows.meetings.UnnoticedSession` unless the caller confirms it
(``unnoticed=True``): a warning, not a silent acceptance.

Every event is held to ``today``: an event dated after it has not
happened (:class:`models.errors.EventFromTheFuture`, nothing written).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any, NamedTuple

from workflows.errors import PermitsError
from workflows.filing import VOID, Filing
from workflows.submission import SUBMITTED, complete_event, incomplete_event

__all__ = [
    "Recorded",
    "NotAwaitingCheck",
    "MissingReason",
    "record_event",
    "void_event",
    "mark_complete",
    "mark_incomplete",
    "STREET_FILED_FIELDS",
]

#: What a street opening's ``filed`` event takes from its online
#: application when the event does not give it (docs/reference/filing-format.md).
STREET_FILED_FIELDS = ("applicant", "length_ft")


class Recorded(NamedTuple):
    """The event's sequence number and the filing's state after it."""

    seq: int
    state: str


class NotAwaitingCheck(PermitsError):
    """Complete or incomplete asked of a filing that is not an application
    waiting to be checked."""

    def __init__(self, filing_id: str, state: str):
        self.filing, self.state = filing_id, state
        super().__init__(f"{filing_id} is {state!r}, not an application waiting to be checked")


class MissingReason(PermitsError):
    """A void without its reason."""

    def __init__(self, filing_id: str):
        self.filing = filing_id
        super().__init__(f"{filing_id}: to void an event, say why (the reason is kept on the record)")


def _completed(filing: Filing, raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """``raw`` with what a street opening's online application gives its
    ``filed`` event, where the event does not say it."""
    if raw.get("type") != "filed" or filing.kind != "street-opening":
        return raw
    application = filing.extra.get("application")
    if not isinstance(application, Mapping):
        return raw
    missing = {n: application[n] for n in STREET_FILED_FIELDS if n not in raw and application.get(n) is not None}
    return {**raw, **missing} if missing else raw


def _effects(raw: Mapping[str, Any], *, now: datetime, recorded_at: datetime, mail_from: str):
    """What recording ``raw`` causes, as the store's ``then(conn, filing)``;
    None when it causes nothing.  ``now``: the emails' date; ``recorded_at``:
    when they are queued (the store's clock, UTC)."""
    if raw.get("type") != "found-incomplete":
        return None

    def queue_reasons(conn, filing: Filing) -> None:
        from models.store.outbox import queue_emails
        from notices.email import incomplete_email, party_emails

        reasons = str(raw.get("reasons") or "")
        emails = [
            incomplete_email(filing, role, address, reasons, now, mail_from=mail_from)
            for role, address in party_emails(filing.extra, ("applicant",))
        ]
        if emails:
            seq = len(filing.events)
            queue_emails(conn, filing.id, emails, recorded_at, f"event:{seq}", occasion=f"event-{seq}")

    return queue_reasons


def record_event(
    store,
    filing_id: str,
    raw_event: Mapping[str, Any],
    *,
    by: str,
    today: date,
    now: datetime,
    mail_from: str,
    expect_seq: int | None = None,
    unnoticed: bool = False,
    also: Callable[[Any, Filing], None] | None = None,
) -> Recorded:
    """Append ``raw_event`` to the filing if its history with it replays,
    with what it causes, in one transaction.  ``expect_seq``: the sequence
    number the form saw (:class:`models.errors.StaleFiling` if another
    event landed since); ``now``: the moment (an email's date);
    ``mail_from``: the sender of what it emails (``PERMITS_MAIL_FROM``);
    ``unnoticed``: the user confirms a hearing opened on a day no session
    was noticed for; ``also(conn, filing)``: the caller's own writes in the
    same transaction, first (an inspection's photos)."""
    raw = raw_event
    if raw.get("type") == "filed":
        filing, _ = store.load(filing_id)
        raw = _completed(filing, raw)
    effects = _opening_checked(raw, _effects(raw, now=now, recorded_at=store.now(), mail_from=mail_from), unnoticed)
    from .word import word_of_step

    word = word_of_step(store, today=today, now=now, mail_from=mail_from)

    def then(conn, filing: Filing) -> None:
        if also is not None:
            also(conn, filing)
        if raw.get("type") == "payment-received":  # the payments add up to the fee (workflows/fees.py)
            from workflows.fees import check_filing
            from workflows.replay import live_events
            from workflows.towns import town

            check_filing(filing, town(filing.town), live_events(filing))
        if effects is not None:
            effects(conn, filing)
        if filing.kind == "street-opening":  # the deposit ledger, from the permit's events (services/deposits.py)
            from services.deposits import fill_ledger

            fill_ledger(store, conn, filing, by=by)
        if word is not None:  # word of the step to the applicant (services/word.py)
            word(conn, filing)

    seq, state = store.record(filing_id, raw, by=by, expect_seq=expect_seq, today=today, then=then)
    return Recorded(seq, state)


def _opening_checked(raw: Mapping[str, Any], then, unnoticed: bool):
    """``then``, preceded for a ``hearing-opened`` by the check that a
    session was noticed for its day (in the event's transaction, once the
    event itself has been read and replayed)."""
    if raw.get("type") != "hearing-opened" or unnoticed:
        return then

    def check(conn, filing: Filing) -> None:
        from workflows.meetings import check_opening

        check_opening(filing, filing.events[-1].date)
        if then is not None:
            then(conn, filing)

    return check


def void_event(
    store, filing_id: str, seq: int, *, reason: str, day: date, by: str, today: date, expect_seq: int | None = None
) -> Recorded:
    """Record an ``event-voided`` naming event ``seq``, for ``reason`` (at
    most 500 characters kept); the replay refuses a void of a void, or of an
    event already voided."""
    reason = (reason or "").strip()
    if not reason:
        raise MissingReason(filing_id)
    raw = {"type": VOID, "date": day.isoformat(), "voids": seq, "reason": reason[:500]}

    def then(conn, filing: Filing) -> None:
        if filing.kind == "street-opening":  # the voided event's ledger lines reversed (services/deposits.py)
            from services.deposits import fill_ledger

            fill_ledger(store, conn, filing, by=by)

    return Recorded(*store.record(filing_id, raw, by=by, expect_seq=expect_seq, today=today, then=then))


def _awaiting_check(store, filing_id: str) -> None:
    from models.read import workbench

    summary = workbench.summary(store, filing_id)
    if summary.state != SUBMITTED:
        raise NotAwaitingCheck(filing_id, summary.state)


def mark_complete(
    store, filing_id: str, *, day: date, by: str, today: date, now: datetime, mail_from: str, expect_seq: int | None = None
) -> Recorded:
    """Staff find an online application complete on ``day`` (the receipt of
    a complete application, from which the clocks count): a ``filed``
    event, with what a street opening's application gives it."""
    _awaiting_check(store, filing_id)
    return record_event(
        store, filing_id, complete_event(day), by=by, today=today, now=now, mail_from=mail_from, expect_seq=expect_seq
    )


def mark_incomplete(
    store,
    filing_id: str,
    *,
    day: date,
    reasons: str,
    by: str,
    today: date,
    now: datetime,
    mail_from: str,
    expect_seq: int | None = None,
) -> Recorded:
    """Staff find an online application incomplete on ``day`` for
    ``reasons`` (at most 2,000 characters), which are emailed to the
    applicant in the same transaction; no clock starts."""
    _awaiting_check(store, filing_id)
    event = incomplete_event(day, (reasons or "")[:2000])
    return record_event(store, filing_id, event, by=by, today=today, now=now, mail_from=mail_from, expect_seq=expect_seq)
