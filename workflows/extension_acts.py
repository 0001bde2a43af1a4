"""The Permit Extension Acts, as cited data, applied to ``permit-expiry``.

- St. 2010 c.240 §173, as amended by St. 2012 c.238 §§74-75: an approval in
  effect or existence between August 15, 2008 and August 15, 2012 runs four
  years past its term;
- St. 2020 c.53 §17: a permit in effect on March 10, 2020 does not lapse
  during the COVID-19 state of emergency, which ended June 15, 2021; read
  as tolling, its expiry moves by the emergency's length (docs/reference/readings.md);
- St. 2024 c.238 §280: an approval in effect between January 1, 2023 and
  January 1, 2025 gets two more years.

They cover wetlands Orders of Conditions and by-law permits (``noi``) and
Land Disturbance Permits; not 30-day street opening permits, nor
determinations of applicability, nor enforcement orders, which the 2010
Act excludes by its own terms (:func:`not_extended`;
docs/reference/readings.md).  A filing records that
an Act does not apply to it (the holder's election, a court's ruling) with
``act-not-applied``; the explanation then says so.  Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from calendars import add_months

__all__ = ["ExtensionAct", "ACTS", "ACT_IDS", "extend", "ENFORCEMENT_ORDERS", "not_extended"]


@dataclass(frozen=True)
class ExtensionAct:
    id: str
    citation: str
    kinds: tuple[str, ...]
    first: date  # in effect on or after this day ...
    last: date  # ... and issued on or before this one
    months: int = 0  # the extension, or
    tolled_until: date | None = None  # the tolling period's end (from ``first``)

    def applies(self, kind: str, issued: date, expiry: date) -> bool:
        return kind in self.kinds and issued <= self.last and expiry >= self.first

    def moved(self, expiry: date) -> date:
        if self.tolled_until is not None:
            return expiry + (self.tolled_until - self.first)
        return add_months(expiry, self.months)  # as calendars.Months counts months


_APPROVALS = ("noi", "land-disturbance")

ACTS: tuple[ExtensionAct, ...] = (
    ExtensionAct(
        "pea-2010",
        "St. 2010 c.240 §173, as amended by St. 2012 c.238 §§74-75 (Permit Extension Act)",
        _APPROVALS,
        date(2008, 8, 15),
        date(2012, 8, 15),
        months=48,
    ),
    ExtensionAct(
        "covid-tolling",
        "St. 2020 c.53 §17 (COVID-19 tolling, state of emergency March 10, 2020 to June 15, 2021)",
        _APPROVALS,
        date(2020, 3, 10),
        date(2020, 3, 10),
        tolled_until=date(2021, 6, 15),
    ),
    ExtensionAct(
        "pea-2024",
        "St. 2024 c.238 §280 (Permit Extension Act, 2024)",
        _APPROVALS,
        date(2023, 1, 1),
        date(2025, 1, 1),
        months=24,
    ),
)

ACT_IDS = tuple(a.id for a in ACTS)
_KINDS = frozenset(k for a in ACTS for k in a.kinds)  # the kinds any Act covers


def extend(kind: str, issued: date, expiry: date, declined=()) -> tuple[date, str]:
    """The expiry after every Act that applies, in the order they were
    enacted (each judged on the expiry the earlier ones left), and the
    explanation naming each.  ``declined``: the ``act-not-applied`` events."""
    if kind not in _KINDS:
        return expiry, ""
    text = ""
    refused = {e.get("act"): e for e in declined} if declined else {}
    for act in ACTS:
        if not act.applies(kind, issued, expiry):
            continue
        if act.id in refused:
            e = refused[act.id]
            text += f"; {act.citation} not applied: {e.get('reason')} (event {e.position}, {e.date})"
            continue
        moved = act.moved(expiry)
        how = "tolled" if act.tolled_until is not None else "extended"
        text += f"; {how} from {expiry} to {moved} by {act.citation}"
        expiry = moved
    return expiry, text


#: Enforcement orders are not extended: the 2010 Act excludes them by its
#: own terms; the engine reads the 2020 and 2024 Acts as excluding them too
#: (docs/reference/readings.md).  An Order's compliance date stands.
ENFORCEMENT_ORDERS = "St. 2010 c.240 §173 (Permit Extension Act) excludes enforcement orders"


def not_extended(issued: date, due: date) -> str:
    """The explanation's words for an enforcement order issued on
    ``issued`` with a compliance date ``due``: each Act that would have
    covered an approval in effect then, and that it does not extend this
    one.  "" when no Act's window reaches it."""
    covering = [a for a in ACTS if issued <= a.last and due >= a.first]
    if not covering:
        return ""
    names = "; ".join(a.citation for a in covering)
    return f"; not extended by {names}: an enforcement order is no permit the Acts extend ({ENFORCEMENT_ORDERS})"
