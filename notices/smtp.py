"""Delivery of the outbox's emails through an SMTP server
(``PERMITS_SMTP_URL``, handed in by the caller): :func:`smtp_sender` gives
the ``send(address, message)`` that :meth:`models.store.outbox.Outbox.deliver`
calls for each waiting message."""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from email import message_from_bytes
from email.policy import SMTP
from email.utils import parseaddr
from urllib.parse import unquote, urlsplit

from workflows.errors import PermitsError

__all__ = ["MailConfigError", "smtp_sender", "DEFAULT_SENDER"]

#: the envelope sender when a message's From header names none
DEFAULT_SENDER = "permits@localhost"


class MailConfigError(PermitsError):
    """``PERMITS_SMTP_URL`` is not a URL the sender can use."""


def smtp_sender(url: str, timeout: float = 30.0) -> Callable[[str, bytes], None]:
    """``send(address, message)`` through the server at ``url``:
    ``smtp://[user:password@]host[:port]`` (plain, port 25),
    ``smtp+starttls://...`` (STARTTLS, port 587) or ``smtps://...`` (TLS,
    port 465)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtp+starttls", "smtps") or not parts.hostname:
        raise MailConfigError(
            f"PERMITS_SMTP_URL: {parts.scheme or url!r} is not an SMTP URL; use smtp://host:port, smtp+starttls://... or smtps://..."
        )
    port = parts.port or {"smtp": 25, "smtp+starttls": 587, "smtps": 465}[parts.scheme]
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None

    def send(address: str, message: bytes) -> None:
        cls = smtplib.SMTP_SSL if parts.scheme == "smtps" else smtplib.SMTP
        with cls(parts.hostname, port, timeout=timeout) as server:
            if parts.scheme == "smtp+starttls":
                server.starttls()
            if user:
                server.login(user, password or "")
            sender = parseaddr(message_from_bytes(message, policy=SMTP).get("From", ""))[1] or DEFAULT_SENDER
            server.sendmail(sender, [address], message)

    return send
