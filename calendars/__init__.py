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

import importlib

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

#: Where each name above lives.  Imported when first asked for (PEP 562),
#: so what needs only the error root (``calendars.errors``, under every
#: error of the project) does not import the date rules: the command line
#: starts without them (``permits --help``).
_HOME = {
    "BusinessCalendar": "business",
    "ClosedDay": "business",
    "CalendarError": "errors",
    "PermitsError": "errors",
    "UnservableYear": "errors",
    "FIRST_YEAR": "massachusetts",
    "LAST_YEAR": "massachusetts",
    "STATUTE": "massachusetts",
    "legal_holidays": "massachusetts",
    "ClosedStep": "reckoning",
    "Reckoning": "reckoning",
}


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME.get(name, 'rules')}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
