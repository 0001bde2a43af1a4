"""Date law, the bottom layer: the Massachusetts business-day calendar
(legal holidays held to M.G.L. c.4 §7 cl.18, town closures), the named date
rules (``CalendarDays``, ``BusinessDays``, ``BusinessHours``, ``Months``...)
and the ``Reckoning`` each returns to explain itself; and the root of the
project's errors (:mod:`calendars.errors`).

May import: the standard library, ``holidays`` and ``python-dateutil``.
Nothing of this project above it.  Pure: no clock ("today" is passed in),
no environment, no disk (the command line's holidays cache,
:mod:`cli.holiday_cache`, hands the calendar its table).
"""

from .business import BusinessCalendar, ClosedDay
from .errors import CalendarError, PermitsError, UnservableYear
from .massachusetts import FIRST_YEAR, LAST_YEAR, STATUTE, legal_holidays
from .reckoning import ClosedStep, Reckoning
from .rules import (
    NO_ROLL,
    ROLL_PAST_SUNDAY_AND_HOLIDAY,
    ROLL_TO_NEXT_BUSINESS_DAY,
    ROLL_TO_PREVIOUS_BUSINESS_DAY,
    BusinessDays,
    BusinessDaysBackward,
    BusinessHours,
    BusinessHoursBackward,
    CalendarDays,
    CalendarDaysBackward,
    DateRule,
    DayAfterBusinessDays,
    DayBefore,
    Hours,
    LastBusinessDayBefore,
    Months,
    Roll,
    add_months,
)

__all__ = [
    "BusinessCalendar",
    "ClosedDay",
    "CalendarError",
    "PermitsError",
    "UnservableYear",
    "FIRST_YEAR",
    "LAST_YEAR",
    "STATUTE",
    "legal_holidays",
    "ClosedStep",
    "Reckoning",
    "NO_ROLL",
    "ROLL_PAST_SUNDAY_AND_HOLIDAY",
    "ROLL_TO_NEXT_BUSINESS_DAY",
    "ROLL_TO_PREVIOUS_BUSINESS_DAY",
    "BusinessDays",
    "BusinessDaysBackward",
    "BusinessHours",
    "BusinessHoursBackward",
    "CalendarDays",
    "CalendarDaysBackward",
    "DateRule",
    "DayAfterBusinessDays",
    "DayBefore",
    "Hours",
    "LastBusinessDayBefore",
    "Months",
    "Roll",
    "add_months",
]
