"""The sweep's output log on the store (:class:`sweep.run.OutputLog`): what
the sweep made, recorded on its filing, each call a unit of work of its own
(:mod:`models.store.outputs` writes it).  :func:`open_log` picks it for a
database URL, or the SQLite ledger file (:class:`sweep.ledger.SqliteLedger`)
a sweep of a folder of filing JSON uses.

Thread-safe: flow tasks run in threads; every call is its own unit of work
on the store's engine (a connection pool).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from models.handle import Store
from models.store import outputs

from .unit_of_work import UnitOfWork

__all__ = ["StoreOutputLog", "open_log"]


class StoreOutputLog:
    """The sweep's :class:`~sweep.run.OutputLog` on ``store``."""

    def __init__(self, store: Store, *, owns_store: bool = False):
        self.store = store
        self._owns = owns_store

    @classmethod
    def at(cls, url: str) -> StoreOutputLog:
        """A log on its own store at ``url`` (checked to be at the current schema)."""
        store = Store(url)
        store.check_schema()
        return cls(store, owns_store=True)

    def already_done(self, filing_id: str, output_key: str) -> bool:
        with self.store.reader.connect() as conn:
            return outputs.already_done(conn, filing_id, output_key)

    def mark_done(self, filing_id: str, output_key: str, payload: Mapping[str, Any]) -> bool:
        """Record the output (and its notices and emails) in one unit of
        work; False if another sweep had recorded it already."""
        with UnitOfWork(self.store) as uow:
            return outputs.mark_done(uow.conn, filing_id, output_key, payload, self.store.now())

    def save_derived(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """One unit of work for the chunk (:func:`models.store.outputs.save_derived`)."""
        with UnitOfWork(self.store) as uow:
            outputs.save_derived(uow.conn, rows, self.store.now())

    def outputs(self, filing_id: str | None = None) -> list[tuple[str, str, dict]]:
        with self.store.reader.connect() as conn:
            return outputs.outputs(conn, filing_id)

    def close(self) -> None:
        if self._owns:
            self.store.engine.dispose()


def open_log(spec: str, source=None):
    """The output log ``spec`` names: a database URL is the store (on the
    source's own store and engine when ``source`` is that store), anything
    else a SQLite ledger file."""
    from sweep.store_source import StoreSource, is_database_url

    if not is_database_url(spec):
        from sweep.ledger import SqliteLedger

        return SqliteLedger(spec)
    if isinstance(source, StoreSource) and source.store.url == spec:
        return StoreOutputLog(source.store)
    return StoreOutputLog.at(spec)
