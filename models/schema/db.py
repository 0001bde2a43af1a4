"""Where the record lives and how to connect to it.

The database URL is the caller's (:meth:`config.Settings.store_url`:
``--db URL``, else ``PERMITS_DATABASE_URL``, else ``permits.db`` in the data
directory).  PostgreSQL is a ``postgresql+psycopg://`` URL.

SQLite runs in WAL mode with a busy timeout, and every transaction begins
with ``BEGIN IMMEDIATE``: a writer takes the write lock before it reads the
filing's state (a connection with the ``read_only`` execution option, as the
store's readers use, begins a plain deferred transaction and waits for no
one), so two writers cannot both read sequence n and both append
n+1.  ``synchronous=NORMAL`` (the WAL setting SQLite recommends) survives a
crash of the program; it skips the fsync per commit that only a power loss
would need.  PostgreSQL runs at READ COMMITTED and the service locks the
filing's row (``SELECT ... FOR UPDATE``) before reading its history.
"""

from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from models.errors import StoreError
from models.schema.location import BUSY_TIMEOUT_MS

__all__ = ["sqlite_path", "make_engine", "describe_url", "unreachable_as_store_error", "PAGE_SIZE"]

#: A new SQLite store's page size (a store made before keeps its own: the
#: page size of a file in WAL mode never changes).  16 KiB instead of
#: SQLite's 4 KiB: an import's rows land all over the indexes, and a commit
#: writes, and its checkpoint copies, every page it touched; in fewer,
#: larger pages that was about a tenth less of an import's time
#: (benchmarks/bench_store.py), with the docket and a recorded event as
#: fast as before.
PAGE_SIZE = 16384


def describe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


@contextmanager
def unreachable_as_store_error(url: str):
    """A database that cannot be reached (refused, unknown host, bad
    password, unreadable file) becomes one StoreError line naming the
    host and the driver's reason, the password hidden."""
    try:
        yield
    except DBAPIError as exc:
        if not exc.connection_invalidated and not _is_connect_error(exc):
            raise
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else type(exc).__name__
        parsed = make_url(url)
        where = f"host {parsed.host or 'localhost'}" + (f" port {parsed.port}" if parsed.port else "")
        if parsed.get_backend_name() == "sqlite":
            where = f"file {parsed.database}"
        if parsed.password:
            reason = reason.replace(str(parsed.password), "***")
        raise StoreError(f"cannot connect to the database {describe_url(url)} ({where}): {reason}") from None


def _is_connect_error(exc: DBAPIError) -> bool:
    from sqlalchemy.exc import InterfaceError, OperationalError

    return isinstance(exc, OperationalError | InterfaceError)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for PostgreSQL or in-memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database).expanduser()


def make_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError(f"invalid database URL {url!r}: use sqlite:///PATH or postgresql+psycopg://USER@HOST/DB") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(parsed)
    if backend == "postgresql":
        if parsed.drivername != "postgresql+psycopg":
            raise StoreError(f"database URL {describe_url(url)!r}: use the psycopg driver, postgresql+psycopg://...")
        return create_engine(parsed, isolation_level="READ COMMITTED", pool_pre_ping=True)
    raise StoreError(f"database URL {describe_url(url)!r}: only sqlite:/// and postgresql+psycopg:// are supported")


def _sqlite_engine(parsed) -> Engine:
    engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA page_size={PAGE_SIZE}")  # first: it counts only while the file is still empty
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        # writers lock at once; readers (execution option read_only) do not
        conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get("read_only") else "BEGIN IMMEDIATE")

    return engine
