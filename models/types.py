"""The record's value types and the facts of accounts that every layer
above reads: a staff user and their roles, an applicant's account, the
limits and spans the account pages say.  No database here: the interfaces
import these, the record's errors (:mod:`models.errors`), the handle
(:mod:`models.handle`) and the read models (:mod:`models.read`), and nothing
else of :mod:`models` (the ``interfaces read the record`` contract).
"""

from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from workflows.rulebook import KINDS
from workflows.towns import registry

__all__ = [
    "ROLE_KINDS",
    "ROLES",
    "APPLICANT",
    "MIN_PASSWORD",
    "SESSION_HOURS",
    "RESET_MINUTES",
    "MAX_NAME",
    "INVITATION_DAYS",
    "User",
    "Account",
    "DailyLimits",
    "Limit",
    "LIMITS",
    "PAUSE_AFTER",
    "PAUSE_WINDOW",
]

#: role -> the permit kinds it works on
ROLE_KINDS: dict[str, tuple[str, ...]] = {
    "agent": ("noi", "rda", "land-disturbance"),
    "dpw": ("street-opening",),
    "admin": KINDS,
}
ROLES = tuple(ROLE_KINDS)
#: An applicant's account (models/accounts/applicants.py): no towns, no kinds; it
#: sees the filings that are its own, never the staff pages.
APPLICANT = "applicant"
#: the shortest password an account takes
MIN_PASSWORD = 10
#: how long a session lasts from its login
SESSION_HOURS = 10
#: how long a reset link works
RESET_MINUTES = 60


#: the longest full name or title an account keeps
MAX_NAME = 100
#: how long a staff invitation's link works
INVITATION_DAYS = 7


@dataclass(frozen=True)
class User:
    id: int
    email: str
    role: str
    towns: tuple[str, ...]
    disabled: bool
    calendar_token: str
    session_version: int = 0
    #: the person's name and title (``Pat Rivera``, ``Conservation Agent``), "" when not given
    full_name: str = ""
    title: str = ""
    #: a temporary password an admin set: changed at the next login before anything else
    must_change_password: bool = False
    #: invited by email and not yet joined (no password of their own yet)
    invited: bool = False

    @property
    def display_name(self) -> str:
        """How a page names the person: their full name, else their address."""
        return self.full_name or self.email

    @property
    def signature(self) -> str:
        """How a letter is signed: "Pat Rivera, Conservation Agent"."""
        return f"{self.full_name}, {self.title}" if self.full_name and self.title else self.display_name

    @property
    def kinds(self) -> tuple[str, ...]:
        return ROLE_KINDS.get(self.role, ())  # an applicant: none

    @property
    def all_towns(self) -> bool:
        return self.role == "admin"

    def may_see(self, town: str, kind: str) -> bool:
        """The one access rule: the user's role covers the kind and their
        towns the town (an admin: every town)."""
        return kind in self.kinds and (self.all_towns or town in self.towns)

    def visible_towns(self) -> tuple[str, ...]:
        return tuple(sorted(registry())) if self.all_towns else self.towns


@dataclass(frozen=True)
class Account:
    id: int
    email: str
    verified: bool


class DailyLimits(NamedTuple):
    applications: int
    upload_bytes: int


@dataclass(frozen=True)
class Limit:
    attempts: int
    window: timedelta
    what: str


#: failed logins to one address from one client that pause that client's
#: logins to it, and how long a failure counts (models/accounts/login_pauses.py)
PAUSE_AFTER = 5
PAUSE_WINDOW = timedelta(minutes=15)

#: action -> its limit per client address
LIMITS: dict[str, Limit] = {
    # above the pause of one account from one address (5), so one person's typos never reach it;
    # an office behind one address has room for several people's
    "login": Limit(20, timedelta(minutes=15), "failed logins"),
    "register": Limit(10, timedelta(hours=1), "registrations"),
    "reset": Limit(10, timedelta(hours=1), "password reset requests"),
}
