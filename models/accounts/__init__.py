"""Accounts: staff users and their argon2 passwords, staff invited by
email and the person behind an account (their name and title), the workbench's
sessions, applicants and their invitations, the single-use links emailed to
prove an address or reset a password, the per-address login limits and the
per-account daily limits, and the pauses failed logins put on one address's logins to one account.

Their writes are the service layer's to call (``services/accounts.py``,
``services/users.py``).
"""

__all__ = [
    "account_links",
    "applicants",
    "daily_limits",
    "login_pauses",
    "sessions",
    "staff",
    "throttle",
    "users",
]
