"""Record an event on a filing, void one, and find an online application
complete or incomplete: ``permits record`` / ``permits void`` and the
workbench's event, void, "complete" and "incomplete" forms all call these.

Each is one unit of work (:mod:`services.unit_of_work`): the event is
appended (:func:`models.store.filings.append_event`: the filing's row
locked, the history with the event replayed, the derived rows rewritten),
then what it causes is done in the same transaction, by the table of
:mod:`services.effects` (a session noticed for a hearing's opening,
payments within the fee, the incomplete finding's email, a street
opening's deposit ledger, the applicant's word of the step).  Anything
refused and nothing is written, and no email is queued.

``filed`` on a street opening's online application carries what its
``filed`` event needs from the application when the event does not say it
(``applicant``, ``length_ft``: docs/reference/filing-format.md).

Every event is held to ``today``: an event dated after it has not
happened (:class:`models.errors.EventFromTheFuture`, nothing written).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any, NamedTuple

from workflows.errors import PermitsError
from workflows.filing import Filing
from workflows.submission import SUBMITTED, complete_event, incomplete_event

from .effects import Occasion, run_effects
from .unit_of_work import UnitOfWork
from .word import HistoryMoved, PreparedWord, prepare_word

__all__ = [
    "Recorded",
    "NotAwaitingCheck",
    "MissingReason",
    "record_event",
    "record_in",
    "void_event",
    "mark_complete",
    "mark_incomplete",
    "STREET_FILED_FIELDS",
]

#: What a street opening's ``filed`` event takes from its online
#: application when the event does not give it (docs/reference/filing-format.md).
STREET_FILED_FIELDS = ("applicant", "length_ft")
#: how many times a decision is rendered again when another event lands
#: between its rendering and its recording
_TRIES = 3


class Recorded(NamedTuple):
    """The event's sequence number and the filing's state after it."""

    seq: int
    state: str


class NotAwaitingCheck(PermitsError):
    """Complete or incomplete asked of a filing that is not an application
    waiting to be checked."""

    def __init__(self, filing_id: str, state: str, kind: str = "*"):
        from workflows.vocabulary import state_name

        self.filing, self.state = filing_id, state
        super().__init__(
            f"{filing_id} is not an application waiting to be checked: it is {state_name(kind, state)}, "
            f"so record what happens next from the filing's menu of events"
        )


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


def record_in(
    uow: UnitOfWork,
    filing_id: str,
    raw_event: Mapping[str, Any],
    *,
    by: str,
    today: date,
    now: datetime | None = None,
    mail_from: str | None = None,
    expect_seq: int | None = None,
    unnoticed: bool = False,
    place: str | None = None,
    word: PreparedWord | None = None,
) -> tuple[Recorded, Filing]:
    """Append ``raw_event`` in the caller's unit of work and do what it
    causes (:mod:`services.effects`); the event's number and the filing's
    state, and the filing as it now stands.  For a larger action (a
    meeting's agenda item, an inspection's photos) that records an event
    among its other writes."""
    from models.store.filings import append_event

    store = uow.store
    seq, state, filing = append_event(uow.conn, store, filing_id, raw_event, by=by, expect_seq=expect_seq, today=today)
    occasion = Occasion(uow, store, filing, by, today, now, mail_from, unnoticed=unnoticed, place=place, word=word)
    run_effects(occasion)
    return Recorded(seq, state), filing


def record_event(
    store,
    filing_id: str,
    raw_event: Mapping[str, Any],
    *,
    by: str,
    today: date,
    now: datetime | None,
    mail_from: str | None,
    expect_seq: int | None = None,
    unnoticed: bool = False,
) -> Recorded:
    """Append ``raw_event`` to the filing if its history with it replays,
    with what it causes, in one unit of work.  ``expect_seq``: the sequence
    number the form saw (:class:`models.errors.StaleFiling` if another
    event landed since); ``now``: the moment (an email's date);
    ``mail_from``: the sender of what it emails (``PERMITS_MAIL_FROM``);
    ``unnoticed``: the user confirms a hearing opened on a day no session
    was noticed for."""
    raw = raw_event
    if raw.get("type") == "filed":
        filing, _ = store.load(filing_id)
        raw = _completed(filing, raw)
    return record_prepared(
        store,
        lambda uow, word: record_in(
            uow,
            filing_id,
            raw,
            by=by,
            today=today,
            now=now,
            mail_from=mail_from,
            expect_seq=expect_seq,
            unnoticed=unnoticed,
            word=word,
        )[0],
        filing_id,
        raw,
        today=today,
        now=now,
        mail_from=mail_from,
    )


def record_prepared(store, write, filing_id: str, raw: Mapping[str, Any], *, today: date, now, mail_from):
    """``write(uow, word)`` in a unit of work of its own, with the decision's
    PDF rendered before it (:func:`services.word.prepare_word`); rendered
    again and tried again if another event landed in between."""
    for attempt in range(_TRIES):
        word = prepare_word(store, filing_id, raw, today=today, now=now, mail_from=mail_from)
        try:
            with UnitOfWork(store) as uow:
                return write(uow, word)
        except HistoryMoved:
            if attempt == _TRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def void_event(
    store, filing_id: str, seq: int, *, reason: str, day: date, by: str, today: date, expect_seq: int | None = None
) -> Recorded:
    """Record an ``event-voided`` naming event ``seq``, for ``reason`` (at
    most 500 characters kept); the replay refuses a void of a void, or of an
    event already voided.  A voided event's effects that the record keeps
    (a street opening's ledger lines) are reversed."""
    from models.store.filings import void_raw

    reason = (reason or "").strip()
    if not reason:
        raise MissingReason(filing_id)
    raw = void_raw(seq, reason=reason[:500], day=day)
    with UnitOfWork(store) as uow:
        recorded, _ = record_in(uow, filing_id, raw, by=by, today=today, expect_seq=expect_seq)
    return recorded


def _awaiting_check(store, filing_id: str, today: date) -> None:
    """The filing is an online application the town has not yet found
    complete: ``submitted`` in its machine, whether waiting to be checked
    or sent back as incomplete (its stage; the town may find it complete
    once the applicant has sent what was missing)."""
    filing, _ = store.load(filing_id)
    state = str(store.replayer(filing, today).state)
    if state != SUBMITTED:
        raise NotAwaitingCheck(filing_id, state, filing.kind)


def mark_complete(
    store, filing_id: str, *, day: date, by: str, today: date, now: datetime, mail_from: str, expect_seq: int | None = None
) -> Recorded:
    """Staff find an online application complete on ``day`` (the receipt of
    a complete application, from which the clocks count): a ``filed``
    event, with what a street opening's application gives it."""
    _awaiting_check(store, filing_id, today)
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
    applicant in the same unit of work; no clock starts."""
    _awaiting_check(store, filing_id, today)
    event = incomplete_event(day, (reasons or "")[:2000])
    return record_event(store, filing_id, event, by=by, today=today, now=now, mail_from=mail_from, expect_seq=expect_seq)
