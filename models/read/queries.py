"""The record's read queries as SQL text, and the shaping of their rows.

Importable without SQLAlchemy: :class:`models.handle.Store` runs these
texts through SQLAlchemy (``text()``, on SQLite and PostgreSQL) and
:mod:`models.read.sqlite_reader` runs the very same texts on the standard
library's ``sqlite3`` (``permits show`` and ``permits docket`` on a SQLite
store, which then start without importing SQLAlchemy).  One text per query
and one function per row shape, so the two paths cannot drift.

Values come back as each driver gives them: ISO text and JSON text from
SQLite, ``date``/``datetime`` and decoded JSON from PostgreSQL; the shaping
functions take both.  Parameters are named (``:id``), which both SQLAlchemy
and ``sqlite3`` read; nothing a user types is put into the text.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import NamedTuple

from workflows.docket import VIOLATIONS, action_for, docket_status
from workflows.filing import VOID

__all__ = [
    "DOCKET_STATUSES",
    "SCHEMA_REVISION",
    "FILING_EXISTS",
    "FILING_JSON",
    "EVENT_RAWS",
    "HISTORY",
    "NOTICE_LOG",
    "DOCKET_CONDITION",
    "DOCKET_OVERDUE_CONDITION",
    "docket_sql",
    "DocketRow",
    "as_date",
    "as_datetime",
    "as_utc",
    "as_json",
    "filing_json",
    "history_of",
    "notice_entry",
    "docket_items",
]

#: the schema's revision (Alembic's one-row table)
SCHEMA_REVISION = "SELECT version_num FROM alembic_version"
FILING_EXISTS = "SELECT id FROM filing WHERE id = :id"
#: what :func:`filing_json` needs of the filing's row
FILING_JSON = "SELECT town, kind, id, also, extra FROM filing WHERE id = :id"
EVENT_RAWS = "SELECT raw FROM event WHERE filing_id = :id ORDER BY seq"
#: every event with who recorded it and when (:func:`history_of`)
HISTORY = "SELECT seq, type, date, raw, recorded_at, recorded_by FROM event WHERE filing_id = :id ORDER BY seq"
#: the notices recorded on a filing, oldest first (:func:`notice_entry`)
NOTICE_LOG = (
    "SELECT filing_id, kind, recipient, dated, produced_at, files, occasion FROM notice WHERE filing_id = :id ORDER BY id"
)

_VIOLATIONS = ", ".join(f"'{v}'" for v in sorted(VIOLATIONS))  # the core's constants, not input

#: Which stored clocks are on the docket (``permits docket`` and the web's
#: Today alike, :func:`models.read.workbench.docket_condition`): deadlines due by
#: ``:until`` (overdue ones included), periods running out between
#: ``:as_of`` and ``:until``, clocks the record cannot judge due by
#: ``:until``, and every violation on record (an act too early, work
#: without leave) whatever its date, as an overdue deadline is.  In
#: parentheses: it is ANDed with other conditions.
DOCKET_CONDITION = (
    "((filing_clock.status = 'due' AND filing_clock.date <= :until)"
    " OR (filing_clock.status = 'runs' AND filing_clock.date >= :as_of AND filing_clock.date <= :until)"
    " OR (filing_clock.status = 'unknown' AND filing_clock.date <= :until)"  # the record lacks a fact it needs
    f" OR filing_clock.status IN ({_VIOLATIONS}))"
)
#: The stored statuses :data:`DOCKET_CONDITION` can list: the only clocks
#: whose explanation the docket reads from the record, so the only ones the
#: record keeps it for (every clock's explanation is its replay's:
#: ``permits show``, the filing's page).
DOCKET_STATUSES = frozenset({"due", "runs", "unknown", *VIOLATIONS})

#: ``--overdue``: deadlines passed before ``:as_of``, and every violation.
DOCKET_OVERDUE_CONDITION = (
    f"((filing_clock.status = 'due' AND filing_clock.date < :as_of) OR filing_clock.status IN ({_VIOLATIONS}))"
)


def docket_sql(*, overdue_only: bool = False, town: bool = False) -> str:
    """The docket's query (:func:`docket_items` reads its rows), soonest
    first: two range scans of ``ix_filing_clock_status_date`` joined to the
    filing by key.  ``town``: with the condition ``filing.town = :town``."""
    condition = DOCKET_OVERDUE_CONDITION if overdue_only else DOCKET_CONDITION
    return (
        "SELECT filing_clock.date, filing_clock.filing_id, filing.town, filing.kind, filing.state, filing_clock.clock_id,"
        " filing_clock.rule, filing_clock.explanation, filing_clock.at, filing_clock.status"
        " FROM filing_clock JOIN filing ON filing.id = filing_clock.filing_id"
        f" WHERE {condition}"
        + (" AND filing.town = :town" if town else "")
        + " ORDER BY filing_clock.date, filing_clock.filing_id, filing_clock.clock_id"
    )


class DocketRow(NamedTuple):
    """One line of the docket, the command line's and the workbench's alike
    (a tuple: thousands are built per query).  ``address``, ``applicant``,
    ``contractor`` and ``last_seq`` are the filing's, filled by the
    workbench's query (:func:`models.read.workbench.docket`) and left None by
    ``permits docket``."""

    date: date
    status: str  # open or overdue on the day asked, or violation (an act on record done too early or without leave)
    filing: str
    town: str
    kind: str
    state: str
    clock: str
    rule: str
    explanation: str
    action: str
    at: datetime | None = None
    address: str | None = None
    applicant: str | None = None
    contractor: str | None = None
    last_seq: int | None = None

    def as_dict(self) -> dict:
        out = {
            "date": self.date.isoformat(),
            "status": self.status,
            "filing": self.filing,
            "town": self.town,
            "kind": self.kind,
            "state": self.state,
            "clock": self.clock,
            "rule": self.rule,
            "explanation": self.explanation,
            "action": self.action,
        }
        if self.at is not None:
            out["at"] = self.at.isoformat(timespec="minutes")
        return out


def as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


def as_datetime(value) -> datetime | None:
    """A stored time: SQLite's text (``2026-12-01 09:30:00.000000``, as
    SQLAlchemy writes it), or the driver's ``datetime``; naive either way."""
    return value if value is None or isinstance(value, datetime) else datetime.fromisoformat(value)


def as_utc(value) -> datetime:
    """A moment stored in UTC (``recorded_at``, ``produced_at``: SQLModel's
    ``UTCDateTime``): SQLite's naive text read as UTC, PostgreSQL's
    ``timestamptz`` turned to UTC; aware either way, as SQLModel reads it."""
    moment = as_datetime(value)
    return moment.replace(tzinfo=UTC) if moment.utcoffset() is None else moment.astimezone(UTC)


def as_json(value):
    """A JSON column's value: SQLite's text decoded, PostgreSQL's as given
    (the columns read here hold objects and lists, never a bare string)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def filing_json(town: str, kind: str, filing_id: str, also, extra, events: list) -> dict:
    """The filing's JSON in the order :meth:`Filing.to_json` writes it, from
    its row (:data:`FILING_JSON`'s columns, in that order) and its events."""
    out = {"town": town, "kind": kind, "id": filing_id}
    also = as_json(also)
    if also:
        out["also"] = list(also)
    out.update(as_json(extra))
    out["events"] = events
    return out


def history_of(rows) -> list[dict]:
    """:data:`HISTORY`'s rows as the history ``permits show`` prints: each
    event with who recorded it and when, and the event that voided it."""
    events = [(seq, etype, as_date(day), as_json(raw), as_utc(at), by) for seq, etype, day, raw, at, by in rows]
    voided_by = {raw.get("voids"): seq for seq, etype, _, raw, _, _ in events if etype == VOID}
    return [
        {
            "seq": seq,
            "type": etype,
            "date": day,
            "raw": raw,
            "recorded_at": at,
            "recorded_by": by,
            "voided_by": voided_by.get(seq),
        }
        for seq, etype, day, raw, at, by in events
    ]


def notice_entry(row) -> tuple[str, str, str, str, tuple[str, ...], str]:
    """A :data:`NOTICE_LOG` row as (filing, kind, recipient, when, files,
    occasion), the fields of :class:`notices.log.SentNotice`: when is the
    notice's own date and time, else when it was recorded (UTC)."""
    filing_id, kind, recipient, dated, produced_at, files, occasion = row
    when = as_datetime(dated) if dated is not None else as_utc(produced_at)
    return filing_id, kind, recipient or "", when.isoformat(timespec="minutes"), tuple(as_json(files) or ()), occasion or ""


def docket_items(rows, as_of: date) -> list[DocketRow]:
    """:func:`docket_sql`'s rows as docket lines, open or overdue on
    ``as_of``.  Thousands of rows share a few hundred days: each day's text
    is read once."""
    days: dict = {}
    out = []
    for day, filing, town_id, kind, state, clock, rule, explanation, at, stored in rows:
        day = days.get(day) or days.setdefault(day, as_date(day))
        out.append(
            DocketRow(
                day,
                docket_status(day, as_of, stored),
                filing,
                town_id,
                kind,
                state,
                clock,
                rule,
                explanation,
                action_for(clock, stored),
                None if at is None else as_datetime(at),
            )
        )
    return out
