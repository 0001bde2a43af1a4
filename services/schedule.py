"""The DPW's schedule: a street opening's inspections on one tab, its other
dates (expiries, renewals, patch windows, Dig Safe, payments) on another,
filtered by town, street, contractor and days, a page at a time; the
workbench's Schedule page and ``permits schedule`` show it.

Its rows are the store's clocks (:mod:`models.read.inspection_schedule`): the
inspections are the rule book's inspection clocks (Canton 16-12 §10.2;
:data:`workflows.inspections.INSPECTION_CLOCKS`), the inspection after a
temporary patch among them on the day the sweep's own rule gives it
(:func:`sweep.agenda.patch_inspection_entry`: the first business day from
the patch; a test holds the two equal), so the page and the sweep's
schedule cannot disagree.  Each inspection row carries the stages an
inspection recorded now may name (:func:`workflows.inspections.fitting_stages`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.read.queries import DocketRow

__all__ = [
    "SCHEDULE_WITHIN",
    "STREET",
    "TABS",
    "PER_PAGE",
    "ScheduleRow",
    "SchedulePage",
    "schedule_page",
    "dpw_schedule",
]

SCHEDULE_WITHIN = 42
STREET = "street-opening"
#: the schedule's tabs: the inspections, and every other date
TABS = ("inspections", "other")
PER_PAGE = 50


@dataclass(frozen=True)
class ScheduleRow:
    """One row: the store's docket row and, for an inspection, the stages an
    inspection recorded now may name (empty: none fits the permit now)."""

    row: DocketRow
    stages: tuple[str, ...] = ()
    #: the business day an inspection due on a weekend or holiday is listed
    #: on (the next one), with why the day it fell on is closed; None when
    #: it fell on a business day
    listed_on: date | None = None
    closed: str = ""

    def as_dict(self) -> dict:
        r = self.row
        listed = {"listed_on": self.listed_on.isoformat()} if self.listed_on else {}
        return {**r.as_dict(), "address": r.address, "contractor": r.contractor, "stages": list(self.stages)} | listed


@dataclass(frozen=True)
class SchedulePage:
    tab: str
    rows: list[ScheduleRow]
    page: int
    total: int
    per_page: int

    @property
    def capped(self) -> bool:
        """More rows than the store counts (models.read.inspection_schedule.COUNT_CAP)."""
        from models.read.inspection_schedule import COUNT_CAP

        return self.total > COUNT_CAP

    @property
    def pages(self) -> int:
        """The pages counted (when :attr:`capped`, there are more beyond)."""
        return max(1, -(-self.total // self.per_page))

    @property
    def more(self) -> bool:
        """Whether a page follows this one."""
        return self.page < self.pages or (self.capped and len(self.rows) == self.per_page)


def schedule_page(
    store,
    *,
    as_of: date,
    towns: Sequence[str] | None,
    tab: str = "inspections",
    within: int = SCHEDULE_WITHIN,
    street: str = "",
    contractor: str = "",
    since: date | None = None,
    until: date | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
) -> SchedulePage:
    """Page ``page`` of the ``tab`` on ``as_of`` for ``towns`` (None: every
    town): rows through ``until`` (default ``as_of`` + ``within`` days),
    from ``since`` (default: overdue ones first), whose site address holds
    ``street`` and whose contractor's name holds ``contractor``."""
    from models.read.inspection_schedule import ScheduleQuery, inspections_page, other_dates_page
    from workflows.inspections import fitting_stages, inspectable_states

    if tab not in TABS:
        tab = "inspections"
    page = max(1, page)
    q = ScheduleQuery(
        towns=towns,
        until=until or as_of + timedelta(days=within),
        since=since,
        street=street[:100],
        contractor=contractor[:100],
        offset=(page - 1) * per_page,
        limit=per_page,
        states=inspectable_states() if tab == "inspections" else None,
    )
    if tab == "inspections":  # only those an inspection recorded now may answer, on business days
        rows, total = inspections_page(store, q, as_of=as_of)
        # an inspection clock runs once a trench is open: the permit has been dug
        out = [ScheduleRow(r, fitting_stages(r.state, excavated=True), *_business_day(r)) for r in rows]
    else:
        rows, total = other_dates_page(store, q, as_of=as_of)
        out = [ScheduleRow(r) for r in rows]
    return SchedulePage(tab, out, page, total, per_page)


def _business_day(row) -> tuple[date | None, str]:
    """The business day an inspection due on ``row.date`` is listed on, and
    why its own day is closed (the town's calendar: weekends, Massachusetts
    holidays, the town's closures); (None, "") on a business day.  The
    trench's and a re-inspection's day is the day itself (the trench is
    opened, the inspector names a day), which may be a Saturday."""
    from workflows.towns import town

    calendar = town(row.town).calendar
    reason = calendar.closed_reason(row.date)
    if reason is None:
        return None, ""
    day = row.date + timedelta(days=1)
    while not calendar.is_business_day(day):
        day += timedelta(days=1)
    return day, reason


def dpw_schedule(store, *, as_of: date, within: int = SCHEDULE_WITHIN, towns: Sequence[str] | None) -> list[DocketRow]:
    """The whole schedule on ``as_of`` for ``within`` days, both tabs, for
    ``towns`` (None: every town), soonest first, overdue ones at the top."""
    rows: list = []
    for tab in TABS:
        page = 1
        while True:
            got = schedule_page(store, as_of=as_of, towns=towns, tab=tab, within=within, page=page, per_page=500)
            rows += [r.row for r in got.rows]
            if not got.more:
                break
            page += 1
    rows.sort(key=lambda r: (r.date, r.filing, r.clock))
    return rows
