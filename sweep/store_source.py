"""The store as the sweep's :class:`~sweep.run.ChunkedSource`.

It selects the open filings by the state the store keeps on each filing's
row (the machines' final states are closed), names chunks by their ids and
loads each filing's history with :meth:`models.handle.Store.load`.  A record
the engine cannot read any more becomes a ``BadRecord`` that the digest
reports.  An edge: it imports the store, the store does not import it.

What the sweep made is recorded on the filing in the store
(:class:`services.sweep_log.StoreOutputLog`, sharing the source's engine)
when the source is the store, or in the SQLite ledger file
(:class:`sweep.ledger.SqliteLedger`) the directory source and tests use.
"""

from __future__ import annotations

from sweep.agenda import TERMINAL_STATES
from sweep.run import BadRecord
from workflows.errors import PermitsError

__all__ = ["StoreSource", "open_source", "is_database_url"]


def is_database_url(spec: str) -> bool:
    return spec.startswith(("sqlite:", "postgresql"))


class StoreSource:
    def __init__(self, url: str):
        from models.handle import Store

        self.store = Store(url)
        self.store.check_schema()

    def _open_rows(self) -> list:
        return [r for r in self.store.list_filings() if r.state not in TERMINAL_STATES.get(r.kind, ())]

    def count(self) -> int:
        return len(self._open_rows())

    def chunk_refs(self, size: int) -> list[tuple]:
        ids = [r.id for r in self._open_rows()]
        return [("ids", tuple(ids[i : i + size])) for i in range(0, len(ids), size)]

    def load(self, ref: tuple) -> list:
        out = []
        for filing_id in ref[1]:
            try:
                filing, _ = self.store.load(filing_id)
            except PermitsError as exc:
                out.append(BadRecord(filing_id, "?", "?", str(exc)))
                continue
            out.append(filing)
        return out

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


def open_source(spec: str):
    """A database URL is the store; anything else a folder or .jsonl file."""
    if is_database_url(spec):
        return StoreSource(spec)
    from sweep.ledger import DirectorySource

    return DirectorySource(spec)
