"""The record as portable rows: what a backup holds, a restore brings back
and ``permits db copy`` moves between SQLite and PostgreSQL.

Every table of the schema (:data:`TABLES`, the SQLModel metadata in the
order their foreign keys need: a party before the filing naming it) is
carried row by row, each value written as JSON by its column's kind
(:data:`KINDS`: a date as ``YYYY-MM-DD``, a moment as ISO 8601, bytes as
base64, a JSON column as its text, so an SQL NULL stays apart from a JSON
``null``).  The kinds travel with the rows, so what reads them back needs
no metadata of its own (:func:`typed_table`).

What a store holds beside them and does not carry: ``alembic_version``
(the revision travels as the manifest's ``schema``) and what triggers make
again from the rows (:data:`DERIVED`: SQLite's search index, filled as each
filing is inserted).  A table that is none of these is an error
(:func:`unknown_tables`): a migration that makes a table outside the
metadata must say here how it is carried, or a backup would lose it.
"""

from __future__ import annotations

import base64
import re
from datetime import date, datetime

import sqlalchemy as sa
from sqlalchemy import types
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import UTCDateTime

import models.schema.tables  # noqa: F401 - registers every table on SQLModel.metadata

__all__ = [
    "TABLES",
    "DERIVED",
    "SEEDED",
    "KINDS",
    "column_kinds",
    "select_portable",
    "encode",
    "decode",
    "typed_table",
    "is_derived",
    "unknown_tables",
]

#: every table carried, parents before children
TABLES: tuple[sa.Table, ...] = tuple(SQLModel.metadata.sorted_tables)

#: tables of a store that are not carried, and why
DERIVED = {
    re.compile(r"alembic_version"): "the schema revision, carried as the manifest's 'schema'",
    re.compile(
        r"filing_search(_\w+)?"
    ): "SQLite's search index and its shadow tables, filled by triggers as filings are inserted",
}

#: tables the migrations put a row in: a store with only these rows is empty,
#: and a restore replaces them with the archive's
SEEDED = frozenset({"docket_tally_fold"})

#: a column's kind -> the type its value is written back with
KINDS: dict[str, types.TypeEngine] = {
    "str": sa.String(),
    "int": sa.BigInteger(),
    "float": sa.Float(),
    "bool": sa.Boolean(),
    "date": sa.Date(),
    "datetime": sa.DateTime(),
    "utc": UTCDateTime(),
    "bytes": sa.LargeBinary(),
    "json": sa.Text(),  # the JSON's text, cast back to the column's type
}


def _kind(column: sa.Column) -> str:
    t = column.type
    if isinstance(t, UTCDateTime):
        return "utc"
    if isinstance(t, types.TypeDecorator):  # SQLModel's AutoString: its impl says what it holds
        t = t.impl_instance
    for cls, kind in (
        (sa.JSON, "json"),
        (sa.Boolean, "bool"),
        (sa.DateTime, "datetime"),
        (sa.Date, "date"),
        (sa.Float, "float"),
        (sa.Integer, "int"),
        (sa.LargeBinary, "bytes"),
        (sa.String, "str"),
    ):
        if isinstance(t, cls):
            return kind
    raise TypeError(
        f"column {column.table.name}.{column.name}: no portable kind for {t!r} (add one to models/schema/portable.py)"
    )


def column_kinds(table: sa.Table) -> list[tuple[str, str]]:
    """Each column of ``table`` with its kind, in the table's order."""
    return [(c.name, _kind(c)) for c in table.columns]


def select_portable(table: sa.Table) -> sa.Select:
    """Every row of ``table`` in its key's order, each JSON column as its
    text (a NULL stays None)."""
    cols = [sa.cast(c, sa.Text).label(c.name) if _kind(c) == "json" else c for c in table.columns]
    return sa.select(*cols).order_by(*table.primary_key.columns)


def encode(kind: str, value):
    """``value`` of a column of ``kind`` as a JSON value."""
    if value is None:
        return None
    if kind in ("date", "datetime", "utc"):
        return value.isoformat()
    if kind == "bytes":
        return base64.b64encode(value).decode("ascii")
    return value


def decode(kind: str, value):
    """The JSON ``value`` of a column of ``kind`` as the value to insert;
    ValueError or TypeError when it cannot be one."""
    if value is None:
        return None
    if kind == "date":
        return date.fromisoformat(value)
    if kind in ("datetime", "utc"):
        return datetime.fromisoformat(value)
    if kind == "bytes":
        return base64.b64decode(value, validate=True)
    if kind == "bool":
        if not isinstance(value, bool):
            raise TypeError(f"not a boolean: {value!r}")
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"not a whole number: {value!r}")
        return value
    if kind == "float":
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(f"not a number: {value!r}")
        return float(value)
    if not isinstance(value, str):
        raise TypeError(f"not text: {value!r}")
    return value


def typed_table(name: str, kinds: list[tuple[str, str]]) -> sa.TableClause:
    """A table clause of ``name`` whose columns carry the types of their
    kinds: what rows read back are inserted through."""
    return sa.table(name, *(sa.column(col, KINDS[kind]) for col, kind in kinds))


def is_derived(name: str) -> bool:
    return any(p.fullmatch(name) for p in DERIVED)


def unknown_tables(names) -> list[str]:
    """The tables among ``names`` (a store's) that are neither carried nor
    :data:`DERIVED`."""
    carried = {t.name for t in TABLES}
    return sorted(n for n in names if n not in carried and not is_derived(n))
