"""The DPW schedule's reads, a page at a time: the street openings'
inspections due (the rule book's inspection clocks, Canton 16-12 §10.2,
through the partial index ``ix_filing_clock_inspection`` of migration
0045) and, on their own tab, the other dates of the schedule (expiries,
renewals, patch windows, Dig Safe, payments: the partial index
``ix_filing_clock_other_dates`` of migration 0090).

Each page is one query that reads the page's rows (``LIMIT``/``OFFSET`` on
the index's order: status, date, filing) and one count; the filters are
the town (within the user's towns), a street (part of the site address),
a contractor (part of its name) and a range of days.  Overdue rows come
first: their date is before the day asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import String, and_, func, or_, select, text, type_coerce
from sqlalchemy.orm import aliased

from models.handle import Store
from models.read.queries import DocketRow
from models.schema.clock_indexes import OTHER_DATES_WHERE
from models.schema.tables import INSPECTION_WHERE, FilingClock, FilingRow, Party

__all__ = [
    "ScheduleQuery",
    "inspections_query",
    "inspections_page",
    "other_dates_query",
    "other_dates_page",
    "OTHER_STATUSES",
    "COUNT_CAP",
]

FILING, CLOCK, PARTY = FilingRow.__table__, FilingClock.__table__, Party.__table__
STREET = "street-opening"
#: stored statuses of the other dates the schedule shows when they fall in its days
OTHER_STATUSES = ("runs", "active", "waiting")


@dataclass(frozen=True)
class ScheduleQuery:
    """What one page of the schedule asks: ``towns`` (None: all), and the
    page's filters; ``until`` the last day shown, ``since`` the first (None:
    every overdue row too)."""

    towns: Sequence[str] | None
    until: date
    since: date | None = None
    #: the permits' states listed (None: every one): the inspections tab
    #: names those in which an inspection may be recorded
    states: Sequence[str] | None = None
    street: str = ""
    contractor: str = ""
    offset: int = 0
    limit: int = 50


def _like(text: str) -> str:
    return "%" + text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _select(q: ScheduleQuery, wanted, count: bool, by_clocks: bool = False):
    contractor = aliased(PARTY)
    applicant = aliased(PARTY)
    if count:
        query = select(func.count()).select_from(CLOCK).join(FILING, FILING.c.id == CLOCK.c.filing_id)
    else:
        query = (
            select(
                type_coerce(CLOCK.c.date, String),
                CLOCK.c.filing_id,
                FILING.c.town,
                FILING.c.kind,
                FILING.c.state,
                CLOCK.c.clock_id,
                CLOCK.c.rule,
                CLOCK.c.explanation,
                type_coerce(CLOCK.c.at, String),
                FILING.c.address,
                applicant.c.name,
                contractor.c.name,
                FILING.c.last_seq,
                CLOCK.c.status,
            )
            .select_from(CLOCK)
            .join(FILING, FILING.c.id == CLOCK.c.filing_id)
            .outerjoin(applicant, applicant.c.id == FILING.c.applicant_id)
        )
    query = query.outerjoin(contractor, contractor.c.id == FILING.c.contractor_id) if q.contractor or not count else query
    if by_clocks:  # lower-case ids tested on lower(): the clocks' index drives, not the filings' (town, kind)
        query = query.where(wanted, func.lower(FILING.c.kind) == STREET)
        if q.towns is not None:
            query = query.where(func.lower(FILING.c.town).in_(list(q.towns)))
    else:
        query = query.where(wanted, FILING.c.kind == STREET)
        if q.towns is not None:
            query = query.where(FILING.c.town.in_(list(q.towns)))
    if q.street.strip():
        query = query.where(func.lower(FILING.c.address).like(_like(q.street.strip()), escape="\\"))
    if q.contractor.strip():
        query = query.where(func.lower(contractor.c.name).like(_like(q.contractor.strip()), escape="\\"))
    return query


#: rows counted at most: a page says "more than 1,000" beyond it, so the
#: count reads at most this many index entries however large the store
COUNT_CAP = 1000


def _page(store: Store, q: ScheduleQuery, wanted, as_of: date, by_clocks: bool = False) -> tuple[list[DocketRow], int]:
    rows_query = _select(q, wanted, False, by_clocks)
    rows_query = rows_query.order_by(CLOCK.c.date, CLOCK.c.filing_id, CLOCK.c.n).offset(q.offset).limit(q.limit)
    counted = _select(q, wanted, False, by_clocks).with_only_columns(CLOCK.c.n).limit(COUNT_CAP + 1).subquery()
    with store.reader.connect() as conn:
        rows = conn.execute(rows_query).all()
        total = conn.execute(select(func.count()).select_from(counted)).scalar_one()
    from models.read.workbench import docket_rows

    return docket_rows(rows, as_of), total


def _inspections(q: ScheduleQuery):
    # the index's own predicate, word for word, so the planner takes the partial index
    conds = [text(INSPECTION_WHERE), CLOCK.c.status == "due", CLOCK.c.date <= q.until]
    if q.since is not None:
        conds.append(CLOCK.c.date >= q.since)
    if q.states is not None:
        conds.append(FILING.c.state.in_(sorted(q.states)))
    return and_(*conds)


def inspections_query(q: ScheduleQuery):
    """The SELECT of one page of inspections, as :func:`inspections_page`
    runs it (tests/models/test_inspection_index.py reads its plan)."""
    wanted = _inspections(q)
    return _select(q, wanted, False).order_by(CLOCK.c.date, CLOCK.c.filing_id, CLOCK.c.n).offset(q.offset).limit(q.limit)


def inspections_page(store: Store, q: ScheduleQuery, *, as_of: date) -> tuple[list[DocketRow], int]:
    """One page of the inspections due through ``q.until`` (from ``q.since``,
    or overdue ones first), soonest first, and how many there are in all
    (counted up to :data:`COUNT_CAP` + 1: beyond the cap, "more than 1,000")."""
    return _page(store, q, _inspections(q), as_of)


def other_dates_page(store: Store, q: ScheduleQuery, *, as_of: date) -> tuple[list[DocketRow], int]:
    """One page of the schedule's other dates: deadlines due (overdue ones
    too, unless ``q.since``), the periods running and the windows waiting
    to open from ``as_of`` (or ``q.since``) through ``q.until``; no
    inspection clock."""
    return _page(store, q, _other_dates(q, as_of), as_of, by_clocks=True)


def _other_dates(q: ScheduleQuery, as_of: date):
    # the partial index's own predicate, word for word, and the statuses
    # tested as it tests them (lower): the planner reads
    # ix_filing_clock_other_dates in date order and stops at the page
    first = q.since or as_of
    status = func.lower(CLOCK.c.status)
    due = and_(status == "due", CLOCK.c.date <= q.until)
    if q.since is not None:
        due = and_(due, CLOCK.c.date >= q.since)
    return and_(
        text(OTHER_DATES_WHERE),
        or_(due, and_(status.in_(OTHER_STATUSES), CLOCK.c.date >= first, CLOCK.c.date <= q.until)),
    )


def other_dates_query(q: ScheduleQuery, as_of: date):
    """The SELECT of one page of other dates, as :func:`other_dates_page`
    runs it (tests/models/test_clock_indexes.py reads its plan)."""
    return (
        _select(q, _other_dates(q, as_of), False, by_clocks=True)
        .order_by(CLOCK.c.date, CLOCK.c.filing_id, CLOCK.c.n)
        .offset(q.offset)
        .limit(q.limit)
    )
