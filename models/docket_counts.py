"""How many deadlines a docket holds, by what the sweep calls them: the
Today page's counts, equal to the sweep's report for the same day and
window (``overdue``, ``due`` within the window, ``violation``: the
categories of :func:`sweep.agenda.docket_entries`).

Counted in the database over the same clocks :func:`models.workbench.docket`
lists (:func:`indexed_docket`), so the page shows the whole
view's counts whatever the rows it draws: from the entries of the partial
index ``ix_filing_clock_counts`` alone (each holds the clock's status and
date and its filing's town, kind and whether it is open, copied onto the
clock at every write: :func:`models.clock_indexes.filing_open`), never a
clock's row or its filing's."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from sqlalchemy import and_, case, func, literal, or_, select, text

from workflows.violations import VIOLATIONS

from .service import Store
from .tables import FilingClock, FilingRow

__all__ = ["CATEGORIES", "docket_counts", "counts_query", "indexed_docket", "open_filings"]

CLOCK, FILING = FilingClock.__table__, FilingRow.__table__
#: the categories counted, in the order the page shows them
CATEGORIES = ("overdue", "due", "violation")


def open_filings(kinds: Sequence[str]):
    """The filings of these kinds not in a final state of their machine
    (a permit closed, denied, withdrawn...): the sweep's docket covers only
    these (:func:`sweep.agenda.is_open`), and so does the Today page.  No
    state is final for one kind and open for another (a test), so one list
    serves every kind; the column is wrapped (``lower``, the ids are
    lower-case) so the planner does not drive the docket from the
    filings' (town, kind, state) index instead of the clocks' (status, date)."""
    from workflows.replay import MACHINES

    final = sorted({s for k in kinds for s in MACHINES[k].final})
    return func.lower(FILING.c.state).notin_(final)


def indexed_docket(as_of: date, until: date, *, overdue_only: bool = False, open_only: bool = False):
    """The clocks of :data:`models.queries.DOCKET_CONDITION` (``overdue_only``:
    of ``DOCKET_OVERDUE_CONDITION``; ``open_only``: only deadlines due from
    ``as_of`` through ``until``), read through ``ix_filing_clock_docket``
    in date order (:mod:`models.clock_indexes`: the index's own predicate,
    and every test of the status on ``lower(status)``, so the planner reads
    that index from its start and stops at the page's last row instead of
    sorting every deadline of the store first).  The same clocks as the
    text condition: ``tests/models/test_clock_indexes.py`` compares them."""
    from .clock_indexes import DOCKET_WHERE

    status, day = func.lower(CLOCK.c.status), CLOCK.c.date
    if open_only:
        return and_(text(DOCKET_WHERE), status == "due", day >= as_of, day <= until)
    if overdue_only:
        return and_(text(DOCKET_WHERE), or_(and_(status == "due", day < as_of), status.in_(VIOLATIONS)))
    return and_(
        text(DOCKET_WHERE),
        or_(
            and_(status == "due", day <= until),
            and_(status == "runs", day >= as_of, day <= until),
            and_(status == "unknown", day <= until),
            status.in_(VIOLATIONS),
        ),
    )


def docket_counts(store: Store, *, as_of: date, within: int, towns: Sequence[str] | None, kinds: Sequence[str]) -> dict[str, int]:
    """Deadlines on the docket of the open filings of these towns (None:
    all) and kinds on ``as_of``: ``overdue`` (passed, not met), ``due`` (open, or not
    judgeable, by ``as_of + within``), ``violation`` (whatever the date)."""
    query = counts_query(as_of=as_of, within=within, towns=towns, kinds=kinds)
    with store.reader.connect() as conn:
        found = dict(conn.execute(query).all())
    return {c: int(found.get(c, 0)) for c in CATEGORIES}


def counts_query(*, as_of: date, within: int, towns: Sequence[str] | None, kinds: Sequence[str]):
    """The SELECT of :func:`docket_counts`: (category, count) rows, from
    ``ix_filing_clock_counts`` alone (its predicate, ``COUNTS_WHERE``, word
    for word; the open filings only)."""
    from .clock_indexes import COUNTS_WHERE

    category = case(
        (CLOCK.c.status.in_(sorted(VIOLATIONS)), literal("violation")),
        (CLOCK.c.status == "unknown", literal("due")),
        (CLOCK.c.date < as_of, literal("overdue")),
        else_=literal("due"),
    )
    query = (
        select(category, func.count())
        .select_from(CLOCK)
        .where(indexed_docket(as_of, as_of + timedelta(days=within)))
        .where(text(COUNTS_WHERE), CLOCK.c.filing_kind.in_(list(kinds)))
        .group_by(category)
    )
    if towns is not None:
        query = query.where(CLOCK.c.filing_town.in_(list(towns)))
    return query
