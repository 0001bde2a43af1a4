"""The workbench's sessions, kept in the store so the server can end them.

A login writes a ``web_session`` row and gives the browser a random token
(in the signed session cookie); only the token's SHA-256 is stored, so a
copy of the database opens no session.  A request opens a page only when
its token names a row that has not expired, of an enabled user
(:meth:`Sessions.user`: one query).  Logging out deletes the row
(:meth:`Sessions.end`); a password change, a reset and disabling the
account delete all the user's rows (:func:`models.accounts.users.end_sessions`, in
the transaction that changes the account).  So a cookie copied before any
of these opens nothing after, on every web process that shares the store:
the processes hold no session state of their own.

A session lasts :data:`SESSION_HOURS` from its login, however busy (a
working day; then the user logs in again).  Expired rows are deleted as
new sessions start.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection, Engine

from models.accounts.users import USER, User, user_of_row
from models.schema.tables import WebSession
from models.types import SESSION_HOURS

__all__ = ["SESSION_HOURS", "Sessions", "token_digest"]

SESSION = WebSession.__table__


def token_digest(token: str) -> str:
    """What the store keeps of a session token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Sessions:
    """The live sessions in one store's database."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.engine, self.now = engine, now
        # reads take no lock: on SQLite a plain deferred transaction (models/schema/db.py),
        # so a page never waits for a writer (a login hashing its password)
        self.reader = engine.execution_options(read_only=True)

    def _naive_now(self) -> datetime:
        return self.now().astimezone(UTC).replace(tzinfo=None)

    def start(self, conn: Connection, user_id: int) -> str:
        """A new session of the user: its token, for the cookie.  Expired
        sessions of anyone are deleted in the same transaction."""
        token = secrets.token_urlsafe(32)
        now = self._naive_now()
        conn.execute(delete(SESSION).where(SESSION.c.expires_at <= now))
        conn.execute(
            insert(SESSION).values(
                token_sha256=token_digest(token),
                user_id=user_id,
                created_at=now,
                expires_at=now + timedelta(hours=SESSION_HOURS),
            )
        )
        return token

    def user(self, token: object) -> User | None:
        """The enabled user of the live session ``token``, or None (no such
        session, ended, expired, a disabled user, or not a token at all)."""
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            return None
        query = (
            select(USER)
            .join(SESSION, SESSION.c.user_id == USER.c.id)
            .where(SESSION.c.token_sha256 == token_digest(token), SESSION.c.expires_at > self._naive_now())
        )
        with self.reader.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None or row.disabled else user_of_row(row)

    def end(self, conn: Connection, token: object) -> None:
        """End the session ``token`` (logging out); nothing if there is none."""
        if isinstance(token, str) and 16 <= len(token) <= 128:
            conn.execute(delete(SESSION).where(SESSION.c.token_sha256 == token_digest(token)))

    def count(self, user_id: int) -> int:
        """How many live sessions the user has (the tests and the admin's count)."""
        with self.reader.connect() as conn:
            return conn.execute(
                select(func.count())
                .select_from(SESSION)
                .where(SESSION.c.user_id == user_id, SESSION.c.expires_at > self._naive_now())
            ).scalar_one()
