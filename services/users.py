"""The admin's actions on the workbench's accounts, for the Users page and
``permits users`` alike: invite a member of staff by email (their name,
title, role and towns; they choose their own password from the emailed
link), send an invitation again, add, correct a name and title, disable,
enable, change the role and towns, unlock, set a temporary password
(changed by the user at their next login) or a chosen one; and each
user's own: change their password, reset their calendar feed's address.  Each is one
unit of work on :class:`models.accounts.users.Users`; a refusal
(:class:`models.errors.UserError`) writes nothing.  ``by`` is the admin
acting: an admin cannot disable or demote their own account here (another
admin must), so a deployment is never left without one by a slip."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime

from models.accounts.users import Users
from models.errors import UserError
from models.types import User

from .accounts import Sent
from .unit_of_work import UnitOfWork

__all__ = [
    "invite_staff",
    "invite_again",
    "change_person",
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


def invite_staff(
    store,
    email: str,
    full_name: str,
    title: str,
    role: str,
    towns: Iterable[str],
    *,
    by: str,
    base_url: str,
    now: datetime,
    mail_from: str,
) -> Sent:
    """Invite the person at ``email`` to the workbench as ``role`` for
    ``towns``, named ``full_name`` with ``title``: the account made (it
    opens nothing yet) and a single-use link, valid
    :data:`models.types.INVITATION_DAYS` days, emailed to the address, in
    one unit of work; ``by`` names who invites in the email.  An invitation
    not yet taken up is made again.  UserError (nothing written) for a bad
    address, name, role or town, an address that has an account, or a
    third invitation to it within the hour."""
    from models.accounts.account_links import AccountLinks
    from models.accounts.staff import invite
    from models.store.outbox import queue_emails
    from notices.account_email import link_under, staff_invitation_email
    from workflows.towns import registry

    with UnitOfWork(store) as uow:
        row = invite(uow.conn, email, full_name, title, role, towns, now=store.now())
        made = AccountLinks(store.engine, now=store.now).invite_link(uow.conn, row)
        if made is None:
            raise UserError(f"{row.email} was invited three times in the last hour: wait before sending it again")
        names = [registry()[t].name for t in row.towns]
        link = link_under(base_url, f"/welcome/{made.token}")
        email_row = staff_invitation_email(
            row.email, row.full_name, row.role, names, by, link, made.expires, now, mail_from=mail_from
        )
        recorded = store.now()
        ids = queue_emails(uow.conn, None, [email_row], recorded, occasion=recorded.isoformat())
    return Sent(row.email, tuple(ids))


def invite_again(store, email: str, *, by: str, base_url: str, now: datetime, mail_from: str) -> Sent:
    """Send the invitation to ``email``, not yet taken up, again (a new
    link; the old one still works until it expires or the new one is
    used): its name, title, role and towns as they were.  UserError when
    no invitation to the address is waiting."""
    from models.accounts.staff import invitation_of

    with UnitOfWork(store) as uow:
        row = invitation_of(uow.conn, email)
    return invite_staff(
        store, row.email, row.full_name, row.title, row.role, row.towns, by=by, base_url=base_url, now=now, mail_from=mail_from
    )


def change_person(store, email: str, full_name: str, title: str) -> User:
    """Correct a user's full name and title."""
    from models.accounts.staff import change_person as change

    with UnitOfWork(store) as uow:
        return change(uow.conn, email, full_name, title)


def add_user(
    store,
    email: str,
    password: str,
    role: str,
    towns: Iterable[str] = (),
    *,
    full_name: str = "",
    title: str = "",
    temporary: bool = False,
) -> User:
    """A new account with ``password``: the user's own (``permits users
    add``, typed at the server's terminal), or, ``temporary``, one an admin
    chose for them, which they change at their first login."""
    with UnitOfWork(store) as uow:
        return _users(store).add(uow.conn, email, password, role, towns, full_name=full_name, title=title, temporary=temporary)


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


def set_password(store, email: str, new: str, *, temporary: bool = False) -> User:
    """A chosen password for the user (``permits users passwd``): the
    account is unlocked and every session of theirs ends; ``temporary``:
    one given to the person, which they change at their next login."""
    with UnitOfWork(store) as uow:
        return _users(store).set_password(uow.conn, email, new, temporary=temporary)


def temporary_password(store, email: str) -> tuple[User, str]:
    """A new random password for the user (to give them by telephone or in
    person), which they must change at their next login before anything
    else (/password): the account is unlocked and every session of theirs
    ends.  (The user, the password.)"""
    password = "-".join(secrets.token_urlsafe(4) for _ in range(3))
    with UnitOfWork(store) as uow:
        return _users(store).set_password(uow.conn, email, password, temporary=True), password


def change_password(store, user_id: int, current: str, new: str, *, client: str = "") -> User:
    """The user's own change (:meth:`models.accounts.users.Users.change_password`):
    every session of theirs ends; the user as it now is.  A wrong current
    password is refused (LoginRefused) once it has been counted as a failed
    login from ``client`` (models/accounts/login_pauses.py)."""
    with UnitOfWork(store) as uow:
        user, refusal = _users(store).change_password(uow.conn, user_id, current, new, client=client)
    if refusal is not None:
        raise refusal
    return user


def reset_calendar_token(store, user_id: int) -> str:
    """A new secret address for the user's calendar feed (the old one stops
    working); the token."""
    with UnitOfWork(store) as uow:
        return _users(store).reset_calendar_token(uow.conn, user_id)
