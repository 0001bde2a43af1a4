"""Word at every step: the email the applicant gets when the town records
a step of their filing (:data:`STEP_KINDS`): the receipt of an online
application, the town finding it complete, the hearing scheduled or
continued (day, time, place), the decision (its PDF attached), the
Certificate of Compliance (attached), an inspection's result, the deposit
refunded.  The incomplete finding's email is :func:`notices.email.incomplete_email`.

Every message ends with :func:`why_line`: why the reader got it, naming the
filing.  Building a message is pure (the facts in, the outbox's payload
out); what queues it, in the transaction that records the step, is
:mod:`services.word`.

The receipt's body is built from :func:`receipt_lines` plus the caller's
``more`` lines: the one place a further line of the receipt goes (the fee
and what was paid, when the town keeps them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime

from workflows.vocabulary import event_name, kind_name, value_name
from workflows.written import day_written, moment_written, time_written

from .email import build_message, town_sender

__all__ = ["STEP_KINDS", "STEP_TITLES", "why_line", "receipt_lines", "step_email", "email_title"]

#: event type -> the email's kind in the outbox (what the status page lists)
STEP_KINDS: Mapping[str, str] = {
    "submitted": "receipt",
    "filed": "found-complete",
    "hearing-scheduled": "hearing-scheduled",
    "hearing-continued": "hearing-continued",
    "permit-issued": "decision-issued",
    "permit-denied": "decision-issued",
    "determination-issued": "decision-issued",
    "certificate-issued": "certificate-issued",
    "inspected": "inspection-result",
    "deposit-refunded": "deposit-refunded",
}

#: what each email the applicant may get is, in words (the status page's list)
STEP_TITLES: Mapping[str, str] = {
    "receipt": "Receipt of your application",
    "found-complete": "Application found complete",
    "found-incomplete": "Application found incomplete",
    "hearing-scheduled": "Public hearing scheduled",
    "hearing-continued": "Public hearing continued",
    "decision-issued": "Decision issued",
    "certificate-issued": "Certificate issued",
    "inspection-result": "Inspection result",
    "deposit-refunded": "Deposit refunded",
    "invitation": "Invitation to follow the filing online",
    "reminder": "Reminder of a deadline",
}


def email_title(kind: str) -> str:
    """The email's kind in words: a step's, else the notice's title."""
    if kind in STEP_TITLES:
        return STEP_TITLES[kind]
    from .kinds import NOTICE_KINDS

    return NOTICE_KINDS[kind].title if kind in NOTICE_KINDS else "Message from the town"


def why_line(filing, role: str = "applicant") -> str:
    """The line that tells the reader why the message came to them."""
    return (
        f"Why you got this: you are the {role} named on filing {filing.id} "
        f"({kind_name(filing.kind)}, {_town_name(filing.town)}); the town writes to you at each step of it."
    )


def _town_name(town_id: str) -> str:
    from workflows.towns import town

    return town(town_id).name


def receipt_lines(filing, on: date) -> list[str]:
    """The receipt's own paragraphs: what was received, when, and what comes next."""
    return [
        f"The {_town_name(filing.town)} permit office received your application online on {day_written(on)}.",
        f"Its filing number is {filing.id}: give it whenever you write or call about the application.",
        "The town now checks that the application is complete. No deadline runs until it finds it complete; "
        "you will get word either way.",
    ]


def _paragraphs(filing, e, *, place: str, attached: bool) -> tuple[str, list[str]]:
    """(subject, paragraphs) of the step ``e`` (an event of the filing)."""
    fid, name = filing.id, event_name(filing.kind, e.type)
    if e.type == "submitted":
        return f"Received: application {fid}", receipt_lines(filing, e.date)
    if e.type == "filed":
        return f"Application {fid} is complete", [
            f"The town found application {fid} complete on {day_written(e.date)}.",
            "The by-law's deadlines count from that day; your status page shows each one and what comes next.",
        ]
    if e.type in ("hearing-scheduled", "hearing-continued"):
        day = e.get("hearing") if e.type == "hearing-scheduled" else e.get("to")
        when = day_written(day) + (f", at {time_written(e.at)}" if e.at is not None else "")
        where = f", at {place}" if place else ""
        verb = "is scheduled for" if e.type == "hearing-scheduled" else "was continued to"
        subject = "Hearing scheduled" if e.type == "hearing-scheduled" else "Hearing continued"
        return f"{subject}: {fid}, {when}", [
            f"The public hearing on filing {fid} {verb} {when}{where}.",
            "You or your representative should attend: the commission hears the application there.",
        ]
    if e.type in ("permit-issued", "permit-denied", "determination-issued", "certificate-issued"):
        paper = "The decision is attached as a PDF" if attached else "The decision's document follows"
        lines = [f"{name} on {day_written(e.date)}, filing {fid}.", f"{paper}; the signed paper copy follows by mail."]
        conditions = e.get("conditions") or ()
        if conditions:
            lines.append("Its conditions:\n" + "\n".join(f"  {i}. {c}" for i, c in enumerate(conditions, 1)))
        return f"{name}: {fid}", lines
    if e.type == "inspected":
        stage, result = value_name(e.get("stage")), value_name(e.get("result"))
        when = moment_written(e.at) if e.at is not None else day_written(e.date)
        lines = [f"The {stage} inspection of filing {fid} on {when}: {result}."]
        if e.get("defect"):
            lines.append(f"What must be put right: {e.get('defect')}")
        if e.get("reinspect"):
            lines.append(f"Reinspection: {day_written(e.get('reinspect'))}.")
        return f"Inspection {result}: {fid}", lines
    if e.type == "deposit-refunded":
        amount = f" ${e.get('amount')}" if e.get("amount") else ""
        lines = [f"The town refunded the deposit{amount} on filing {fid} on {day_written(e.date)}."]
        if e.get("held_back"):
            lines.append(f"Held back: ${e.get('held_back')}" + (f" ({e.get('reason')})" if e.get("reason") else "") + ".")
        return f"Deposit refunded: {fid}", lines
    raise ValueError(f"no step email for {e.type}")


def step_email(
    filing,
    e,
    role: str,
    address: str,
    dated: datetime,
    *,
    mail_from: str,
    place: str = "",
    attachment: tuple[str, bytes] | None = None,
    more: Sequence[str] = (),
) -> dict:
    """The outbox's payload of the email telling ``address`` (the filing's
    ``role``) of step ``e``; ``attachment`` (name, PDF bytes): the decision;
    ``more``: further paragraphs (a receipt's fee)."""
    subject, lines = _paragraphs(filing, e, place=place, attached=attachment is not None)
    body = "\n\n".join([*lines, *more, why_line(filing, role)]) + "\n"
    return {
        "kind": STEP_KINDS[e.type],
        "recipient": f"{role}:{address}",
        "address": address,
        "dated": dated,
        "message": build_message(
            sender=town_sender(_town_name(filing.town), mail_from),
            to=address,
            subject=subject,
            body=body,
            dated=dated,
            attachments=(attachment,) if attachment else (),
        ),
    }
