"""An email of the outbox in people's words, for whoever reads it where it
waits (the admins' Emails page, ``permits outbox show ID``): whether and
when it was sent ("Sent Thursday, December 3, 2026, 11:54 a.m."), its
moments in the town's time, its body in pieces with its links marked (the
page makes them links), an attachment's size.  Pure: the zone's name and
whether a mail server is set are handed in."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from workflows.written import moment_written, short_day, time_written

__all__ = ["when_words", "status_words", "body_parts", "size_words"]

_LINK = re.compile(r"https?://[^\s<>\"']+")


def when_words(moment: datetime | None, zone: str, *, short: bool = False) -> str:
    """A moment the store stamped (UTC; naive is UTC) in the town's time:
    "Thursday, December 3, 2026, 11:54 a.m." (``short``: "Thu, Dec 3,
    2026, 11:54 a.m."); "" for none."""
    if moment is None:
        return ""
    local = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    return f"{short_day(local)}, {time_written(local)}" if short else moment_written(local)


def _answer(error: str | None) -> str:
    """What the mail server answered, without the name of the error's class."""
    text = (error or "").split(": ", 1)[-1].strip()
    return f": {text}" if text else " with an error"


def status_words(entry, zone: str, *, mail_server: bool) -> str:
    """Whether and when the outbox's ``entry`` (:class:`models.read.outbox.OutboxEntry`)
    was sent, in words."""
    if entry.status == "sent":
        return f"Sent {when_words(entry.sent_at, zone)}"
    tries = f"{entry.attempts} {'try' if entry.attempts == 1 else 'tries'}"
    if entry.status == "failed":
        return f"Not sent: given up after {tries}; the mail server answered{_answer(entry.last_error)}"
    if entry.status == "retrying":
        return f"Not sent yet: {tries} so far; the mail server answered{_answer(entry.last_error)}"
    if not mail_server:
        return "Waiting: no mail server is set, so it is kept here to be read"
    return "Waiting to be sent"


def body_parts(body: str) -> list[tuple[str, bool]]:
    """The body's text in pieces, in order, each a link (True: an http or
    https address, its closing punctuation left out) or plain text."""
    body = body.replace("\r\n", "\n")
    parts, at = [], 0
    for m in _LINK.finditer(body):
        link = m.group(0).rstrip(".,;:)")
        parts += [(body[at : m.start()], False), (link, True)]
        at = m.start() + len(link)
    return [p for p in (*parts, (body[at:], False)) if p[0]]


def size_words(n: int) -> str:
    """``512 bytes``, ``34 KB``, ``2.5 MB``."""
    if n < 1024:
        return f"{n:,} bytes"
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"
