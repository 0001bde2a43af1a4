"""The record, above the permit core: where the filings are kept, over
SQLite or PostgreSQL, in rooms by role:

- :mod:`models.schema`: the SQLModel tables and the Alembic migrations, the
  engines and URLs;
- :mod:`models.store`: the store's writes (filings imported, events
  appended and their derived rows, the ledger, the outbox, the sweep's
  output log, uploads, enforcement, meetings, parcels);
- :mod:`models.read`: the read models (the queries as SQL text, the
  workbench's reads, search, the docket's counts, the map, the schedule);
- :mod:`models.accounts`: users, sessions, applicants, emailed links, limits;
- :mod:`models.errors`: the record's errors; :mod:`models.types`: its value
  types (a user, an account, the limits); :mod:`models.handle`: the handle
  on the record (its engines, clock, replayer and a filing's reads).

The interfaces import only the errors, the types, the handle and the read
models (the ``Interfaces read the record`` contract in pyproject.toml).

A filing is stored as its append-only events, with its derived state and
clocks beside it.

May import: :mod:`workflows`, :mod:`calendars`, SQLModel/SQLAlchemy, argon2 and
Alembic.  Never notices, the settings, the sweep, the service layer or an
interface: the database URL and the uploads folder are handed in.
"""

__all__ = [
    "accounts",
    "errors",
    "handle",
    "read",
    "schema",
    "store",
    "types",
]
