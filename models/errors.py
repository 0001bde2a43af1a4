"""The record's errors, beside the core's (workflows/errors.py), in one
module so the interfaces can catch them without importing a writer:

PermitsError
 └── StoreError             the database cannot be reached or is not current
      ├── UnknownFiling     no filing with that id
      ├── DuplicateFiling   a filing with that id is already recorded
      ├── UnknownCase       no enforcement case with that id
      ├── DuplicateCase     an enforcement case with that id is already recorded
      ├── EventFromTheFuture  an event dated after the day it is recorded
      ├── UnknownMeeting    no meeting with that id
      ├── StaleFiling       the filing changed since the writer read it
      │    └── StaleAbutterList  its abutter list was replaced since
      ├── StaleParcels      another import of the town's parcels finished first
      ├── OlderParcels      parcels of an earlier fiscal year than the town's current ones
      ├── UnknownApplicant  no filing names that applicant
      ├── UserError         an account cannot be added or changed
      │    └── LoginRefused a wrong email or password
      │         └── LoginPaused this client's logins to the address are paused
      ├── ApplicantError    a registration or invitation refused
      │    └── InvitationRefused  an invitation link unknown, used or expired
      ├── LinkRefused       an emailed link unknown, used or expired
      ├── DailyLimitReached an account's applications or uploads over the day's limit
      ├── TooManyAttempts   too many failed logins or registrations from an address
      ├── StoreNotEmpty     a restore or copy into a database that already holds records
      ├── UploadRefused     plans that are not a PDF within the limit
      └── UnknownUpload     no such file for this viewer (a 404)
"""

import math
from datetime import timedelta

from models.types import LIMITS
from workflows.errors import PermitsError

__all__ = [
    "StoreNotEmpty",
    "TooManyAttempts",
    "LoginPaused",
    "UnknownMeeting",
    "UploadRefused",
    "UnknownUpload",
    "UnknownApplicant",
    "UserError",
    "LoginRefused",
    "ApplicantError",
    "InvitationRefused",
    "LinkRefused",
    "DailyLimitReached",
    "StoreError",
    "UnknownFiling",
    "DuplicateFiling",
    "UnknownCase",
    "DuplicateCase",
    "EventFromTheFuture",
    "StaleFiling",
    "StaleAbutterList",
    "StaleParcels",
    "OlderParcels",
]


class StoreError(PermitsError):
    pass


class StoreNotEmpty(StoreError):
    """A restore or a copy into a database that already holds records
    (``permits restore``, ``permits db copy``): nothing is written."""


class UnknownFiling(StoreError):
    def __init__(self, filing_id: str):
        self.filing = filing_id
        super().__init__(f"unknown filing {filing_id!r}: no filing with that id is recorded (see 'permits list')")


class DuplicateFiling(StoreError):
    def __init__(self, filing_id: str, where: str = "is already recorded"):
        self.filing = filing_id
        super().__init__(f"duplicate filing id {filing_id!r}: a filing with that id {where}; nothing was imported")


class UnknownCase(StoreError):
    def __init__(self, case_id: str):
        self.case = case_id
        super().__init__(
            f"unknown enforcement case {case_id!r}: no case with that id is recorded (see 'permits enforcement list')"
        )


class DuplicateCase(StoreError):
    def __init__(self, case_id: str):
        self.case = case_id
        super().__init__(
            f"duplicate enforcement case id {case_id!r}: a case with that id is already recorded; nothing was written"
        )


class EventFromTheFuture(StoreError):
    """An event dated after the day it is recorded on: the record says what
    has happened (a hearing to come is ``hearing-scheduled`` with ``hearing=``)."""

    def __init__(self, filing_id: str, event_type: str, day, today):
        self.filing, self.event, self.day, self.today = filing_id, event_type, day, today
        super().__init__(
            f"{filing_id}: {event_type} dated {day} is after {today}, the day it is recorded: an event is recorded "
            "once it has happened (what is to come is scheduled: hearing-scheduled with hearing=DATE)"
        )


class StaleFiling(StoreError):
    def __init__(self, filing_id: str, seen: int, now: int):
        self.filing, self.seen, self.now = filing_id, seen, now
        super().__init__(
            f"{filing_id} changed since you opened it: it had {seen} event(s), it now has {now}; "
            "nothing was written: look at the new history and try again"
        )


class StaleAbutterList(StaleFiling):
    """Another abutter list was uploaded since the form was drawn."""

    def __init__(self, filing_id: str):
        self.filing, self.seen, self.now = filing_id, None, None
        StoreError.__init__(
            self,
            f"{filing_id}'s abutter list was replaced since you opened the page; nothing was written: "
            "look at the list now on the page and upload yours again if it is the right one",
        )


class StaleParcels(StoreError):
    """Another import of the town's parcels was made since this one began."""

    def __init__(self, town: str):
        self.town = town
        super().__init__(f"{town}'s parcels were imported by someone else meanwhile; nothing was imported: look and try again")


class OlderParcels(StoreError):
    """A fiscal year earlier than the town's current parcels': the newer are kept."""

    def __init__(self, town: str, year: int, current: int):
        self.town, self.year, self.current = town, year, current
        super().__init__(
            f"{town}'s parcels are FY{current}; these are FY{year}, older: nothing was imported "
            "(a re-import replaces the parcels with those of the same or a later fiscal year)"
        )


class UnknownMeeting(StoreError):
    """No meeting with that id (or not one the user's towns cover: a 404)."""

    def __init__(self, meeting_id):
        self.meeting = meeting_id
        super().__init__(f"no meeting {meeting_id}")


class UploadRefused(StoreError):
    """The upload is not stored; the message says why."""


class UnknownUpload(StoreError):
    def __init__(self):
        super().__init__("no such file")


class UnknownApplicant(StoreError):
    def __init__(self, name: str):
        super().__init__(f"unknown applicant {name!r}: no filing names that applicant (the filing's 'applicant' field)")


class UserError(StoreError):
    pass


class LoginRefused(UserError):
    def __init__(self, message: str = "wrong email or password"):
        super().__init__(message)


class LoginPaused(LoginRefused):
    """Logins to an address from this client are paused after failed ones
    (models/accounts/login_pauses.py): the same words whatever password was
    given.  ``until`` (UTC, aware) is when the pause ends; ``user_id`` is
    the account whose right password was given (a link that logs in is
    emailed to its address), None otherwise."""

    def __init__(self, until, user_id: int | None = None):
        from zoneinfo import ZoneInfo

        from workflows.written import time_written

        self.until, self.user_id = until, user_id
        self.notice_ids: tuple[int, ...] = ()  # the login link's email, when one was queued
        super().__init__(
            "too many failed logins to this account from where you are: logins to it from here are paused "
            f"until {time_written(until.astimezone(ZoneInfo('America/New_York')))}; if the password you gave is right, "
            "a link that logs you in has been emailed to the account's address"
        )


class ApplicantError(StoreError):
    pass


class InvitationRefused(ApplicantError):
    pass


class LinkRefused(StoreError):
    """An emailed link that is unknown, used or expired, or its form refused."""


class DailyLimitReached(StoreError):
    """An application or a plan over the account's limit for the day."""

    def __init__(self, message: str, *, what: str):
        self.what = what  # "applications" or "upload"
        super().__init__(message)


class TooManyAttempts(StoreError):
    def __init__(self, action: str, wait: timedelta):
        self.action, self.wait = action, wait
        self.minutes = max(1, math.ceil(wait.total_seconds() / 60))
        limit = LIMITS[action]
        super().__init__(
            f"too many {limit.what} from your network address (at most {limit.attempts} in "
            f"{_span(limit.window)}): try again in {self.minutes} minute{'s' if self.minutes != 1 else ''}"
        )


def _span(window: timedelta) -> str:
    minutes = int(window.total_seconds() // 60)
    return f"{minutes // 60} hour{'s' if minutes != 60 else ''}" if minutes % 60 == 0 else f"{minutes} minutes"


def _span(window: timedelta) -> str:
    minutes = int(window.total_seconds() // 60)
    return f"{minutes // 60} hour{'s' if minutes != 60 else ''}" if minutes % 60 == 0 else f"{minutes} minutes"
