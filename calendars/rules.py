"""Named, composable date rules.

Each rule is a small frozen value that knows how to count from a start on a
:class:`~calendars.business.BusinessCalendar` and returns a
:class:`~calendars.reckoning.Reckoning` that explains itself.  Day 0 is
always the start itself; what happens on a closed day is the rule's
``roll``, a property of each clock (docs/reference/dates.md), never a global switch.

    CALENDAR_DAYS_FORWARD     CalendarDays(n, roll)
    CALENDAR_DAYS_BACKWARD    CalendarDaysBackward(n)           never rolls
    BUSINESS_DAYS_FORWARD     BusinessDays(n)
    BUSINESS_DAYS_BACKWARD    BusinessDaysBackward(n)           never rolls
    DAY_AFTER_BUSINESS_DAYS   DayAfterBusinessDays(n)           the first day after a period of n business days
    BUSINESS_HOURS_FORWARD    BusinessHours(n)
    BUSINESS_HOURS_BACKWARD   BusinessHoursBackward(n)          never rolls
    HOURS_FORWARD             Hours(n)
    CALENDAR_MONTHS_FORWARD   Months(n, roll)
    LAST_BUSINESS_DAY_BEFORE  LastBusinessDayBefore(month, day)  an annual date
    DAY_BEFORE                DayBefore(month, day)              an annual date, never rolls

and the rolls ``NO_ROLL``, ``ROLL_TO_NEXT_BUSINESS_DAY``,
``ROLL_TO_PREVIOUS_BUSINESS_DAY`` (:mod:`calendars.rolls`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from .business import BusinessCalendar
from .errors import CalendarError
from .reckoning import ClosedStep, Reckoning
from .rolls import (
    NO_ROLL,
    ROLL_PAST_SUNDAY_AND_HOLIDAY,
    ROLL_TO_NEXT_BUSINESS_DAY,
    ROLL_TO_PREVIOUS_BUSINESS_DAY,
    SATURDAY_BY_VOTE,
    Roll,
    apply_roll,
    roll_to,
)

__all__ = [
    "add_months",
    "Roll",
    "NO_ROLL",
    "ROLL_TO_NEXT_BUSINESS_DAY",
    "ROLL_TO_PREVIOUS_BUSINESS_DAY",
    "ROLL_PAST_SUNDAY_AND_HOLIDAY",
    "SATURDAY_BY_VOTE",
    "DateRule",
    "CalendarDays",
    "CalendarDaysBackward",
    "BusinessDays",
    "BusinessDaysBackward",
    "DayAfterBusinessDays",
    "BusinessHours",
    "BusinessHoursBackward",
    "Hours",
    "Months",
    "LastBusinessDayBefore",
    "DayBefore",
]


def _month_length(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def add_months(day: date, n: int) -> date:
    """``day`` plus ``n`` calendar months (M.G.L. c.4 §7 cl.19): the same
    day of the month, or the month's last day when it is shorter (Jan 31 +
    1 month is the last day of February).  What ``day +
    relativedelta(months=n)`` gives, without dateutil's general machinery
    (tests/calendars/test_calendar_fast_paths.py holds the two equal).  No roll."""
    months = day.month - 1 + n
    year, month = day.year + months // 12, months % 12 + 1
    return date(year, month, min(day.day, _month_length(year, month)))


def _as_date(start: date | datetime) -> date:
    return start.date() if isinstance(start, datetime) else start


def _as_moment(start: date | datetime) -> datetime:
    """A date alone stands for the start of that day (00:00)."""
    return start if isinstance(start, datetime) else datetime.combine(start, time.min)


def _skipped(cal: BusinessCalendar, lo: date, hi: date) -> tuple[ClosedStep, ...]:
    """Holidays and closures (not plain weekends) in [lo, hi]: the days an
    account of a business-day count should name."""
    named = cal.named_closed_between(lo, hi)
    return tuple(ClosedStep(d, r) for d, r in named) if named else ()


@dataclass(frozen=True)
class DateRule:
    """Base of the named rules.  ``count`` may be overridden per call for
    clocks whose length comes from the record (a suspension of N days)."""

    count: int
    name = "DATE_RULE"
    unit = "days"
    direction = "after"  # the way it counts, as its Reckoning says: "after" | "before"

    def __post_init__(self):
        if not isinstance(self.count, int) or self.count < 0:
            raise CalendarError(f"{self.name}: count must be a whole number >= 0, not {self.count!r}")

    def reckon(self, cal: BusinessCalendar, start: date | datetime, count: int | None = None) -> Reckoning:
        raise NotImplementedError

    def when(self, cal: BusinessCalendar, start: date | datetime, count: int | None = None) -> tuple[date, datetime | None]:
        """``(date, at)`` of :meth:`reckon`, without building its account
        (the days skipped and rolled over, named).  The rules a replay asks
        most answer it directly; tests hold it equal to :meth:`reckon`'s."""
        r = self.reckon(cal, start, count)
        return r.date, r.at

    def summary(self) -> str:
        return f"{self.count} {self.unit}"


@dataclass(frozen=True)
class _ForwardThenRoll(DateRule):
    """Count forward from the start with :meth:`_step`, then let ``roll``
    decide a closed last day.  The shared shape of CalendarDays and Months."""

    roll: Roll = Roll.NONE

    def _step(self, day: date, n: int) -> date:
        raise NotImplementedError

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        counted = self._step(_as_date(start), n)
        final, rolled = apply_roll(cal, counted, self.roll)
        return Reckoning(self.name, start, n, self.unit, "after", final, counted_to=counted, rolled=rolled, roll=self.roll.value)

    def when(self, cal, start, count=None):
        return roll_to(cal, self._step(_as_date(start), self.count if count is None else count), self.roll), None

    def summary(self):
        return f"{self.count} {self.unit}" + (f", rolled {self.roll.value}" if self.roll is not Roll.NONE else "")


@dataclass(frozen=True)
class CalendarDays(_ForwardThenRoll):
    """``count`` calendar days after the start: day 0 is the start, day 1 the
    day after (Bemis v. Leonard, 118 Mass. 502); the last day is start +
    count.  If it is closed, ``roll`` decides (default: next business day)."""

    roll: Roll = Roll.FORWARD
    name = "CALENDAR_DAYS_FORWARD"
    unit = "calendar days"

    def _step(self, day, n):
        return day + timedelta(days=n)


@dataclass(frozen=True)
class CalendarDaysBackward(DateRule):
    """``count`` calendar days before the start ("not less than N days
    prior"): the act is due on or before start - count.  Never rolls."""

    name = "CALENDAR_DAYS_BACKWARD"
    direction = "before"
    unit = "calendar days"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        day = _as_date(start) - timedelta(days=n)
        cal.closed_reason(day)  # checks the year is served
        return Reckoning(self.name, start, n, self.unit, "before", day, counted_to=day)

    def when(self, cal, start, count=None):
        day = _as_date(start) - timedelta(days=self.count if count is None else count)
        cal.closed_reason(day)
        return day, None


@dataclass(frozen=True)
class BusinessDays(DateRule):
    """The ``count``-th business day after the start.  Day 0 is the start,
    open or closed; day 1 is the first business day after it (310 CMR
    10.05(1)).  Closed days are passed over, so the answer is always a
    business day and never needs a roll."""

    name = "BUSINESS_DAYS_FORWARD"
    unit = "business days"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        s = _as_date(start)
        final = cal.add_business_days(s, n)
        return Reckoning(
            self.name, start, n, self.unit, "after", final, counted_to=final, skipped=_skipped(cal, s + timedelta(days=1), final)
        )

    def when(self, cal, start, count=None):
        return cal.add_business_days(_as_date(start), self.count if count is None else count), None


@dataclass(frozen=True)
class BusinessDaysBackward(DateRule):
    """The ``count``-th business day before the start ("five working days
    prior to the hearing", Canton 15-5): the act is due on or before that
    day.  The start is day 0; closed days are passed over.  Never rolls."""

    name = "BUSINESS_DAYS_BACKWARD"
    direction = "before"
    unit = "business days"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        s = _as_date(start)
        final = cal.add_business_days(s, -n)
        return Reckoning(
            self.name, start, n, self.unit, "before", final, counted_to=final, skipped=_skipped(cal, final, s - timedelta(days=1))
        )

    def when(self, cal, start, count=None):
        return cal.add_business_days(_as_date(start), -(self.count if count is None else count)), None


@dataclass(frozen=True)
class DayAfterBusinessDays(DateRule):
    """The first day after a period of ``count`` business days from the
    start: what a period holds back may happen from then on.  The period
    is :class:`BusinessDays`' (day 0 the start, day 1 the first business day
    after it) and ends at the close of business on its last day (310 CMR
    10.05(1)), so the answer is the calendar day after that last day, open
    or closed: an appeal period ending on a Friday lets work begin on the
    Saturday.  Never rolls."""

    name = "DAY_AFTER_BUSINESS_DAYS"
    unit = "business days"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        s = _as_date(start)
        last = cal.add_business_days(s, n)
        note = f"the period ends at the close of business on {last.isoformat()}: from the day after, {(last + timedelta(days=1)).isoformat()}"
        return Reckoning(
            self.name,
            start,
            n,
            self.unit,
            "after",
            last + timedelta(days=1),
            counted_to=last,
            skipped=_skipped(cal, s + timedelta(days=1), last),
            notes=(note,),
        )

    def when(self, cal, start, count=None):
        return cal.add_business_days(_as_date(start), self.count if count is None else count) + timedelta(days=1), None

    def summary(self):
        return f"the day after {self.count} business days"


@dataclass(frozen=True)
class BusinessHours(DateRule):
    """The moment ``count`` business hours after the start: only hours on
    business days count (M.G.L. c.82 §40A).  A date alone starts at 00:00;
    a start on a closed day starts counting at 00:00 of the next business
    day."""

    name = "BUSINESS_HOURS_FORWARD"
    unit = "business hours"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        s = _as_moment(start)
        at = cal.add_business_hours(s, n)
        # A count that ends at midnight used nothing of the day that begins.
        last = at.date() - timedelta(days=1) if at.time() == time.min and at > s else at.date()
        return Reckoning(
            self.name, start, n, self.unit, "after", at.date(), at=at, counted_to=at.date(), skipped=_skipped(cal, s.date(), last)
        )

    def when(self, cal, start, count=None):
        at = cal.add_business_hours(_as_moment(start), self.count if count is None else count)
        return at.date(), at


@dataclass(frozen=True)
class BusinessHoursBackward(DateRule):
    """The latest moment that is ``count`` business hours before the start
    (Open Meeting Law, c.30A §20(b): 48 hours not counting Saturdays,
    Sundays and legal holidays).  A date alone is the start of that day.
    Never rolls."""

    name = "BUSINESS_HOURS_BACKWARD"
    direction = "before"
    unit = "business hours"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        moment = cal.subtract_business_hours(_as_moment(start), n)
        return Reckoning(
            self.name,
            start,
            n,
            self.unit,
            "before",
            moment.date(),
            at=moment,
            counted_to=moment.date(),
            skipped=_skipped(cal, moment.date(), _as_moment(start).date()),
        )

    def when(self, cal, start, count=None):
        moment = cal.subtract_business_hours(_as_moment(start), self.count if count is None else count)
        return moment.date(), moment


@dataclass(frozen=True)
class Hours(DateRule):
    """The moment ``count`` clock hours after the start (a 24-hour cure).
    A date alone starts at 00:00.  Weekends and holidays count."""

    name = "HOURS_FORWARD"
    unit = "hours"

    def reckon(self, cal, start, count=None):
        n = self.count if count is None else count
        at = _as_moment(start) + timedelta(hours=n)
        cal.closed_reason(at.date())
        return Reckoning(self.name, start, n, self.unit, "after", at.date(), at=at, counted_to=at.date())

    def when(self, cal, start, count=None):
        at = _as_moment(start) + timedelta(hours=self.count if count is None else count)
        cal.closed_reason(at.date())
        return at.date(), at


@dataclass(frozen=True)
class Months(_ForwardThenRoll):
    """``count`` calendar months after the start (M.G.L. c.4 §7 cl.19),
    always counted from the start itself: Jan 31 + 1 month is the last day
    of February, Aug 31 2026 + 18 months is Feb 29 2028 (a leap year).
    ``roll`` decides a closed last day (default: none)."""

    roll: Roll = Roll.NONE
    name = "CALENDAR_MONTHS_FORWARD"
    unit = "months"

    def _step(self, day, n):
        return add_months(day, n)


@dataclass(frozen=True)
class LastBusinessDayBefore(DateRule):
    """The last business day before the next ``month``/``day`` that falls
    after the start ("before December 1").  The annual date itself is
    excluded; a start on the annual date aims at the next year's.  Work
    is done on business days (Canton 16-12 §6), so a closed eve rolls back.
    ``count`` is unused (0)."""

    month: int = 12
    day: int = 1
    # keyword-only, so that ``LastBusinessDayBefore(12, 1)`` is (month, day)
    # and not (count, month) as the inherited field order would make it
    count: int = field(default=0, kw_only=True)
    name = "LAST_BUSINESS_DAY_BEFORE"
    direction = "before"
    unit = "annual date"

    _roll = Roll.BACKWARD

    def reckon(self, cal, start, count=None):
        s = _as_date(start)
        target = date(s.year, self.month, self.day)
        if target <= s:
            target = date(s.year + 1, self.month, self.day)
        eve = target - timedelta(days=1)
        final, rolled = apply_roll(cal, eve, self._roll)
        notes = (target.strftime("%B %-d") + f" {target.year}",)
        if self._roll is Roll.NONE and not cal.is_business_day(eve):
            notes += (f"a business-day target to schedule by: {cal.roll_backward(eve).isoformat()}",)
        return Reckoning(
            self.name,
            start,
            0,
            self.unit,
            "before",
            final,
            counted_to=eve,
            rolled=rolled,
            roll=self._roll.value,
            notes=notes,
        )

    def summary(self):
        return f"last business day before {date(2000, self.month, self.day).strftime('%B %-d')}"


@dataclass(frozen=True)
class DayBefore(LastBusinessDayBefore):
    """The day before the next ``month``/``day`` after the start ("prior to
    December 1st", Canton 16-12 §11.3(c)): that eve is the last day,
    whatever day of the week it is; it never rolls.  When the eve is closed,
    the reckoning notes the last business day before it as a target to
    schedule by, which decides nothing."""

    name = "DAY_BEFORE"
    _roll = Roll.NONE

    def summary(self):
        return f"the day before {date(2000, self.month, self.day).strftime('%B %-d')}"
