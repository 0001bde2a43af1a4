"""The admins' Emails page: every email the workbench has queued, waiting
or sent, newest first, narrowed to a filing or to an address; and each one
readable (who from, to whom, the subject, the date, whether and when it
was sent, in words; the body as text, its links followed by a click; its
attachments named).  With no mail server set (``PERMITS_SMTP_URL``) the
emails wait in the outbox, and this is where they are read: in the demo,
the registration and reset links are followed from here.  ``permits
outbox show ID`` prints the same.  Anyone but an admin gets 404, as for a
filing outside their scope."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from models.read.outbox import Outbox
from notices.outbox_words import body_parts, size_words, status_words, when_words
from workflows.ids import BadFilingId, check_filing_id

from ..deps import Admin, SettingsDep, StoreDep
from ..render import render
from ..values import number_or

__all__ = ["router"]

router = APIRouter()


@router.get("/emails")
def emails_page(request: Request, user: Admin, store: StoreDep, settings: SettingsDep):
    q = request.query_params
    filing, address = q.get("filing", "").strip()[:64], q.get("address", "").strip()[:200]
    before = number_or(q.get("before"), 0, 0, 2**62) or None
    error = None
    if filing:
        try:
            check_filing_id(filing)
        except BadFilingId:
            error, filing = f"“{filing}” is not a filing number: write it as CAN-NOI-2026-000096.", ""
    listed, older = Outbox(store).page(filing_id=filing or None, address=address or None, before=before)
    zone, server = settings.timezone, settings.smtp_url is not None
    rows = [
        {
            "id": item.entry.id,
            "subject": item.subject or "(no subject)",
            "to": item.entry.address,
            "filing": item.entry.filing_id,
            "when": when_words(item.entry.sent_at or item.entry.produced_at, zone, short=True),
            "status": status_words(item.entry, zone, mail_server=server),
            "sent": item.entry.status == "sent",
        }
        for item in listed
    ]
    ctx = {"rows": rows, "filing": filing, "address": address, "older": older, "error": error, "mail_server": server}
    return render(request, "staff/emails.html", ctx, user=user)


@router.get("/emails/{notice_id}")
def email_page(request: Request, notice_id: str, user: Admin, store: StoreDep, settings: SettingsDep):
    number = number_or(notice_id, 0, 0, 2**62)
    email = Outbox(store).readable(number) if number else None
    if email is None:
        raise HTTPException(404)
    zone = settings.timezone
    ctx = {
        "email": email,
        "dated": when_words(email.dated, zone),
        "queued": when_words(email.entry.produced_at, zone),
        "status": status_words(email.entry, zone, mail_server=settings.smtp_url is not None),
        "parts": body_parts(email.body),
        "attachments": [(a.name, size_words(a.size)) for a in email.attachments],
    }
    return render(request, "staff/email.html", ctx, user=user)
