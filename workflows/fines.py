"""Each town's fines as cited data, and the pure rules that price a ticket.

A :class:`FineSchedule` is one by-law's schedule for non-criminal
disposition (M.G.L. c.40 §21D): the amount of each offense by its number
(first, second, ...; the last amount holds for every later one), the fine
the by-law allows, whether each day and each provision violated is a
separate offense, who may enforce it, and the section that says so.  Where
the town's copy of its by-law lost an amount (Manchester-by-the-Sea's
prints "$" alone), the amount is ``None``: the town profile must give it
(:attr:`FineSchedule.given`), and until it does a ticket for that offense is
refused with :class:`FineAmountLost`, naming what is missing.

:func:`offense_number` counts a violator's offenses as the schedule says;
:func:`fine_for` prices the n-th.  The store gathers the earlier offenses
(every case of the same violator under the same by-law in the town), the
core decides.  :class:`CostRecovery` is a by-law's recovery of the town's
own costs of abating a violation (Mansfield Ch. 25 Part B §14.B.3).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from calendars import add_months

from .errors import PermitsError, RuleBookError

__all__ = [
    "FineSchedule",
    "CostRecovery",
    "Fine",
    "FineAmountLost",
    "FineNotAllowed",
    "NoTickets",
    "chosen_fine",
    "offense_number",
    "fine_for",
    "ORDINALS",
    "ordinal",
]

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"


class FineAmountLost(PermitsError):
    """The schedule has no amount for this offense: the town's copy of the
    by-law lost it and the town profile does not give it."""

    def __init__(self, town: str, schedule: FineSchedule, number: int):
        self.town, self.schedule, self.number = town, schedule.id, number
        super().__init__(
            f"no fine for a {schedule.label(number)} under {schedule.citation}: {schedule.lost or 'the by-law gives no amount'}; "
            f"the town profile must give it (FineSchedule.given in workflows/towns); the fine allowed is ${schedule.ceiling}"
        )


class FineNotAllowed(PermitsError):
    """A ticket's amount the schedule does not allow: above the by-law's
    maximum, below a dollar, or another than a fixed schedule's own."""

    def __init__(self, message: str):
        super().__init__(message)


class NoTickets(PermitsError):
    """The by-law is not enforced by non-criminal disposition."""

    def __init__(self, town: str, schedule: FineSchedule):
        self.town, self.schedule = town, schedule.id
        super().__init__(f"no ticket under {schedule.bylaw}: {schedule.no_tickets}")


@dataclass(frozen=True)
class CostRecovery:
    """The town's recovery of what it spent abating a violation itself:
    the costs noticed within ``notice_days`` of completing the abatement, a
    written protest within ``protest_days`` of receiving the notice, the
    amount due then (or ``decision_days`` after a decision on the protest),
    a lien on the property if unpaid, interest after the ``interest_after``-th
    day following the day the costs were due."""

    citation: str
    notice_days: int = 30
    protest_days: int = 30
    decision_days: int = 30
    interest_after: int = 31
    protest_to: str = "the Conservation Commission"


@dataclass(frozen=True)
class Fine:
    """A ticket's price: the offense's number, its amount in dollars, and
    where the amount comes from."""

    number: int
    dollars: int
    label: str
    source: str  # the by-law's citation, or the town profile's note where the copy lost it
    warning: bool = False

    def explain(self) -> str:
        what = "a warning ($0)" if self.warning else f"${self.dollars}"
        return f"{self.label}: {what} ({self.source})"


@dataclass(frozen=True)
class FineSchedule:
    """One by-law's fine schedule for non-criminal disposition.

    ``amounts``: dollars by offense number, ``None`` where the by-law's
    copy lost it; the last holds for every later offense.  ``each_day`` and
    ``each_provision``: the by-law's words that make each day, and each
    provision violated, a separate offense ("" where it says no such thing).
    ``window_months``: offenses are numbered among the violator's earlier
    offenses within that many months (None: every earlier offense, where the
    by-law sets no period).  ``given``: offense number -> (dollars, note),
    the amounts the town profile gives where the copy lost them."""

    id: str
    bylaw: str
    citation: str
    amounts: tuple[int | None, ...]
    ceiling: int
    offenses: str = ""
    each_day: str = ""
    each_provision: str = ""
    window_months: int | None = None
    agents: tuple[str, ...] = ()
    given: Mapping[int, tuple[int, str]] = field(default_factory=lambda: MappingProxyType({}))
    lost: str = ""
    order_rule: str = ""
    costs: CostRecovery | None = None
    #: why this by-law is not enforced by tickets at all ("" where it is):
    #: its ``amounts`` are then empty
    no_tickets: str = ""
    #: the by-law's words where it sets only a maximum ("a fine of not more
    #: than $300", Canton 15-11), cited: a ticket's amount is then the
    #: board's choice up to ``ceiling``, and ``amounts`` are the town's
    #: usual amount, offered first; "" where the schedule fixes each amount
    up_to: str = ""

    def label(self, number: int) -> str:
        last = len(self.amounts)
        if number >= last > 1 and number > 1:
            return f"{ordinal(number)} offense ({ordinal(last)} and each later offense)"
        return f"{ordinal(number)} offense"

    def check(self, town: str) -> None:
        where = f"fine schedule {self.id!r}"
        if not self.citation.strip() or not any(ch.isdigit() for ch in self.citation):
            raise RuleBookError(town, None, f"{where}: no citation with a section")
        if bool(self.amounts) == bool(self.no_tickets.strip()):
            raise RuleBookError(town, None, f"{where}: give the amounts, or (and only then) why it sets none (no_tickets)")
        if not self.order_rule.strip():
            raise RuleBookError(town, None, f"{where}: no section for its enforcement orders (order_rule)")
        if self.ceiling <= 0:
            raise RuleBookError(town, None, f"{where}: the fine allowed must be a positive amount")
        for n, dollars in enumerate(self.amounts, start=1):
            if dollars is not None and not 0 <= dollars <= self.ceiling:
                raise RuleBookError(
                    town, None, f"{where}: the {ordinal(n)} offense's ${dollars} is over the ${self.ceiling} allowed"
                )
        if any(a is None for a in self.amounts) and not self.lost.strip():
            raise RuleBookError(town, None, f"{where}: an amount is missing but the schedule does not say what was lost")
        for n, (dollars, note) in self.given.items():
            if not 1 <= n <= len(self.amounts) or self.amounts[n - 1] is not None:
                raise RuleBookError(town, None, f"{where}: given {n}: only an amount the copy lost may be given")
            if not 0 <= dollars <= self.ceiling or not note.strip():
                raise RuleBookError(town, None, f"{where}: given {n}: an amount up to ${self.ceiling} and where it comes from")
        if self.up_to and (not self.amounts or any(a is None for a in self.amounts)):
            raise RuleBookError(town, None, f"{where}: a maximum only (up_to) still gives the town's usual amount")
        if self.window_months is not None and self.window_months <= 0:
            raise RuleBookError(town, None, f"{where}: window_months must be positive")

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "bylaw": self.bylaw,
            "citation": self.citation,
            "offenses": self.offenses,
            "amounts": list(self.amounts),
            "given": {str(n): {"dollars": d, "note": note} for n, (d, note) in self.given.items()},
            "ceiling": self.ceiling,
            "each_day": self.each_day,
            "each_provision": self.each_provision,
            "window_months": self.window_months,
            "agents": list(self.agents),
            "lost": self.lost,
            "order_rule": self.order_rule,
            "costs": None if self.costs is None else self.costs.citation,
            "no_tickets": self.no_tickets,
            "up_to": self.up_to,
        }


def offense_number(schedule: FineSchedule, earlier: Iterable[date], day: date) -> int:
    """The number of the offense on ``day`` among the violator's
    ``earlier`` offenses (their days) under this by-law: one more than
    those on or before ``day``, within the schedule's window when it sets
    one (``window_months`` before ``day``, as a calendar month counts, both
    ends included).  Each day a violation continues, and (where the by-law
    says so) each provision violated, is an offense of its own, ticketed
    once."""
    since = add_months(day, -schedule.window_months) if schedule.window_months is not None else None
    return 1 + sum(1 for d in earlier if d <= day and (since is None or d >= since))


def fine_for(town: str, schedule: FineSchedule, number: int) -> Fine:
    """The fine for the ``number``-th offense; FineAmountLost where the
    by-law's copy lost it and the town profile gives none."""
    if number < 1:
        raise ValueError("offenses are numbered from 1")
    if not schedule.amounts:
        raise NoTickets(town, schedule)
    index = min(number, len(schedule.amounts)) - 1
    dollars = schedule.amounts[index]
    label = schedule.label(number)
    if dollars is None:
        given = schedule.given.get(index + 1)
        if given is None:
            raise FineAmountLost(town, schedule, number)
        dollars, note = given
        return Fine(number, dollars, label, f"given by the town profile: {note}; {schedule.lost}", dollars == 0)
    return Fine(number, dollars, label, schedule.citation, dollars == 0)


def chosen_fine(schedule: FineSchedule, usual: Fine, dollars: int | None) -> Fine:
    """The ticket's fine: the schedule's (``usual``) when no amount is
    chosen; where the by-law sets only a maximum (``up_to``), the board's
    choice from $1 to the maximum; FineNotAllowed otherwise."""
    if dollars is None or dollars == usual.dollars:
        return usual
    if not schedule.up_to:
        raise FineNotAllowed(f"the {usual.label} costs ${usual.dollars}, not ${dollars}: the schedule fixes it ({usual.source})")
    if dollars > schedule.ceiling:
        raise FineNotAllowed(f"a fine is at most ${schedule.ceiling}, not ${dollars} ({schedule.up_to})")
    if dollars < 1:
        raise FineNotAllowed(f"a fine is at least $1, up to ${schedule.ceiling} ({schedule.up_to})")
    return Fine(usual.number, dollars, usual.label, f"the board's choice up to ${schedule.ceiling} ({schedule.up_to})")
