"""Accounts: staff users and their argon2 passwords, staff invited by
email and the person behind an account (their name and title), the workbench's
sessions, applicants and their invitations, the single-use links emailed to
prove an address or reset a password, the per-address login limits and the
per-account daily limits.

Their writes are the service layer's to call (``services/accounts.py``,
``services/users.py``).
"""

__all__ = [
    "account_links",
    "applicants",
    "daily_limits",
    "sessions",
    "staff",
    "throttle",
    "users",
]
