"""A street opening's deposits and fees (Canton 16-12 §4-6): the ledger
filled from the permit's events, an applicant's charges, deductions and
refunds, the open deposits, one permit's ledger, an applicant's statement.

:func:`fill_ledger_in` is one of an event's effects (:mod:`services.effects`),
in the unit of work that records the event, so an event and the ledger
lines it calls for commit together or not at all: a refund whose amounts do
not add up to the deposit held is refused with nothing written.
:func:`fill_filings` fills the ledgers of filings imported without it (the
demonstration store).  The arithmetic is the core's
(:func:`workflows.deposit_events.permit_lines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from .unit_of_work import UnitOfWork

__all__ = [
    "fill_ledger_in",
    "fill_filings",
    "charge",
    "deduct",
    "refund",
    "statement",
    "open_deposits",
    "permit_ledger",
    "PermitLedger",
]

STREET = "street-opening"


def fill_ledger_in(uow: UnitOfWork, store, filing, *, by: str) -> int:
    """Append the ledger lines ``filing``'s live events call for and the
    ledger lacks, and the reversing line of each line whose event has been
    voided since, in the caller's unit of work; how many."""
    from models.store.deposit_ledger import DepositLedger

    if filing.kind != STREET:
        return 0
    return DepositLedger(now=store.now).fill(uow.conn, filing, by=by)


def fill_filings(store, filing_ids: Iterable[str], *, by: str) -> int:
    """Fill the ledgers of ``filing_ids`` (street openings; others are
    skipped), a unit of work each; how many lines were appended."""
    added = 0
    for fid in filing_ids:
        with UnitOfWork(store) as uow:
            filing, _ = store.load(fid, uow.conn)
            added += fill_ledger_in(uow, store, filing, by=by)
    return added


def charge(store, applicant: str, filing_id: str, item: str, quantity: int, *, day: date, by: str):
    """A deposit or fee from the schedule, priced for the applicant's
    category; the account's statement after it."""
    from models.store.deposit_ledger import DepositLedger

    with UnitOfWork(store) as uow:
        return DepositLedger(now=store.now).charge(uow.conn, applicant, filing_id, item, quantity, day=day, by=by)


def deduct(store, applicant: str, filing_id: str, dollars: str, *, reason: str | None, day: date, by: str):
    """The cost of a proper repair after a Default (§5, §13); the statement."""
    from models.store.deposit_ledger import DepositLedger

    with UnitOfWork(store) as uow:
        return DepositLedger(now=store.now).deduct(uow.conn, applicant, filing_id, dollars, reason=reason, day=day, by=by)


def refund(store, applicant: str, filing_id: str, *, day: date, by: str):
    """Release the permit's unexpended balance after its final inspection
    (§5), refused while a permit of the applicant is in Default; the statement."""
    from models.read.deposits import winter_defaults
    from models.store.deposit_ledger import DepositLedger

    defaults = winter_defaults(store.engine, applicant, day)
    with UnitOfWork(store) as uow:
        return DepositLedger(now=store.now).refund(uow.conn, applicant, filing_id, day=day, by=by, defaults=defaults)


def statement(store, applicant: str):
    """The applicant's account (:func:`models.read.deposits.applicant_statement`)."""
    from models.read.deposits import applicant_statement

    return applicant_statement(store.engine, applicant)


def open_deposits(store, *, towns: Sequence[str] | None, page: int = 1, per_page: int = 100):
    """The permits of ``towns`` (None: all) whose deposit is still held, a
    page of them, and how many in all."""
    from models.read.deposits import open_deposits as query

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
    from models.read.deposits import filing_entries

    entries = filing_entries(store.engine, filing_id)
    total = {k: sum(e.cents for e in entries if e.entry == k) for k in ("deposit", "fee", "deduction", "refund", "payment")}
    return PermitLedger(entries, total["deposit"], total["fee"], total["deduction"], total["refund"], total["payment"])
