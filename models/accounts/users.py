"""The workbench's users: accounts, argon2 passwords, lockout, and what a
user may see.  One service for ``permits users`` and the web, so the two
cannot disagree about who is who.

Roles (the issue's words): an ``agent`` sees and changes the wetlands and
stormwater filings (NOI, RDA, land disturbance) of their towns; ``dpw`` the
street openings of theirs; an ``admin`` every filing of every town.
:meth:`User.may_see` is the one rule; a filing outside it is "not found"
(404), never "forbidden", so ids cannot be probed.

Failed logins never lock the account for its owner: they pause the
client that made them (models/accounts/login_pauses.py, with why), and a
paused client with the right password is emailed a link that logs in.  A
wrong current password on the password-change form counts as a failed
login from the client that sent it.

An applicant's account whose address is not proved (``verified_at``
empty: a registration made before its link was required) cannot log in:
a reset link or an invitation sent to the address proves it
(models/accounts/account_links.py, models/accounts/applicants.py).

A password change (:meth:`Users.change_password` by the user,
:meth:`Users.set_password`, the reset by ``permits users passwd``) and
:meth:`Users.disable` end every session of the user on the server's side:
their ``web_session`` rows (models/accounts/sessions.py) are deleted in the same
transaction, so a cookie copied before opens nothing after.  (The change
also bumps ``session_version``, which counts the changes.)
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from models.accounts.login_pauses import LoginPauses
from models.errors import LoginPaused, LoginRefused, UserError
from models.schema.tables import UserRow, WebSession
from models.types import APPLICANT, MAX_NAME, MIN_PASSWORD, ROLE_KINDS, ROLES, User
from workflows.towns import registry

__all__ = [
    "ROLES",
    "ROLE_KINDS",
    "User",
    "Users",
    "UserError",
    "LoginRefused",
    "MIN_PASSWORD",
    "APPLICANT",
    "check_password",
    "check_person",
    "check_access",
    "user_of_row",
    "end_sessions",
    "replace_password",
    "hash_password",
    "verify_password",
]

USER = UserRow.__table__
SESSION = WebSession.__table__

_EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]{1,190}\.[A-Za-z]{2,}")
_HASHER = PasswordHasher()
# a hash to verify against when the email is unknown, so a wrong email
# costs as long as a wrong password
_DUMMY = _HASHER.hash(secrets.token_hex(8))


def user_of_row(row) -> User:
    """The :class:`User` an ``app_user`` row describes."""
    return User(
        row.id,
        row.email,
        row.role,
        tuple(row.towns),
        bool(row.disabled),
        row.calendar_token,
        row.session_version,
        row.full_name or "",
        row.title or "",
        bool(row.must_change_password),
        row.invited_at is not None,
    )


def end_sessions(conn, user_id: int) -> int:
    """Delete every session of the user (models/accounts/sessions.py), in the
    transaction ``conn``: a cookie that opened one opens nothing now.  The
    count of sessions ended."""
    return conn.execute(delete(SESSION).where(SESSION.c.user_id == user_id)).rowcount


def replace_password(conn, user_id: int, password_hash: str, *, temporary: bool = False, **also) -> None:
    """Give the user the password of ``password_hash`` (argon2), in the
    transaction ``conn``: every session of the user ends (its rows
    deleted), every failed login to its address is forgotten (a pause
    ends), an invitation is taken up;
    ``temporary``: a password someone else chose, which the user must
    change at their next login (else the flag is cleared: the user's own);
    ``also``: other columns to set (an applicant's ``verified_at``)."""
    end_sessions(conn, user_id)
    email = conn.execute(select(USER.c.email).where(USER.c.id == user_id)).scalar_one_or_none()
    if email is not None:
        LoginPauses(conn.engine).clear(conn, email)
    conn.execute(
        update(USER)
        .where(USER.c.id == user_id)
        .values(
            password_hash=password_hash,
            session_version=USER.c.session_version + 1,
            failed_logins=0,
            locked_until=None,
            must_change_password=temporary,
            invited_at=None,
            **also,
        )
    )


def hash_password(password: str) -> str:
    """The argon2 hash of a password that meets :func:`check_password`."""
    return _HASHER.hash(check_password(password))


def verify_password(hashed: str, password: str) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from."""
    return _verify(hashed, password)


def check_password(password: str) -> str:
    """A new password, if it meets the rule (at least :data:`MIN_PASSWORD`
    characters); else UserError."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise UserError(f"the password is too short: at least {MIN_PASSWORD} characters")
    return password


def check_email(email: str) -> str:
    email = email.strip().lower()
    if not _EMAIL.fullmatch(email):
        raise UserError(f"invalid email {email!r}: write it as name@example.org")
    return email


def check_person(full_name: str, title: str, *, name_required: bool = False) -> tuple[str, str]:
    """A person's full name and title as kept: spaces collapsed, at most
    :data:`MAX_NAME` characters each, no control characters; UserError
    otherwise (and for no name when ``name_required``)."""
    from workflows.inputs import not_one_line

    out = []
    for what, text in (("full name", full_name), ("title", title)):
        held = not_one_line(str(text or "").strip())
        if held:
            raise UserError(f"the {what} holds characters no name has ({held}): give it on one line")
        text = " ".join(str(text or "").split())
        if len(text) > MAX_NAME or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text):
            raise UserError(f"the {what} is too long or holds characters no name has: at most {MAX_NAME} characters")
        out.append(text)
    if name_required and not out[0]:
        raise UserError("give the person's full name: it is how pages and letters name them")
    return out[0], out[1]


def check_access(role: str, towns: Iterable[str], *, hint: str) -> tuple[str, ...]:
    """The role and towns of a staff account, checked; UserError otherwise."""
    if role not in ROLES:
        raise UserError(f"unknown role {role!r}; choose one of: {', '.join(ROLES)}")
    towns = tuple(dict.fromkeys(t.strip().lower() for t in towns if t.strip()))
    known = registry()
    for t in towns:
        if t not in known:
            raise UserError(f"unknown town {t!r}; choose from: {', '.join(sorted(known))}")
    if role != "admin" and not towns:
        raise UserError(f"a {role} user works for at least one town: {hint}")
    return towns


class Users:
    """The accounts in one store's database."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.engine, self.now = engine, now
        # reads take no lock (on SQLite a deferred transaction, models/schema/db.py):
        # a page's look-up never waits for a login hashing its password
        self.reader = engine.execution_options(read_only=True)

    def _naive_now(self) -> datetime:
        return self.now().astimezone(UTC).replace(tzinfo=None)

    def add(
        self,
        conn: Connection,
        email: str,
        password: str,
        role: str,
        towns: Iterable[str] = (),
        *,
        full_name: str = "",
        title: str = "",
        temporary: bool = False,
    ) -> User:
        """A new account, with the person's name and title; ``temporary``:
        the password is one an admin chose, to be changed at the first
        login.  Raises UserError for a bad email, role, town, name, a short
        password, or an email already taken; nothing written."""
        email = check_email(email)
        towns = check_access(role, towns, hint="give --town")
        full_name, title = check_person(full_name, title)
        check_password(password)
        values = {
            "email": email,
            "password_hash": _HASHER.hash(password),
            "role": role,
            "towns": list(towns),
            "disabled": False,
            "failed_logins": 0,
            "locked_until": None,
            "calendar_token": secrets.token_urlsafe(24),
            "created_at": self.now(),
            "full_name": full_name,
            "title": title,
            "must_change_password": temporary,
        }
        try:
            uid = conn.execute(insert(USER).values(**values)).inserted_primary_key[0]
        except IntegrityError:
            raise UserError(f"a user {email!r} already exists") from None
        return User(uid, email, role, towns, False, values["calendar_token"], 0, full_name, title, temporary)

    def list(self) -> list[User]:
        with self.reader.connect() as conn:
            return [user_of_row(r) for r in conn.execute(select(USER).order_by(USER.c.email))]

    def names(self) -> dict[str, str]:
        """Each member of staff's full name by their email, for the pages that
        say who recorded an entry (only those given a name)."""
        with self.reader.connect() as conn:
            rows = conn.execute(select(USER.c.email, USER.c.full_name).where(USER.c.full_name != ""))
            return {r.email: r.full_name for r in rows if r.full_name}

    def get(self, user_id: int) -> User | None:
        """The enabled user with this id, or None."""
        with self.reader.connect() as conn:
            row = conn.execute(select(USER).where(USER.c.id == user_id)).first()
        return None if row is None or row.disabled else user_of_row(row)

    def by_calendar_token(self, token: str) -> User | None:
        with self.reader.connect() as conn:
            row = conn.execute(select(USER).where(USER.c.calendar_token == token)).first()
        return None if row is None or row.disabled else user_of_row(row)

    def disable(self, conn: Connection, email: str) -> User:
        email = check_email(email)
        if conn.execute(update(USER).where(USER.c.email == email).values(disabled=True)).rowcount != 1:
            raise UserError(f"no user {email!r} (see 'permits users list')")
        user = user_of_row(conn.execute(select(USER).where(USER.c.email == email)).first())
        end_sessions(conn, user.id)
        return user

    def enable(self, conn: Connection, email: str) -> User:
        """Let a disabled account log in again (its password as it was)."""
        email = check_email(email)
        if conn.execute(update(USER).where(USER.c.email == email).values(disabled=False)).rowcount != 1:
            raise UserError(f"no user {email!r} (see 'permits users list')")
        return user_of_row(conn.execute(select(USER).where(USER.c.email == email)).first())

    def change_access(self, conn: Connection, email: str, role: str, towns: Iterable[str]) -> User:
        """A user's new role and towns, checked as :meth:`add` checks them;
        every session of the user ends (a page drawn under the old access
        must not stay open).  Nothing written on a refusal."""
        email = check_email(email)
        towns = check_access(role, towns, hint="choose one")
        row = conn.execute(select(USER).where(USER.c.email == email).with_for_update()).first()
        if row is None:
            raise UserError(f"no user {email!r} (see 'permits users list')")
        end_sessions(conn, row.id)
        conn.execute(
            update(USER)
            .where(USER.c.id == row.id)
            .values(role=role, towns=list(towns), session_version=USER.c.session_version + 1)
        )
        return user_of_row(conn.execute(select(USER).where(USER.c.id == row.id)).first())

    def _pauses(self) -> LoginPauses:
        return LoginPauses(self.engine, now=self.now)

    def unlock(self, conn: Connection, email: str) -> User:
        """End every pause failed logins put on the account's address
        (models/accounts/login_pauses.py): every client may try again."""
        email = check_email(email)
        row = conn.execute(select(USER).where(USER.c.email == email)).first()
        if row is None:
            raise UserError(f"no user {email!r} (see 'permits users list')")
        self._pauses().clear(conn, email)
        return user_of_row(row)

    def locked(self) -> set[str]:
        """The emails of the accounts some client's logins to are paused
        now by failed logins."""
        return self._pauses().paused_emails()

    def failed_logins(self) -> list:
        """The failed logins of the last day by (address typed, client), the
        latest first (:meth:`models.accounts.login_pauses.LoginPauses.recent`)."""
        return self._pauses().recent()

    def reset_calendar_token(self, conn: Connection, user_id: int) -> str:
        token = secrets.token_urlsafe(24)
        conn.execute(update(USER).where(USER.c.id == user_id).values(calendar_token=token))
        return token

    def change_password(
        self, conn: Connection, user_id: int, current: str, new: str, *, client: str = ""
    ) -> tuple[User | None, LoginRefused | None]:
        """The user's own change: ``current`` must be their password (a wrong
        one counts as a failed login from ``client``, and a paused client is
        refused), ``new`` meets :func:`check_password` and differs from it.
        Ends every session of the user (the caller starts a new one for the
        browser that asked).  (the user as it now is, None) or, for a wrong
        current password, (None, the refusal), which the caller raises once
        the failed login it wrote has committed; UserError and a paused
        client's LoginPaused are raised, nothing written."""
        refusal = None
        row = conn.execute(select(USER).where(USER.c.id == user_id).with_for_update()).first()
        if row is None or row.disabled:
            raise UserError("no such user")
        pauses = self._pauses()
        until = pauses.paused_until(conn, row.email, client)
        if until is not None:
            raise LoginPaused(until)
        if not _verify(row.password_hash, current):
            pauses.fail(conn, row.email, client)
            refusal = LoginRefused("the current password is wrong")
        else:
            check_password(new)
            if new == current:
                raise UserError("the new password is the one you have now: choose another")
            self._set(conn, row.id, new)
        if refusal is not None:
            return None, refusal
        return user_of_row(conn.execute(select(USER).where(USER.c.id == user_id)).first()), None

    def set_password(self, conn: Connection, email: str, new: str, *, temporary: bool = False) -> User:
        """Set a user's password without the old one (``permits users
        passwd``, run by whoever runs the server; a temporary password an
        admin sets, which the user changes at their next login when
        ``temporary``): ends every pause on its address and every session of
        the user."""
        email = check_email(email)
        check_password(new)
        row = conn.execute(select(USER).where(USER.c.email == email).with_for_update()).first()
        if row is None:
            raise UserError(f"no user {email!r} (see 'permits users list')")
        self._set(conn, row.id, new, temporary=temporary)
        return user_of_row(conn.execute(select(USER).where(USER.c.id == row.id)).first())

    def _set(self, conn, user_id: int, new: str, *, temporary: bool = False) -> None:
        replace_password(conn, user_id, _HASHER.hash(new), temporary=temporary)

    def authenticate(
        self, conn: Connection, email: str, password: str, *, client: str = ""
    ) -> tuple[User | None, LoginRefused | None]:
        """(the user, None) if the password is right, the account enabled
        (an applicant's address proved) and ``client``'s logins to it not
        paused; else (None, the refusal), which the caller raises once the
        failed login written on ``conn`` has committed.  A wrong email and a
        wrong password have one answer; a paused client has another, the
        same whatever the password (:class:`LoginPaused`, naming the account
        when its right password was given, for the emailed link)."""
        email = email.strip().lower()[:254]
        pauses = self._pauses()
        row = conn.execute(select(USER).where(USER.c.email == email).with_for_update()).first()
        right = _verify(row.password_hash if row is not None else _DUMMY, password) and row is not None
        working = right and not row.disabled and (row.role != APPLICANT or row.verified_at is not None)
        until = pauses.paused_until(conn, email, client)
        if until is not None:
            if not working:
                pauses.fail(conn, email, client)
            return None, LoginPaused(until, row.id if working else None)
        if not right or row.disabled:
            pauses.fail(conn, email, client)
            return None, LoginRefused()
        if row.role == APPLICANT and row.verified_at is None:
            # a registration whose address is not proved is not usable:
            # only someone who knows its password learns why
            return None, LoginRefused(
                "this account's address is not confirmed yet: follow the link emailed to it, "
                "or use 'Forgot your password?' to get a new one"
            )
        pauses.succeed(conn, email, client)
        return user_of_row(row), None


def _verify(hashed: str, password: str) -> bool:
    try:
        return _HASHER.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False
