"""Word at every step: the email queued to the applicant in the
transaction that records a step of their filing, however it was recorded
(``permits record``, the workbench's event form, complete/incomplete, a
meeting's agenda, an online application or its resubmission).

The steps (:data:`notices.step_email.STEP_KINDS`): the receipt of an
application submitted online, the town finding it complete, the hearing
scheduled or continued (day, time and the meeting's place), a decision or
Certificate of Compliance (the notice's PDF attached when the record gives
all it needs, rendered before the transaction: :func:`prepare_word`), an
inspection's result, the deposit refunded.  It is one of an event's effects
(:mod:`services.effects`), as is the incomplete finding's email.

Each goes to the applicant's address on the filing (``applicant.email``),
through the outbox (:mod:`models.store.outbox`, at least once), keyed by the
event (occasion ``event-N``): the sweep's own email of a notice for that
same event is not sent again to an address already told
(:meth:`services.sweep_log.StoreOutputLog.mark_done`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from workflows.errors import PermitsError
from workflows.filing import Filing

__all__ = ["queue_word", "prepare_word", "PreparedWord", "HistoryMoved", "DECISION_NOTICES"]

#: the notice whose PDF goes with a decision's email, by event type (the first that fits the filing)
DECISION_NOTICES = {
    "permit-issued": ("permit", "street-permit"),
    "permit-denied": ("denial", "street-refusal"),
    "determination-issued": ("determination",),
    "certificate-issued": ("certificate-of-compliance", "certificate-of-completion"),
}


@dataclass(frozen=True)
class PreparedWord:
    """What the email of a decision carries, rendered before the
    transaction that records the decision: the PDF for the event at
    ``seq`` (None when the record lacks what it needs: the email then says
    it follows)."""

    seq: int
    attachment: tuple[str, bytes] | None


class HistoryMoved(PermitsError):
    """Another event was recorded between rendering a decision's PDF and
    recording the decision: the service renders it again and tries again."""

    def __init__(self, filing_id: str):
        self.filing = filing_id
        super().__init__(f"{filing_id}: another event was recorded meanwhile; try again")


def prepare_word(
    store, filing_id: str, raw: Mapping[str, Any], *, today: date, now: datetime | None, mail_from: str | None
) -> PreparedWord | None:
    """The decision's PDF for the email of recording ``raw`` on the filing
    as it stands now, rendered outside any transaction; None when the event
    is no decision, or nothing would be emailed (no sender, no moment, no
    applicant's address).  An event the history refuses is left to the
    recording to refuse."""
    from notices.email import party_emails

    if raw.get("type") not in DECISION_NOTICES or not mail_from or now is None:
        return None
    filing, _ = store.load(filing_id)
    if not party_emails(filing.extra, ("applicant",)):
        return None
    try:
        longer = filing.with_event(raw)
    except PermitsError:
        return None
    return PreparedWord(len(longer.events), _decision_pdf(longer, longer.events[-1], today, now))


def _place(conn, filing: Filing, e) -> str:
    """Where the hearing is held: the meeting whose agenda has it, else the
    board's usual place (the town's declaration)."""
    from models.read.meetings import hearing_meeting
    from workflows.towns import town

    day = e.get("hearing") if e.type == "hearing-scheduled" else e.get("to")
    held = hearing_meeting(conn, filing.id, day) if isinstance(day, date) else None
    if held is not None:
        return held.place
    office = town(filing.town).office(filing.kind)
    return office.meeting_place if office is not None and office.meeting_place else ""


def _decision_pdf(filing: Filing, e, today: date, now: datetime) -> tuple[str, bytes] | None:
    """The decision's PDF as the notices render it now; None when the
    record lacks what it needs (the email then says it follows)."""
    from services.notices import fitting_notices, render_notice
    from workflows.errors import PermitsError
    from workflows.replay import replay

    wanted = DECISION_NOTICES.get(e.type, ())
    fitting = {k.id for k in fitting_notices(filing, replay(filing, today))}
    kind = next((k for k in wanted if k in fitting), None)
    if kind is None:
        return None
    try:
        _, _, [pdf, *_], _ = render_notice(filing, kind, as_of=today, now=now, fmt="pdf")
    except PermitsError:
        return None
    return pdf.filename, pdf.content


def queue_word(
    conn,
    filing: Filing,
    *,
    today: date,
    now: datetime,
    recorded_at: datetime,
    mail_from: str,
    place: str | None = None,
    event=None,
    prepared: PreparedWord | None = None,
) -> list[int]:
    """Queue the email of the filing's last event, if it is a step the
    applicant hears of and the filing gives the applicant's address; the
    notice ids.  ``now``: the email's date (town time); ``recorded_at``:
    the store's clock; ``place``: the hearing's place when the caller knows
    it (a meeting's); a receipt of an application carries the fee
    (:func:`services.fees.fee_line`);
    ``event``: another event than the last (an application's ``submitted``,
    which its Dig Safe ticket follows); ``prepared``: a decision's PDF,
    rendered before the transaction (:func:`prepare_word`), which a
    decision's email needs (:class:`HistoryMoved` when it was rendered for
    another event).  ``filed`` is told only where it is
    the town finding an online application complete."""
    from models.store.outbox import queue_emails
    from notices.email import party_emails
    from notices.step_email import STEP_KINDS, step_email
    from workflows.submission import submission_of

    from .fees import fee_line

    e = event if event is not None else filing.events[-1]
    if e.type not in STEP_KINDS:
        return []
    if e.type == "filed" and (e.get("complete") is False or submission_of(filing).complete_on != e.date):
        return []
    addresses = party_emails(filing.extra, ("applicant",))
    if not addresses:
        return []
    if e.type in ("hearing-scheduled", "hearing-continued") and place is None:
        place = _place(conn, filing, e)
    more = [fee_line(None, filing, conn)] if e.type == "submitted" else []
    attachment = None
    if e.type in DECISION_NOTICES:  # rendered before the transaction, never while the row is locked
        if prepared is None or prepared.seq != e.position:
            raise HistoryMoved(filing.id)
        attachment = prepared.attachment
    emails = [
        step_email(filing, e, role, address, now, mail_from=mail_from, place=place or "", attachment=attachment, more=more)
        for role, address in addresses
    ]
    seq = e.position
    return queue_emails(conn, filing.id, emails, recorded_at, f"event:{seq}", occasion=f"event-{seq}")
