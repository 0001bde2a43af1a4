"""Canton's Street Opening fees and refundable deposits, as data: pure.

Canton General By-Laws 16-12 (Street Opening By-Law):

- §4: an application comes with the Application Fee and the Refundable
  Deposit.
- §5: one Refundable Deposit Account per applicant holds all its deposits;
  after a Default the cost of the proper repair is deducted from the account
  (not only from that permit's deposit); after the final inspection of the
  permanent patch the unexpended balance of that permit's deposit is released.
  Gas companies claiming the c.164 exemption are outside §5-6.
- §6: municipal departments pay no fees and no deposits; public utilities so
  exempted pay only the Application Fee.  After-hours inspections are billed
  and due 15 days after billing.
- Fee schedule (canton.txt, line ~1469): the amounts below.

Amounts are in cents.  :func:`charge` prices one schedule line for an
applicant's category; :func:`statement` reads an account's entries (already
in the order they were recorded) into running balances and refuses an entry
that the account cannot bear.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from .deposit_schedule import FEES, SCHEDULE, ScheduleItem
from .errors import PermitsError, UnknownChoice

__all__ = [
    "SCHEDULE",
    "FEES",
    "CATEGORIES",
    "ENTRY_KINDS",
    "ENTRY_NAMES",
    "REFUNDABLE_STATES",
    "ScheduleItem",
    "Charge",
    "Line",
    "Figures",
    "Statement",
    "money",
    "held_words",
    "LedgerRefused",
    "charge",
    "statement",
    "refund_allowed",
    "parse_dollars",
]

ACCOUNT_CITATION = "Canton 16-12 §5"
EXEMPTION_CITATION = "Canton 16-12 §6"

#: private (owner of abutting or served land, or its contractor), utility,
#: gas-company (a gas company claiming the c.164 exemption, §5), municipal.
CATEGORIES = ("private", "utility", "gas-company", "municipal")

#: deposit (a deposit charged), received (deposit money the Town received:
#: a ``payment-received`` toward the deposit), deduction (what is kept for a
#: repair after a Default), refund (release of a permit's unexpended
#: balance), fee (a fee charged), exempt (a fee or deposit not charged),
#: payment (a fee paid).  Only money received, less what is kept or
#: refunded, is held.
ENTRY_KINDS = ("deposit", "received", "deduction", "refund", "fee", "exempt", "payment")
#: each entry's name on a page and in a statement
ENTRY_NAMES = {
    "deposit": "Deposit charged",
    "received": "Deposit received",
    "deduction": "Kept for a repair",
    "refund": "Deposit refunded",
    "fee": "Fee charged",
    "exempt": "Not charged",
    "payment": "Fee paid",
}


class LedgerRefused(PermitsError):
    """An entry the deposit account cannot take; names the section."""

    def __init__(self, message: str, *, applicant: str | None = None, rule: str | None = None):
        self.applicant, self.rule = applicant, rule
        super().__init__((f"{applicant}: " if applicant else "") + message + (f" ({rule})" if rule else ""))


@dataclass(frozen=True)
class Charge:
    """What one schedule line costs this applicant: ``entry`` is ``deposit``,
    ``fee`` or ``exempt`` (then ``cents`` is 0 and ``rule`` the exemption)."""

    entry: str
    item: str
    quantity: int
    cents: int
    rule: str
    note: str = ""


def charge(item_id: str, quantity: int, category: str) -> Charge:
    """Price ``quantity`` units of a deposit item or a fee for an applicant
    of ``category``, applying the §5-6 exemptions."""
    if category not in CATEGORIES:
        raise UnknownChoice("applicant category", category, CATEGORIES)
    item = SCHEDULE.get(item_id) or FEES.get(item_id)
    if item is None:
        raise UnknownChoice("deposit or fee item", item_id, [*SCHEDULE, *FEES])
    if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 1:
        raise LedgerRefused(
            f"quantity {quantity!r} for {item_id}: a whole number of {item.unit}s, at least 1", rule=item.citation
        )
    if category == "municipal":
        return Charge("exempt", item_id, quantity, 0, EXEMPTION_CITATION, "municipal departments pay no fees and no deposits")
    if category == "gas-company" and not (item.fee and item_id == "application"):
        return Charge(
            "exempt",
            item_id,
            quantity,
            0,
            f"{ACCOUNT_CITATION}; {EXEMPTION_CITATION}",
            "gas company claiming the c.164 exemption pays only the application fee",
        )
    return Charge(
        "fee" if item.fee else "deposit",
        item_id,
        quantity,
        item.cents * quantity,
        item.citation,
        f"{quantity} {item.unit} x ${item.cents / 100:,.2f}: {item.description}",
    )


@dataclass(frozen=True)
class Line:
    """One recorded entry of an account (input to :func:`statement`)."""

    entry: str
    cents: int
    date: date
    filing: str | None = None
    item: str | None = None
    quantity: int | None = None
    rule: str = ""
    note: str = ""
    #: a reversing line: the entry it reverses with the opposite amount (a
    #: voided event's line, :func:`workflows.deposit_events.reversing_lines`)
    reverses: bool = False


@dataclass(frozen=True)
class Figures:
    """One permit's money, in cents, each a line of its own: the deposit
    ``charged``, ``received``, ``kept`` for a repair and ``refunded``; the
    ``fees`` charged and ``fees_paid``.  ``held`` is what the Town holds:
    what was received, less what was kept or refunded (never what was only
    charged: docs/reference/readings.md, "What the Town holds")."""

    charged: int = 0
    received: int = 0
    kept: int = 0
    refunded: int = 0
    fees: int = 0
    fees_paid: int = 0

    @property
    def held(self) -> int:
        return self.received - self.kept - self.refunded

    def as_dict(self) -> dict:
        names = ("charged", "received", "kept", "refunded", "held", "fees", "fees_paid")
        return {n: _dollars(getattr(self, n)) for n in names}


@dataclass(frozen=True)
class Statement:
    """An account read from its entries: ``balance`` is what the Town holds
    (deposits received less what was kept and refunded); ``held`` is each
    permit's part of it; ``permits`` each permit's :class:`Figures`;
    ``fees`` what was charged in fees."""

    applicant: str
    lines: tuple[tuple[Line, int], ...]  # each entry with the balance after it
    balance: int
    held: dict[str, int]
    fees: int
    permits: dict[str, Figures] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "applicant": self.applicant,
            "rule": ACCOUNT_CITATION,
            "balance": _dollars(self.balance),
            "fees": _dollars(self.fees),
            "held": {k: _dollars(v) for k, v in sorted(self.held.items())},
            "permits": {k: v.as_dict() for k, v in sorted(self.permits.items())},
            "entries": [
                {
                    "entry": ln.entry,
                    "amount": _dollars(ln.cents),
                    "date": ln.date.isoformat(),
                    "filing": ln.filing,
                    "item": ln.item,
                    "quantity": ln.quantity,
                    "rule": ln.rule,
                    "note": ln.note,
                    "balance": _dollars(bal),
                }
                for ln, bal in self.lines
            ],
        }


def _dollars(cents: int) -> str:
    return f"{cents / 100:.2f}"


def money(cents: int) -> str:
    """Cents as a person reads them: "$1,250.00"."""
    return f"-${-cents / 100:,.2f}" if cents < 0 else f"${cents / 100:,.2f}"


def held_words(f: Figures) -> str:
    """What the Town holds for a permit and why, in words (a refusal's)."""
    return (
        f"the {money(f.held)} the Town holds for it ({money(f.received)} received, "
        f"less {money(f.kept + f.refunded)} kept or refunded)"
    )


#: what each entry adds to a permit's figures
_MOVES = {
    "deposit": "charged",
    "received": "received",
    "deduction": "kept",
    "refund": "refunded",
    "fee": "fees",
    "payment": "fees_paid",
}


def statement(applicant: str, lines) -> Statement:
    """Read an account's entries in order; raises :class:`LedgerRefused`
    (one sentence, the amounts and the section) for a deposit received
    beyond what was charged, a refund beyond what the Town holds for the
    permit, a deduction beyond what it holds in the account, or the
    reversal of money received that was already refunded or kept (§5)."""
    figures: dict = {}
    balance, fees, out = 0, 0, []
    for ln in lines:
        if ln.entry not in ENTRY_KINDS:
            raise UnknownChoice("ledger entry", ln.entry, ENTRY_KINDS)
        if ln.cents < 0 and not ln.reverses:
            raise LedgerRefused(f"{ln.entry} of {ln.cents} cents: amounts are never negative", applicant=applicant)
        if ln.reverses and ln.cents > 0:
            raise LedgerRefused(
                f"a reversing {ln.entry} of {ln.cents} cents: a reversal takes back, its amount is negative",
                applicant=applicant,
            )
        f = figures.setdefault(ln.filing, {k: 0 for k in set(_MOVES.values())})
        held = f["received"] - f["kept"] - f["refunded"]
        if ln.entry == "received":
            if not ln.reverses and f["received"] + ln.cents > f["charged"]:
                raise LedgerRefused(
                    f"a deposit received of {money(ln.cents)} for {ln.filing} is more than the {money(f['charged'])} "
                    f"charged for it, less {money(f['received'])} received already",
                    applicant=applicant,
                    rule=f"{ACCOUNT_CITATION}; §4",
                )
            if ln.reverses and held + ln.cents < 0:
                raise LedgerRefused(
                    f"the deposit received for {ln.filing} was refunded or kept already: record the refund's voiding first",
                    applicant=applicant,
                    rule=ACCOUNT_CITATION,
                )
            balance += ln.cents
        elif ln.entry == "deduction" and not ln.reverses:
            if ln.cents > balance:
                raise LedgerRefused(
                    f"a deduction of {money(ln.cents)} is more than the {money(balance)} the Town holds in the account; "
                    f"bill the permit holder for the rest",
                    applicant=applicant,
                    rule=f"{ACCOUNT_CITATION}; Canton 16-12 §13",
                )
            balance -= ln.cents
            _draw(figures, ln)  # the permit's own deposit first, the rest of the account after it
            out.append((ln, balance))
            continue
        elif ln.entry in ("deduction", "refund") and ln.reverses:
            balance -= ln.cents
        elif ln.entry == "refund":
            if ln.cents == 0 or ln.cents > held:
                f_now = Figures(**{k: f[k] for k in f})
                raise LedgerRefused(
                    f"a refund of {money(ln.cents)} for {ln.filing} is more than {held_words(f_now)}"
                    if ln.cents
                    else f"nothing is held for {ln.filing} to refund: {held_words(f_now)}",
                    applicant=applicant,
                    rule=ACCOUNT_CITATION,
                )
            balance -= ln.cents
        if ln.entry == "fee":
            fees += ln.cents
        if ln.entry in _MOVES:
            f[_MOVES[ln.entry]] += ln.cents
        out.append((ln, balance))
    permits = {k: Figures(**v) for k, v in figures.items() if k is not None}
    return Statement(applicant, tuple(out), balance, {k: v.held for k, v in permits.items()}, fees, permits)


def _draw(figures: dict, ln: Line) -> None:
    """A deduction kept from the permit's own deposit first, then from the
    account's other permits' (§5: "deducted from the Applicant's Refundable
    Deposit Account")."""
    rest = ln.cents
    order = [ln.filing, *(k for k in figures if k != ln.filing and k is not None)]
    for k in order:
        f = figures.setdefault(k, {m: 0 for m in set(_MOVES.values())})
        take = min(max(f["received"] - f["kept"] - f["refunded"], 0), rest)
        f["kept"] += take
        rest -= take


#: Street-opening states after the final inspection of the permanent patch,
#: when a permit's unexpended deposit may be released (§5, §11.4(f)).
REFUNDABLE_STATES = ("final-inspected", "closed")


def refund_allowed(filing: str, state: str, applicant: str, defaults=()) -> None:
    """Raise :class:`LedgerRefused` unless the permit has passed its final
    inspection (§5) and the applicant is in Default on none of its permits:
    ``defaults`` are ``(filing id, winter patch day)`` of its permits whose
    Winter Preparation Patch was due and is not on record (§11.3(c): "Any
    failure ... shall be a Default"; the deposit "may be returned ...
    provided that the Applicant/Permit Holder and Contractor are not in
    Default")."""
    if defaults:
        which = ", ".join(f"{f} (winter patch due {d}, not on record)" for f, d in defaults)
        raise LedgerRefused(
            f"the deposit for {filing} is held back: the applicant is in Default on {which}",
            applicant=applicant,
            rule=f"{ACCOUNT_CITATION}, §11.3(c)",
        )
    if state not in REFUNDABLE_STATES:
        raise LedgerRefused(
            f"the deposit for {filing} is released only after the final inspection of the "
            f"permanent patch; the permit is {state!r}",
            applicant=applicant,
            rule=f"{ACCOUNT_CITATION}, §11.4(f)",
        )


def parse_dollars(text: str) -> int:
    """'1,250.50' or '$75' -> cents; raises LedgerRefused for anything else."""
    from decimal import Decimal, InvalidOperation

    try:
        value = Decimal(text.replace("$", "").replace(",", "").strip())
    except (InvalidOperation, AttributeError):
        raise LedgerRefused(f"amount {text!r} is not a dollar amount such as 1250.00") from None
    if value <= 0 or value != value.quantize(Decimal("0.01")):
        raise LedgerRefused(f"amount {text!r}: a positive amount in dollars and cents")
    return int(value * 100)
