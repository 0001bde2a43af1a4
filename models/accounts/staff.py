"""Staff accounts by invitation, and the person behind an account.

An admin invites a member of staff by email with their name, title, role
and towns (:func:`invite`): the account is made at once, with a password
nobody knows, so it opens nothing until the person follows the single-use
link emailed to them and chooses their own
(:meth:`models.accounts.account_links.AccountLinks.accept_invitation`,
which also takes the invitation up: ``invited_at`` cleared).  An
invitation not yet taken up can be sent again; an address that has an
account already cannot be invited.  An admin corrects a person's name and
title (:func:`change_person`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from models.accounts.users import USER, check_access, check_email, check_person, hash_password, user_of_row
from models.errors import UserError
from models.types import User

__all__ = ["invite", "invitation_of", "change_person"]


def invite(
    conn: Connection,
    email: str,
    full_name: str,
    title: str,
    role: str,
    towns: Iterable[str],
    *,
    now: datetime,
):
    """A staff account for the person at ``email``, waiting for them to
    choose a password from the link emailed to them: its password is one
    nobody knows.  An invitation not yet taken up is made again with
    these details (and enabled); ``now``, the store's clock read.  The ``app_user`` row.  UserError for a
    bad email, name, role or town, or an address that has an account
    already; nothing written."""
    email = check_email(email)
    towns = check_access(role, towns, hint="choose one")
    full_name, title = check_person(full_name, title, name_required=True)
    stamp = now.astimezone(UTC).replace(tzinfo=None)
    details = {"full_name": full_name, "title": title, "role": role, "towns": list(towns), "invited_at": stamp}
    row = conn.execute(select(USER).where(USER.c.email == email).with_for_update()).first()
    if row is not None and row.invited_at is None:
        raise UserError(f"a user {email!r} already exists: they log in with their own password")
    if row is not None:  # invited before and not yet joined: invited again
        conn.execute(update(USER).where(USER.c.id == row.id).values(disabled=False, **details))
    else:
        values = {
            "email": email,
            "password_hash": hash_password(secrets.token_urlsafe(32)),  # nobody's: the link sets theirs
            "disabled": False,
            "failed_logins": 0,
            "locked_until": None,
            "calendar_token": secrets.token_urlsafe(24),
            "created_at": now,
            "must_change_password": False,
            **details,
        }
        conn.execute(insert(USER).values(**values))
    return conn.execute(select(USER).where(USER.c.email == email)).first()


def invitation_of(conn: Connection, email: str):
    """The ``app_user`` row of the invitation to ``email`` not yet taken
    up, locked; UserError when there is none."""
    email = check_email(email)
    row = conn.execute(select(USER).where(USER.c.email == email).with_for_update()).first()
    if row is None or row.invited_at is None:
        raise UserError(f"no invitation to {email!r} is waiting: they have joined already, or were never invited")
    return row


def change_person(conn: Connection, email: str, full_name: str, title: str) -> User:
    """The person's full name and title, as an admin corrects them."""
    email = check_email(email)
    full_name, title = check_person(full_name, title)
    if conn.execute(update(USER).where(USER.c.email == email).values(full_name=full_name, title=title)).rowcount != 1:
        raise UserError(f"no user {email!r} (see 'permits users list')")
    return user_of_row(conn.execute(select(USER).where(USER.c.email == email)).first())
