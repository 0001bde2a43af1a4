"""The record, above the permit core: the SQLModel tables, the Alembic migrations and the
store service (import, record, void, show, docket, deposits, the sweep's
output log) over SQLite or PostgreSQL, and the enforcement record beside it
(:mod:`models.enforcement`: cases, their events and clocks).  A filing is stored as its
append-only events, with its derived state and clocks beside it.  The
queries behind ``permits show`` and ``permits docket`` are SQL text
(:mod:`models.queries`) that the Store runs, and that on SQLite the standard
library's driver runs too (:mod:`models.sqlite_reader`: no SQLAlchemy).

May import: :mod:`workflows`, :mod:`calendars`, SQLModel/SQLAlchemy, argon2 and
Alembic.  Never notices, the settings, the sweep, the service layer or an
interface: the database URL and the uploads folder are handed in.
"""

__all__ = [
    "account_links",
    "applicants",
    "bulk",
    "clock_indexes",
    "corrections",
    "daily_limits",
    "db",
    "deposit_ledger",
    "docket_counts",
    "docket_tally",
    "enforcement",
    "enforcement_tables",
    "errors",
    "filing_list",
    "inspection_requests",
    "inspection_schedule",
    "location",
    "map_sites",
    "meetings",
    "migrate",
    "migrations",
    "outbox",
    "outputs",
    "parcel_tables",
    "parcels",
    "parties",
    "party_email",
    "queries",
    "search",
    "service",
    "sessions",
    "sqlite_reader",
    "submitted",
    "tables",
    "throttle",
    "uploads",
    "users",
    "workbench",
]
