"""Invite an applicant, owner or contractor to follow a filing online: a
single-use link, and its email queued in the outbox in the same transaction
(``permits invite`` and the filing page's invitation form)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from .unit_of_work import UnitOfWork

__all__ = ["accept_invitation", "Invitation", "invite"]


class Invitation(NamedTuple):
    address: str
    link: str
    expires: object  # date


def invite(
    store,
    filing_id: str,
    email: str,
    *,
    by: str,
    base_url: str,
    now: datetime,
    mail_from: str,
    days: int | None = None,
) -> Invitation:
    """A link for ``email`` to follow ``filing_id``, valid ``days`` days
    (default :data:`models.accounts.applicants.INVITATION_DAYS`), under ``base_url``
    (the workbench's address); the invitation and its email are written in
    one transaction.  ApplicantError for an address that is not one,
    UnknownFiling for a filing that does not exist."""
    from models.accounts.applicants import INVITATION_DAYS, Applicants, normal_email
    from models.store.outbox import queue_emails
    from notices.email import invitation_email

    days = INVITATION_DAYS if days is None else days
    address = normal_email(email)
    filing, _ = store.load(filing_id)
    expires = (store.now() + timedelta(days=days)).date()  # the link's own expiry (the store's clock)
    with UnitOfWork(store) as uow:
        conn = uow.conn
        token = Applicants(store).invite(conn, filing.id, address, by=by, days=days)
        link = f"{base_url.rstrip('/')}/invitation/{token}"
        email_row = invitation_email(filing.town, filing.id, address, link, expires, now, mail_from=mail_from)
        recorded = store.now()  # each invitation its own occasion: a second one is no copy of the first
        queue_emails(conn, filing.id, [email_row], recorded, occasion=recorded.isoformat())
    return Invitation(address, link, expires)


def accept_invitation(store, token: str, password: str, *, client: str):
    """Use an invitation once (:meth:`models.accounts.applicants.Applicants.accept`:
    the account made or its password checked, the address proved, the
    filing linked) and start a session of the account, in one unit of work:
    (the account, its session's token).  The password is checked as a
    login's is (the client's failed attempts counted: TooManyAttempts);
    ApplicantError, nothing written but the attempt."""
    from models.accounts.applicants import Applicants
    from models.accounts.sessions import Sessions
    from models.errors import ApplicantError

    from .sessions import check_attempts, count_attempt

    check_attempts(store, "login", client)
    try:
        with UnitOfWork(store) as uow:
            account = Applicants(store).accept(uow.conn, token, password)
            session = Sessions(store.engine, now=store.now).start(uow.conn, account.id)
    except ApplicantError:
        count_attempt(store, "login", client)
        raise
    return account, session
