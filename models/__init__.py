"""Layer 3, the record: the SQLModel tables, the Alembic migrations and the
store service (import, record, void, show, docket, deposits, the sweep's
output log) over SQLite or PostgreSQL.  A filing is stored as its
append-only events, with its derived state and clocks beside it.

May import: :mod:`workflows`, :mod:`calendars`, SQLModel/SQLAlchemy, argon2 and
Alembic.  Never notices, the sweep or an interface.
"""

__all__ = ["db", "tables", "migrate", "service", "outputs", "parties", "accounts", "users", "workbench"]
