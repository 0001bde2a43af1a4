"""The emails of an account, not of a filing: the link that finishes a
registration, the word to an account's owner that someone tried to
register their address, the link that resets a forgotten password, the
link that logs in when the owner's logins were paused, and
the link by which a member of staff an admin invited chooses their own.
Queued in the outbox like every email (``notice`` rows with no filing,
models/store/outbox.py), delivered at least once by :mod:`notices.smtp`.

Every link starts with the workbench's public address (``PERMITS_BASE_URL``,
handed in as ``base_url``), never with what a request called the host.
Times are the town's (America/New_York).  Building a message is pure.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from .email import build_message

__all__ = [
    "registration_email",
    "address_taken_email",
    "reset_email",
    "login_link_email",
    "staff_invitation_email",
    "ROLE_WORDS",
    "account_sender",
    "link_under",
]

ZONE = ZoneInfo("America/New_York")


def account_sender(mail_from: str) -> str:
    """``mail_from`` (``PERMITS_MAIL_FROM``) as the From header: a bare
    address gets the office's name."""
    return mail_from if "<" in mail_from else f"Permit office <{mail_from}>"


def link_under(base_url: str, path: str) -> str:
    """``base_url`` (the setting) and a path of the workbench."""
    return f"{base_url.rstrip('/')}{path}"


def _local(moment: datetime) -> str:
    """``Thursday, December 10, 2026 at 5:50 p.m. (Eastern time)``: the
    town's clock, written as the letters write it (workflows/written.py)."""
    from workflows.written import day_written, time_written

    at = moment.astimezone(ZONE)
    return f"{day_written(at.date())} at {time_written(at.time())} (Eastern time)"


def _email(kind: str, address: str, subject: str, body: str, dated: datetime, mail_from: str) -> dict:
    return {
        "kind": kind,
        "recipient": f"account:{address}",
        "address": address,
        "dated": dated,
        "message": build_message(sender=account_sender(mail_from), to=address, subject=subject, body=body, dated=dated),
    }


def registration_email(address: str, link: str, expires: datetime, dated: datetime, *, mail_from: str) -> dict:
    """The link that finishes a registration for ``address``."""
    body = (
        f"Someone, we hope you, asked to register {address} to apply for permits online.\n\n"
        f"To finish, open this link and give the password you chose (it works once, until {_local(expires)}):\n"
        f"{link}\n\n"
        "If it was not you, do nothing: no account is made, and nobody can use this address without this link.\n"
    )
    return _email("account-registration", address, "Finish your registration", body, dated, mail_from)


def address_taken_email(address: str, base_url: str, dated: datetime, *, mail_from: str) -> dict:
    """To the owner of an existing account: someone tried to register it."""
    body = (
        f"Someone tried to register {address} to apply for permits online, but an account with this address "
        "exists already. Nothing was changed, and nobody was told that the account exists.\n\n"
        f"If it was you, log in: {link_under(base_url, '/login')}\n"
        f"If you have forgotten your password, reset it: {link_under(base_url, '/forgot')}\n\n"
        "If it was not you, you need do nothing.\n"
    )
    return _email("account-taken", address, "Someone tried to register your address", body, dated, mail_from)


def reset_email(address: str, link: str, expires: datetime, dated: datetime, *, mail_from: str) -> dict:
    """The link that resets the password of the account of ``address``."""
    body = (
        f"Someone, we hope you, asked to reset the password of the account {address}.\n\n"
        f"Open this link to choose a new password (it works once, until {_local(expires)}):\n{link}\n\n"
        "Choosing a new password logs the account out everywhere. If it was not you, do nothing: "
        "your password stays as it is.\n"
    )
    return _email("password-reset", address, "Reset your password", body, dated, mail_from)


def login_link_email(address: str, link: str, expires: datetime, dated: datetime, *, mail_from: str) -> dict:
    """The link that logs in to the account of ``address`` when logins to it
    from where its owner is were paused after failed ones (the right
    password was given there: models/accounts/login_pauses.py)."""
    body = (
        f"Someone, we hope you, gave the right password for the account {address}, from a place "
        "whose logins to it were paused after several wrong passwords.\n\n"
        f"Open this link to log in (it works once, until {_local(expires)}):\n{link}\n\n"
        "If it was not you, someone knows your password: change it at once, or ask for a reset, "
        "and tell the office's admin.\n"
    )
    return _email("login-link", address, "Your link to log in", body, dated, mail_from)


#: what each staff role does, as an invitation says it
ROLE_WORDS = {
    "agent": "the wetlands and stormwater filings",
    "dpw": "the street opening permits",
    "admin": "every filing of every town, and the workbench's users",
}


def staff_invitation_email(
    address: str,
    full_name: str,
    role: str,
    town_names: list[str],
    inviter: str,
    link: str,
    expires: datetime,
    dated: datetime,
    *,
    mail_from: str,
) -> dict:
    """The link by which a member of staff an admin invited chooses their
    own password and joins the workbench."""
    towns = f" of {', '.join(town_names)}" if town_names and role != "admin" else ""
    body = (
        f"Dear {full_name},\n\n"
        f"{inviter} has invited you to the permits workbench, where you will work on {ROLE_WORDS.get(role, 'permits')}{towns}.\n\n"
        f"To join, open this link and choose your own password (it works once, until {_local(expires)}):\n{link}\n\n"
        f"You will then log in with {address} and that password. If you were not expecting this, do nothing: "
        "nobody can use the account without this link.\n"
    )
    return _email("staff-invitation", address, "You are invited to the permits workbench", body, dated, mail_from)
