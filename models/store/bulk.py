"""Many rows into one table at once: what an import writes.

    insert_rows(conn, table, names, rows)     # rows: tuples in the order of names
    insert_flat(conn, table, names, values)   # the same rows one after another in one list
    update_rows(conn, table, key, names, rows)  # rows: the new values, then the key's
    select_in(conn, columns, key, values)     # the rows whose key is one of values

On PostgreSQL (and wherever a column left out has a default) this is
``conn.execute(insert(table), rows as dicts)``.  On SQLite it skips
SQLAlchemy's per-row parameter handling, which was most of an import's
writing: each column's values go through that column type's own bind
processor (dates and JSON by the same formatting done in one pass, a
moment repeated on many rows once), and the rows go to the driver's
``executemany`` as tuples.  The bytes stored are the ones
SQLAlchemy's insert stores (tests/models/test_store_import_rows.py,
tests/models/test_store_insert_many.py).
"""

import json
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from itertools import repeat

from sqlalchemy import JSON, bindparam, insert, select, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

__all__ = ["insert_rows", "insert_flat", "insert_columns", "update_rows", "select_in", "json_text"]

try:
    from json.encoder import c_make_encoder as _c_encoder
    from json.encoder import encode_basestring_ascii as _ascii
except ImportError:  # pragma: no cover - CPython has the C encoder
    _c_encoder = None


#: the C encoder's ``json.dumps`` with the default arguments (the same
#: text), made once instead of once a call; without the markers of circular
#: references (a filing's JSON is a tree).  It answers a list of chunks.
_json_chunks = (
    None if _c_encoder is None else _c_encoder(None, json.JSONEncoder().default, _ascii, None, ": ", ", ", False, False, True)
)
_join = "".join
_CONTAINERS = frozenset((dict, list))
_PROBE = {"a": [1, 2.5, None, True, 'é\n"x"'], "b": {"c": -1e300}}
if _json_chunks is not None and _join(_json_chunks(_PROBE, 0)) != json.dumps(_PROBE):  # pragma: no cover
    _json_chunks = None  # another Python's encoder: json.dumps itself


def json_text(value) -> str:
    """``json.dumps(value)``, the same text, for a dict or a list."""
    return json.dumps(value) if _json_chunks is None else _join(_json_chunks(value, 0))


def insert_rows(conn: Connection, table, names: Sequence[str], rows: list[tuple]) -> None:
    """Insert ``rows`` (tuples, values in the order of ``names``) into
    ``table`` in one statement, inside the caller's transaction."""
    if rows:
        insert_columns(conn, table, names, list(zip(*rows, strict=True)))


def insert_flat(conn: Connection, table, names: Sequence[str], values: list) -> None:
    """:func:`insert_rows` for rows given one after another in one flat
    list, ``len(names)`` values each.  An import holding thousands of rows
    until its write keeps them this way: a tuple per row is a container the
    garbage collector walks at every collection until then."""
    width = len(names)
    if len(values) % width:
        raise ValueError(f"{len(values)} values are not rows of {width}")
    if values:
        insert_columns(conn, table, names, [values[i::width] for i in range(width)])


def insert_columns(conn: Connection, table, names: Sequence[str], columns: list[Sequence]) -> None:
    """Insert the rows whose values are ``columns`` (one sequence per name,
    all of one length) into ``table``, inside the caller's transaction."""
    dialect = conn.dialect
    if dialect.name != "sqlite" or any(c.default is not None for c in table.c if c.name not in names):
        conn.execute(insert(table), [dict(zip(names, r, strict=True)) for r in zip(*columns, strict=True)])
        return
    quote = dialect.identifier_preparer.quote
    sql = f"INSERT INTO {quote(table.name)} ({', '.join(quote(n) for n in names)}) VALUES ({', '.join('?' * len(names))})"
    _executemany(conn, sql, _bound(dialect, table, tuple(names), columns))


def update_rows(conn: Connection, table, key: str, names: Sequence[str], rows: list[tuple]) -> None:
    """``UPDATE table SET name = ... WHERE key = ...`` for each row: the
    values of ``names``, then the key's, in the order of ``rows``."""
    if not rows:
        return
    dialect = conn.dialect
    if dialect.name != "sqlite" or any(c.onupdate is not None for c in table.c):
        stmt = update(table).where(table.c[key] == bindparam("key_")).values({n: bindparam(n) for n in names})
        conn.execute(stmt, [{**dict(zip(names, r)), "key_": r[-1]} for r in rows])
        return
    quote = dialect.identifier_preparer.quote
    sql = f"UPDATE {quote(table.name)} SET {', '.join(f'{quote(n)} = ?' for n in names)} WHERE {quote(key)} = ?"
    _executemany(conn, sql, _bound(dialect, table, (*names, key), list(zip(*rows, strict=True))))


def select_in(conn: Connection, columns: Sequence, key, values: Sequence) -> list[tuple]:
    """The rows (tuples of ``columns``) of ``key``'s table whose ``key`` is
    one of ``values``, asked 500 at a time.  On SQLite, for columns that
    need no conversion either way (text, integers), straight through the
    driver: SQLAlchemy's expanding IN and its result rows cost more than the
    query."""
    dialect = conn.dialect
    plain = dialect.name == "sqlite" and all(_unconverted(c, dialect) for c in (key, *columns))
    out: list[tuple] = []
    for i in range(0, len(values), 500):
        chunk = values[i : i + 500]
        if plain:
            quote = dialect.identifier_preparer.quote
            sql = (
                f"SELECT {', '.join(quote(c.name) for c in columns)} FROM {quote(key.table.name)} "
                f"WHERE {quote(key.name)} IN ({', '.join('?' * len(chunk))})"
            )
            out += _fetchall(conn, sql, tuple(chunk))
        else:
            out += [tuple(r) for r in conn.execute(select(*columns).where(key.in_(chunk)))]
    return out


def _unconverted(column, dialect) -> bool:
    impl = column.type.dialect_impl(dialect)
    return impl.bind_processor(dialect) is None and impl.result_processor(dialect, None) is None


def _executemany(conn: Connection, sql: str, rows) -> None:
    """The driver's executemany on the connection of the caller's
    transaction, taking ``rows`` as they come (zip makes them one at a
    time); a driver error raised as SQLAlchemy's own execute raises it
    (IntegrityError...)."""
    dbapi = conn.dialect.loaded_dbapi
    cursor = conn.connection.cursor()
    try:
        cursor.executemany(sql, rows)
    except dbapi.Error as exc:
        raise DBAPIError.instance(sql, None, exc, dbapi.Error, dialect=conn.dialect, ismulti=True) from exc
    finally:
        cursor.close()


def _fetchall(conn: Connection, sql: str, params: tuple) -> list[tuple]:
    dbapi = conn.dialect.loaded_dbapi
    cursor = conn.connection.cursor()
    try:
        return cursor.execute(sql, params).fetchall()
    except dbapi.Error as exc:
        raise DBAPIError.instance(sql, params, exc, dbapi.Error, dialect=conn.dialect) from exc
    finally:
        cursor.close()


def _bound(dialect, table, names: tuple[str, ...], columns: Sequence[Sequence]):
    """The rows of ``columns`` with each value as the column type's bind
    processor makes it (dates and JSON by the same formatting done in one
    pass, a value shared by many rows once), one tuple at a time."""
    columns = list(columns)
    for i, (process, kind) in enumerate(_processors(dialect, table, names)):
        if process is None:
            continue
        values = columns[i]
        if kind is _JSON:  # json.dumps(value), as the processor would
            if _json_chunks is not None and set(map(type, values)) <= _CONTAINERS:  # the encoder straight from map
                columns[i] = list(map(_join, map(_json_chunks, values, repeat(0))))
            else:
                columns[i] = [json_text(v) if v.__class__ in _CONTAINERS else process(v) for v in values]
        elif kind is _DATE:  # "%04d-%02d-%02d", as the processor would
            columns[i] = [v.isoformat() if v.__class__ is date else process(v) for v in values]
        else:
            # once per distinct object: an import hands the same moment to
            # many rows (by identity, so equal values that store differently,
            # such as one instant in two time zones, stay apart)
            ids = list(map(id, values))
            distinct = dict(zip(ids, values))
            if len(distinct) == 1:  # (one moment for every row, or no moment at all)
                columns[i] = [process(values[0])] * len(values)
            else:
                once = {k: process(v) for k, v in distinct.items()}
                columns[i] = list(map(once.__getitem__, ids))
    return zip(*columns, strict=True)


_JSON, _DATE = "json", "date"


@lru_cache(maxsize=64)
def _processors(dialect, table, names: tuple[str, ...]) -> list[tuple]:
    """Per column its bind processor (or None) and the shortcut that does
    the same: ``_JSON`` for a JSON column serialized by ``json.dumps`` (the
    dialect's default), ``_DATE`` for SQLite's default date format."""
    processors = []
    for n in names:
        kind = table.c[n].type
        impl = kind.dialect_impl(dialect)
        process, shortcut = impl.bind_processor(dialect), None
        if process is not None and isinstance(kind, JSON):
            if dialect._json_serializer is None and kind._str_impl.bind_processor(dialect) is None:
                shortcut = _JSON
        elif process is not None and isinstance(impl, sqlite.DATE) and impl._storage_format == sqlite.DATE._storage_format:
            shortcut = _DATE
        processors.append((process, shortcut))
    return processors
