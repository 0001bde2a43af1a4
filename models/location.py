"""Which database the record is in: ``--db URL``, else
``PERMITS_DATABASE_URL``, else ``permits.db`` in the data directory
(:func:`calendars.holiday_cache.data_dir`).  No SQLAlchemy here: the
read-only commands on SQLite resolve the URL without it
(:mod:`models.sqlite_reader`); :mod:`models.db` connects to it.
"""

import os

__all__ = ["ENV_URL", "BUSY_TIMEOUT_MS", "default_url", "resolve_url"]

ENV_URL = "PERMITS_DATABASE_URL"
#: how long a SQLite connection waits for another writer's lock
BUSY_TIMEOUT_MS = 30_000


def default_url() -> str:
    """``permits.db`` in the data directory the holidays cache uses too."""
    from calendars.holiday_cache import data_dir

    return f"sqlite:///{data_dir() / 'permits.db'}"


def resolve_url(cli_url: str | None = None) -> str:
    """``--db`` first, then ``PERMITS_DATABASE_URL``, then the default file."""
    return cli_url or os.environ.get(ENV_URL) or default_url()
