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

from dataclasses import dataclass
from datetime import date

from .errors import PermitsError, UnknownChoice

__all__ = [
    "SCHEDULE",
    "FEES",
    "CATEGORIES",
    "ENTRY_KINDS",
    "REFUNDABLE_STATES",
    "ScheduleItem",
    "Charge",
    "Line",
    "Statement",
    "LedgerRefused",
    "charge",
    "statement",
    "refund_allowed",
    "parse_dollars",
]

SCHEDULE_CITATION = "Canton 16-12 Fee Schedule (Nominal Schedule of Refundable Deposits)"
ACCOUNT_CITATION = "Canton 16-12 §5"
EXEMPTION_CITATION = "Canton 16-12 §6"

#: private (owner of abutting or served land, or its contractor), utility,
#: gas-company (a gas company claiming the c.164 exemption, §5), municipal.
CATEGORIES = ("private", "utility", "gas-company", "municipal")

#: deposit, deduction (repair after a Default), refund (release of a
#: permit's unexpended balance), fee, exempt (a fee or deposit not charged),
#: payment (money the town received for them: workflows/fees.py; it moves
#: no balance, which counts what is charged and held).
ENTRY_KINDS = ("deposit", "deduction", "refund", "fee", "exempt", "payment")


@dataclass(frozen=True)
class ScheduleItem:
    id: str
    description: str
    cents: int
    unit: str  # "each", "linear ft", "sq yd", "hour"
    citation: str
    fee: bool = False


SCHEDULE: dict[str, ScheduleItem] = {
    i.id: i
    for i in (
        ScheduleItem("center-public-way", "opening to the center of a public way", 300_00, "each", SCHEDULE_CITATION),
        ScheduleItem("across-public-way", "opening across a public way", 600_00, "each", SCHEDULE_CITATION),
        ScheduleItem("center-state-highway", "opening to the center of a state highway", 1_500_00, "each", SCHEDULE_CITATION),
        ScheduleItem("across-state-highway", "opening across a state highway", 2_000_00, "each", SCHEDULE_CITATION),
        ScheduleItem(
            "trench-unpaved-shoulder", "trench in unpaved shoulder, parallel to street", 10_00, "linear ft", SCHEDULE_CITATION
        ),
        ScheduleItem("trench-paved-way", "trench in paved public way, parallel to street", 25_00, "linear ft", SCHEDULE_CITATION),
        ScheduleItem("curb-cut-driveway", "curb cut for a private driveway", 200_00, "each", SCHEDULE_CITATION),
        ScheduleItem("curb-cut-subdivision", "curb cut for a subdivision street", 500_00, "each", SCHEDULE_CITATION),
        ScheduleItem("newly-paved-center", "newly paved road (infra-red), to the center", 700_00, "each", SCHEDULE_CITATION),
        ScheduleItem("newly-paved-across", "newly paved road (infra-red), across", 1_400_00, "each", SCHEDULE_CITATION),
        ScheduleItem(
            "sidewalk-bituminous", "sidewalk opening up to 3 sq yd, bituminous concrete", 300_00, "each", SCHEDULE_CITATION
        ),
        ScheduleItem("sidewalk-concrete", "sidewalk opening up to 3 sq yd, concrete", 600_00, "each", SCHEDULE_CITATION),
        ScheduleItem(
            "sidewalk-excavation-bituminous",
            "sidewalk excavation over 3 sq yd, bituminous concrete",
            15_00,
            "sq yd",
            SCHEDULE_CITATION,
        ),
        ScheduleItem(
            "sidewalk-excavation-concrete", "sidewalk excavation over 3 sq yd, concrete", 25_00, "sq yd", SCHEDULE_CITATION
        ),
    )
}

FEES: dict[str, ScheduleItem] = {
    i.id: i
    for i in (
        ScheduleItem("application", "application fee", 50_00, "each", "Canton 16-12 §4 and Fee Schedule", fee=True),
        ScheduleItem(
            "after-hours", "inspection after normal working hours", 50_00, "hour", "Canton 16-12 §6 and Fee Schedule", fee=True
        ),
    )
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
class Statement:
    """An account read from its entries: ``balance`` is what the Town holds
    (deposits less deductions and refunds); ``held`` is each permit's
    unexpended deposit; ``fees`` what was charged in fees."""

    applicant: str
    lines: tuple[tuple[Line, int], ...]  # each entry with the balance after it
    balance: int
    held: dict[str, int]
    fees: int

    def as_dict(self) -> dict:
        return {
            "applicant": self.applicant,
            "rule": ACCOUNT_CITATION,
            "balance": _dollars(self.balance),
            "fees": _dollars(self.fees),
            "held": {k: _dollars(v) for k, v in sorted(self.held.items())},
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


def statement(applicant: str, lines) -> Statement:
    """Read an account's entries in order; raises :class:`LedgerRefused` for
    a deduction larger than the account holds, or a refund of a permit with
    nothing left (§5)."""
    balance, fees, held, out = 0, 0, {}, []
    for ln in lines:
        if ln.entry not in ENTRY_KINDS:
            raise UnknownChoice("ledger entry", ln.entry, ENTRY_KINDS)
        if ln.cents < 0 and not ln.reverses:
            raise LedgerRefused(f"{ln.entry} of {ln.cents} cents: amounts are never negative", applicant=applicant)
        if ln.reverses:
            balance = _reversed(ln, balance, held, applicant)
        elif ln.entry == "deposit":
            balance += ln.cents
            held[ln.filing] = held.get(ln.filing, 0) + ln.cents
        elif ln.entry == "deduction":
            if ln.cents > balance:
                raise LedgerRefused(
                    f"deduction of ${ln.cents / 100:,.2f} exceeds the account balance "
                    f"${balance / 100:,.2f}; bill the permit holder for the rest",
                    applicant=applicant,
                    rule=f"{ACCOUNT_CITATION}; Canton 16-12 §13",
                )
            balance -= ln.cents
            # the permit's own deposit is spent first, the rest of the account after it
            own = min(held.get(ln.filing, 0), ln.cents)
            rest = ln.cents - own
            if ln.filing in held:
                held[ln.filing] -= own
            for other in held:
                take = min(held[other], rest)
                held[other] -= take
                rest -= take
        elif ln.entry == "refund":
            left = held.get(ln.filing, 0)
            if ln.cents != left or left == 0:
                raise LedgerRefused(
                    f"refund of ${ln.cents / 100:,.2f} for {ln.filing}: the unexpended balance of "
                    f"that permit's deposit is ${left / 100:,.2f}",
                    applicant=applicant,
                    rule=ACCOUNT_CITATION,
                )
            balance -= left
            held[ln.filing] = 0
        if ln.entry == "fee":
            fees += ln.cents
        out.append((ln, balance))
    return Statement(applicant, tuple(out), balance, {k: v for k, v in held.items() if k is not None}, fees)


def _reversed(ln: Line, balance: int, held: dict, applicant: str) -> int:
    """The account's balance after a reversing line, ``held`` moved with it:
    a deposit reversed leaves the permit's deposit and the balance, a refund
    or a deduction reversed returns its amount to them, a fee reversed
    comes off the fees (counted by the caller)."""
    if ln.cents > 0:
        raise LedgerRefused(
            f"a reversing {ln.entry} of {ln.cents} cents: a reversal takes back, its amount is negative", applicant=applicant
        )
    if ln.entry == "deposit":
        held[ln.filing] = held.get(ln.filing, 0) + ln.cents
        return balance + ln.cents
    if ln.entry in ("refund", "deduction"):
        held[ln.filing] = held.get(ln.filing, 0) - ln.cents
        return balance - ln.cents
    return balance


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
