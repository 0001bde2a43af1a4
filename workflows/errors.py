"""The project's errors, in one hierarchy: every exception class of the
project, where it is defined, and what it means.  A test finds every class
that derives from an exception in the project's code and fails when one is
missing here or is drawn under the wrong parent (tests/architecture).

    PermitsError               (calendars.errors)   the root: an error of the project, said in one line
     ├── CalendarError         (calendars.errors)   a date question the calendar cannot answer
     │    └── UnservableYear   (calendars.errors)   a year outside 2000-2100
     ├── RuleBookError                              a town declaration is malformed (at import)
     ├── TownFileError         (workflows.town_file) a town file that cannot be read as a town, each problem by its key path
     ├── NoAbutterRule         (workflows.abutter_rules) a permit kind that sends no abutter notice
     ├── UnknownChoice                              an unknown town, kind, clock... with the valid ones
     ├── BadFilingId           (workflows.ids)      an id outside the rule
     ├── UnsafePath            (workflows.ids)      a file name from an id that would leave its folder
     ├── LedgerRefused         (workflows.deposits) a deposit entry the by-law does not allow
     ├── PaymentRefused        (workflows.fees)     a payment malformed, or more than the fee due
     ├── FeeChangeRefused      (workflows.fees)     a fee the town's office would set that the rule book refuses
     ├── InspectionRequestRefused (workflows.inspection_requests) a stage that does not fit, a day that is not a business day
     ├── FineAmountLost        (workflows.fines)    a ticket whose fine the town's copy of its by-law lost
     ├── NoTickets             (workflows.fines)    a ticket under a by-law not enforced by non-criminal disposition
     ├── FineNotAllowed        (workflows.fines)    a ticket's amount above the by-law's maximum, or not the fixed schedule's
     ├── BadCorrection         (workflows.corrections) an applicant's correction the application form refuses
     ├── MeetingRefused        (workflows.meetings) a meeting, agenda item or continuance the rules refuse
     │    └── UnnoticedSession (workflows.meetings) a hearing opened on a day no session was noticed for
     ├── FilingError                                a history that cannot have happened
     │    ├── MalformedEvent                        missing/invalid field, unknown type
     │    │    └── BadInput    (workflows.inputs)   not UTF-8 JSON, NaN, too deep, NUL...
     │    └── TransitionRefused                     the filing's state does not allow the event
     ├── StoreError            (models.errors)      the record refuses or cannot be reached
     │    ├── UnknownFiling    (models.errors)      no filing with that id
     │    ├── DuplicateFiling  (models.errors)      an id imported twice
     │    ├── UnknownCase      (models.errors)      no enforcement case with that id
     │    ├── DuplicateCase    (models.errors)      an enforcement case id taken
     │    ├── EventFromTheFuture (models.errors)    an event dated after the day it is recorded
     │    ├── UnknownMeeting   (models.errors)    no meeting with that id
     │    ├── StaleFiling      (models.errors)      another event landed since the form was drawn
     │    │    └── StaleAbutterList (models.errors) the abutter list changed since the form was drawn
     │    ├── StaleParcels     (models.errors)      another import of the town's parcels finished first
     │    ├── OlderParcels     (models.errors)      parcels of an earlier fiscal year than the current ones
     │    ├── UnknownApplicant (models.errors) no filing names that applicant
     │    ├── UserError        (models.errors)       an account cannot be added or changed
     │    │    └── LoginRefused (models.errors)      a wrong email or password
     │    │         └── LoginPaused (models.errors)  this client's logins to the address paused after failed ones
     │    ├── ApplicantError   (models.errors)  a registration or invitation refused
     │    │    └── InvitationRefused (models.errors) an invitation link unknown, used or expired
     │    ├── LinkRefused      (models.errors) a registration's or reset's emailed link unknown, used or expired
     │    ├── DailyLimitReached (models.errors) an account's applications or uploads over the day's limit
     │    ├── TooManyAttempts  (models.errors)    too many failed logins or registrations from an address
     │    ├── StoreNotEmpty    (models.errors)     a restore or copy into a database that already holds records
     │    ├── UploadRefused    (models.errors)     plans that are not a PDF within the limit
     │    └── UnknownUpload    (models.errors)     no such file for this viewer (a 404)
     ├── NoticeError           (notices.errors)     a notice cannot be produced
     │    ├── NoticeRefused    (notices.errors)     the notice does not fit the filing's state or record
     │    ├── MissingField     (notices.errors)     a value the template needs is not on the filing
     │    ├── AbutterListError (notices.errors)     the assessors' CSV cannot be read or mapped
     │    │    ├── ListTooLarge (services.abutters) an abutter list over the workbench's limit
     │    │    ├── UploadedListWins (services.parcel_abutters) the assessors' uploaded list is kept
     │    │    └── ComputedListChanged (services.parcel_abutters) the computed list is not the one reviewed
     │    ├── TemplateProblem  (notices.errors)     an unknown or broken town template
     │    └── SendingRefused   (notices.errors)     a sending recorded with no known way, on a day to come, or twice
     ├── ParcelError           (parcels.errors)     a parcel question that cannot be answered
     │    ├── ParcelFileError  (parcels.errors)     an assessors' layer that cannot be imported as it is
     │    ├── UnknownParcel    (parcels.errors)     no parcel with that id in the town's parcels
     │    └── NoParcels        (parcels.errors)     the town has no parcels imported
     ├── MailConfigError       (notices.smtp)       PERMITS_SMTP_URL is not an SMTP URL
     ├── BadSetting            (config.settings)    a PERMITS_* setting whose value cannot be used
     ├── StoreMissing          (sweep.ledger)       the sweep's folder of filings is not there
     ├── SweepFailed           (services.sweep)     the Prefect flow failed for a reason of its own
     ├── NestedUnitOfWork      (services.unit_of_work) a unit of work opened inside another (a programming error)
     ├── HistoryMoved          (services.word)      another event landed between rendering a decision and recording it
     ├── NotAwaitingCheck      (services.record)    complete/incomplete of a filing not waiting to be checked
     ├── MissingReason         (services.record)    a void without its reason
     ├── NotSentBack           (services.apply)     a resubmission the town did not ask for
     ├── NotTheFilingsTown     (services.enforcement) a case opened on another town's filing
     ├── NoMailing             (services.mailing)   a notice not mailed to abutters, or no abutter list yet
     ├── InspectionRefused     (services.inspections) a stage that does not fit, a fail without its defect, too many photos
     ├── DemoRunning           (services.demo)      a demo already serves from this data directory
     ├── ReportRefused         (services.reports)   a report of a town, board, kind, year or table not kept
     ├── ArchiveRefused        (services.archive)   a backup archive unreadable, or not what its manifest says
     └── UsageError            (cli.args)           a command line the parser refuses

Control flow, never shown to a user as an error:

    Exception
     ├── _Unproven             (workflows.filing)   a value the fast parse cannot vouch for: parse it fully
     ├── NoticeNotApplicable   (sweep.dispatch)     a notice that does not fit the filing now: listed, not failed
     ├── FormErrors            (web.forms)          a form's errors by field, shown beside the fields
     ├── LoginRequired         (web.auth)           no session: the browser goes to the login page
     ├── PasswordChangeRequired (web.auth)          a temporary password: the browser goes to change it first
     └── StaffOnly             (web.auth)           an applicant on a staff page: sent to their own

Every error carries structured fields and names the rule or field at fault.
The CLI turns any PermitsError into one line on standard error and exit
status 2; the web shows it on the page, with nothing written.
"""

from __future__ import annotations

from calendars.errors import CalendarError, PermitsError, UnservableYear

__all__ = [
    "PermitsError",
    "CalendarError",
    "UnservableYear",
    "RuleBookError",
    "UnknownChoice",
    "FilingError",
    "MalformedEvent",
    "TransitionRefused",
]


class RuleBookError(PermitsError):
    """A town's declaration is malformed; raised when the rule book loads."""

    def __init__(self, town: str, clock: str | None, problem: str):
        self.town, self.clock, self.problem = town, clock, problem
        where = f"town {town!r}" + (f", clock {clock!r}" if clock else "")
        super().__init__(f"rule book: {where}: {problem}")


class UnknownChoice(PermitsError):
    def __init__(self, what: str, value: str, choices):
        self.what, self.value, self.choices = what, value, sorted(choices)
        super().__init__(f"unknown {what} {value!r}; choose one of: {', '.join(self.choices)}")


class FilingError(PermitsError):
    """A filing's history that the engine refuses.

    ``position`` is the 1-based index of the event in the history."""

    def __init__(
        self,
        message: str,
        *,
        filing: str | None = None,
        position: int | None = None,
        event: str | None = None,
        rule: str | None = None,
        state: str | None = None,
    ):
        self.filing, self.position, self.event, self.rule, self.state = filing, position, event, rule, state
        self.reason = message  # the refusal without where it is (the web says it in people's words: web/refusals.py)
        where = []
        if filing:
            where.append(filing)
        if position is not None:
            where.append(f"event {position}" + (f" ({event})" if event else ""))
        prefix = ": ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class MalformedEvent(FilingError):
    pass


class TransitionRefused(FilingError):
    pass
