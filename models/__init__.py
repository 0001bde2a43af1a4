"""The record, above the permit core: the SQLModel tables, the Alembic migrations and the
store service (import, record, void, show, docket, deposits, the sweep's
output log) over SQLite or PostgreSQL.  A filing is stored as its
append-only events, with its derived state and clocks beside it.  The
queries behind ``permits show`` and ``permits docket`` are SQL text
(:mod:`models.queries`) that the Store runs, and that on SQLite the standard
library's driver runs too (:mod:`models.sqlite_reader`: no SQLAlchemy).

May import: :mod:`workflows`, :mod:`calendars`, SQLModel/SQLAlchemy, argon2 and
Alembic.  Never notices, the settings, the sweep, the service layer or an
interface: the database URL and the uploads folder are handed in.
"""

__all__ = [
    "applicants",
    "bulk",
    "db",
    "deposit_ledger",
    "errors",
    "inspection_schedule",
    "location",
    "migrate",
    "migrations",
    "outbox",
    "outputs",
    "parties",
    "party_email",
    "queries",
    "service",
    "sessions",
    "sqlite_reader",
    "tables",
    "throttle",
    "uploads",
    "users",
    "workbench",
]
