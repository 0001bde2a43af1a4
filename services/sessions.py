"""Logging in and out of the workbench, and the per-address limits on its
doors: the web's login, logout, registration, reset and invitation routes
call these.

A login is one unit of work: the failed login (by address typed and
client: models/accounts/login_pauses.py) or the good one, and the new
session's row.  A refusal (LoginRefused) is raised only after its count
has committed, so a wrong password always counts.  When the client's
logins to the address are paused and the right password was given, a
single-use link that logs in is emailed to the account's address, in the
same unit of work (:func:`log_in`); following it is :func:`log_in_by_link`.
Attempts per client address are counted in units of work of their own
(:mod:`models.accounts.throttle`): checked before the action, counted
after a failure (a login) or always (a registration, a reset request).
"""

from __future__ import annotations

from typing import NamedTuple

from models.accounts.sessions import Sessions
from models.accounts.throttle import Throttle
from models.accounts.users import Users
from models.types import User

from .unit_of_work import UnitOfWork

__all__ = [
    "LoggedIn",
    "log_in",
    "log_in_by_link",
    "start_session",
    "end_session",
    "check_attempts",
    "count_attempt",
    "hit_attempts",
]


class LoggedIn(NamedTuple):
    """The user logged in and their new session's token (for the cookie)."""

    user: User
    token: str


def log_in(store, email: str, password: str, *, client: str, base_url: str = "", mail_from: str = "") -> LoggedIn:
    """Log ``email`` in from ``client``: TooManyAttempts when ``client`` has
    used up its failed logins, LoginRefused (counted against the address
    typed and the client) for a wrong password or a disabled or unproved
    account, LoginPaused when this client's logins to it are paused (its
    ``notice_ids``: the link that logs in, queued to the account's address
    when the password was right and ``base_url`` is given); else the user
    and a new session."""
    from models.errors import LoginPaused

    check_attempts(store, "login", client)
    emails: tuple[int, ...] = ()
    with UnitOfWork(store) as uow:
        user, refusal = Users(store.engine, now=store.now).authenticate(
            uow.conn, str(email or ""), str(password or ""), client=client
        )
        token = Sessions(store.engine, now=store.now).start(uow.conn, user.id) if user is not None else None
        if isinstance(refusal, LoginPaused) and refusal.user_id is not None and base_url:
            emails = _queue_login_link(store, uow.conn, refusal.user_id, base_url, mail_from)
    if refusal is not None:
        count_attempt(store, "login", client)
        refusal.notice_ids = emails
        raise refusal
    return LoggedIn(user, token)


def _queue_login_link(store, conn, user_id: int, base_url: str, mail_from: str) -> tuple[int, ...]:
    from sqlalchemy import select

    from models.accounts.account_links import USER, AccountLinks
    from models.store.outbox import queue_emails
    from notices.account_email import link_under, login_link_email

    row = conn.execute(select(USER).where(USER.c.id == user_id)).first()
    made = AccountLinks(store.engine, now=store.now).login_link(conn, row)
    if made is None:  # the address had its links of the hour: no more mail
        return ()
    now = store.now()
    link = link_under(base_url, f"/login/link/{made.token}")
    email = login_link_email(row.email, link, made.expires, now, mail_from=mail_from)
    return tuple(queue_emails(conn, None, [email], now, occasion=now.isoformat()))


def log_in_by_link(store, token: str, *, client: str) -> LoggedIn:
    """Follow a login link (emailed by :func:`log_in`): the account and a
    new session, ``client`` kept as one the account uses (its failed logins
    forgotten); LinkRefused for a link unknown, used or expired, or an
    account no longer working; nothing written then."""
    from models.accounts.account_links import AccountLinks
    from models.accounts.login_pauses import LoginPauses

    with UnitOfWork(store) as uow:
        user = AccountLinks(store.engine, now=store.now).log_in(uow.conn, token)
        LoginPauses(store.engine, now=store.now).succeed(uow.conn, user.email, client)
        session = Sessions(store.engine, now=store.now).start(uow.conn, user.id)
    return LoggedIn(user, session)


def start_session(store, user_id: int) -> str:
    """A new session of the user (after a password change, a confirmed
    registration, an accepted invitation); its token."""
    with UnitOfWork(store) as uow:
        return Sessions(store.engine, now=store.now).start(uow.conn, user_id)


def end_session(store, token: object) -> None:
    """End the session ``token`` (logging out); nothing if there is none."""
    with UnitOfWork(store) as uow:
        Sessions(store.engine, now=store.now).end(uow.conn, token)


def check_attempts(store, action: str, client: str) -> None:
    """TooManyAttempts when ``client`` has used up ``action``'s limit."""
    Throttle(store.engine, now=store.now).check(action, client)


def count_attempt(store, action: str, client: str) -> None:
    """Count one attempt of ``client``'s at ``action`` (a failure)."""
    with UnitOfWork(store) as uow:
        Throttle(store.engine, now=store.now).record(uow.conn, action, client)


def hit_attempts(store, action: str, client: str) -> None:
    """Check, then count this attempt (a registration or a reset request
    counts whether or not it succeeds)."""
    check_attempts(store, action, client)
    count_attempt(store, action, client)
