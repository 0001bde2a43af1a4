"""The record read on the standard library's ``sqlite3``, without SQLAlchemy:
what ``permits show`` and ``permits docket`` need from a SQLite store
(importing SQLAlchemy and SQLModel was most of their start).

It runs the same SQL texts, and shapes their rows with the same functions,
as :class:`models.handle.Store` (:mod:`models.read.queries`), and answers as the
Store does: ``history``, ``replay``, ``notice_entries``, ``docket``, and
:class:`~models.errors.UnknownFiling` for an id not recorded.

It serves only the ordinary case: a plain ``sqlite:///PATH`` URL naming an
existing file whose schema is at ``HEAD`` (one query on
``alembic_version``).  For anything else :func:`open_sqlite_reader` answers
None and the command opens the Store, whose schema check says what is wrong
(no database: run ``permits init``; an older schema: ``permits db
upgrade``; a file that cannot be read) in the same words as always.
PostgreSQL is always read through the Store.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path

from models.errors import UnknownFiling
from models.read.queries import (
    EVENT_RAWS,
    FILING_EXISTS,
    FILING_JSON,
    HISTORY,
    NOTICE_LOG,
    SCHEMA_REVISION,
    DocketRow,
    as_json,
    docket_items,
    docket_sql,
    filing_json,
    history_of,
    notice_entry,
)
from models.schema.location import BUSY_TIMEOUT_MS
from models.schema.migrations import HEAD
from workflows.filing import Filing, parse_filing

__all__ = ["SqliteReader", "open_sqlite_reader", "sqlite_file"]

_PREFIX = "sqlite:///"


def sqlite_file(url: str) -> Path | None:
    """The file of a plain ``sqlite:///PATH`` URL, as SQLAlchemy would open
    it; None for any other URL (PostgreSQL, in-memory, a driver or query
    options, escapes, a ``~``), which only the Store reads."""
    if not url.startswith(_PREFIX) or any(c in url for c in "?#%@"):
        return None
    database = url[len(_PREFIX) :]
    if not database or database == ":memory:" or database.startswith("~"):
        return None
    return Path(database)


def open_sqlite_reader(url: str) -> SqliteReader | None:
    """A reader on the SQLite file of ``url`` if it exists, opens and is at
    the current schema; None otherwise (the Store then says why)."""
    path = sqlite_file(url)
    if path is None or not path.is_file():
        return None
    conn = None
    try:
        # mode=rw: never create the file; one read transaction for the command
        conn = sqlite3.connect(
            path.absolute().as_uri() + "?mode=rw", uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
        )
        conn.execute("BEGIN")
        revisions = conn.execute(SCHEMA_REVISION).fetchall()
    except sqlite3.Error:
        revisions = None
    if revisions != [(HEAD,)]:
        if conn is not None:
            conn.close()
        return None
    return SqliteReader(conn)


class SqliteReader:
    """One read transaction on a SQLite store at ``HEAD`` (see the module)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def close(self) -> None:
        self.conn.close()

    def _exists(self, filing_id: str) -> None:
        if self.conn.execute(FILING_EXISTS, {"id": filing_id}).fetchone() is None:
            raise UnknownFiling(filing_id)

    def history(self, filing_id: str) -> list[dict]:
        """:meth:`models.handle.Store.history`."""
        self._exists(filing_id)
        return history_of(self.conn.execute(HISTORY, {"id": filing_id}).fetchall())

    def load(self, filing_id: str) -> Filing:
        row = self.conn.execute(FILING_JSON, {"id": filing_id}).fetchone()
        if row is None:
            raise UnknownFiling(filing_id)
        raws = [as_json(raw) for (raw,) in self.conn.execute(EVENT_RAWS, {"id": filing_id})]
        return parse_filing(filing_json(*row, raws))

    def replay(self, filing_id: str, as_of: date):
        """:meth:`models.handle.Store.replay`."""
        from workflows.replay import replay

        return replay(self.load(filing_id), as_of)

    def notice_entries(self, filing_id: str) -> list[tuple]:
        """:meth:`models.handle.Store.notice_entries`."""
        return [notice_entry(row) for row in self.conn.execute(NOTICE_LOG, {"id": filing_id})]

    def docket(self, *, as_of: date, within: int = 7, town: str | None = None, overdue_only: bool = False) -> list[DocketRow]:
        """:meth:`models.handle.Store.docket`."""
        params = {"as_of": as_of.isoformat(), "until": (as_of + timedelta(days=within)).isoformat()}
        if town is not None:
            params["town"] = town
        rows = self.conn.execute(docket_sql(overdue_only=overdue_only, town=town is not None), params).fetchall()
        return docket_items(rows, as_of)
