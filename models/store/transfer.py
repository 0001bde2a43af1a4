"""A whole record written into an empty store, on the connection of the
service layer's unit of work: ``permits restore`` and ``permits db copy``.

:func:`holds_records` says whether a store is empty (every carried table
but the rows its migrations seed, :data:`models.schema.portable.SEEDED`);
:func:`load_table` inserts a table's portable rows a chunk at a time;
:func:`finish` resets PostgreSQL's sequences past the ids inserted, so the
next filing number, ledger line or session is not one already taken.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from models.schema.portable import SEEDED, TABLES, decode, typed_table

__all__ = ["holds_records", "clear_seeded", "load_table", "finish"]

#: rows inserted at a time
CHUNK = 1000


def holds_records(conn: Connection, names: Iterable[str]) -> str | None:
    """The first carried table among ``names`` (those the store has) that
    holds a row, the seeded ones aside; None when the store is empty."""
    present = set(names)
    for table in TABLES:
        if table.name in present and table.name not in SEEDED:
            if conn.execute(sa.select(sa.literal(1)).select_from(table).limit(1)).first() is not None:
                return table.name
    return None


def clear_seeded(conn: Connection) -> None:
    """Remove the rows the migrations seeded, which the record brought in
    replaces."""
    for table in TABLES:
        if table.name in SEEDED:
            conn.execute(sa.delete(table))


def load_table(conn: Connection, name: str, kinds: list[tuple[str, str]], rows: Iterable[list]) -> int:
    """Insert ``rows`` (portable values in the order of ``kinds``) into
    table ``name``; how many.  ValueError or TypeError for a value its
    column's kind cannot hold."""
    target = typed_table(name, kinds)
    json_cols = [col for col, kind in kinds if kind == "json"]
    statement = sa.insert(target)
    if json_cols and conn.dialect.name == "postgresql":  # the JSON's text, cast back to JSON
        statement = statement.values({c: sa.cast(sa.bindparam(c, type_=sa.Text), sa.JSON) for c in json_cols})
    count, chunk = 0, []
    for row in rows:
        if len(row) != len(kinds):
            raise ValueError(f"a row of {len(row)} values where the table has {len(kinds)} columns")
        chunk.append({col: decode(kind, value) for (col, kind), value in zip(kinds, row, strict=True)})
        if len(chunk) == CHUNK:
            conn.execute(statement, chunk)
            count, chunk = count + len(chunk), []
    if chunk:
        conn.execute(statement, chunk)
        count += len(chunk)
    return count


def finish(conn: Connection) -> None:
    """After the rows: on PostgreSQL each table's id sequence set past the
    largest id inserted (SQLite's AUTOINCREMENT follows the rows itself)."""
    if conn.dialect.name != "postgresql":
        return
    quote = conn.dialect.identifier_preparer.quote
    for table in TABLES:
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not isinstance(keys[0].type, sa.Integer):
            continue
        col = keys[0].name
        seq = conn.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table.name, "c": col}).scalar()
        if seq is None:
            continue
        top = conn.execute(sa.text(f"SELECT max({quote(col)}) FROM {quote(table.name)}")).scalar()
        conn.execute(sa.text("SELECT setval(:s, :v, :called)"), {"s": seq, "v": top or 1, "called": top is not None})
