"""Move a town's record from one store to another, whole: ``permits db
copy --to URL`` (SQLite to PostgreSQL, or back).

The source is read at one instant while it keeps serving
(:func:`models.read.snapshot.snapshot`), and every table is written into
the target, which must hold no records, in one unit of work: the target
made at the source's schema, the rows inserted parents first a chunk at a
time, PostgreSQL's id sequences set past the ids inserted
(:mod:`models.store.transfer`).  Any failure and the target is as it was.
Then the target's tables are counted against what was read.  The same
table-by-table copy a backup and a restore make (:mod:`services.backup`).

The uploads' files are not moved: their rows are, and the uploads folder
(``PERMITS_UPLOADS_DIR``) serves the new store as it served the old.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from models.errors import StoreError, StoreNotEmpty
from models.handle import Store
from models.read.queries import SCHEMA_REVISION
from models.read.snapshot import row_counts, snapshot, table_names
from models.schema.db import sqlite_path, unreachable_as_store_error
from models.schema.migrate import HEAD
from models.store.transfer import clear_seeded, finish, holds_records, load_table

from .unit_of_work import UnitOfWork

__all__ = ["Copied", "copy_store", "empty_target", "known_revision", "open_target"]


@dataclass(frozen=True)
class Copied:
    revision: str
    rows: dict[str, int]
    #: tables whose count in the target is not what was read (empty: all match)
    differences: list[str] = field(default_factory=list)


def known_revision(revision: str, what: str) -> None:
    """StoreError unless ``revision`` is one of this program's migrations."""
    from models.schema.migrate import alembic_config

    if revision == HEAD:
        return
    from alembic.script import ScriptDirectory

    try:
        found = ScriptDirectory.from_config(alembic_config()).get_revision(revision)
    except Exception:  # alembic's own errors for an unknown or malformed revision
        found = None
    if found is None:
        raise StoreError(
            f"{what} is at schema {revision}, which this program (schema {HEAD}) does not know: use the version that made it"
        )


def empty_target(store: Store, revision: str) -> str | None:
    """The schema revision of ``store`` (None: none yet) if it holds no
    records and can take a record at ``revision``; StoreNotEmpty naming
    what it holds otherwise."""
    path = sqlite_path(store.url)
    if path is not None and not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the database folder {str(path.parent)!r}: {exc.strerror}") from None
        return None
    with unreachable_as_store_error(store.url), store.reader.connect() as conn:
        names = table_names(conn)
        at = conn.exec_driver_sql(SCHEMA_REVISION).scalar() if "alembic_version" in names else None
        if at is None and names:
            raise StoreNotEmpty(
                f"the database {store.describe()} holds tables ({sorted(names)[0]}, ...) but no permits record: "
                "name a new, empty database"
            )
        held = holds_records(conn, names) if at is not None else None
    if held is not None:
        raise StoreNotEmpty(
            f"the database {store.describe()} already holds records (table {held}): name a new, empty database; "
            "nothing was written"
        )
    if at is not None and at != revision:
        raise StoreNotEmpty(
            f"the database {store.describe()} is at schema {at}, the record to bring in at {revision}: name a new, empty database"
        )
    return at


def open_target(conn: Connection, at: str | None, revision: str) -> None:
    """On the unit of work's ``conn``: the target made at ``revision`` if
    it has no schema yet, the rows its migrations seeded removed."""
    if at is None:
        from models.schema.migrate import upgrade

        upgrade(conn, revision)
    clear_seeded(conn)


def copy_store(source: Store, target: Store) -> Copied:
    """Copy every table of ``source`` into ``target`` (no records yet)."""
    source.check_schema()
    if source.url == target.url:
        raise StoreError("--to names the database the record is copied from: name another, empty one")
    with snapshot(source) as snap:
        at = empty_target(target, snap.revision)
        with unreachable_as_store_error(target.url), UnitOfWork(target) as uow:
            open_target(uow.conn, at, snap.revision)
            rows = {}
            for name, kinds in snap.tables():
                try:
                    rows[name] = load_table(uow.conn, name, kinds, snap.rows(name))
                except DBAPIError as exc:
                    reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else type(exc).__name__
                    raise StoreError(f"table {name} could not be written to {target.describe()}: {reason}") from None
            finish(uow.conn)
        revision = snap.revision
    with target.reader.connect() as conn:
        counts = row_counts(conn)
    differences = [f"table {n}: {counts.get(n)} rows, {rows[n]} read" for n in rows if counts.get(n) != rows[n]]
    return Copied(revision, rows, differences)
