"""The ledger lines a street opening's events call for (Canton 16-12 §4-6
and its Fee Schedule): pure arithmetic on the permit's live events and the
applicant's category, amounts from :mod:`workflows.deposits`.

- ``filed``: the Application Fee (§4: "accompanied by the Application Fee
  and the Refundable Deposit") and the deposit of the Nominal Schedule: a
  trench of ``length_ft`` feet in a paved Public Way at $25.00 a linear
  foot, or, with no length on record, one opening to the center of the
  Public Way, $300.00 (docs/reference/readings.md, "The deposit a street
  opening is charged");
- ``after-hours-billed``: the after-hours inspection fee, $50.00 an hour (§6);
- ``payment-received``: the money the town received (workflows/fees.py),
  a ``payment`` line that moves no balance;
- ``deposit-refunded``: the refund of the permit's unexpended deposit (§5),
  less what was held back for a repair (a deduction, with its reason):
  ``amount`` and ``held_back``, when given, add up to what is held.

A voided event's lines are reversed, not removed (the ledger is
append-only): :func:`reversing_lines` gives, for each line already held
whose event has since been voided, the same entry with the opposite amount,
dated the day of the voiding, its source ``reversed:event:N:k``
(docs/reference/readings.md, "A voided event's ledger lines").

A municipal department pays nothing and a gas company claiming the c.164
exemption only the Application Fee (§5-6: :func:`workflows.deposits.charge`).
Each line names the event it comes from (``event:N``), so a ledger filled
twice holds each line once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .deposits import ACCOUNT_CITATION, LedgerRefused, Line, charge, parse_dollars
from .filing import VOID

__all__ = ["SourcedLine", "permit_lines", "reversing_lines", "REVERSED", "DEFAULT_OPENING", "TRENCH"]

#: the source of a reversing line: this, then the source of the line it reverses
REVERSED = "reversed:"

#: the schedule line of a trench of known length, and of an opening of none
TRENCH = "trench-paved-way"
DEFAULT_OPENING = "center-public-way"
#: what a payment line cites: the fee and deposit it pays (§4)
PAYMENT_RULE = "Canton 16-12 §4"


@dataclass(frozen=True)
class SourcedLine:
    """A ledger line and the event it comes from (``event:N``)."""

    source: str
    line: Line


def _charged(filing_id: str, e, item: str, quantity: int, category: str, n: int) -> SourcedLine:
    c = charge(item, quantity, category)
    return SourcedLine(f"event:{e.position}:{n}", Line(c.entry, c.cents, e.date, filing_id, c.item, c.quantity, c.rule, c.note))


def permit_lines(filing_id: str, events: Iterable, category: str | None) -> list[SourcedLine]:
    """The lines ``events`` (the permit's live events in date order, each
    with ``type``, ``date``, ``position`` and ``get``) call for, for an
    applicant of ``category`` (None: private).  Raises LedgerRefused for a
    refund whose amounts do not add up to the deposit held (§5)."""
    category = category or "private"
    out: list[SourcedLine] = []
    held = 0
    for e in events:
        if e.type == "filed":
            length = e.get("length_ft")
            out.append(_charged(filing_id, e, "application", 1, category, 1))
            if length:
                deposit = _charged(filing_id, e, TRENCH, int(length), category, 2)
            else:
                deposit = _charged(filing_id, e, DEFAULT_OPENING, 1, category, 2)
            out.append(deposit)
            if deposit.line.entry == "deposit":
                held += deposit.line.cents
        elif e.type == "after-hours-billed":
            out.append(_charged(filing_id, e, "after-hours", int(e.get("hours")), category, 1))
        elif e.type == "payment-received":
            how = " ".join(x for x in (e.get("method", "").replace("-", " "), e.get("reference") or "") if x)
            line = Line(
                "payment", parse_dollars(e.get("amount")), e.date, filing_id, None, None, PAYMENT_RULE, f"received: {how}"
            )
            out.append(SourcedLine(f"event:{e.position}:1", line))
        elif e.type == "deposit-refunded":
            out += _refund(filing_id, e, held)
            held = 0
    return out


def _refund(filing_id: str, e, held: int) -> list[SourcedLine]:
    amount, kept, reason = e.get("amount"), e.get("held_back"), (e.get("reason") or "").strip()
    kept_cents = parse_dollars(kept) if kept else 0
    refund_cents = held - kept_cents if amount is None else (0 if amount.strip() in ("0", "0.00") else parse_dollars(amount))
    if refund_cents + kept_cents != held or refund_cents < 0:
        raise LedgerRefused(
            f"{filing_id}: refunded ${refund_cents / 100:,.2f} and held back ${kept_cents / 100:,.2f} add up to "
            f"${(refund_cents + kept_cents) / 100:,.2f}, not the ${held / 100:,.2f} held for the permit",
            rule=ACCOUNT_CITATION,
        )
    out = []
    if kept_cents:
        out.append(
            SourcedLine(
                f"event:{e.position}:1",
                Line("deduction", kept_cents, e.date, filing_id, None, None, f"{ACCOUNT_CITATION}; §13", reason),
            )
        )
    if refund_cents:
        out.append(
            SourcedLine(
                f"event:{e.position}:2",
                Line(
                    "refund",
                    refund_cents,
                    e.date,
                    filing_id,
                    None,
                    None,
                    ACCOUNT_CITATION,
                    "unexpended balance released after the final inspection",
                ),
            )
        )
    return out


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
