"""Limits per client address on the workbench's doors: failed logins and
invitation acceptances (``login``), registrations (``register``) and
password reset requests (``reset``).

The per-account lock (models/accounts/users.py) stops guessing one account's
password; this stops one address guessing at many accounts, or making
accounts by the hundred.  The attempts are rows of the store
(``client_attempt``), not a process's memory, so every web process behind
a load balancer counts the same ones.  A window slides: an address may
make :attr:`Limit.attempts` attempts within any :attr:`Limit.window`; the
next is refused with :class:`TooManyAttempts`, which says when the oldest
counted attempt leaves the window.  The refusal is the same whatever email
was typed: it says nothing about whether an account exists.

Two requests arriving at once may both pass the check before either is
recorded; the limit can be overshot by the number of requests in flight,
which is not what it is for.  Which address a request comes from is the
web layer's business (web/clients.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection, Engine

from models.errors import TooManyAttempts
from models.schema.tables import ClientAttempt
from models.types import LIMITS, Limit

__all__ = ["Limit", "LIMITS", "Throttle", "TooManyAttempts"]

ATTEMPT = ClientAttempt.__table__


_KEEP = max(limit.window for limit in LIMITS.values())


class Throttle:
    """The attempts in one store's database; ``now`` is the store's clock."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.engine, self.now = engine, now
        self.reader = engine.execution_options(read_only=True)  # SQLite: a check takes no write lock

    def _naive_now(self) -> datetime:
        return self.now().astimezone(UTC).replace(tzinfo=None)

    def check(self, action: str, client: str) -> None:
        """Raise TooManyAttempts if ``client`` has used up ``action``'s
        limit within its window (a sliding window)."""
        limit, now = LIMITS[action], self._naive_now()
        with self.reader.connect() as conn:
            times = (
                conn.execute(
                    select(ATTEMPT.c.at)
                    .where(ATTEMPT.c.action == action, ATTEMPT.c.client == client[:64], ATTEMPT.c.at > now - limit.window)
                    .order_by(ATTEMPT.c.at.desc())
                    .limit(limit.attempts)
                )
                .scalars()
                .all()
            )
        if len(times) >= limit.attempts:
            # the limit-th most recent attempt must leave the window first
            raise TooManyAttempts(action, times[-1] + limit.window - now)

    def record(self, conn: Connection, action: str, client: str) -> None:
        """Count one attempt of ``client``'s; forget those older than any window."""
        if action not in LIMITS:
            raise ValueError(f"unknown action {action!r}")
        now = self._naive_now()
        conn.execute(delete(ATTEMPT).where(ATTEMPT.c.at <= now - _KEEP))
        conn.execute(insert(ATTEMPT).values(action=action, client=client[:64], at=now))
