"""A real SMTP server for the tests (aiosmtpd on 127.0.0.1, a free port)
that keeps every message it is given, and the links a message carries."""

from __future__ import annotations

import re
import socket
from contextlib import contextmanager
from email import message_from_bytes
from email.policy import default

from aiosmtpd.controller import Controller


class Sink:
    """The messages the server took: (recipients, message)."""

    def __init__(self):
        self.received = []
        self.url = ""

    async def handle_DATA(self, server, session, envelope):
        self.received.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content, policy=default)))
        return "250 OK"

    def to(self, address: str) -> list:
        return [m for rcpt, m in self.received if address in rcpt]

    def link(self, address: str, prefix: str) -> str:
        """The whole URL of the last link with ``prefix`` (``/confirm/``) sent to ``address``."""
        for message in reversed(self.to(address)):
            found = re.search(r"(https?://[^\s/]+" + re.escape(prefix) + r"[A-Za-z0-9_-]+)", body(message))
            if found:
                return found.group(1)
        raise AssertionError(f"no {prefix} link sent to {address}: {[m['Subject'] for m in self.to(address)]}")


def body(message) -> str:
    return message.get_body().get_content()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def smtp_server():
    sink = Sink()
    port = _free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    sink.url = f"smtp://127.0.0.1:{port}"
    try:
        yield sink
    finally:
        controller.stop()
