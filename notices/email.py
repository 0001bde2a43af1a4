"""Email to applicants and owners: the wording of every message the
project queues in the store's outbox (notices, reminders, invitations, an
incomplete application's reasons).  Delivery is :mod:`notices.smtp`'s.

What goes by email (to the addresses on the filing: ``applicant.email``,
``owner.email``):

- the notices addressed to the applicant, the owner or the permit holder
  (:data:`EMAIL_NOTICES`: decisions, determinations, street permits and
  refusals, inspection results, settlement and certification answers,
  deposit refunds), with the notice's PDF attached;
- reminders of the applicant's own deadlines (:data:`workflows.standing.APPLICANT_CLOCKS`)
  :data:`REMINDER_DAYS` days out, and of the renewal window opening
  (:data:`RENEWAL_WINDOW_DAYS` days before the last day to ask).

Abutter notices, legal notices, postings and board memos stay on paper: the
by-laws require certified mail or publication for them.

Building a message is pure (the notice's bytes in, the message's bytes
out; the sender, ``PERMITS_MAIL_FROM``, is passed in as ``mail_from``);
queuing is the output log's (:mod:`models.store.outputs`) or the service's that
caused it, delivery the outbox's (:mod:`models.store.outbox`, at least once).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid, parseaddr
from zoneinfo import ZoneInfo

from workflows.standing import applicant_clock
from workflows.written import day_written

__all__ = [
    "EMAIL_NOTICES",
    "REMINDER_DAYS",
    "RENEWAL_WINDOW_DAYS",
    "party_emails",
    "town_sender",
    "build_message",
    "notice_emails",
    "reminder_emails",
    "invitation_email",
    "incomplete_email",
]

#: Notice kinds that go to the applicant and owner by email as well as on paper.
EMAIL_NOTICES = frozenset(
    {
        "permit",
        "denial",
        "determination",
        "street-permit",
        "street-refusal",
        "inspection-result",
        "settlement-answer",
        "certification-answer",
        "deposit-refund",
    }
)

REMINDER_DAYS = 7
RENEWAL_WINDOW_DAYS = 60

_EMAIL = re.compile(r"[^@\s<>,;]{1,64}@[^@\s<>,;]{1,190}\.[A-Za-z]{2,}")


def _clean(address) -> str | None:
    if not isinstance(address, str):
        return None
    address = address.strip()
    return address.lower() if _EMAIL.fullmatch(address) else None


def party_emails(extra: Mapping, roles=("applicant", "owner")) -> list[tuple[str, str]]:
    """(role, address) for each party on the filing with a valid address,
    each address once (an owner who is the applicant gets one email)."""
    out, seen = [], set()
    for role in roles:
        party = extra.get(role)
        address = _clean(party.get("email")) if isinstance(party, Mapping) else None
        if address and address not in seen:
            seen.add(address)
            out.append((role, address))
    return out


def town_sender(town_name: str, mail_from: str) -> str:
    """The From header of the town's emails (:func:`_sender`)."""
    return _sender(town_name, mail_from)


def _sender(town_name: str, mail_from: str) -> str:
    """``mail_from`` (``PERMITS_MAIL_FROM``) as the From header: a bare
    address gets the town's name."""
    return mail_from if "<" in mail_from else f"{town_name} permits <{mail_from}>"


#: the zone of a naive moment: the town's wall time (config/clock.py), as the ICS writer's
TOWN_ZONE = ZoneInfo("America/New_York")


def build_message(
    *, sender: str, to: str, subject: str, body: str, dated: datetime, attachments: tuple[tuple[str, bytes], ...] = ()
) -> bytes:
    """One message, its Message-ID fixed now: a copy sent again after a
    crash carries the same id (models/store/outbox.py)."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(dated if dated.tzinfo else dated.replace(tzinfo=TOWN_ZONE))  # -0500, not -0000
    msg["Message-ID"] = make_msgid(domain=parseaddr(sender)[1].split("@")[-1] or "localhost")
    msg.set_content(body)
    for name, content in attachments:
        msg.add_attachment(content, maintype="application", subtype="pdf", filename=name)
    return msg.as_bytes()


def _town_name(town_id: str) -> str:
    from workflows.towns import town

    return town(town_id).name


def notice_emails(
    filing, notice_kind: str, title: str, pdf_name: str, pdf: bytes, dated: datetime, *, mail_from: str
) -> list[dict]:
    """The emails of a notice made for ``filing``: one per applicant and
    owner address, the PDF attached.  Empty for a notice that stays on paper."""
    if notice_kind not in EMAIL_NOTICES:
        return []
    town_name = _town_name(filing.town)
    out = []
    for role, address in party_emails(filing.extra):
        body = (
            f"The {town_name} permit office sends you, as the {role} named on filing {filing.id}, "
            f"the attached {title.lower()} dated {day_written(dated)}.\n\n"
            f"The signed paper copy follows by mail. This message was sent automatically; "
            f"reply to the office named in the notice.\n"
        )
        out.append(
            {
                "kind": notice_kind,
                "recipient": f"{role}:{address}",
                "address": address,
                "dated": dated,
                "message": build_message(
                    sender=_sender(town_name, mail_from),
                    to=address,
                    subject=f"{title}: {filing.id}",
                    body=body,
                    dated=dated,
                    attachments=((pdf_name, pdf),),
                ),
            }
        )
    return out


def reminder_emails(filing, replay, as_of: date, dated: datetime, *, mail_from: str) -> list[tuple[str, Callable[[], dict]]]:
    """(output key, make payload) for each reminder due to the applicant on
    ``as_of``: an applicant's deadline :data:`REMINDER_DAYS` days out or
    nearer (once per clock date), and the renewal window opening
    (:data:`RENEWAL_WINDOW_DAYS` before the last day to ask; once)."""
    addresses = party_emails(filing.extra, roles=("applicant",))
    if not addresses:
        return []
    out = []
    for c in replay.clocks:
        base = c.id.split(":")[-1]
        what = applicant_clock(c.id, filing.town)
        if what is None or c.type != "deadline" or c.status != "open" or ":" in c.id:
            continue
        day = c.date if isinstance(c.date, date) else date.fromisoformat(c.date)
        if as_of <= day <= as_of + timedelta(days=REMINDER_DAYS):
            out.append((f"email:deadline:{c.id}:{day.isoformat()}", _reminder(filing, c, day, what, addresses, dated, mail_from)))
        elif base == "renewal-request" and day <= as_of + timedelta(days=RENEWAL_WINDOW_DAYS):
            out.append(
                (f"email:renewal-window:{c.id}:{day.isoformat()}", _reminder(filing, c, day, what, addresses, dated, mail_from))
            )
    return out


def _reminder(filing, clock, day: date, what: str, addresses, dated: datetime, mail_from: str) -> Callable[[], dict]:
    from .render import explained  # the clock's explanation in names and written dates, as the notices print it

    def make() -> dict:
        town_name = _town_name(filing.town)
        emails = []
        for role, address in addresses:
            body = (
                f"Filing {filing.id}: {what} by {day.strftime('%A, %B %-d, %Y')} ({clock.rule}).\n\n"
                f"How the date was counted: {explained(clock.explanation, filing.kind)}.\n"
            )
            emails.append(
                {
                    "kind": "reminder",
                    "recipient": f"{role}:{address}",
                    "address": address,
                    "dated": dated,
                    "message": build_message(
                        sender=_sender(town_name, mail_from),
                        to=address,
                        subject=f"Reminder: {what} by {day_written(day)} ({filing.id})",
                        body=body,
                        dated=dated,
                    ),
                }
            )
        return {"clock": clock.id, "date": day.isoformat(), "rule": clock.rule, "emails": emails}

    return make


def invitation_email(
    town_id: str, filing_id: str, address: str, link: str, expires: date, dated: datetime, *, mail_from: str
) -> dict:
    """The email carrying a staff invitation's link (queued like a notice)."""
    town_name = _town_name(town_id)
    body = (
        f"The {town_name} permit office invites you to follow filing {filing_id} online: where it stands, "
        f"what you must do next and by when, and every notice and decision issued on it.\n\n"
        f"Open this link to set your password (it works once, until {day_written(expires)}):\n{link}\n"
    )
    return {
        "kind": "invitation",
        "recipient": f"invitee:{address}",
        "address": address,
        "dated": dated,
        "message": build_message(
            sender=_sender(town_name, mail_from), to=address, subject=f"Follow filing {filing_id} online", body=body, dated=dated
        ),
    }


def incomplete_email(filing, role: str, address: str, reasons: str, dated: datetime, *, mail_from: str) -> dict:
    """The town's reasons for finding an online application incomplete."""
    town_name = _town_name(filing.town)
    body = (
        f"The {town_name} permit office has checked application {filing.id} and found it incomplete:\n\n"
        f"{reasons}\n\nCorrect what the town named (the application's particulars as well as its plans) "
        f"and submit it again from your status page. "
        f"No deadline runs until the application is complete.\n\n"
        f"Why you got this: you are the {role} named on filing {filing.id}; "
        f"the town writes to you at each step of it.\n"
    )
    return {
        "kind": "found-incomplete",
        "recipient": f"{role}:{address}",
        "address": address,
        "dated": dated,
        "message": build_message(
            sender=_sender(town_name, mail_from),
            to=address,
            subject=f"Application {filing.id} is incomplete",
            body=body,
            dated=dated,
        ),
    }
