"""The Massachusetts business-day calendar and the named date rules.

Pure core: no I/O, no clock.  ``today`` is always passed in.
"""

from .business import BusinessCalendar, ClosedDay
from .errors import CalendarError, PermitsError, UnservableYear
from .massachusetts import FIRST_YEAR, LAST_YEAR, STATUTE, legal_holidays
from .reckoning import ClosedStep, Reckoning
from .rules import (
    NO_ROLL,
    ROLL_TO_NEXT_BUSINESS_DAY,
    ROLL_TO_PREVIOUS_BUSINESS_DAY,
    BusinessDays,
    BusinessDaysBackward,
    BusinessHours,
    BusinessHoursBackward,
    CalendarDays,
    CalendarDaysBackward,
    DateRule,
    Hours,
    LastBusinessDayBefore,
    Months,
    Roll,
)

__all__ = [
    "BusinessCalendar", "ClosedDay", "CalendarError", "PermitsError", "UnservableYear",
    "FIRST_YEAR", "LAST_YEAR", "STATUTE", "legal_holidays", "ClosedStep", "Reckoning",
    "NO_ROLL", "ROLL_TO_NEXT_BUSINESS_DAY", "ROLL_TO_PREVIOUS_BUSINESS_DAY",
    "BusinessDays", "BusinessDaysBackward", "BusinessHours", "BusinessHoursBackward",
    "CalendarDays", "CalendarDaysBackward", "DateRule", "Hours", "LastBusinessDayBefore",
    "Months", "Roll",
]
