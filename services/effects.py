"""What an event causes, as a table: recording an event appends it and then
runs, in the same unit of work, the effects its type calls for, those of
its permit kind, and those of every event, in that order; an effect that
raises rolls the whole recording back.  However an event is recorded
(``permits record``, the workbench's forms, a meeting's agenda, an
inspection from the DPW's schedule), it causes the same things.

- ``hearing-opened``: refused with
  :class:`workflows.meetings.UnnoticedSession` when no session of the
  hearing was noticed for its day, unless the user confirms it
  (``unnoticed``): a warning, not a silent acceptance;
- ``payment-received``: refused unless the payments on record add up to at
  most the fee due (:func:`workflows.fees.check_filing`);
- ``found-incomplete``: the town's reasons queued by email to the
  applicant (:func:`notices.email.incomplete_email`);
- a street opening, any event: its deposit ledger filled with the lines
  its events call for, and a voided event's lines reversed
  (:func:`services.deposits.fill_ledger_in`);
- every event: the applicant's email of a step they hear of
  (:mod:`services.word`; nothing for an event that is not a step).

An email is a row of the outbox, written in the transaction; it leaves the
building only after the commit (``permits mail``, the sweep, or the
unit of work's ``on_commit``).  A decision's PDF, attached to its email, is
rendered before the transaction (:func:`services.word.prepare_word`), not
while the filing's row is locked.

A new effect is a function of an :class:`Occasion` and one row here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.handle import Store
    from workflows.filing import Event, Filing

    from .unit_of_work import UnitOfWork
    from .word import PreparedWord

__all__ = ["Occasion", "Effect", "BY_EVENT", "BY_KIND", "EVERY_EVENT", "effects_of", "run_effects"]


@dataclass(frozen=True)
class Occasion:
    """What an effect is given: the unit of work, the filing as it now
    stands (the event recorded is its last), and who recorded it when."""

    uow: UnitOfWork
    store: Store
    filing: Filing
    by: str
    today: date
    now: datetime | None = None  # the emails' date (the town's wall time); None: no email
    mail_from: str | None = None  # the sender (PERMITS_MAIL_FROM); None: no email
    unnoticed: bool = False  # the user confirms a hearing opened on a day no session was noticed for
    place: str | None = None  # where the hearing meets, when the caller knows it (a meeting's)
    word: PreparedWord | None = None  # what was rendered for the email before the transaction

    @property
    def event(self) -> Event:
        return self.filing.events[-1]


Effect = Callable[[Occasion], None]


def session_noticed(o: Occasion) -> None:
    """A hearing opens on a day a session of it was noticed for
    (:data:`workflows.meetings.POSTING_RULE`), unless the user confirms
    otherwise."""
    if o.unnoticed:
        return
    from workflows.meetings import check_opening

    check_opening(o.filing, o.event.date)


def payments_add_up(o: Occasion) -> None:
    """The payments on record add up to at most the fee due."""
    from workflows.fees import check_filing
    from workflows.replay import live_events
    from workflows.towns import town

    from .fees import entered_fees

    entered = entered_fees(o.uow.conn, o.filing.town, o.filing.kind)
    check_filing(o.filing, town(o.filing.town), live_events(o.filing), entered)


def incomplete_reasons_emailed(o: Occasion) -> None:
    """The town's reasons for finding an application incomplete, emailed to
    the applicant."""
    if not o.mail_from or o.now is None:
        return
    from models.store.outbox import queue_emails
    from notices.email import incomplete_email, party_emails

    reasons = str(o.event.get("reasons") or "")
    emails = [
        incomplete_email(o.filing, role, address, reasons, o.now, mail_from=o.mail_from)
        for role, address in party_emails(o.filing.extra, ("applicant",))
    ]
    if emails:
        seq = len(o.filing.events)
        queue_emails(o.uow.conn, o.filing.id, emails, o.store.now(), f"event:{seq}", occasion=f"event-{seq}")


def deposit_ledger_filled(o: Occasion) -> None:
    """A street opening's deposit ledger, from its live events."""
    from .deposits import fill_ledger_in

    fill_ledger_in(o.uow, o.store, o.filing, by=o.by)


def applicant_told(o: Occasion) -> None:
    """The applicant's email of the step, if it is one they hear of."""
    if not o.mail_from or o.now is None:
        return
    from .word import queue_word

    queue_word(
        o.uow.conn,
        o.filing,
        today=o.today,
        now=o.now,
        recorded_at=o.store.now(),
        mail_from=o.mail_from,
        place=o.place,
        prepared=o.word,
    )


#: the effects of an event, by its type
BY_EVENT: Mapping[str, tuple[Effect, ...]] = {
    "hearing-opened": (session_noticed,),
    "payment-received": (payments_add_up,),
    "found-incomplete": (incomplete_reasons_emailed,),
}
#: the effects of any event of a permit kind
BY_KIND: Mapping[str, tuple[Effect, ...]] = {
    "street-opening": (deposit_ledger_filled,),
}
#: the effects of every event, after the others
EVERY_EVENT: tuple[Effect, ...] = (applicant_told,)


def effects_of(kind: str, event_type: str) -> tuple[Effect, ...]:
    """The effects of recording an ``event_type`` on a filing of ``kind``,
    in the order they run."""
    return BY_EVENT.get(event_type, ()) + BY_KIND.get(kind, ()) + EVERY_EVENT


def run_effects(o: Occasion) -> None:
    for effect in effects_of(o.filing.kind, o.event.type):
        effect(o)
