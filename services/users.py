"""The admin's actions on the workbench's accounts, for the Users page and
``permits users`` alike: add, disable, enable, change the role and towns,
unlock, set a temporary password or a chosen one; and each user's own:
change their password, reset their calendar feed's address.  Each is one
unit of work on :class:`models.accounts.users.Users`; a refusal
(:class:`models.errors.UserError`) writes nothing.  ``by`` is the admin
acting: an admin cannot disable or demote their own account here (another
admin must), so a deployment is never left without one by a slip."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from models.accounts.users import Users
from models.errors import UserError
from models.types import User

from .unit_of_work import UnitOfWork

__all__ = [
    "add_user",
    "disable_user",
    "enable_user",
    "change_access",
    "unlock_user",
    "temporary_password",
    "set_password",
    "change_password",
    "reset_calendar_token",
]


def _users(store) -> Users:
    return Users(store.engine, now=store.now)


def _not_self(email: str, by: str | None, what: str) -> None:
    if by is not None and email.strip().lower() == by.strip().lower():
        raise UserError(f"you cannot {what} your own account here: ask another admin")


def add_user(store, email: str, password: str, role: str, towns: Iterable[str] = ()) -> User:
    with UnitOfWork(store) as uow:
        return _users(store).add(uow.conn, email, password, role, towns)


def disable_user(store, email: str, *, by: str | None = None) -> User:
    """The account can log in no more; its sessions end."""
    _not_self(email, by, "disable")
    with UnitOfWork(store) as uow:
        return _users(store).disable(uow.conn, email)


def enable_user(store, email: str) -> User:
    with UnitOfWork(store) as uow:
        return _users(store).enable(uow.conn, email)


def change_access(store, email: str, role: str, towns: Iterable[str], *, by: str | None = None) -> User:
    """The user's role and towns; their sessions end."""
    if role != "admin":
        _not_self(email, by, "demote")
    with UnitOfWork(store) as uow:
        return _users(store).change_access(uow.conn, email, role, towns)


def unlock_user(store, email: str) -> User:
    with UnitOfWork(store) as uow:
        return _users(store).unlock(uow.conn, email)


def set_password(store, email: str, new: str) -> User:
    """A chosen password for the user (``permits users passwd``): the
    account is unlocked and every session of theirs ends."""
    with UnitOfWork(store) as uow:
        return _users(store).set_password(uow.conn, email, new)


def temporary_password(store, email: str) -> tuple[User, str]:
    """A new random password for the user (to give them by telephone or in
    person; they change it at /password): the account is unlocked and every
    session of theirs ends.  (The user, the password.)"""
    password = "-".join(secrets.token_urlsafe(4) for _ in range(3))
    return set_password(store, email, password), password


def change_password(store, user_id: int, current: str, new: str) -> User:
    """The user's own change (:meth:`models.accounts.users.Users.change_password`):
    every session of theirs ends; the user as it now is.  A wrong current
    password is refused (LoginRefused) once its count against the account
    has committed."""
    with UnitOfWork(store) as uow:
        user, refusal = _users(store).change_password(uow.conn, user_id, current, new)
    if refusal is not None:
        raise refusal
    return user


def reset_calendar_token(store, user_id: int) -> str:
    """A new secret address for the user's calendar feed (the old one stops
    working); the token."""
    with UnitOfWork(store) as uow:
        return _users(store).reset_calendar_token(uow.conn, user_id)
