"""What a clock does when its last day is closed: the rolls, each a named
value (docs/reference/dates.md), and the two ways to apply one: :func:`apply_roll`
(the day and the closed days it moved over, named) and :func:`roll_to`
(the day alone).  Pure: no I/O.
"""

from __future__ import annotations

from datetime import date, timedelta
from enum import Enum

from .business import BusinessCalendar
from .reckoning import ClosedStep

__all__ = [
    "Roll",
    "NO_ROLL",
    "ROLL_TO_NEXT_BUSINESS_DAY",
    "ROLL_TO_PREVIOUS_BUSINESS_DAY",
    "ROLL_PAST_SUNDAY_AND_HOLIDAY",
    "SATURDAY_BY_VOTE",
    "apply_roll",
    "roll_to",
]


class Roll(str, Enum):
    """What a clock does when its last day is closed."""

    NONE = "none"
    FORWARD = "forward"
    BACKWARD = "backward"
    STATUTE = "forward under M.G.L. c.4 §9"


NO_ROLL = Roll.NONE
#: M.G.L. c.4 §9; 310 CMR 10.05(1): a last day on a Saturday, Sunday or legal
#: holiday moves to the next business day.
ROLL_TO_NEXT_BUSINESS_DAY = Roll.FORWARD
#: An act that must be done *before* a date on a working day moves back.
ROLL_TO_PREVIOUS_BUSINESS_DAY = Roll.BACKWARD
#: M.G.L. c.4 §9 alone (a by-law period outside the wetlands regulations): a
#: last day on a Sunday or legal holiday moves to the next day that is
#: neither; a Saturday moves only where the town has voted under M.G.L.
#: c.41 §110A to close its offices on Saturdays (the calendar's
#: ``saturdays_closed_by_vote``).
ROLL_PAST_SUNDAY_AND_HOLIDAY = Roll.STATUTE

#: How a Saturday the town has closed by vote is named in an explanation.
SATURDAY_BY_VOTE = "Saturday, town offices closed by vote under M.G.L. c.41 §110A"


def _roll_statute(cal: BusinessCalendar, day: date) -> tuple[date, tuple[ClosedStep, ...]]:
    steps = []
    while True:
        reason = cal.closed_reason(day)
        if reason == "Saturday":
            if not cal.saturdays_closed_by_vote:
                break
            reason = SATURDAY_BY_VOTE
        if reason is None:
            break
        steps.append(ClosedStep(day, reason))
        day += timedelta(days=1)
    return day, tuple(steps)


def apply_roll(cal: BusinessCalendar, day: date, roll: Roll) -> tuple[date, tuple[ClosedStep, ...]]:
    if roll is Roll.STATUTE:
        return _roll_statute(cal, day)
    if roll is Roll.NONE or cal.is_business_day(day):
        return day, ()
    target = cal.roll_forward(day) if roll is Roll.FORWARD else cal.roll_backward(day)
    lo, hi = (day, target - timedelta(days=1)) if target > day else (target + timedelta(days=1), day)
    steps = tuple(ClosedStep(d, r) for d, r in cal.closed_between(lo, hi))
    if roll is Roll.BACKWARD:
        steps = tuple(reversed(steps))
    return target, steps


def roll_to(cal: BusinessCalendar, day: date, roll: Roll) -> date:
    """The day :func:`apply_roll` moves ``day`` to, without naming the days passed over."""
    if roll is Roll.STATUTE:
        return _roll_statute(cal, day)[0]
    if roll is Roll.NONE or cal.is_business_day(day):
        return day
    return cal.roll_forward(day) if roll is Roll.FORWARD else cal.roll_backward(day)
