"""A street opening's deposits and fees (Canton 16-12 §4-6): the ledger
filled from the permit's events, an applicant's charges, deductions and
refunds, the open deposits, one permit's ledger, an applicant's statement.

:func:`fill_ledger_in` is one of an event's effects (:mod:`services.effects`),
in the unit of work that records the event, so an event and the ledger
lines it calls for commit together or not at all: a refund whose amounts do
not add up to the deposit held is refused with nothing written.
An import fills the ledgers of the filings it brings in, in its unit of
work (:func:`fill_imported_in`).  The arithmetic is the core's
(:func:`workflows.deposit_events.permit_lines`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from .unit_of_work import UnitOfWork

__all__ = [
    "ledgered",
    "fill_ledger_in",
    "fill_imported_in",
    "charge",
    "deduct",
    "refund",
    "statement",
    "DepositFilter",
    "CSV_COLUMNS",
    "deposit_list",
    "deposits_csv",
    "permit_ledger",
    "PermitLedger",
]

STREET = "street-opening"


def ledgered(filing) -> bool:
    """Whether ``filing`` keeps a deposit ledger: a street opening of a town
    whose by-law prices it from a schedule of fees and refundable deposits
    (Canton 16-12; Mansfield's street excavation permit names no fee)."""
    from workflows.towns import town

    if filing.kind != STREET:
        return False
    rule = town(filing.town).fees.get(filing.kind)
    return rule is not None and rule.schedule


def fill_ledger_in(uow: UnitOfWork, store, filing, *, by: str) -> int:
    """Append the ledger lines ``filing``'s live events call for and the
    ledger lacks, and the reversing line of each line whose event has been
    voided since, in the caller's unit of work; how many."""
    from models.store.deposit_ledger import DepositLedger

    if not ledgered(filing):
        return 0
    return DepositLedger(now=store.now).fill(uow.conn, filing, by=by)


def fill_imported_in(uow: UnitOfWork, store, filings, *, by: str) -> int:
    """:func:`fill_ledger_in` for the filings of an import, in its unit of
    work: each applicant's account read and checked once."""
    from models.store.deposit_ledger import DepositLedger

    return DepositLedger(now=store.now).fill_many(uow.conn, [f for f in filings if ledgered(f)], by=by)


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


#: the columns of the treasurer's CSV (:func:`deposits_csv`), as the page shows them
CSV_COLUMNS = (
    "Permit",
    "Town",
    "Site",
    "Applicant",
    "State",
    "Charged on",
    "Charged",
    "Received",
    "Kept for repairs",
    "Refunded",
    "Held",
)


@dataclass(frozen=True)
class DepositFilter:
    """Which permits the Deposits page and its CSV list: ``towns`` (None:
    every town), a ``state`` of the permit, deposits charged more than
    ``aged`` days before ``today``."""

    towns: Sequence[str] | None
    state: str | None = None
    aged: int | None = None
    today: date | None = None

    def charged_before(self) -> date | None:
        if self.aged is None or self.today is None:
            return None
        from datetime import timedelta

        return self.today - timedelta(days=self.aged)


def deposit_list(store, which: DepositFilter, *, page: int = 1, per_page: int = 100):
    """The permits ``which`` keeps that had a deposit charged or received,
    a page of them, and the totals of all of them
    (:class:`models.read.deposits.DepositTotals`)."""
    from models.read.deposits import deposits

    page = max(1, page)
    return deposits(
        store.engine,
        towns=which.towns,
        state=which.state,
        charged_before=which.charged_before(),
        limit=per_page,
        offset=(page - 1) * per_page,
    )


def deposits_csv(store, which: DepositFilter) -> str:
    """The same permits and figures as the Deposits page, every one of them,
    as CSV for the town's treasurer (:func:`workflows.spreadsheet.csv_text`:
    formula-safe), dollars and cents without the sign, and a last row of
    totals."""
    from decimal import Decimal

    from models.read.deposits import deposits
    from workflows.spreadsheet import csv_text
    from workflows.towns import registry
    from workflows.vocabulary import state_name

    towns = registry()

    rows, totals = deposits(store.engine, towns=which.towns, state=which.state, charged_before=which.charged_before(), limit=None)

    def cash(cents: int) -> Decimal:
        return Decimal(cents).scaleb(-2)

    body = [
        (
            d.filing,
            towns[d.town].name if d.town in towns else d.town,
            d.address,
            d.applicant,
            state_name(STREET, d.state),
            d.charged_on,
            *(cash(v) for v in (d.charged, d.received, d.kept, d.refunded, d.held)),
        )
        for d in rows
    ]
    body.append(
        (f"Total, {totals.permits} permit(s)", None, None, None, None, None)
        + tuple(cash(v) for v in (totals.charged, totals.received, totals.kept, totals.refunded, totals.held))
    )
    return csv_text(CSV_COLUMNS, body)


@dataclass(frozen=True)
class PermitLedger:
    """One permit's entries with its figures, in cents, each a line of its
    own (:class:`workflows.deposits.Figures`): the deposit charged,
    received, kept for a repair and refunded, and what the Town holds;
    the fees charged and paid; ``exempt``, the exemptions that took a fee
    or the deposit away (their lines: nothing is charged)."""

    entries: list
    charged: int
    received: int
    kept: int
    refunded: int
    fees: int
    fees_paid: int
    exempt: list

    @property
    def held(self) -> int:
        return self.received - self.kept - self.refunded

    @property
    def owes_nothing(self) -> bool:
        """Nothing was charged: every line an exemption, or none at all."""
        return not self.charged and not self.fees and not self.received and not self.fees_paid


def permit_ledger(store, filing_id: str) -> PermitLedger:
    from models.read.deposits import filing_entries

    entries = filing_entries(store.engine, filing_id)
    total = {
        k: sum(e.cents for e in entries if e.entry == k) for k in ("deposit", "received", "deduction", "refund", "fee", "payment")
    }
    return PermitLedger(
        entries,
        total["deposit"],
        total["received"],
        total["deduction"],
        total["refund"],
        total["fee"],
        total["payment"],
        [e for e in entries if e.entry == "exempt"],
    )
