"""The town's running numbers: the highest number of a sequence
(``CAN-NOI-2026-``), read under a lock held until the caller's unit of
work ends, so a new filing numbered from it and imported in the same
transaction cannot be given the number another writer is giving.

- **PostgreSQL** (READ COMMITTED): a transaction-scoped advisory lock on
  the sequence (``pg_advisory_xact_lock``), taken before the highest
  number is read: a second writer of the same sequence waits for the
  first to commit, and its next statement then sees the first one's
  filing.
- **SQLite**: the unit of work began with ``BEGIN IMMEDIATE``
  (models/schema/db.py), the database's write lock: one writer at a time,
  from its first statement.

The highest number is read from the primary key, from the top of the
sequence's range down (ids of another form, a number given by hand,
are passed over), so it reads a row or two however long the sequence.
"""

from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.engine import Connection

from models.schema.tables import FilingRow
from workflows.numbers import DIGITS, running_number

__all__ = ["last_running_number"]

FILING = FilingRow.__table__
#: rows read from the top of the range at a time
_BATCH = 20


def last_running_number(conn: Connection, prefix: str) -> int:
    """The highest running number of the sequence ``prefix`` in the store
    (0 for none), the sequence locked for the rest of ``conn``'s
    transaction."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"filing-number:{prefix}"})
    where = [
        FILING.c.id >= prefix + "0" * DIGITS,
        FILING.c.id <= prefix + "9" * DIGITS,
        func.length(FILING.c.id) == len(prefix) + DIGITS,
    ]
    below = None
    while True:
        query = select(FILING.c.id).where(*where, *([FILING.c.id < below] if below is not None else []))
        ids = list(conn.execute(query.order_by(FILING.c.id.desc()).limit(_BATCH)).scalars())
        for fid in ids:
            number = running_number(fid, prefix)
            if number is not None:
                return number
        if len(ids) < _BATCH:
            return 0
        below = ids[-1]
