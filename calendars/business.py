"""A town's business-day calendar: Massachusetts legal holidays plus the
town's own closures (a storm day, the Friday after Thanksgiving), as data.

A *business day* is a day that is not a Saturday, not a Sunday, not a legal
holiday (M.G.L. c.4 §7 cl.18) and not a closure the town has declared.

The calendar answers in O(log n): it keeps the ordinals of the business days
of a span of years in a sorted list and extends the span when asked about a
date outside it.  Pure: no I/O, no clock.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from .errors import CalendarError
from .massachusetts import FIRST_YEAR, LAST_YEAR, check_year, legal_holidays

__all__ = ["BusinessCalendar", "ClosedDay"]

_WEEKEND = {5: "Saturday", 6: "Sunday"}
RECKONINGS_KEPT = 100_000  # answers BusinessCalendar.reckon keeps, a few tens of MB at most


@dataclass(frozen=True)
class ClosedDay:
    """One day the calendar treats as closed, and why."""

    date: date
    name: str
    kind: str  # "legal holiday" | "town closure"

    def as_dict(self) -> dict:
        return {"date": self.date.isoformat(), "name": self.name, "kind": self.kind}


class BusinessCalendar:
    """Business days of one town.

    ``closures`` maps a date to its reason; they close the town's offices in
    addition to the statute's holidays and count as closed days for every
    clock of that town.
    """

    def __init__(
        self,
        name: str = "massachusetts",
        *,
        suffolk: bool = False,
        closures: Mapping[date, str] | None = None,
        saturdays_closed_by_vote: bool = False,
    ):
        self.name = name
        self.suffolk = suffolk
        #: the town has voted under M.G.L. c.41 §110A to close its offices on
        #: Saturdays: M.G.L. c.4 §9 then moves a last day off a Saturday too
        self.saturdays_closed_by_vote = saturdays_closed_by_vote
        self.closures: dict[date, str] = dict(closures or {})
        self._closed: dict[int, str] = {}  # ordinal -> name, for years loaded
        self._named: list[int] = []  # sorted ordinals of the closed days named (holidays, closures)
        self._years: tuple[int, int] | None = None
        self._business: list[int] = []  # sorted ordinals of business days
        self._first_ordinal, self._last_ordinal = 1, 0  # the span of the years loaded, as ordinals
        self._reckonings: dict[tuple, object] = {}  # (id(rule), start, count) -> (rule, Reckoning), see reckon()
        self._whens: dict[tuple, tuple] = {}  # (id(rule), start, count) -> (rule, (date, at)), see when()

    # -- loading --------------------------------------------------------

    def _load(self, first: int, last: int) -> None:
        check_year(first)
        check_year(last)
        if self._years is not None:
            first, last = min(first, self._years[0]), max(last, self._years[1])
            if (first, last) == self._years:
                return
        closed: dict[int, str] = {}
        for year in range(first, last + 1):
            for day, name in legal_holidays(year, self.suffolk).items():
                closed[day.toordinal()] = name
        for day, reason in self.closures.items():
            if first <= day.year <= last:
                closed.setdefault(day.toordinal(), reason)
        lo, hi = date(first, 1, 1).toordinal(), date(last, 12, 31).toordinal()
        # date.fromordinal(1).weekday() == 0 (Monday): weekday = (o - 1) % 7
        self._business = [o for o in range(lo, hi + 1) if (o - 1) % 7 < 5 and o not in closed]
        self._named = sorted(closed)  # ordinals of the holidays and closures, for named_closed_between
        self._closed = closed
        self._years = (first, last)
        self._first_ordinal, self._last_ordinal = lo, hi

    def _cover(self, year: int) -> None:
        if self._years is None or not self._years[0] <= year <= self._years[1]:
            self._load(max(FIRST_YEAR, min(year, LAST_YEAR) - 1), min(LAST_YEAR, max(year, FIRST_YEAR) + 2))

    # -- questions ------------------------------------------------------

    def reckon(self, rule, start: date | datetime, count: int | None = None):
        """``rule.reckon(self, start, count)``, remembered.  The answer (a
        frozen Reckoning) depends only on the rule, the start, the count and
        this calendar's closed days, which do not change once it is made; a
        sweep asks the same question for many filings.  At most
        RECKONINGS_KEPT answers are kept (then the memo starts again)."""
        # keyed by the rule's identity, as :meth:`when` is (the entry keeps
        # the rule, so no other object can take its id while the entry stands).
        # Written out in both rather than shared: a shared helper measured
        # about 2.5% slower replays (when() is the replay's hot path)
        key = (id(rule), start, count)
        memo = self._reckonings
        hit = memo.get(key)
        if hit is not None and hit[0] is rule:
            return hit[1]
        if len(memo) >= RECKONINGS_KEPT:
            memo.clear()
        answer = rule.reckon(self, start, count)
        memo[key] = (rule, answer)
        return answer

    def when(self, rule, start: date | datetime, count: int | None = None) -> tuple[date, datetime | None]:
        """``rule.when(self, start, count)``: the day (and, for a clock in
        hours, the moment) :meth:`reckon` gives, without its account, which
        a replay builds only when an explanation is read.  Remembered as
        :meth:`reckon` is."""
        # keyed by the rule's identity (a rule book's rules live as long as it
        # does; hashing a frozen dataclass is a Python call): the entry keeps
        # the rule, so no other object can take its id while the entry stands
        key = (id(rule), start, count)
        memo = self._whens
        hit = memo.get(key)
        if hit is not None and hit[0] is rule:
            return hit[1]
        if len(memo) >= RECKONINGS_KEPT:
            memo.clear()
        answer = rule.when(self, start, count)
        memo[key] = (rule, answer)
        return answer

    def forget_reckonings(self) -> None:
        """Empty the memos of :meth:`reckon` and :meth:`when` (benchmarks
        measure them cold)."""
        self._reckonings.clear()
        self._whens.clear()

    def closed_reason(self, day: date) -> str | None:
        """Why ``day`` is closed ("Saturday", a holiday's name, a closure's
        reason), or None for a business day.  A holiday on a weekend is named
        by the holiday."""
        o = day.toordinal()
        if not self._first_ordinal <= o <= self._last_ordinal:
            self._cover(day.year)
        name = self._closed.get(o)
        if name is not None:
            return name
        return _WEEKEND.get(day.weekday())

    def is_business_day(self, day: date) -> bool:
        o = day.toordinal()
        if not self._first_ordinal <= o <= self._last_ordinal:
            self._cover(day.year)
        return self._closed.get(o) is None and (o - 1) % 7 < 5  # date.fromordinal(1) is a Monday

    def closed_days(self, year: int) -> list[ClosedDay]:
        """The legal holidays and town closures of ``year`` (weekends left
        out), in date order."""
        check_year(year)
        out = [ClosedDay(d, n, "legal holiday") for d, n in legal_holidays(year, self.suffolk).items()]
        out += [
            ClosedDay(d, r, "town closure")
            for d, r in self.closures.items()
            if d.year == year and d not in legal_holidays(year, self.suffolk)
        ]
        return sorted(out, key=lambda c: c.date)

    def closed_between(self, first: date, last: date) -> list[tuple[date, str]]:
        """Every closed day in [first, last], both ends included, with why."""
        out: list[tuple[date, str]] = []
        if first > last:
            return out
        # cover both ends: a load always spans one contiguous range of years
        self._cover(first.year)
        self._cover(last.year)
        closed = self._closed
        for o in range(first.toordinal(), last.toordinal() + 1):
            reason = closed.get(o)
            if reason is None:
                weekday = (o - 1) % 7  # date.fromordinal(1) is a Monday
                if weekday < 5:
                    continue
                reason = "Saturday" if weekday == 5 else "Sunday"
            out.append((date.fromordinal(o), reason))
        return out

    def named_closed_between(self, first: date, last: date) -> list[tuple[date, str]]:
        """The holidays and closures in [first, last], both ends included,
        with their names: :meth:`closed_between` without the plain
        Saturdays and Sundays (a holiday on a weekend is kept, by its name).
        Found by bisection, not by walking the days."""
        if first > last:
            return []
        lo_o, hi_o = first.toordinal(), last.toordinal()
        if not (self._first_ordinal <= lo_o and hi_o <= self._last_ordinal):
            self._cover(first.year)
            self._cover(last.year)
        named, closed = self._named, self._closed
        lo = bisect_left(named, lo_o)
        if lo == len(named) or named[lo] > hi_o:
            return []  # most spans name no closed day
        hi = bisect_right(named, hi_o)
        return [(date.fromordinal(o), closed[o]) for o in named[lo:hi]]

    # -- arithmetic -----------------------------------------------------

    def roll_forward(self, day: date) -> date:
        """``day`` if it is a business day, else the next business day."""
        self._cover(day.year)
        o = day.toordinal()
        i = bisect_left(self._business, o)
        if i == len(self._business):
            if self._years[1] >= LAST_YEAR:
                raise CalendarError(f"no business day on or after {day} up to the end of {LAST_YEAR}")
            self._cover(day.year + 1)
            return self.roll_forward(day)
        return date.fromordinal(self._business[i])

    def roll_backward(self, day: date) -> date:
        """``day`` if it is a business day, else the business day before."""
        self._cover(day.year)
        i = bisect_right(self._business, day.toordinal())
        if i == 0:
            if self._years[0] <= FIRST_YEAR:
                raise CalendarError(f"no business day on or before {day} back to the start of {FIRST_YEAR}")
            self._cover(day.year - 1)
            return self.roll_backward(day)
        return date.fromordinal(self._business[i - 1])

    def add_business_days(self, day: date, n: int) -> date:
        """The ``n``-th business day after ``day`` (``n`` > 0) or before it
        (``n`` < 0).

        Day 0 is ``day`` itself, business day or not; day 1 is the first
        business day strictly after it (310 CMR 10.05(1): a period begins the
        day after the act).  ``n == 0`` returns ``day`` unchanged.
        """
        if n == 0:
            return day
        self._cover(day.year)
        o = day.toordinal()
        bd = self._business
        if n > 0:
            i = bisect_right(bd, o) + n - 1
            if i >= len(bd):
                self._load(self._years[0], min(LAST_YEAR, self._years[1] + 1 + n // 250))
                if self._years[1] == LAST_YEAR and i >= len(self._business):
                    raise CalendarError(f"{n} business days after {day} runs past {LAST_YEAR}")
                return self.add_business_days(day, n)
            return date.fromordinal(bd[i])
        i = bisect_left(bd, o) + n
        if i < 0:
            self._load(max(FIRST_YEAR, self._years[0] - 1 + n // 250), self._years[1])
            if self._years[0] == FIRST_YEAR and bisect_left(self._business, o) + n < 0:
                raise CalendarError(f"{-n} business days before {day} runs before {FIRST_YEAR}")
            return self.add_business_days(day, n)
        return date.fromordinal(bd[i])

    def add_business_hours(self, start: datetime, hours: int) -> datetime:
        """The moment ``hours`` business hours after ``start``.

        Only hours on business days count (Dig Safe, M.G.L. c.82 §40A: hours
        not on Saturdays, Sundays or legal holidays); an hour on a closed day
        is passed over.  A start on a closed day begins counting at midnight
        of the next business day.

        Counted in whole business days from the first one's midnight (an
        index lookup); :meth:`_add_business_hours_by_steps` walks day by
        day and is the definition (tests hold the two equal).  Near the
        calendar's last year the walk answers, so its error is the one given.
        """
        if hours < 0:
            raise CalendarError("business hours are counted forward only")
        if hours > 24 * 200 or start.year >= LAST_YEAR:
            return self._add_business_hours_by_steps(start, hours)
        moment = start
        if not self.is_business_day(moment.date()):
            moment = datetime.combine(self.roll_forward(moment.date()), _MIDNIGHT)
        remaining = timedelta(hours=hours)
        left_today = datetime.combine(moment.date() + _DAY, _MIDNIGHT) - moment
        if remaining <= left_today:
            return moment + remaining
        remaining -= left_today
        days = -(-remaining // _DAY)  # business days begun after the first, the last maybe in part
        last = self.add_business_days(moment.date(), days)
        return datetime.combine(last, _MIDNIGHT) + (remaining - (days - 1) * _DAY)

    def _add_business_hours_by_steps(self, start: datetime, hours: int) -> datetime:
        """:meth:`add_business_hours`, one day at a time."""
        moment = start
        if not self.is_business_day(moment.date()):
            moment = datetime.combine(self.roll_forward(moment.date()), datetime.min.time())
        remaining = timedelta(hours=hours)
        while True:
            midnight = datetime.combine(moment.date() + timedelta(days=1), datetime.min.time())
            left_today = midnight - moment
            if remaining <= left_today:
                return moment + remaining
            remaining -= left_today
            moment = datetime.combine(self.roll_forward(midnight.date()), datetime.min.time())

    def subtract_business_hours(self, start: datetime, hours: int) -> datetime:
        """The latest moment ``hours`` business hours before ``start`` (Open
        Meeting Law, c.30A §20(b)): only hours on business days count, so a
        Saturday, Sunday, holiday or closure is passed over whole.  The
        hours of the start's own day come first (a start at midnight begins
        with the day before), then whole business days back from an index.
        :meth:`_subtract_business_hours_by_steps` walks day by day and is
        the definition (tests hold the two equal); near the calendar's first
        year the walk answers, so its error is the one given."""
        if hours <= 0 or hours > 24 * 200 or start.year <= FIRST_YEAR:
            return self._subtract_business_hours_by_steps(start, hours)
        if hours % 24 == 0 and start.time() == _MIDNIGHT:  # whole days from a midnight: the n-th business day's start
            return datetime.combine(self.add_business_days(start.date(), -(hours // 24)), _MIDNIGHT)
        moment, remaining = start, timedelta(hours=hours)
        day = moment.date() if moment.time() != _MIDNIGHT else moment.date() - _DAY
        if self.is_business_day(day):
            since_midnight = moment - datetime.combine(day, _MIDNIGHT)
        else:
            day = self.roll_backward(day)
            moment = datetime.combine(day + _DAY, _MIDNIGHT)
            since_midnight = _DAY
        if remaining <= since_midnight:
            return moment - remaining
        remaining -= since_midnight
        days = -(-remaining // _DAY)  # whole business days back, the last maybe in part
        return datetime.combine(self.add_business_days(day, -days), _MIDNIGHT) + (days * _DAY - remaining)

    def _subtract_business_hours_by_steps(self, start: datetime, hours: int) -> datetime:
        """:meth:`subtract_business_hours`, one day at a time."""
        moment, remaining = start, timedelta(hours=hours)
        while remaining > timedelta(0):
            day = moment.date() if moment.time() != time.min else moment.date() - timedelta(days=1)
            if not self.is_business_day(day):
                moment = datetime.combine(self.roll_backward(day) + timedelta(days=1), time.min)
                continue
            since_midnight = moment - datetime.combine(day, time.min)
            if remaining <= since_midnight:
                moment -= remaining
                break
            remaining -= since_midnight
            moment = datetime.combine(day, time.min)
        return moment


_DAY = timedelta(days=1)
_MIDNIGHT = time.min
