"""A street opening's deposits and fees (Canton 16-12 §4-6): the ledger
filled from the permit's events, the open deposits, one permit's ledger.

:func:`fill_ledger` runs in the transaction that records an event
(``services.record.record_event``), so an event and the ledger lines it
calls for commit together or not at all: a refund whose amounts do not add
up to the deposit held is refused with nothing written.
:func:`fill_filings` fills the ledgers of filings imported without it (the
demonstration store).  The arithmetic is the core's
(:func:`workflows.deposit_events.permit_lines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["fill_ledger", "fill_filings", "open_deposits", "permit_ledger", "PermitLedger"]

STREET = "street-opening"


def fill_ledger(store, conn, filing, *, by: str) -> int:
    """Append the ledger lines ``filing``'s live events call for and the
    ledger lacks, and the reversing line of each line whose event has been
    voided since, in the caller's transaction ``conn``; how many."""
    from models.store.deposit_ledger import DepositLedger
    from workflows.deposit_events import permit_lines, reversing_lines
    from workflows.replay import live_events

    if filing.kind != STREET:
        return 0
    events = live_events(filing)
    return DepositLedger(store.engine, now=store.now).fill(
        conn,
        filing.id,
        lambda category: permit_lines(filing.id, events, category),
        by=by,
        reversals_for=lambda held: reversing_lines(filing.id, filing.events, held),
    )


def fill_filings(store, filing_ids: Iterable[str], *, by: str) -> int:
    """Fill the ledgers of ``filing_ids`` (street openings; others are
    skipped), one transaction each; how many lines were appended."""
    added = 0
    for fid in filing_ids:
        with store.engine.begin() as conn:
            filing, _ = store.load(fid, conn)
            added += fill_ledger(store, conn, filing, by=by)
    return added


def open_deposits(store, *, towns: Sequence[str] | None, page: int = 1, per_page: int = 100):
    """The permits of ``towns`` (None: all) whose deposit is still held, a
    page of them, and how many in all."""
    from models.store.deposit_ledger import open_deposits as query

    page = max(1, page)
    return query(store.engine, towns=towns, limit=per_page, offset=(page - 1) * per_page)


@dataclass(frozen=True)
class PermitLedger:
    """One permit's entries with its totals, in cents."""

    entries: list
    charged: int
    fees: int
    deducted: int
    refunded: int
    paid: int = 0

    @property
    def held(self) -> int:
        return self.charged - self.deducted - self.refunded


def permit_ledger(store, filing_id: str) -> PermitLedger:
    from models.store.deposit_ledger import filing_entries

    entries = filing_entries(store.engine, filing_id)
    total = {k: sum(e.cents for e in entries if e.entry == k) for k in ("deposit", "fee", "deduction", "refund", "payment")}
    return PermitLedger(entries, total["deposit"], total["fee"], total["deduction"], total["refund"], total["payment"])
