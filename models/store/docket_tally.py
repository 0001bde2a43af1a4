"""The docket's tally: how many deadlines of the open filings fall on each
(status, day, town, kind), so the Today page's counts sum a few thousand
rows (one per such key) instead of reading every deadline of the view
(:mod:`models.read.docket_counts`; migration 0130).

The two places that write ``filing_clock`` keep it, in the transaction
that writes the clocks: :func:`models.store.filings.write_derived` (a recording,
a void, the sweep, ``permits rederive``: the filing's clocks removed, its
new ones written) and an import (:func:`models.store.filings.import_filings`).
Each adds the net change of the counts it made (:func:`record`): a clock
rewritten as it was (most of what the sweep rewrites) changes nothing and
adds nothing.  Rows are only ever added, never updated in place: two
writers on PostgreSQL never wait for each other's count, so they cannot
deadlock on one.  The sum of ``n`` over a key's rows is the number of its
clocks, whatever rows hold it.  (Triggers on ``filing_clock`` were tried
first: SQLite runs a row trigger's program for every clock written, about
6 µs each whatever its WHEN clause says, which made an import 23% slower
and the sweep's rewrite of every open filing pay it for clocks that did
not change.)

A fold replaces the rows up to an id by one row per key with their sum
(keys summing to nothing dropped), and :func:`settle`, called at the end of
each transaction that writes clocks, folds when the rows added since the
last fold outnumber those it left (:data:`FOLD_RATIO`; and at least
:data:`FOLD_AFTER`), so the tally stays within about twice its folded
size: a fold reads the tally once, and happens after as many changes.
Folding changes no count."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from sqlalchemy import insert, text
from sqlalchemy.engine import Connection

from models.schema.clock_indexes import DOCKET_INDEX_STATUSES
from models.schema.tables import DocketTally

__all__ = ["FOLD_AFTER", "FOLD_RATIO", "fold", "record", "settle"]

TALLY = DocketTally.__table__
#: changes written since the last fold before a writer folds, at the least
FOLD_AFTER = 1000
#: ... and for each row the last fold left: the tally stays within twice its folded size
FOLD_RATIO = 1
#: PostgreSQL: the advisory lock one fold at a time holds (two would only
#: wait for each other); the others skip folding, the one under way suffices
FOLD_LOCK = 0x70_65_72_6D_69_74_73  # "permits"

_COUNTED = frozenset(DOCKET_INDEX_STATUSES)
_SPREAD = text("SELECT (SELECT max(id) FROM docket_tally) - upto, rows FROM docket_tally_fold WHERE id = 1")
_TOP = text("SELECT max(id) FROM docket_tally")
_SUMS = "SELECT status, date, town, kind, sum(n) FROM {rows} GROUP BY status, date, town, kind HAVING sum(n) <> 0"
# SQLite: one writer at a time, so the rows summed are the rows deleted
_SQLITE_FOLD = (
    text("INSERT INTO docket_tally (status, date, town, kind, n) " + _SUMS.format(rows="docket_tally WHERE id <= :upto")),
    text("DELETE FROM docket_tally WHERE id <= :upto"),
)
# PostgreSQL: the rows deleted are the rows summed, in one statement, so a
# change another writer commits meanwhile is either folded or left as it is
_POSTGRESQL_FOLD = text(
    "WITH gone AS (DELETE FROM docket_tally WHERE id <= :upto RETURNING status, date, town, kind, n) "
    "INSERT INTO docket_tally (status, date, town, kind, n) "
    "SELECT status, date, town, kind, sum(n)::integer FROM gone GROUP BY status, date, town, kind HAVING sum(n) <> 0"
)
_MARK = text("UPDATE docket_tally_fold SET upto = (SELECT coalesce(max(id), 0) FROM docket_tally), rows = :rows WHERE id = 1")
_FIRST_MARK = text("INSERT INTO docket_tally_fold (id, upto, rows) SELECT 1, coalesce(max(id), 0), :rows FROM docket_tally")


def record(conn: Connection, *, gone: Iterable[tuple] = (), came: Iterable[tuple] = ()) -> int:
    """Add to the tally, in the caller's transaction, the net change of
    clocks removed (``gone``) and written (``came``), each (status, date,
    filing town, filing kind, filing open); only the docket's clocks of
    open filings count (``ix_filing_clock_docket``'s statuses).  How many
    rows it added (none when the counts did not change)."""
    change: Counter = Counter()
    for status, day, town, kind, is_open in gone:
        if is_open and status in _COUNTED:
            change[(status, day, town, kind)] -= 1
    for status, day, town, kind, is_open in came:
        if is_open and status in _COUNTED:
            change[(status, day, town, kind)] += 1
    rows = [{"status": s, "date": d, "town": t, "kind": k, "n": n} for (s, d, t, k), n in change.items() if n]
    if rows:
        conn.execute(insert(TALLY), rows)
    return len(rows)


def fold(conn: Connection) -> int | None:
    """Replace the tally's rows by one per key with their sum, in the
    caller's transaction; how many rows it left (None: another fold is
    under way on PostgreSQL, and this one is skipped)."""
    postgresql = conn.dialect.name == "postgresql"
    if postgresql and not conn.execute(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": FOLD_LOCK}).scalar():
        return None
    top = conn.execute(_TOP).scalar()
    rows = 0
    if top is not None:
        if postgresql:
            rows = conn.execute(_POSTGRESQL_FOLD, {"upto": top}).rowcount
        else:
            sums, delete = _SQLITE_FOLD
            rows = conn.execute(sums, {"upto": top}).rowcount
            conn.execute(delete, {"upto": top})
    if conn.execute(_MARK, {"rows": rows}).rowcount == 0:
        conn.execute(_FIRST_MARK, {"rows": rows})
    return rows


def settle(conn: Connection) -> bool:
    """Fold the tally in the caller's transaction if the changes written
    since the last fold outnumber the rows it left (:data:`FOLD_RATIO`, and
    :data:`FOLD_AFTER`): one look-up of two numbers otherwise.  Whether it
    folded."""
    spread = conn.execute(_SPREAD).first()
    if spread is not None and (spread[0] is None or spread[0] <= max(spread[1] * FOLD_RATIO, FOLD_AFTER)):
        return False
    return fold(conn) is not None
