"""The whole record as it stood at one moment, read while the workbench
keeps writing: what ``permits backup`` and ``permits db copy`` read.

One connection, one read-only transaction, so every table is read at the
same instant (a filing and its events, a ledger and its filings agree):
on SQLite a deferred transaction on the write-ahead log (a reader holds no
lock a writer waits for, and sees no commit made after its first read);
on PostgreSQL ``REPEATABLE READ, READ ONLY`` (a snapshot, no lock on any
row).  Rows are read in their key's order, a chunk at a time, as the
portable values of :mod:`models.schema.portable`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from models.errors import StoreError
from models.read.queries import SCHEMA_REVISION
from models.schema.db import describe_url
from models.schema.portable import TABLES, column_kinds, encode, select_portable, unknown_tables

__all__ = ["snapshot", "Snapshot", "table_names", "row_counts"]

#: rows fetched at a time
CHUNK = 2000


def table_names(conn: Connection) -> list[str]:
    """The tables of the store on ``conn``."""
    return sa.inspect(conn).get_table_names()


def row_counts(conn: Connection, names=None) -> dict[str, int]:
    """How many rows each carried table (or those of ``names``) holds."""
    wanted = [t for t in TABLES if names is None or t.name in names]
    return {t.name: conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one() for t in wanted}


class Snapshot:
    """The record on one read-only connection, at one instant."""

    def __init__(self, conn: Connection, revision: str | None):
        self.conn = conn
        self.revision = revision

    def tables(self) -> Iterator[tuple[str, list[tuple[str, str]]]]:
        """Each carried table's name and its columns' kinds, parents first."""
        for table in TABLES:
            yield table.name, column_kinds(table)

    def rows(self, name: str) -> Iterator[list]:
        """Each row of table ``name``, its values portable (JSON), in the
        table's column order."""
        table = next(t for t in TABLES if t.name == name)
        kinds = [k for _, k in column_kinds(table)]
        result = self.conn.execution_options(yield_per=CHUNK).execute(select_portable(table))
        for row in result:
            yield [encode(k, v) for k, v in zip(kinds, row, strict=True)]

    def uploads(self) -> list[tuple[str, int, str]]:
        """Each upload's stored file name, size and SHA-256, as its row says."""
        from models.schema.tables import Upload

        u = Upload.__table__
        return [tuple(r) for r in self.conn.execute(sa.select(u.c.stored_name, u.c.size, u.c.sha256).order_by(u.c.id))]


@contextmanager
def snapshot(store) -> Iterator[Snapshot]:
    """The record of ``store`` at one instant (:class:`Snapshot`), on a
    connection closed when the block ends.  StoreError when it holds a
    table this program would not carry."""
    if store.engine.dialect.name == "postgresql":
        conn = store.engine.connect().execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
    else:
        conn = store.reader.connect()  # the deferred BEGIN of models.schema.db
    with conn:
        unknown = unknown_tables(table_names(conn))
        if unknown:
            raise StoreError(
                f"the database {describe_url(store.url)} holds table {unknown[0]!r}, which this program does not know how to "
                "carry; refusing rather than leave it behind"
            )
        yield Snapshot(conn, conn.exec_driver_sql(SCHEMA_REVISION).scalar())
