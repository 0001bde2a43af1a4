"""The single-use links emailed to prove an address or to reset a
forgotten password, and what following one does to the accounts.

- **A registration** (:meth:`AccountLinks.register`) makes no account: it
  keeps the address and the password's argon2 hash beside the SHA-256 of a
  random token, for :data:`REGISTRATION_HOURS`.  The account is made when
  the link sent to that address is followed and the password chosen at
  registration is given (:meth:`AccountLinks.confirm`): whoever typed
  someone else's address never receives the link, and the mailbox's owner,
  following a link they did not ask for, cannot finish it without the
  stranger's password.  An account made before without its address proved
  (an older registration) is taken over by the link's password, its
  sessions ended.  An address that already has an account gets no link:
  its owner is told someone tried (the caller's email).
- **A reset** (:meth:`AccountLinks.reset_link`) is a link for an enabled
  account, valid :data:`RESET_MINUTES` minutes; using it
  (:meth:`AccountLinks.reset`) sets the new password, ends every session
  of the user (models/accounts/users.py), proves an applicant's address (the link
  came to it) and spends every other reset link of the account.
- **A staff invitation** (:meth:`AccountLinks.invite_link`) is a link for
  an account an admin made by invitation (models/accounts/staff.py), valid
  :data:`models.types.INVITATION_DAYS` days; using it
  (:meth:`AccountLinks.accept_invitation`) sets the password the person
  chose, takes the invitation up and spends every other invitation link
  of the address.
- **A login link** (:meth:`AccountLinks.login_link`) is emailed when the
  right password came from a client whose logins to the account are
  paused (models/accounts/login_pauses.py), valid
  :data:`models.accounts.login_pauses.WINDOW`; using it
  (:meth:`AccountLinks.log_in`) opens a session and spends every other
  login link of the address.
- Every link is used once: ``used_at`` is set in the transaction that
  uses it, the row locked; an expired, used or unknown token is
  :class:`LinkRefused`, which never says whether an address has an account.
- At most :data:`LINKS_PER_HOUR` links of one kind go to one address in an
  hour: more would let anyone flood a mailbox; the rest are made silently
  into nothing (the caller's answer is the same).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from models.accounts.users import APPLICANT, LoginRefused, end_sessions, replace_password, user_of_row, verify_password
from models.errors import LinkRefused
from models.schema.tables import AccountLink, UserRow
from models.types import INVITATION_DAYS, RESET_MINUTES

__all__ = [
    "REGISTRATION_HOURS",
    "RESET_MINUTES",
    "LINKS_PER_HOUR",
    "REGISTER",
    "RESET",
    "INVITE",
    "LOGIN",
    "LinkRefused",
    "NewLink",
    "AccountLinks",
    "usable",
]

LINK, USER = AccountLink.__table__, UserRow.__table__
REGISTER, RESET, INVITE, LOGIN = "register", "reset", "invite", "login"
#: how long a registration's link works
REGISTRATION_HOURS = 24
#: links of one kind to one address in an hour, at most
LINKS_PER_HOUR = 3
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


class NewLink(NamedTuple):
    """A link made: its token (shown once, in the email) and its expiry (UTC)."""

    token: str
    expires: datetime


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def usable(row) -> bool:
    """An ``app_user`` row that is a working account: staff, or an
    applicant whose address is proved, and not disabled."""
    return row is not None and not row.disabled and (row.role != APPLICANT or row.verified_at is not None)


class AccountLinks:
    """The links of one store's database; ``now`` is the store's clock."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.engine, self.now = engine, now
        self.reader = engine.execution_options(read_only=True)

    def _naive_now(self) -> datetime:
        return self.now().astimezone(UTC).replace(tzinfo=None)

    def account_row(self, conn: Connection, email: str):
        return conn.execute(select(USER).where(USER.c.email == email).with_for_update()).first()

    def _make(self, conn: Connection, purpose: str, email: str, lifetime: timedelta, **values) -> NewLink | None:
        now = self._naive_now()
        recent = conn.execute(
            select(func.count())
            .select_from(LINK)
            .where(LINK.c.email == email, LINK.c.purpose == purpose, LINK.c.created_at > now - timedelta(hours=1))
        ).scalar_one()
        if recent >= LINKS_PER_HOUR:
            return None
        token = secrets.token_urlsafe(32)
        conn.execute(
            insert(LINK).values(
                token_sha256=_digest(token),
                purpose=purpose,
                email=email,
                created_at=now,
                expires_at=now + lifetime,
                **values,
            )
        )
        return NewLink(token, (now + lifetime).replace(tzinfo=UTC))

    def register(self, conn: Connection, email: str, password_hash: str) -> NewLink | None:
        """A registration's link for ``email`` (normalised by the caller),
        in the caller's transaction; None when the address had its
        :data:`LINKS_PER_HOUR` already."""
        return self._make(conn, REGISTER, email, timedelta(hours=REGISTRATION_HOURS), password_hash=password_hash)

    def reset_link(self, conn: Connection, user_row) -> NewLink | None:
        """A reset link for the account ``user_row``, in the caller's
        transaction; None when the address had its :data:`LINKS_PER_HOUR`."""
        return self._make(conn, RESET, user_row.email, timedelta(minutes=RESET_MINUTES), user_id=user_row.id)

    def invite_link(self, conn: Connection, user_row) -> NewLink | None:
        """An invitation's link for the account ``user_row`` (made by
        :func:`models.accounts.staff.invite`), in the caller's transaction;
        None when the address had its :data:`LINKS_PER_HOUR`."""
        return self._make(conn, INVITE, user_row.email, timedelta(days=INVITATION_DAYS), user_id=user_row.id)

    def login_link(self, conn: Connection, user_row) -> NewLink | None:
        """A link that logs in to the account ``user_row``, in the caller's
        transaction; None when the address had its :data:`LINKS_PER_HOUR`."""
        from models.accounts.login_pauses import WINDOW

        return self._make(conn, LOGIN, user_row.email, WINDOW, user_id=user_row.id)

    def log_in(self, conn: Connection, token: str):
        """Use a login link: the account (a working one still) as it is,
        every login link of its address spent; LinkRefused otherwise."""
        link = self.live(token, LOGIN, conn)
        row = conn.execute(select(USER).where(USER.c.id == link.user_id).with_for_update()).first()
        if not usable(row) or row.email != link.email:
            raise LinkRefused("this link is not valid: ask for a new one")
        self._spend(conn, LOGIN, row.email)
        return user_of_row(row)

    def live(self, token: object, purpose: str, conn: Connection | None = None):
        """The link's row if ``token`` names a live link of ``purpose``; else
        :class:`LinkRefused` (unknown, used or expired: said so)."""
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise LinkRefused("this link is not valid: ask for a new one")
        query = select(LINK).where(LINK.c.token_sha256 == _digest(token), LINK.c.purpose == purpose)
        if conn is None:
            with self.reader.connect() as c:
                row = c.execute(query).first()
        else:
            row = conn.execute(query.with_for_update()).first()
        if row is None:
            raise LinkRefused("this link is not valid: ask for a new one")
        if row.used_at is not None:
            raise LinkRefused("this link has been used already: it works once; ask for a new one")
        if row.expires_at <= self._naive_now():
            raise LinkRefused("this link has expired: ask for a new one")
        return row

    def _spend(self, conn: Connection, purpose: str, email: str) -> None:
        """Every live link of ``purpose`` to ``email`` used now (the one
        followed and its siblings: a second copy opens nothing)."""
        conn.execute(
            update(LINK)
            .where(LINK.c.purpose == purpose, LINK.c.email == email, LINK.c.used_at.is_(None))
            .values(used_at=self._naive_now())
        )

    def confirm(self, conn: Connection, token: str, password: str):
        """Follow a registration's link: ``password`` must be the one chosen
        at registration (else LoginRefused, nothing written).  Makes the
        account, its address proved, or takes over an unproved one (its
        sessions ended); LinkRefused if the address has a working account
        by now.  Returns the account's ``app_user`` row."""
        now = self._naive_now()
        link = self.live(token, REGISTER, conn)
        if not verify_password(link.password_hash, str(password or "")):
            raise LoginRefused("this is not the password chosen when registering")
        row = self.account_row(conn, link.email)
        if usable(row) or (row is not None and row.disabled):
            raise LinkRefused(f"an account for {link.email} exists already: log in, or reset its password")
        if row is None:
            values = {
                "email": link.email,
                "password_hash": link.password_hash,
                "role": APPLICANT,
                "towns": [],
                "disabled": False,
                "failed_logins": 0,
                "locked_until": None,
                "calendar_token": secrets.token_urlsafe(24),
                "created_at": self.now(),  # app_user keeps it with its zone
                "verified_at": now,
            }
            user_id = conn.execute(insert(USER).values(**values).returning(USER.c.id)).scalar_one()
        else:  # an account made before without its address proved: the link's owner takes it
            user_id = row.id
            replace_password(conn, user_id, link.password_hash, verified_at=now)
        self._spend(conn, REGISTER, link.email)
        return conn.execute(select(USER).where(USER.c.id == user_id)).first()

    def reset(self, conn: Connection, token: str, password_hash: str):
        """Use a reset link: the account's new password (its argon2 hash,
        made by the caller from a password that meets the rule), every
        session of the user ended, an applicant's address proved, every
        reset link of the account spent.  Returns the user as it now is."""
        return self._password_by_link(conn, token, RESET, password_hash)

    def accept_invitation(self, conn: Connection, token: str, password_hash: str):
        """Use a staff invitation's link: the password the person chose
        (its argon2 hash), the invitation taken up, every invitation link of
        the address spent.  LinkRefused for a link unknown, used or expired,
        or an account disabled meanwhile.  Returns the user as it now is."""
        return self._password_by_link(conn, token, INVITE, password_hash)

    def _password_by_link(self, conn: Connection, token: str, purpose: str, password_hash: str):
        now = self._naive_now()
        link = self.live(token, purpose, conn)
        row = conn.execute(select(USER).where(USER.c.id == link.user_id).with_for_update()).first()
        if row is None or row.disabled or row.email != link.email:
            raise LinkRefused("this link is not valid: ask for a new one")
        also = {"verified_at": now} if row.role == APPLICANT and row.verified_at is None else {}
        replace_password(conn, row.id, password_hash, **also)
        end_sessions(conn, row.id)
        self._spend(conn, purpose, row.email)
        return user_of_row(conn.execute(select(USER).where(USER.c.id == row.id)).first())
