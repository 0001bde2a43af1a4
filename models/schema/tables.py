"""The record's tables (SQLModel).  No ``from __future__ import annotations``
here: it breaks SQLModel (SQLModel 0.0.50: its Relationship fails under postponed annotations).

- ``filing``: one row per filing, with its derived state and next deadline,
  rewritten in the same transaction as the event that changes them.
- ``event``: the history, append-only: (filing, seq) is the key, seq is the
  1-based position of docs/reference/filing-format.md; ``raw`` is the event's JSON exactly as
  given, so an export is the import.  Triggers refuse UPDATE and DELETE.
- ``filing_clock``: each filing's clocks as of its last event; ``status`` is
  ``due`` for a deadline neither met nor missed-and-done (open or overdue
  depends on the day asked, so the docket decides that), else the replay's
  status.  Indexed on (status, date): the docket is one range scan.  Each
  row carries its filing's town, kind and whether the filing is open
  (``filing_open``; written with the clocks, migration 0120).
- ``docket_tally``, ``docket_tally_fold``: how many docket clocks of open
  filings fall on each (status, day, town, kind), kept as signed changes
  by the writers of ``filing_clock`` and folded now and then
  (:mod:`models.store.docket_tally`, migration 0130): the Today page's counts
  sum a few thousand rows instead of reading every deadline.
- ``party``, ``insurance_certificate``, ``abutter``, ``notice``: who is
  involved and what was sent (a notice row per recipient: which notice,
  when, to whom; by ``permits notices`` or by the sweep).
- ``sweep_output``: what the daily sweep made for a filing (a reminder, a
  notice), keyed by (filing, output key): the key makes a rerun idempotent.
- ``ledger_entry``: the refundable-deposit account per applicant and the fees
  (Canton 16-12 §5-6), append-only like the events.
- ``app_user``: the workbench's users: an argon2 password hash, a role
  (agent, dpw, admin), the towns they work for, the failed-login count that
  locks an account for a while, the secret token of their calendar feed,
  and the session version a password change bumps (logging out every
  other session of the user); the person's full name and title, whether a
  temporary password must be changed at the next login, and when an
  invitation by email was sent that is not yet taken up (migration 0180).
- ``email_message``: the outbox: the whole message of a ``notice`` row whose
  channel is ``email`` (the notice row says to whom and whether it was sent).
- ``upload``: a plan uploaded with an online application, stored under a
  generated name outside any web root (models/store/uploads.py).
- ``client_attempt``: failed logins and registrations by client address,
  for the workbench's per-address limit (models/accounts/throttle.py), kept in the
  store so every web process behind a load balancer counts the same ones.
- ``login_attempt``: logins by the address typed and the client's address
  (models/accounts/login_pauses.py): failed ones, which pause that client's
  logins to that address, kept a day for the admin's list; and the last
  good login of each (address, client), which makes the client a known one
  (migration 0185).
- ``web_session``: the workbench's live sessions, one row per login (only
  the SHA-256 of the cookie's session token is kept): logging out, a
  password change or reset and disabling the account delete them, so a
  copied cookie stops working on the server's side (models/accounts/sessions.py).
- ``account_filing``, ``invitation``: the filings an applicant's account
  (an ``app_user`` with the role ``applicant``) submitted or was invited to,
  and the single-use invitation links staff send (models/accounts/applicants.py).
- ``parcel_layer``, ``parcel``, ``parcel_owner``, ``abutter_list``: the
  assessors' parcels and where an abutter list came from
  (models/schema/parcel_tables.py, imported at the end of this module).
- ``enforcement_case``, ``enforcement_event``, ``enforcement_clock``: the
  enforcement record, a case's history and derived clocks
  (:mod:`models.schema.enforcement_tables`, imported here).
- ``account_link``: the single-use links emailed to prove an address (a
  registration waiting for its link) or to reset a forgotten password
  (models/accounts/account_links.py); only the token's SHA-256 is kept.
"""

from datetime import date, datetime

from sqlalchemy import JSON, BigInteger, Column, DateTime, Index, Integer, LargeBinary, UniqueConstraint, false, text
from sqlmodel import Field, SQLModel

from models.schema.clock_indexes import (
    DOCKET_INDEX,
    DOCKET_INDEX_COLUMNS,
    DOCKET_TOWN_INDEX,
    DOCKET_WHERE,
    OTHER_DATES_INDEX,
    OTHER_DATES_WHERE,
)
from workflows.inspections import INSPECTION_CLOCKS

#: the rows of the partial index of the DPW's inspections (migration 0045)
INSPECTION_WHERE = "clock_id IN (" + ", ".join(f"'{c}'" for c in INSPECTION_CLOCKS) + ")"

__all__ = [
    "Party",
    "InsuranceCertificate",
    "FilingRow",
    "EventRow",
    "FilingClock",
    "Abutter",
    "Notice",
    "SweepOutput",
    "LedgerEntry",
    "UserRow",
    "EmailMessage",
    "Upload",
    "AccountFiling",
    "Invitation",
    "EnforcementCaseRow",
    "EnforcementClockRow",
    "EnforcementEventRow",
    "WebSession",
    "AccountLink",
    "APPEND_ONLY_TABLES",
]

#: Tables whose rows are never updated or deleted.
APPEND_ONLY_TABLES = ("event", "ledger_entry", "enforcement_event")


class Party(SQLModel, table=True):
    """An applicant, owner or contractor.  ``category`` decides fees and
    deposits: private, utility, gas-company, municipal (Canton 16-12 §5-6)."""

    __tablename__ = "party"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    category: str = Field(default="private")
    license_number: str | None = None  # Public Works Contractors Construction License
    license_expires: date | None = None


class InsuranceCertificate(SQLModel, table=True):
    """A certificate filed with an application (Canton 16-12 §8)."""

    __tablename__ = "insurance_certificate"
    id: int | None = Field(default=None, primary_key=True)
    party_id: int = Field(foreign_key="party.id", index=True)
    coverage: str  # general-liability, auto, workers-compensation
    insurer: str | None = None
    expires: date


class FilingRow(SQLModel, table=True):
    __tablename__ = "filing"
    __table_args__ = (
        Index("ix_filing_town_kind_state", "town", "kind", "state"),
        Index("ix_filing_state_id", "state", "id"),  # the applications submitted online, any town (migration 0090)
        # a user's filings list, in id order per town and kind, with what a
        # search tests of each filing (migrations 0050, 0181)
        Index(
            "ix_filing_town_kind_id",
            "town",
            "kind",
            "id",
            "address",
            "parcel",
            "applicant_id",
            "owner_id",
            "site_key",
            "massdep_file",
        ),
    )
    id: str = Field(primary_key=True)
    town: str
    kind: str
    also: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    extra: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    address: str | None = None
    parcel: str | None = None
    applicant_id: int | None = Field(default=None, foreign_key="party.id", index=True)
    owner_id: int | None = Field(default=None, foreign_key="party.id", index=True)  # a search by owner (migration 0181)
    contractor_id: int | None = Field(default=None, foreign_key="party.id")
    last_seq: int = 0
    state: str
    next_deadline_date: date | None = Field(default=None, index=True)
    next_deadline_clock: str | None = None
    updated_at: datetime
    # the day the stored state, next deadline and clocks are the history
    # replayed as of (migration 0183; models/store/filings.py derivation_day)
    derived_on: date | None = None
    # the first day on which time alone may change what the sweep keeps or
    # makes for the filing (migration 0186; sweep/next_change.py): the
    # incremental sweep takes the filings whose day has come.  None: not
    # known (a row from before 0186): the next sweep takes it.
    next_change_on: date | None = Field(default=None, index=True)
    # what the search finds a filing by besides the columns above (migration
    # 0181): its address as workflows/sites.py compares addresses, between
    # spaces, and the file number MassDEP assigned it (workflows/numbers.py)
    site_key: str | None = None
    massdep_file: str | None = None


#: the events the DPW schedule looks for among every filing's history
INSPECTION_REQUESTS_WHERE = "type = 'inspection-requested'"


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    __table_args__ = (
        # the inspections asked for online, for the DPW schedule (migration 0140; models/read/inspection_requests.py)
        Index(
            "ix_event_inspection_requested",
            "filing_id",
            sqlite_where=text(INSPECTION_REQUESTS_WHERE),
            postgresql_where=text(INSPECTION_REQUESTS_WHERE),
        ),
    )
    filing_id: str = Field(foreign_key="filing.id", primary_key=True)
    seq: int = Field(primary_key=True)
    type: str
    date: date
    at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))  # local time, naive
    raw: dict = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime
    recorded_by: str


class FilingClock(SQLModel, table=True):
    __tablename__ = "filing_clock"
    __table_args__ = (
        Index("ix_filing_clock_status_date", "status", "date"),
        # the DPW's inspections only (migration 0045; models/read/inspection_schedule.py)
        Index(
            "ix_filing_clock_inspection",
            "status",
            "date",
            "filing_id",
            sqlite_where=text(INSPECTION_WHERE),
            postgresql_where=text(INSPECTION_WHERE),
        ),
        # a docket's clocks, of every town and of one, and the schedule's other dates
        # (migrations 0090 and 0130; models/schema/clock_indexes.py)
        Index(DOCKET_INDEX, *DOCKET_INDEX_COLUMNS, sqlite_where=text(DOCKET_WHERE), postgresql_where=text(DOCKET_WHERE)),
        Index(
            DOCKET_TOWN_INDEX,
            "filing_town",
            *DOCKET_INDEX_COLUMNS,
            sqlite_where=text(DOCKET_WHERE),
            postgresql_where=text(DOCKET_WHERE),
        ),
        Index(
            OTHER_DATES_INDEX,
            "date",
            "filing_id",
            "n",
            "status",
            "clock_id",
            sqlite_where=text(OTHER_DATES_WHERE),
            postgresql_where=text(OTHER_DATES_WHERE),
        ),
    )
    filing_id: str = Field(foreign_key="filing.id", primary_key=True)
    n: int = Field(primary_key=True)  # the clock's place in the replay: a clock id repeats per start
    clock_id: str
    type: str
    date: date
    at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))  # local time, naive
    status: str
    rule: str
    explanation: str
    # the filing's town, kind and whether it is open (not in a final state
    # of its machine), copied with every write of its clocks (migration 0120):
    # what the docket's tally counts by (migration 0130)
    filing_town: str
    filing_kind: str
    filing_open: bool


#: a key of 64 bits on PostgreSQL; SQLite's rowid (an INTEGER PRIMARY KEY) is
#: already 64 bits, and a BIGINT key would not be the rowid
_TALLY_ID = BigInteger().with_variant(Integer(), "sqlite")


class DocketTally(SQLModel, table=True):
    """Signed counts of the docket's clocks of open filings by (status, day,
    town, kind): each write of ``filing_clock`` adds rows (+n for clocks
    written, -n for clocks removed) by the two writers of the clocks
    (:func:`models.store.filings.write_derived`, the import), and a fold replaces
    the rows up to an id by their sums (:mod:`models.store.docket_tally`,
    migration 0130).  The sum over every row of a key is the number of
    such clocks; there is no unique key, so two writers never wait for
    each other's row."""

    __tablename__ = "docket_tally"
    # the counts' ranges: by status, then day, the rest read from the index
    __table_args__ = (Index("ix_docket_tally", "status", "date", "town", "kind", "n"),)
    id: int | None = Field(default=None, sa_column=Column(_TALLY_ID, primary_key=True, autoincrement=True))
    status: str
    date: date
    town: str
    kind: str
    n: int


class DocketTallyFold(SQLModel, table=True):
    """One row: the last id the last fold wrote (``upto``) and how many rows
    it left (``rows``): the changes written since are those above ``upto``,
    and a writer folds when they outnumber the folded rows
    (:func:`models.store.docket_tally.settle`)."""

    __tablename__ = "docket_tally_fold"
    id: int = Field(primary_key=True)
    upto: int = Field(sa_column=Column(BigInteger(), nullable=False))
    rows: int


class Abutter(SQLModel, table=True):
    """One owner on a filing's abutter list.  ``address`` is the mailing
    address on one line (what a filing's JSON gives); a list read from the
    assessors' file keeps it in its parts too (``street``, ``city``,
    ``state``, ``zip``), with the ``ring`` and every ``parcels`` of the
    owner (migration 0009)."""

    __tablename__ = "abutter"
    id: int | None = Field(default=None, primary_key=True)
    filing_id: str = Field(foreign_key="filing.id", index=True)
    name: str
    address: str | None = None
    parcel: str | None = None
    notified_on: date | None = None
    street: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    ring: str | None = None
    parcels: list | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class Notice(SQLModel, table=True):
    """A notice the engine produced (rendered by notices/), one row per
    recipient: a recipient key (``owner|street|city|zip``), or ``public`` /
    ``boards``.  ``dated`` is the notice's own date and time (local, naive);
    ``produced_at`` when it was recorded (UTC).  ``output_key`` names the
    sweep output that made it, if the sweep did."""

    __tablename__ = "notice"
    __table_args__ = (
        Index("ix_notice_filing_kind_recipient", "filing_id", "kind", "recipient"),
        # a notice is sent once, whoever sends it (migrations 0003, 0005: by channel)
        Index("uq_notice_identity", "filing_id", "kind", "occasion", "recipient", "channel", unique=True),
        Index("ix_notice_channel_sent_at", "channel", "sent_at"),  # the outbox: email not yet sent
    )
    id: int | None = Field(default=None, primary_key=True)
    # none for an account's own email (a registration link, a reset: migration 0060)
    filing_id: str | None = Field(default=None, foreign_key="filing.id", index=True)
    kind: str
    event_seq: int | None = None
    produced_at: datetime
    path: str | None = None
    digest: str | None = None
    recipient: str = Field(default="", sa_column_kwargs={"server_default": ""})
    occasion: str = Field(default="", sa_column_kwargs={"server_default": ""})
    dated: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))  # local time, naive
    files: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    output_key: str | None = None
    # paper (printed and mailed) or email (models/store/outbox.py): an email's
    # address, when it was handed to the SMTP server, tries and last error
    channel: str = Field(default="paper", sa_column_kwargs={"server_default": "paper"})
    address: str | None = None
    sent_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))  # UTC, naive
    attempts: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    last_error: str | None = None
    # a sending staff recorded (migration 0182): how it went (notices.log.WAYS) and who recorded it
    how: str | None = None
    recorded_by: str | None = None


class SweepOutput(SQLModel, table=True):
    """One output of the daily sweep on its filing: ``kind`` is the key's
    first part (``reminder``, ``notice``), ``payload`` what was made,
    ``as_of`` the day swept for."""

    __tablename__ = "sweep_output"
    filing_id: str = Field(foreign_key="filing.id", primary_key=True)
    output_key: str = Field(primary_key=True)
    kind: str
    payload: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    as_of: date | None = None
    recorded_at: datetime


class LedgerEntry(SQLModel, table=True):
    """One line of an applicant's account, in cents.  ``entry`` is one of
    workflows.deposits.ENTRY_KINDS; ``rule`` cites the section."""

    __tablename__ = "ledger_entry"
    __table_args__ = (
        UniqueConstraint("party_id", "seq"),
        # the open deposits, summed as the index is read (migration 0090)
        Index("ix_ledger_entry_filing_party", "filing_id", "party_id", "entry", "amount_cents"),
    )
    id: int | None = Field(default=None, primary_key=True)
    party_id: int = Field(foreign_key="party.id", index=True)
    seq: int
    filing_id: str | None = Field(default=None, foreign_key="filing.id", index=True)
    entry: str
    item: str | None = None
    quantity: int | None = None
    amount_cents: int
    date: date
    rule: str
    note: str | None = None
    recorded_at: datetime
    recorded_by: str
    source: str | None = None  # the event it was filled from, "event:3" (migration 0046)


class UserRow(SQLModel, table=True):
    """A user of the web workbench (``permits users``).  ``towns`` is a
    list of town ids; ``locked_until`` is set after repeated failed logins
    (UTC, naive); ``calendar_token`` names their ICS subscription URL."""

    __tablename__ = "app_user"
    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(index=True, unique=True)
    password_hash: str
    role: str
    towns: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    disabled: bool = False
    failed_logins: int = 0
    locked_until: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))
    calendar_token: str = Field(index=True, unique=True)
    created_at: datetime
    # an applicant's address proved (by an invitation link sent there):
    # only then does the account see the filings that name it
    verified_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))
    # each session cookie carries the version it was made at; a password
    # change bumps it, so every other session of the user stops working
    session_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # the person (migration 0180): their name and title, shown wherever a
    # member of staff is named; a temporary password an admin set, to be
    # changed at the next login; an invitation by email not yet taken up
    full_name: str = Field(default="", sa_column_kwargs={"server_default": ""})
    title: str = Field(default="", sa_column_kwargs={"server_default": ""})
    must_change_password: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    invited_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))


class EmailMessage(SQLModel, table=True):
    """The outbox: the message of an email ``notice`` row, exactly as it is
    handed to the SMTP server (RFC 5322 bytes, attachments included)."""

    __tablename__ = "email_message"
    notice_id: int = Field(foreign_key="notice.id", primary_key=True)
    message: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class Upload(SQLModel, table=True):
    """A plan uploaded as PDF: ``stored_name`` is generated (never the
    user's), in the uploads folder; ``token`` is its unguessable id in URLs;
    ``original_name`` is only shown."""

    __tablename__ = "upload"
    id: int | None = Field(default=None, primary_key=True)
    token: str = Field(index=True, unique=True)
    filing_id: str | None = Field(default=None, foreign_key="filing.id", index=True)
    account_id: int | None = Field(default=None, foreign_key="app_user.id", index=True)
    purpose: str = "plan"
    original_name: str
    stored_name: str = Field(unique=True)
    size: int
    sha256: str
    media_type: str
    uploaded_at: datetime
    uploaded_by: str


class AccountFiling(SQLModel, table=True):
    """A filing an applicant's account (``app_user``, role ``applicant``) may
    see besides those naming its address: one it submitted, or one staff
    invited it to (``how``)."""

    __tablename__ = "account_filing"
    account_id: int = Field(foreign_key="app_user.id", primary_key=True)
    filing_id: str = Field(foreign_key="filing.id", primary_key=True)
    how: str
    linked_at: datetime


class Invitation(SQLModel, table=True):
    """A single-use link staff send from a filing: only the token's SHA-256
    is kept; ``used_at`` is set once, by the first acceptance."""

    __tablename__ = "invitation"
    id: int | None = Field(default=None, primary_key=True)
    token_sha256: str = Field(index=True, unique=True)
    filing_id: str = Field(foreign_key="filing.id", index=True)
    email: str
    expires_at: datetime
    used_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))
    account_id: int | None = Field(default=None, foreign_key="app_user.id")
    created_by: str
    created_at: datetime


class ClientAttempt(SQLModel, table=True):
    """One attempt that counts against a client address's limit
    (models/accounts/throttle.py): a failed login or invitation acceptance
    (``login``), a registration (``register``).  ``at`` is UTC, naive; rows
    older than the longest window are deleted as new ones come."""

    __tablename__ = "client_attempt"
    __table_args__ = (Index("ix_client_attempt_key", "action", "client", "at"),)
    id: int | None = Field(default=None, primary_key=True)
    action: str
    client: str
    at: datetime = Field(sa_column=Column(DateTime(), nullable=False, index=True))


class LoginAttempt(SQLModel, table=True):
    """A login to the account ``email`` (the address as typed, normalised:
    it may name no account) from ``client`` (models/accounts/login_pauses.py):
    a failure (``ok`` false) or the last good login of that client
    (``ok`` true).  ``at`` is UTC, naive."""

    __tablename__ = "login_attempt"
    __table_args__ = (Index("ix_login_attempt_key", "email", "client", "at"),)
    id: int | None = Field(default=None, primary_key=True)
    email: str
    client: str
    ok: bool = False
    at: datetime = Field(sa_column=Column(DateTime(), nullable=False, index=True))


class WebSession(SQLModel, table=True):
    """A live workbench session (models/accounts/sessions.py): the cookie carries a
    random token, the row only its SHA-256.  ``created_at`` and
    ``expires_at`` are UTC, naive; a row past ``expires_at`` opens nothing
    and is deleted as new sessions start."""

    __tablename__ = "web_session"
    token_sha256: str = Field(primary_key=True)
    user_id: int = Field(foreign_key="app_user.id", index=True)
    created_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))
    expires_at: datetime = Field(sa_column=Column(DateTime(), nullable=False, index=True))


class AccountLink(SQLModel, table=True):
    """A single-use link emailed to an address (models/accounts/account_links.py):
    ``purpose`` is ``register`` (a registration waiting for its link: the
    address and the password's argon2 hash, no account yet) or ``reset``
    (a forgotten password: the account).  Only the token's SHA-256 is
    kept; ``expires_at`` and ``used_at`` are UTC, naive; ``used_at`` is set
    once, by the first use."""

    __tablename__ = "account_link"
    token_sha256: str = Field(primary_key=True)
    purpose: str
    email: str = Field(index=True)
    user_id: int | None = Field(default=None, foreign_key="app_user.id", index=True)
    password_hash: str | None = None
    created_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))
    expires_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))
    used_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))


from models.schema.enforcement_tables import EnforcementCaseRow, EnforcementClockRow, EnforcementEventRow  # noqa: E402 - registered after the tables they refer to
from models.schema.meeting_tables import MeetingItem, MeetingRow  # noqa: E402,F401 - the meetings' tables (migration 0040)
from models.schema.town_fee_tables import TownFeeRow  # noqa: E402,F401 - the fees a town sets (migration 0184)

from . import parcel_tables  # noqa: E402, F401 - the parcel tables, on the same metadata
