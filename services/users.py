"""The admin's actions on the workbench's accounts, for the Users page and
``permits users`` alike: add, disable, enable, change the role and towns,
unlock, set a temporary password.  Each is one transaction of
:class:`models.accounts.users.Users`; a refusal (:class:`models.accounts.users.UserError`)
writes nothing.  ``by`` is the admin acting: an admin cannot disable or
demote their own account here (another admin must), so a deployment is
never left without one by a slip."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from models.accounts.users import User, UserError, Users

__all__ = ["add_user", "disable_user", "enable_user", "change_access", "unlock_user", "temporary_password"]


def _not_self(email: str, by: str | None, what: str) -> None:
    if by is not None and email.strip().lower() == by.strip().lower():
        raise UserError(f"you cannot {what} your own account here: ask another admin")


def add_user(users: Users, email: str, password: str, role: str, towns: Iterable[str] = ()) -> User:
    return users.add(email, password, role, towns)


def disable_user(users: Users, email: str, *, by: str | None = None) -> User:
    _not_self(email, by, "disable")
    return users.disable(email)


def enable_user(users: Users, email: str) -> User:
    return users.enable(email)


def change_access(users: Users, email: str, role: str, towns: Iterable[str], *, by: str | None = None) -> User:
    """The user's role and towns; their sessions end."""
    if role != "admin":
        _not_self(email, by, "demote")
    return users.change_access(email, role, towns)


def unlock_user(users: Users, email: str) -> User:
    return users.unlock(email)


def temporary_password(users: Users, email: str) -> tuple[User, str]:
    """A new random password for the user (to give them by telephone or in
    person; they change it at /password): the account is unlocked and every
    session of theirs ends.  (The user, the password.)"""
    password = "-".join(secrets.token_urlsafe(4) for _ in range(3))
    return users.set_password(email, password), password
