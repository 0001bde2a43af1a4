"""Word at every step: the email queued to the applicant in the
transaction that records a step of their filing, however it was recorded
(``permits record``, the workbench's event form, complete/incomplete, a
meeting's agenda, an online application or its resubmission).

The steps (:data:`notices.step_email.STEP_KINDS`): the receipt of an
application submitted online, the town finding it complete, the hearing
scheduled or continued (day, time and the meeting's place), a decision or
Certificate of Compliance (the notice's PDF attached when the record gives
all it needs), an inspection's result, the deposit refunded.  The incomplete
finding's email is queued by :mod:`services.record` as before.

Each goes to the applicant's address on the filing (``applicant.email``),
through the outbox (:mod:`models.store.outbox`, at least once), keyed by the
event (occasion ``event-N``): the sweep's own email of a notice for that
same event is not sent again to an address already told
(:meth:`models.store.outputs.StoreOutputLog.mark_done`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime

from workflows.filing import Filing

__all__ = ["word_of_step", "queue_word", "DECISION_NOTICES"]

#: the notice whose PDF goes with a decision's email, by event type (the first that fits the filing)
DECISION_NOTICES = {
    "permit-issued": ("permit", "street-permit"),
    "permit-denied": ("denial", "street-refusal"),
    "determination-issued": ("determination",),
    "certificate-issued": ("certificate-of-compliance", "certificate-of-completion"),
}


def _place(conn, filing: Filing, e) -> str:
    """Where the hearing is held: the meeting whose agenda has it, else the
    board's usual place (the town's declaration)."""
    from models.store.meetings import hearing_meeting
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
    more: Sequence[str] = (),
    event=None,
) -> list[int]:
    """Queue the email of the filing's last event, if it is a step the
    applicant hears of and the filing gives the applicant's address; the
    notice ids.  ``now``: the email's date (town time); ``recorded_at``:
    the store's clock; ``place``: the hearing's place when the caller knows
    it (a meeting's); ``more``: further paragraphs of a receipt;
    ``event``: another event than the last (an application's ``submitted``,
    which its Dig Safe ticket follows).  ``filed`` is told only where it is
    the town finding an online application complete."""
    from models.store.outbox import queue_emails
    from notices.email import party_emails
    from notices.step_email import STEP_KINDS, step_email
    from workflows.submission import submission_of

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
    attachment = _decision_pdf(filing, e, today, now) if e.type in DECISION_NOTICES else None
    emails = [
        step_email(filing, e, role, address, now, mail_from=mail_from, place=place or "", attachment=attachment, more=more)
        for role, address in addresses
    ]
    seq = e.position
    return queue_emails(conn, filing.id, emails, recorded_at, f"event:{seq}", occasion=f"event-{seq}")


def word_of_step(store, *, today: date, now: datetime | None, mail_from: str | None, place: str | None = None) -> Callable | None:
    """The store's ``then(conn, filing)`` that queues the step's email; None
    without a sender (``mail_from``) or a moment to date it."""
    if not mail_from or now is None:
        return None
    recorded_at = store.now()

    def then(conn, filing: Filing) -> None:
        queue_word(conn, filing, today=today, now=now, recorded_at=recorded_at, mail_from=mail_from, place=place)

    return then
