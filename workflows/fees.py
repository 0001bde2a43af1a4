"""The application fee of a filing and the payments recorded against it:
pure arithmetic on the town's declarations (``TownProfile.fees``, one
:class:`FeeRule` per permit kind, with its citation) and the filing's live
events.  No card processing: a payment is the record the town keeps of
money it received (``payment-received``: amount, method, reference, day).

What is due with an application (docs/reference/readings.md, "The fee an
application is charged"):

- a fee the by-law fixes (Canton 16-12 §4 and its Fee Schedule: the
  Application Fee, $50.00, with the Refundable Deposit of the Nominal
  Schedule, both priced by :func:`workflows.deposits.charge`, which applies
  the §5-6 exemptions);
- a fee the by-law leaves to the commission ("a filing fee specified in
  regulations of the Commission", Canton 15-4; Saugus 508.08 §5.1;
  Mansfield Ch. 15 §5.1; Mansfield 25 §7.B): the town fills its amount in
  its profile (``settings["commission_fees"][kind]``, dollars such as
  ``"125.00"``; None until it does, when the fee is "not entered" and a
  payment cannot be checked against it);
- nothing, where the by-law sets no fee (Mansfield Ch. 5 §IV);
- the state's fee (M.G.L. c.131 §40; 310 CMR 4.10) is shown beside the
  town's, never added to it: the applicant pays it as the Wetland Fee
  Transmittal Form computes it.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from .deposits import LedgerRefused, charge, parse_dollars
from .errors import PermitsError
from .machine import ANY
from .machine import Transition as T

__all__ = [
    "FeeRule",
    "FeeLine",
    "Fee",
    "Payment",
    "PaymentRefused",
    "METHODS",
    "REFERENCE_MAX",
    "PAYMENT",
    "STATE_FEE",
    "fee_for",
    "filing_fee",
    "filed_on",
    "FeeChangeRefused",
    "check_fee_change",
    "check_filing",
    "payment_event",
    "payments_of",
    "check_payments",
    "payment_rows",
    "dollars",
    "TOWARD",
    "DEPOSIT_LINE",
]

#: the event a payment is recorded as (docs/reference/filing-format.md)
PAYMENT = "payment-received"
#: how a payment reached the town (no card processing: what the town keeps is the record)
METHODS = ("cash", "check", "money-order", "bank-transfer")
#: the methods whose reference (a check's number, a transfer's confirmation) must be given
NEEDS_REFERENCE = ("check", "money-order", "bank-transfer")
REFERENCE_MAX = 100
#: the state's fee under the Wetlands Protection Act
STATE_FEE = "M.G.L. c.131 §40; 310 CMR 4.10"


class PaymentRefused(PermitsError):
    """A payment that cannot be recorded as given; names the rule."""

    def __init__(self, message: str, *, filing: str | None = None, rule: str | None = None):
        self.filing, self.rule = filing, rule
        super().__init__((f"{filing}: " if filing else "") + message + (f" ({rule})" if rule else ""))


class FeeChangeRefused(PermitsError):
    """A fee the town's office would set that the rule book refuses: a
    kind whose fee is not the commission's to set, an amount out of range,
    no day it takes effect, no reason."""


def check_fee_change(profile, kind: str, amount: str, effective: date | None, reason: str) -> int:
    """The cents of a fee the town's office sets for ``kind`` filings of
    ``profile``'s town, in force from ``effective``, for ``reason``; a
    fee the by-law itself prices (Canton 16-12's schedule) or sets at none
    is not the office's to change.  FeeChangeRefused naming the rule."""
    rule = profile.fees.get(kind)
    if rule is None or not rule.setting:
        settable = ", ".join(k for k, r in profile.fees.items() if r.setting) or "none"
        raise FeeChangeRefused(
            f"{profile.name} sets no {kind} fee by regulation: the fees its commission sets are {settable}"
            + (f" ({rule.citation})" if rule is not None else "")
        )
    try:
        cents = parse_dollars(str(amount or ""))
    except LedgerRefused:
        raise FeeChangeRefused(f"the fee: an amount in dollars and cents, such as 150.00 (not {str(amount)[:20]!r})") from None
    if not 0 <= cents <= 10_000_000:
        raise FeeChangeRefused("the fee: from $0.00 to $100,000.00")
    if effective is None:
        raise FeeChangeRefused("the day the fee takes effect: a filing pays the fee in force on the day it is filed")
    if not reason.strip() or len(reason) > 300 or any(ord(ch) < 32 for ch in reason):
        raise FeeChangeRefused("why the fee changes, in one line of at most 300 characters (the commission's vote, say)")
    return cents


@dataclass(frozen=True)
class FeeRule:
    """A town's application fee for one permit kind, as data.

    ``schedule``: priced by the by-law's own Fee Schedule (Canton 16-12:
    the Application Fee and the Refundable Deposit, :mod:`workflows.deposits`);
    else ``setting``: the key of ``settings["commission_fees"]`` the town
    fills in; else no fee (``none`` says why).  ``exempt``: applicant
    category -> the citation that takes the fee away; ``state_fee``: the
    state's fee paid besides ("" when none)."""

    kind: str
    what: str
    citation: str
    schedule: bool = False
    setting: str = ""
    none: str = ""
    exempt: Mapping[str, str] = field(default_factory=dict)
    state_fee: str = ""

    def __post_init__(self):
        if sum(map(bool, (self.schedule, self.setting, self.none))) != 1:
            raise ValueError(f"{self.kind}: a fee is priced by the schedule, by a setting, or is none; exactly one")
        object.__setattr__(self, "exempt", MappingProxyType(dict(self.exempt)))


@dataclass(frozen=True)
class FeeLine:
    """One amount due: ``cents`` None when the town has not entered it."""

    what: str
    cents: int | None
    rule: str
    note: str = ""


@dataclass(frozen=True)
class Fee:
    """What a filing owes the town with its application (``lines``) and
    the state's fee shown beside it (``state``, not in ``due``)."""

    town: str
    kind: str
    lines: tuple[FeeLine, ...]
    state: FeeLine | None = None

    @property
    def due(self) -> int | None:
        """Cents due to the town, or None when an amount is not entered."""
        if any(ln.cents is None for ln in self.lines):
            return None
        return sum(ln.cents for ln in self.lines)

    def words(self) -> str:
        """The fee in one line of words (a receipt, the apply form)."""
        parts = [_line_words(ln) for ln in self.lines]
        text = "; ".join(parts) if parts else "no fee"
        if self.due and len([ln for ln in self.lines if ln.cents]) > 1:
            text += f": {dollars(self.due)} in all"
        rules = "; ".join(dict.fromkeys(ln.rule for ln in self.lines))
        if rules:
            text += f" ({rules})"
        if self.state is not None:
            text += f". Besides, the state's filing fee, as the Wetland Fee Transmittal Form computes it ({self.state.rule})"
        return text


def _line_words(ln: FeeLine) -> str:
    if ln.cents is None:
        return f"{ln.what} (amount not yet entered by the town)"
    if ln.cents == 0:
        return f"no {ln.what}" + (f": {ln.note}" if ln.note and ln.note != "waived" else " (waived)")
    return f"{ln.what} {dollars(ln.cents)}"


def dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def fee_for(
    profile,
    kind: str,
    *,
    applicant: str | None = None,
    length_ft: int | None = None,
    entered: Sequence[tuple[date, int]] = (),
    on: date | None = None,
) -> Fee | None:
    """The fee a ``kind`` application owes the town of ``profile`` (a
    :class:`~workflows.rulebook.TownProfile`), for an applicant of category
    ``applicant`` (None: private; ``municipal``, ``utility``, ``gas-company``,
    ``no-financial-connection``) and, for a street opening, a trench of
    ``length_ft`` feet (None: one opening to the center of the way).  None
    when the town declares no fee rule for the kind.

    A fee the commission sets by regulation is the amount the town's
    office ``entered`` ((effective day, cents) each, by day) in force ``on``
    the day the application was filed: the last one effective on or before
    it; before the first, the rule book's own setting (often none: "not
    yet entered")."""
    rule = profile.fees.get(kind)
    if rule is None:
        return None
    category = applicant or "private"
    state = (
        FeeLine("the state's filing fee", None, rule.state_fee, "paid as the Wetland Fee Transmittal Form computes it")
        if rule.state_fee
        else None
    )
    if rule.none:
        return Fee(profile.id, kind, (FeeLine(rule.what, 0, rule.citation, rule.none),), state)
    if category in rule.exempt:
        return Fee(profile.id, kind, (FeeLine(rule.what, 0, rule.exempt[category], "waived"),), state)
    if rule.schedule and category == "municipal":  # §6: no fees and no deposits
        fee = charge("application", 1, category)
        return Fee(profile.id, kind, (FeeLine(f"{rule.what} or deposit", 0, fee.rule, fee.note),), state)
    if rule.schedule:
        from .deposit_events import DEFAULT_OPENING, TRENCH

        scheduled = "private" if category not in ("private", "utility", "gas-company", "municipal") else category
        fee = charge("application", 1, scheduled)
        deposit = charge(TRENCH, length_ft, scheduled) if length_ft else charge(DEFAULT_OPENING, 1, scheduled)
        return Fee(
            profile.id,
            kind,
            (
                FeeLine(rule.what, fee.cents, fee.rule, fee.note),
                FeeLine(DEPOSIT_LINE, deposit.cents, deposit.rule, deposit.note),
            ),
            state,
        )
    in_force = [(day, cents) for day, cents in entered if on is None or day <= on]
    if in_force:
        day, cents = in_force[-1]
        from .written import day_written

        note = f"set by regulation of the commission, in force from {day_written(day)}"
        return Fee(profile.id, kind, (FeeLine(rule.what, cents, rule.citation, note),), state)
    declared = (profile.settings.get("commission_fees") or {}).get(rule.setting)
    cents = parse_dollars(str(declared)) if declared not in (None, "") else None
    return Fee(profile.id, kind, (FeeLine(rule.what, cents, rule.citation, "set by regulation of the commission"),), state)


def filed_on(filing, events) -> date | None:
    """The day the application was filed (its first ``filed``, else the
    day it was submitted online): the day whose fee it pays."""
    for e in events:
        if e.type in ("filed", "submitted"):
            return e.date
    return None


def _particular(filing, events, name: str):
    """``name`` from the latest ``filed`` of ``events``, else the online application."""
    for e in reversed(list(events)):
        if e.type == "filed" and e.get(name) is not None:
            return e.get(name)
    application = filing.extra.get("application")
    return application.get(name) if isinstance(application, Mapping) else None


def filing_fee(filing, profile, events, entered: Sequence[tuple[date, int]] = ()) -> Fee | None:
    """The fee ``filing`` owes the town of ``profile``, ``events`` its live
    events (:func:`workflows.replay.live_events`): its applicant's category
    and its trench's length read from its ``filed`` event, else from its
    online application (docs/reference/filing-format.md); a fee the town
    ``entered`` is the one in force on the day it was filed."""
    events = list(events)
    length = _particular(filing, events, "length_ft")
    return fee_for(
        profile,
        filing.kind,
        applicant=_particular(filing, events, "applicant"),
        length_ft=length if isinstance(length, int) and not isinstance(length, bool) else None,
        entered=entered,
        on=filed_on(filing, events),
    )


def check_filing(filing, profile, events, entered: Sequence[tuple[date, int]] = ()) -> int:
    """:func:`check_payments` on the filing's live ``events`` and its fee."""
    events = list(events)
    return check_payments(filing.id, filing_fee(filing, profile, events, entered), events)


@dataclass(frozen=True)
class Payment:
    """A ``payment-received`` event read back: ``toward`` is ``fee``,
    ``deposit`` or "" (it did not say: the fees first, then the deposit)."""

    position: int
    date: date
    cents: int
    method: str
    reference: str
    toward: str = ""


#: what a payment may be toward: the fee, or a street opening's refundable deposit
TOWARD = ("fee", "deposit")
#: the fee line of a refundable deposit (Canton 16-12 §4-5)
DEPOSIT_LINE = "refundable deposit"


def payment_event(filing_id: str, *, day: date, amount: str, method: str, reference: str = "", toward: str = "") -> dict:
    """The ``payment-received`` event's JSON, checked: a positive amount
    in dollars and cents, a method of :data:`METHODS`, the reference a
    check, money order or transfer carries, what it is for (:data:`TOWARD`,
    or "" when it does not say)."""
    try:
        cents = parse_dollars(str(amount or ""))
    except LedgerRefused as exc:
        raise PaymentRefused(str(exc), filing=filing_id) from None
    if method not in METHODS:
        raise PaymentRefused(
            f"the method is one of {', '.join(METHODS)}, not {method!r} (no card is taken here)", filing=filing_id
        )
    reference = " ".join(str(reference or "").split())
    if len(reference) > REFERENCE_MAX:
        raise PaymentRefused(f"the reference is at most {REFERENCE_MAX} characters", filing=filing_id)
    if method in NEEDS_REFERENCE and not reference:
        raise PaymentRefused(f"a payment by {method.replace('-', ' ')} names its reference (the number on it)", filing=filing_id)
    if toward and toward not in TOWARD:
        raise PaymentRefused(f"a payment is toward the fee or the deposit, not {toward!r}", filing=filing_id)
    raw = {"type": PAYMENT, "date": day.isoformat(), "amount": f"{cents / 100:.2f}", "method": method}
    if reference:
        raw["reference"] = reference
    if toward:
        raw["toward"] = toward
    return raw


def payments_of(events: Iterable) -> list[Payment]:
    """The payments among a filing's live events, in their order."""
    return [
        Payment(
            e.position, e.date, parse_dollars(e.get("amount")), e.get("method"), e.get("reference") or "", e.get("toward") or ""
        )
        for e in events
        if e.type == PAYMENT
    ]


def check_payments(filing_id: str, fee: Fee | None, events: Iterable) -> int:
    """Raise :class:`PaymentRefused` when the payments on record do not add
    up: any payment where nothing is due, or more paid than is due; the
    cents paid otherwise.  A fee the town has not entered bounds nothing."""
    paid = payments_of(events)
    total = sum(p.cents for p in paid)
    if not paid:
        return 0
    if fee is None:
        raise PaymentRefused("the town charges no application fee for this kind of filing", filing=filing_id)
    due = fee.due
    rules = "; ".join(dict.fromkeys(ln.rule for ln in fee.lines))
    if due == 0:
        raise PaymentRefused(f"nothing is due: {fee.lines[0].note or 'no fee'}", filing=filing_id, rule=rules)
    if due is not None and total > due:
        raise PaymentRefused(
            f"payments of {dollars(total)} add up to more than the {dollars(due)} due; "
            f"{dollars(max(due - (total - paid[-1].cents), 0))} is left to pay",
            filing=filing_id,
            rule=rules,
        )
    _check_toward(filing_id, fee, paid)
    return total


def _check_toward(filing_id: str, fee: Fee, paid: list[Payment]) -> None:
    """Payments toward the deposit add up to at most the deposit charged,
    payments toward the fee to at most the fee: each refused naming both."""
    deposit = next((ln for ln in fee.lines if ln.what == DEPOSIT_LINE), None)
    parts = {
        "deposit": ("refundable deposit", [deposit] if deposit is not None else []),
        "fee": ("fee", [ln for ln in fee.lines if ln is not deposit]),
    }
    for toward, (what, lines) in parts.items():
        mine = [p for p in paid if p.toward == toward]
        if not mine:
            continue
        rules = "; ".join(dict.fromkeys(ln.rule for ln in lines)) or None
        if not lines or not any(ln.cents for ln in lines):
            raise PaymentRefused(
                f"no {what} is charged for this filing, so nothing can be paid toward it", filing=filing_id, rule=rules
            )
        if any(ln.cents is None for ln in lines):
            continue  # an amount the town has not entered bounds nothing
        due, total = sum(ln.cents for ln in lines), sum(p.cents for p in mine)
        if total > due:
            raise PaymentRefused(
                f"payments toward the {what} of {dollars(total)} add up to more than the {dollars(due)} charged; "
                f"{dollars(max(due - (total - mine[-1].cents), 0))} is left to pay toward it",
                filing=filing_id,
                rule=rules,
            )


def payment_rows() -> tuple[T, ...]:
    """The row every machine shares: a payment may be recorded in any state
    (the fee is owed from the application on, and may be paid late)."""
    return (T(PAYMENT, (ANY,), None),)
