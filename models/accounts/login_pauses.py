"""Failed logins pause the client that made them, never the account's owner.

A lock on the whole account let anyone lock anyone out (issue 35: five
wrong passwords from five addresses locked the admin for fifteen minutes,
again every fifteen minutes).  Failures are counted instead per (the
address typed, the client's address):

- :data:`PAUSE_AFTER` failures to one address from one client within
  :data:`WINDOW` pause that client's logins to that address until the
  oldest of them leaves the window.  Other clients, the owner's among
  them, log in as before.
- **Many strangers at once.**  When :data:`GUARD_CLIENTS` clients or more
  have failed at one address within the window, every client that has
  not logged in to it in the last :data:`KNOWN_DAYS` days is paused too;
  a client the account has used goes on logging in.
- **A paused client with the right password** is not refused for good:
  the login is answered as every paused one is (the same words, right
  password or wrong, so a pause tells nothing), and when the password was
  right a single-use link that logs in is emailed to the account's own
  address (services/sessions.py).  Only someone who has the password and
  the mailbox gets in; a stranger cannot make the email be sent.
- A pause is the same for an address that names no account, so pausing
  says nothing of which addresses have one.
- A good login (or the emailed link) from a client makes its failures so
  far stop counting (they stay on the admin's list) and keeps it as known; a new password or an admin's "end the pauses"
  (:meth:`LoginPauses.clear`) forgets every failure of the address.

Failures are kept :data:`SHOWN_HOURS` hours for the admin's list on the
Users page (:meth:`LoginPauses.recent`); the start of each pause is
logged (logger ``permits.logins``).  How many attempts a client may make
across every address is the per-address limit's business
(models/accounts/throttle.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from sqlalchemy import and_, delete, func, insert, select
from sqlalchemy.engine import Connection, Engine

from models.schema.tables import LoginAttempt
from models.types import PAUSE_AFTER, PAUSE_WINDOW

__all__ = [
    "PAUSE_AFTER",
    "WINDOW",
    "GUARD_CLIENTS",
    "KNOWN_DAYS",
    "SHOWN_HOURS",
    "FailedLogins",
    "LoginPauses",
]

ATTEMPT = LoginAttempt.__table__
#: how long a failure counts (PAUSE_AFTER, failures that pause a client, is models/types.py's)
WINDOW = PAUSE_WINDOW
#: clients failing at one address at once that pause every unknown client
GUARD_CLIENTS = 10
#: how long a good login keeps a client known
KNOWN_DAYS = 30
#: how long failures are kept for the admin's list
SHOWN_HOURS = 24

_LOG = logging.getLogger("permits.logins")


class FailedLogins(NamedTuple):
    """The failed logins to one address from one client in the last
    :data:`SHOWN_HOURS` hours, for the admin; ``last`` is UTC."""

    email: str
    client: str
    count: int
    last: datetime
    paused: bool


class LoginPauses:
    """The login attempts of one store's database; ``now`` is the store's clock."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.engine, self.now = engine, now
        self.reader = engine.execution_options(read_only=True)

    def _naive_now(self) -> datetime:
        return self.now().astimezone(UTC).replace(tzinfo=None)

    def _counting(self, conn: Connection, email: str, client: str, now: datetime) -> list[datetime]:
        """The latest :data:`PAUSE_AFTER` failures of ``client`` at ``email``
        that count, newest first: within the window and after the client's
        last good login to it (rows in the order written: their ids)."""
        last_ok = conn.execute(
            select(func.max(ATTEMPT.c.id)).where(ATTEMPT.c.email == email, ATTEMPT.c.client == client, ATTEMPT.c.ok.is_(True))
        ).scalar_one()
        return (
            conn.execute(
                select(ATTEMPT.c.at)
                .where(
                    ATTEMPT.c.email == email,
                    ATTEMPT.c.client == client,
                    ATTEMPT.c.ok.is_(False),
                    ATTEMPT.c.at > now - WINDOW,
                    ATTEMPT.c.id > (last_ok or 0),
                )
                .order_by(ATTEMPT.c.id.desc())
                .limit(PAUSE_AFTER)
            )
            .scalars()
            .all()
        )

    def paused_until(self, conn: Connection, email: str, client: str) -> datetime | None:
        """When the pause on ``client``'s logins to ``email`` ends (UTC,
        aware), or None when it may log in."""
        now, client = self._naive_now(), client[:64]
        times = self._counting(conn, email, client, now)
        if len(times) >= PAUSE_AFTER:
            return (times[-1] + WINDOW).replace(tzinfo=UTC)
        recent = and_(ATTEMPT.c.email == email, ATTEMPT.c.ok.is_(False), ATTEMPT.c.at > now - WINDOW)
        clients = conn.execute(select(func.count(func.distinct(ATTEMPT.c.client))).where(recent)).scalar_one()
        if clients < GUARD_CLIENTS:
            return None
        known = conn.execute(
            select(ATTEMPT.c.id).where(
                ATTEMPT.c.email == email,
                ATTEMPT.c.client == client,
                ATTEMPT.c.ok.is_(True),
                ATTEMPT.c.at > now - timedelta(days=KNOWN_DAYS),
            )
        ).first()
        if known is not None:
            return None
        last = conn.execute(select(func.max(ATTEMPT.c.at)).where(recent)).scalar_one()
        return (last + WINDOW).replace(tzinfo=UTC)

    def fail(self, conn: Connection, email: str, client: str) -> None:
        """Count a failed login to ``email`` from ``client``; the one that
        starts a pause is logged."""
        now, client = self._naive_now(), client[:64]
        conn.execute(delete(ATTEMPT).where(ATTEMPT.c.ok.is_(False), ATTEMPT.c.at <= now - timedelta(hours=SHOWN_HOURS)))
        conn.execute(insert(ATTEMPT).values(email=email[:254], client=client, ok=False, at=now))
        count = len(self._counting(conn, email, client, now))
        if count == PAUSE_AFTER:
            _LOG.warning("logins to %s from %s paused after %d failed logins", email, client, count)

    def succeed(self, conn: Connection, email: str, client: str) -> None:
        """A good login to ``email`` from ``client``: its failures so far no
        longer count (they stay on the admin's list), the client kept as
        known for :data:`KNOWN_DAYS` days."""
        now, client = self._naive_now(), client[:64]
        conn.execute(delete(ATTEMPT).where(ATTEMPT.c.email == email, ATTEMPT.c.client == client, ATTEMPT.c.ok.is_(True)))
        conn.execute(delete(ATTEMPT).where(ATTEMPT.c.ok.is_(True), ATTEMPT.c.at <= now - timedelta(days=KNOWN_DAYS)))
        conn.execute(insert(ATTEMPT).values(email=email, client=client, ok=True, at=now))

    def clear(self, conn: Connection, email: str) -> int:
        """Forget every failed login to ``email`` (a new password, an
        admin's unlock): every pause on it ends.  How many were forgotten."""
        return conn.execute(delete(ATTEMPT).where(ATTEMPT.c.email == email, ATTEMPT.c.ok.is_(False))).rowcount

    def paused_emails(self) -> set[str]:
        """The addresses some client's logins to are paused now (by
        :data:`PAUSE_AFTER` failures from it since its last good login)."""
        now = self._naive_now()
        with self.reader.connect() as conn:
            pairs = conn.execute(
                select(ATTEMPT.c.email, ATTEMPT.c.client)
                .where(ATTEMPT.c.ok.is_(False), ATTEMPT.c.at > now - WINDOW)
                .group_by(ATTEMPT.c.email, ATTEMPT.c.client)
                .having(func.count() >= PAUSE_AFTER)
            ).all()
            return {p.email for p in pairs if len(self._counting(conn, p.email, p.client, now)) >= PAUSE_AFTER}

    def recent(self, limit: int = 50) -> list[FailedLogins]:
        """The failed logins of the last :data:`SHOWN_HOURS` hours by
        (address, client), the latest first, at most ``limit`` of them."""
        now = self._naive_now()
        last = func.max(ATTEMPT.c.at)
        with self.reader.connect() as conn:
            rows = conn.execute(
                select(ATTEMPT.c.email, ATTEMPT.c.client, func.count().label("n"), last.label("last"))
                .where(ATTEMPT.c.ok.is_(False), ATTEMPT.c.at > now - timedelta(hours=SHOWN_HOURS))
                .group_by(ATTEMPT.c.email, ATTEMPT.c.client)
                .order_by(last.desc())
                .limit(limit)
            ).all()
            out = []
            for r in rows:
                paused = self.paused_until(conn, r.email, r.client) is not None
                out.append(FailedLogins(r.email, r.client, r.n, r.last.replace(tzinfo=UTC), paused))
        return out
