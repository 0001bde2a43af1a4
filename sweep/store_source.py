"""The store as the sweep's :class:`~sweep.run.ChunkedSource`.

It selects the open filings by the state the store keeps on each filing's
row (the machines' final states are closed), for the incremental sweep
only those whose next change has come (``next_change_on``), names chunks
by their ids and loads a chunk's histories in two statements
(:mod:`models.read.sweep_work`).  A record
the engine cannot read any more becomes a ``BadRecord`` that the digest
reports.  An edge: it imports the store, the store does not import it.

What the sweep made is recorded on the filing in the store
(:class:`services.sweep_log.StoreOutputLog`, sharing the source's engine)
when the source is the store, or in the SQLite ledger file
(:class:`sweep.ledger.SqliteLedger`) the directory source and tests use.
"""

from __future__ import annotations

from datetime import date

from sweep.agenda import TERMINAL_STATES
from sweep.run import BadRecord

__all__ = ["StoreSource", "open_source", "is_database_url"]


def is_database_url(spec: str) -> bool:
    return spec.startswith(("sqlite:", "postgresql"))


class StoreSource:
    """The store's open filings; with ``as_of`` (the incremental sweep's)
    only those whose next change has come (``next_change_on``: recorded
    on, imported, repaired, or due by a clock, a reminder or a notice;
    :mod:`sweep.next_change`)."""

    def __init__(self, url: str, as_of: date | None = None):
        from models.handle import Store

        self.store = Store(url)
        self.store.check_schema()
        self.as_of = as_of

    def _open_ids(self) -> list[str]:
        from models.read.sweep_work import sweep_ids

        with self.store.reader.connect() as conn:
            return sweep_ids(conn, TERMINAL_STATES, self.as_of)

    def count(self) -> int:
        return len(self._open_ids())

    def chunk_refs(self, size: int) -> list[tuple]:
        ids = self._open_ids()
        return [("ids", tuple(ids[i : i + size])) for i in range(0, len(ids), size)]

    def load(self, ref: tuple) -> list:
        from models.read.sweep_work import load_filings

        with self.store.reader.connect() as conn:
            loaded = load_filings(conn, list(ref[1]))
        return [BadRecord(f[0], "?", "?", str(f[1])) if isinstance(f, tuple) else f for f in loaded]

    def open_filings(self):
        for ref in self.chunk_refs(500):
            yield from self.load(ref)

    def enforcement_cases(self):
        """Every enforcement case not closed, as the core's Case."""
        from models.read.enforcement import EnforcementRecord

        record = EnforcementRecord(self.store)
        for row in record.cases():
            if row.state != "closed":
                yield record.load(row.id)[0]


def open_source(spec: str, as_of: date | None = None):
    """A database URL is the store (with ``as_of``: only the filings whose
    next change has come, the incremental sweep); anything else a folder or
    .jsonl file (every filing in it, whatever ``as_of``)."""
    if is_database_url(spec):
        return StoreSource(spec, as_of)
    from sweep.ledger import DirectorySource

    return DirectorySource(spec)
