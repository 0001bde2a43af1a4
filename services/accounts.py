"""An account's own doors: register (proved by the emailed link), follow
that link, ask for a password reset, reset, and join the workbench from a
staff invitation's link (:func:`join_staff`).  The web's register, confirm,
forgot and reset pages call these, and ``permits users reset`` asks for a
reset the same way.

The answer to a registration and to a reset request is the same whether
or not the address has an account, staff's included: the difference goes
only to the mailbox (a registration's link, or word that someone tried;
a reset's link, or nothing).  Each action writes in one unit of work, its
email queued in the outbox in it (at least once: models/store/outbox.py); the
caller may then hand those emails to the SMTP server at once
(:func:`deliver_now`) rather than wait for ``permits outbox --send``.
Every link starts with ``base_url`` (``PERMITS_BASE_URL``).
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from models.accounts.applicants import normal_email

from .unit_of_work import UnitOfWork

__all__ = ["normal_email", "Sent", "register", "confirm", "request_reset", "reset", "join_staff", "deliver_now"]


class Sent(NamedTuple):
    """What an action queued: the address (as the page shows it) and the
    outbox's notice ids (none when nothing was sent).  A caller shows the
    address, never whether anything was sent."""

    address: str
    notice_ids: tuple[int, ...]


def _links(store):
    from models.accounts.account_links import AccountLinks

    return AccountLinks(store.engine, now=store.now)


def register(store, email: str, password: str, *, base_url: str, now: datetime, mail_from: str) -> Sent:
    """Register ``email`` with ``password``: no account yet, but a link to
    the address that finishes it (:meth:`models.accounts.account_links.AccountLinks.confirm`);
    if the address has a working account already, an email to it saying
    someone tried.  ApplicantError / UserError for an address that is not
    one or a short password (nothing written); the answer otherwise says
    nothing of which it was."""
    from models.accounts.account_links import usable
    from models.accounts.users import hash_password
    from models.store.outbox import queue_emails
    from notices.account_email import address_taken_email, link_under, registration_email

    address = normal_email(email)
    hashed = hash_password(password)  # hashed either way: the two answers take as long
    links = _links(store)
    with UnitOfWork(store) as uow:
        conn = uow.conn
        row = links.account_row(conn, address)
        if usable(row) or (row is not None and row.disabled):
            emails = [address_taken_email(address, base_url, now, mail_from=mail_from)]
        else:
            made = links.register(conn, address, hashed)
            emails = (
                []
                if made is None
                else [
                    registration_email(
                        address, link_under(base_url, f"/confirm/{made.token}"), made.expires, now, mail_from=mail_from
                    )
                ]
            )
        recorded = store.now()
        ids = queue_emails(conn, None, emails, recorded, occasion=recorded.isoformat())
    return Sent(address, tuple(ids))


def confirm(store, token: str, password: str, *, client: str):
    """Follow a registration's link with the password chosen then: the
    account (a :class:`models.types.User`), its address proved, and a new
    session of it (:class:`services.sessions.LoggedIn`), in one unit of work.
    The password is checked as a login's is (the client's failed attempts
    counted: TooManyAttempts).  LinkRefused for a link unknown, used or
    expired (or an address with an account by now), LoginRefused for
    another password; nothing written but the attempt."""
    from models.accounts.sessions import Sessions
    from models.accounts.users import user_of_row
    from models.errors import LoginRefused

    from .sessions import LoggedIn, check_attempts, count_attempt

    check_attempts(store, "login", client)
    try:
        with UnitOfWork(store) as uow:
            user = user_of_row(_links(store).confirm(uow.conn, token, password))
            session = Sessions(store.engine, now=store.now).start(uow.conn, user.id)
    except LoginRefused:
        count_attempt(store, "login", client)
        raise
    return LoggedIn(user, session)


def request_reset(store, email: str, *, base_url: str, now: datetime, mail_from: str) -> Sent:
    """Ask for a password reset of the account of ``email``: a link, valid
    :data:`models.accounts.account_links.RESET_MINUTES` minutes, emailed to it if
    there is an enabled account; nothing otherwise.  ApplicantError for an
    address that is not one."""
    from models.store.outbox import queue_emails
    from notices.account_email import link_under, reset_email

    address = normal_email(email)
    links = _links(store)
    with UnitOfWork(store) as uow:
        conn = uow.conn
        row = links.account_row(conn, address)
        made = links.reset_link(conn, row) if row is not None and not row.disabled else None
        emails = (
            []
            if made is None
            else [reset_email(address, link_under(base_url, f"/reset/{made.token}"), made.expires, now, mail_from=mail_from)]
        )
        recorded = store.now()
        ids = queue_emails(conn, None, emails, recorded, occasion=recorded.isoformat())
    return Sent(address, tuple(ids))


def reset(store, token: str, new: str):
    """Use a reset link: the new password (it meets the rule), every
    session of the user ended, the link and its siblings spent, and a new
    session for the browser that used it: the user as it now is and the
    session (:class:`services.sessions.LoggedIn`).  LinkRefused, UserError;
    nothing written on either."""
    from models.accounts.sessions import Sessions
    from models.accounts.users import hash_password

    from .sessions import LoggedIn

    hashed = hash_password(new)
    with UnitOfWork(store) as uow:
        user = _links(store).reset(uow.conn, token, hashed)
        session = Sessions(store.engine, now=store.now).start(uow.conn, user.id)
    return LoggedIn(user, session)


def join_staff(store, token: str, new: str):
    """Use a staff invitation's link (:func:`services.users.invite_staff`):
    the password the person chose (it meets the rule), the invitation taken
    up, and a session for the browser that used it: the user and the
    session (:class:`services.sessions.LoggedIn`).  LinkRefused, UserError;
    nothing written on either."""
    from models.accounts.sessions import Sessions
    from models.accounts.users import hash_password

    from .sessions import LoggedIn

    hashed = hash_password(new)
    with UnitOfWork(store) as uow:
        user = _links(store).accept_invitation(uow.conn, token, hashed)
        session = Sessions(store.engine, now=store.now).start(uow.conn, user.id)
    return LoggedIn(user, session)


def deliver_now(store, smtp_url: str | None, notice_ids) -> None:
    """Hand the emails ``notice_ids`` to the SMTP server at ``smtp_url``
    now; with none set, or if the server fails, they wait in the outbox
    for the next delivery."""
    if not smtp_url or not notice_ids:
        return
    from .mail import deliver_by_smtp

    deliver_by_smtp(store, smtp_url, ids=notice_ids)
