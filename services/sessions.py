"""Logging in and out of the workbench, and the per-address limits on its
doors: the web's login, logout, registration, reset and invitation routes
call these.

A login is one unit of work: the account's failed-login count or its
clearing, and the new session's row.  A refusal (LoginRefused) is raised
only after its count has committed, so a wrong password always counts.
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

__all__ = ["LoggedIn", "log_in", "start_session", "end_session", "check_attempts", "count_attempt", "hit_attempts"]


class LoggedIn(NamedTuple):
    """The user logged in and their new session's token (for the cookie)."""

    user: User
    token: str


def log_in(store, email: str, password: str, *, client: str) -> LoggedIn:
    """Log ``email`` in: TooManyAttempts when ``client`` has used up its
    failed logins, LoginRefused (counted against the account and the
    client) for a wrong password or a locked, disabled or unproved account;
    else the user and a new session."""
    check_attempts(store, "login", client)
    with UnitOfWork(store) as uow:
        user, refusal = Users(store.engine, now=store.now).authenticate(uow.conn, str(email or ""), str(password or ""))
        token = Sessions(store.engine, now=store.now).start(uow.conn, user.id) if user is not None else None
    if refusal is not None:
        count_attempt(store, "login", client)
        raise refusal
    return LoggedIn(user, token)


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
