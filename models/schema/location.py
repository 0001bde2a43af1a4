"""How the record is reached, shared by the two drivers: SQLAlchemy's
(:mod:`models.schema.db`) and the standard library's ``sqlite3`` for the read-only
commands (:mod:`models.read.sqlite_reader`).  No SQLAlchemy here.

Which database to use is the caller's: :meth:`config.Settings.store_url`
(``--db``, else ``PERMITS_DATABASE_URL``, else ``permits.db`` in the data
directory) hands the URL down.
"""

__all__ = ["BUSY_TIMEOUT_MS"]

#: how long a SQLite connection waits for another writer's lock
BUSY_TIMEOUT_MS = 30_000
