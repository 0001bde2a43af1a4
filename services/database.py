"""The store itself: create it or bring its schema up to date
(``permits init``, ``permits db upgrade``, the demo, the tests), in one
unit of work: a migration that fails leaves the store as it was.
"""

from __future__ import annotations

from models.errors import StoreError
from models.handle import Store
from models.schema.db import sqlite_path, unreachable_as_store_error
from models.schema.migrate import HEAD, upgrade

from .unit_of_work import UnitOfWork

__all__ = ["upgrade_store", "open_store"]


def open_store(url: str, **kw) -> Store:
    """The handle on the store at ``url`` (nothing is read or written)."""
    return Store(url, **kw)


def upgrade_store(store: Store) -> str:
    """Create or upgrade ``store``'s schema to the current revision (a
    SQLite file's folder made first); the revision."""
    path = sqlite_path(store.url)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the database folder {str(path.parent)!r}: {exc.strerror}") from None
    with unreachable_as_store_error(store.url), UnitOfWork(store) as uow:
        upgrade(uow.conn)
    return HEAD
