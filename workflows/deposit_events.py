"""The ledger lines a street opening's events call for (Canton 16-12 §4-6
and its Fee Schedule): pure arithmetic on the permit's live events and the
applicant's category (:func:`category_of`: the application's own),
amounts from :mod:`workflows.deposits`.

- ``filed``: the Application Fee (§4: "accompanied by the Application Fee
  and the Refundable Deposit") and the deposit of the Nominal Schedule
  charged: a trench of ``length_ft`` feet in a paved Public Way at $25.00 a
  linear foot, or, with no length on record, one opening to the center of
  the Public Way, $300.00 (docs/reference/readings.md, "The deposit a
  street opening is charged");
- ``after-hours-billed``: the after-hours inspection fee, $50.00 an hour
  (§6); ``after-hours-paid``: the oldest such bill paid;
- ``payment-received``: money the Town received (workflows/fees.py):
  ``toward: deposit`` is the deposit received, which the Town then holds
  (a ``received`` line); ``toward: fee`` a fee paid (a ``payment`` line);
  with neither, the fees left to pay first and the rest the deposit;
- ``deposit-refunded``: the refund of what the Town holds for the permit
  (§5), less what is kept for a repair (a deduction, with its reason):
  ``amount`` and ``held_back``, when given, may not add up to more than it
  holds, and the refusal names the amounts.

Charged, received, kept and refunded are separate lines; what the Town
holds is what it received less what it kept or refunded
(:class:`workflows.deposits.Figures`, :func:`permit_figures`).

A voided event's lines are reversed, not removed (the ledger is
append-only): :func:`reversing_lines` gives, for each line already held
whose event has since been voided, the same entry with the opposite amount,
dated the day of the voiding, its source ``reversed:event:N:k``
(docs/reference/readings.md, "A voided event's ledger lines").

A municipal department pays nothing and a gas company claiming the c.164
exemption only the Application Fee (§5-6: :func:`workflows.deposits.charge`).
Each line names the event it comes from (``event:N:k``), so a ledger filled
twice holds each line once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .deposits import ACCOUNT_CITATION, Figures, LedgerRefused, Line, charge, held_words, money, parse_dollars
from .filing import VOID

__all__ = [
    "SourcedLine",
    "permit_lines",
    "permit_figures",
    "category_of",
    "reversing_lines",
    "REVERSED",
    "DEFAULT_OPENING",
    "TRENCH",
]

#: the source of a reversing line: this, then the source of the line it reverses
REVERSED = "reversed:"

#: the schedule line of a trench of known length, and of an opening of none
TRENCH = "trench-paved-way"
DEFAULT_OPENING = "center-public-way"
#: what a payment line cites: the fee it pays (§4)
PAYMENT_RULE = "Canton 16-12 §4"
#: what a deposit received cites: it comes with the application (§4) and is held (§5)
DEPOSIT_RULE = "Canton 16-12 §4-5"
#: an after-hours inspection's bill (§6)
AFTER_HOURS_RULE = "Canton 16-12 §6"


@dataclass(frozen=True)
class SourcedLine:
    """A ledger line and the event it comes from (``event:N``)."""

    source: str
    line: Line


def _charged(filing_id: str, e, item: str, quantity: int, category: str, n: int) -> SourcedLine:
    c = charge(item, quantity, category)
    return SourcedLine(f"event:{e.position}:{n}", Line(c.entry, c.cents, e.date, filing_id, c.item, c.quantity, c.rule, c.note))


def category_of(events: Iterable, party_category: str | None) -> str:
    """The applicant's category for this permit: the ``filed`` event's
    ``applicant`` (the application's own word: a municipal department's
    permit pays nothing whoever else the same party applied for), else the
    party's, else private (docs/reference/readings.md, "What the Town holds")."""
    for e in events:
        if e.type == "filed" and e.get("applicant"):
            return e.get("applicant")
    return party_category or "private"


class _Permit:
    """The running sums :func:`permit_lines` checks each line against."""

    def __init__(self, filing_id: str):
        self.filing_id = filing_id
        self.fees = self.fees_paid = self.charged = self.received = self.kept = self.refunded = 0
        self.bills: list[int] = []  # after-hours bills not yet paid, oldest first

    @property
    def held(self) -> int:
        return self.received - self.kept - self.refunded

    def figures(self) -> Figures:
        return Figures(self.charged, self.received, self.kept, self.refunded, self.fees, self.fees_paid)

    def add(self, out: list, sourced: SourcedLine) -> None:
        ln = sourced.line
        if ln.entry == "fee":
            self.fees += ln.cents
        elif ln.entry == "deposit":
            self.charged += ln.cents
        elif ln.entry == "payment":
            self.fees_paid += ln.cents
        elif ln.entry == "received":
            self.received += ln.cents
        out.append(sourced)


def permit_lines(filing_id: str, events: Iterable, category: str | None) -> list[SourcedLine]:
    """The lines ``events`` (the permit's live events in date order, each
    with ``type``, ``date``, ``position`` and ``get``) call for, for an
    applicant of ``category`` (None: private).  Raises LedgerRefused for
    deposit money received beyond the deposit charged, and for a refund or
    what is kept beyond what the Town holds for the permit (§5)."""
    category = category or "private"
    out: list[SourcedLine] = []
    p = _Permit(filing_id)
    for e in events:
        if e.type == "filed":
            length = e.get("length_ft")
            p.add(out, _charged(filing_id, e, "application", 1, category, 1))
            if length:
                p.add(out, _charged(filing_id, e, TRENCH, int(length), category, 2))
            else:
                p.add(out, _charged(filing_id, e, DEFAULT_OPENING, 1, category, 2))
        elif e.type == "after-hours-billed":
            bill = _charged(filing_id, e, "after-hours", int(e.get("hours")), category, 1)
            p.add(out, bill)
            if bill.line.entry == "fee":
                p.bills.append(bill.line.cents)
        elif e.type == "after-hours-paid" and p.bills:
            paid = Line(
                "payment", p.bills.pop(0), e.date, filing_id, "after-hours", None, AFTER_HOURS_RULE, "after-hours bill paid"
            )
            p.add(out, SourcedLine(f"event:{e.position}:1", paid))
        elif e.type == "payment-received":
            _payment(p, out, e)
        elif e.type == "deposit-refunded":
            _refund(p, out, e)
    return out


def _payment(p: _Permit, out: list, e) -> None:
    """A payment: toward the fees (a ``payment`` line), toward the deposit
    (``received``: the Town now holds it), or, when it does not say,
    the fees first and the rest the deposit (docs/reference/readings.md,
    "What the Town holds")."""
    cents, toward = parse_dollars(e.get("amount")), e.get("toward")
    how = " ".join(x for x in (e.get("method", "").replace("-", " "), e.get("reference") or "") if x)
    if toward == "deposit":
        fee_part, deposit_part = 0, cents
    elif toward == "fee":
        fee_part, deposit_part = cents, 0
    else:
        deposit_part = min(max(cents - max(p.fees - p.fees_paid, 0), 0), max(p.charged - p.received, 0))
        fee_part = cents - deposit_part
    if deposit_part and p.received + deposit_part > p.charged:
        raise LedgerRefused(
            f"{p.filing_id}: a deposit received of {money(deposit_part)} is more than the {money(p.charged)} charged, "
            f"less {money(p.received)} received already",
            rule=f"{ACCOUNT_CITATION}; §4",
        )
    if fee_part:
        line = Line("payment", fee_part, e.date, p.filing_id, None, None, PAYMENT_RULE, f"fee paid: {how}")
        p.add(out, SourcedLine(f"event:{e.position}:1", line))
    if deposit_part:
        line = Line("received", deposit_part, e.date, p.filing_id, None, None, DEPOSIT_RULE, f"deposit received: {how}")
        p.add(out, SourcedLine(f"event:{e.position}:2", line))


def _refund(p: _Permit, out: list, e) -> None:
    """The refund of what the Town holds for the permit, less what is kept
    for a repair (a deduction, with its reason): refused, naming the
    amounts, when the two add up to more than it holds (§5)."""
    amount, kept, reason = e.get("amount"), e.get("held_back"), (e.get("reason") or "").strip()
    kept_cents = parse_dollars(kept) if kept else 0
    if amount is None:
        refund_cents = max(p.held - kept_cents, 0)
    else:
        refund_cents = 0 if amount.strip() in ("0", "0.00") else parse_dollars(amount)
    if refund_cents + kept_cents > p.held:
        what = f"a refund of {money(refund_cents)}" + (f" and {money(kept_cents)} kept" if kept_cents else "")
        total = f", {money(refund_cents + kept_cents)} in all," if kept_cents and refund_cents else ""
        raise LedgerRefused(
            f"{p.filing_id}: {what}{total} is more than {held_words(p.figures())}",
            rule=ACCOUNT_CITATION,
        )
    if kept_cents:
        line = Line("deduction", kept_cents, e.date, p.filing_id, None, None, f"{ACCOUNT_CITATION}; §13", reason)
        out.append(SourcedLine(f"event:{e.position}:1", line))
        p.kept += kept_cents
    if refund_cents:
        note = "unexpended balance released after the final inspection"
        out.append(
            SourcedLine(
                f"event:{e.position}:2", Line("refund", refund_cents, e.date, p.filing_id, None, None, ACCOUNT_CITATION, note)
            )
        )
        p.refunded += refund_cents


def permit_figures(filing_id: str, events: Iterable, category: str | None) -> Figures:
    """What the permit's live ``events`` say it was charged, paid, and what
    the Town received, kept, refunded and holds (the reconciliation's
    side of the events: :func:`permit_lines`, summed)."""
    sums = dict.fromkeys(("charged", "received", "kept", "refunded", "fees", "fees_paid"), 0)
    moves = {"deposit": "charged", "received": "received", "deduction": "kept", "refund": "refunded", "fee": "fees"}
    moves["payment"] = "fees_paid"
    for s in permit_lines(filing_id, events, category):
        if s.line.entry in moves:
            sums[moves[s.line.entry]] += s.line.cents
    return Figures(**sums)


def _position(source: str) -> int | None:
    """The event position of an ``event:N:k`` source; None for another."""
    parts = source.split(":")
    return int(parts[1]) if len(parts) == 3 and parts[0] == "event" and parts[1].isdigit() else None


def reversing_lines(filing_id: str, events: Iterable, held: Mapping[str, Line]) -> list[SourcedLine]:
    """The lines reversing each of ``held`` (the filing's ledger lines by
    source) whose event is voided by one of ``events`` (the filing's whole
    history, voids included) and which is not reversed yet, the last
    recorded first: the same entry, item and rule with the opposite amount, dated
    the voiding's day, its note naming the voided event and the reason."""
    voids = {e.get("voids"): e for e in events if e.type == VOID}
    out = []
    for source, line in held.items():
        pos = _position(source)
        if pos is None or pos not in voids or REVERSED + source in held:
            continue
        void = voids[pos]
        reason = (void.get("reason") or "").strip()
        note = f"reversed: event {pos} voided" + (f" ({reason})" if reason else "")
        out.append((pos, source, replace(line, cents=-line.cents, date=void.date, note=note, reverses=True)))
    out.sort(key=lambda t: (t[0], int(t[1].rsplit(":", 1)[1])), reverse=True)  # the last recorded first
    return [SourcedLine(REVERSED + source, line) for _, source, line in out]
