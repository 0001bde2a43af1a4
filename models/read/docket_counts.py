"""How many deadlines a docket holds, by what the sweep calls them: the
Today page's counts, equal to the sweep's report for the same day and
window (``overdue``, ``due`` within the window, ``violation``: the
categories of :func:`sweep.agenda.docket_entries`).

Counted over the same clocks :func:`models.read.workbench.docket` lists
(:func:`indexed_docket`), so the page shows the whole view's counts
whatever the rows it draws, but summed from the docket's tally
(:mod:`models.store.docket_tally`: the number of such clocks of the open filings
by status, day, town and kind, kept by the clocks' writers), never a clock's row or
its filing's: a few thousand rows for a store of 100,000 filings, where
the clocks of the view are tens of thousands."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from functools import cache

from sqlalchemy import Date, and_, bindparam, func, literal, or_, select, text, union_all

from models.handle import Store
from models.schema.tables import DocketTally, FilingClock, FilingRow
from workflows.violations import VIOLATIONS

__all__ = ["CATEGORIES", "docket_counts", "counts_query", "indexed_docket", "open_filings"]

CLOCK, FILING, TALLY = FilingClock.__table__, FilingRow.__table__, DocketTally.__table__
#: the categories counted, in the order the page shows them
CATEGORIES = ("overdue", "due", "violation")


def open_filings(kinds: Sequence[str]):
    """The filings of these kinds not in a final state of their machine
    (a permit closed, denied, withdrawn...): the sweep's docket covers only
    these (:func:`sweep.agenda.is_open`), and so do the Today page's exports
    (its page tests the copy each clock carries, ``filing_open``).  No
    state is final for one kind and open for another (a test), so one list
    serves every kind; the column is wrapped (``lower``, the ids are
    lower-case) so the planner does not drive the docket from the
    filings' (town, kind, state) index instead of the clocks' (status, date)."""
    from workflows.replay import MACHINES

    final = sorted({s for k in kinds for s in MACHINES[k].final})
    return func.lower(FILING.c.state).notin_(final)


def indexed_docket(as_of: date, until: date, *, overdue_only: bool = False, open_only: bool = False):
    """The clocks of :data:`models.read.queries.DOCKET_CONDITION` (``overdue_only``:
    of ``DOCKET_OVERDUE_CONDITION``; ``open_only``: only deadlines due from
    ``as_of`` through ``until``), read through ``ix_filing_clock_docket``
    in date order (:mod:`models.schema.clock_indexes`: the index's own predicate,
    and every test of the status on ``lower(status)``, so the planner reads
    that index from its start and stops at the page's last row instead of
    sorting every deadline of the store first).  The same clocks as the
    text condition: ``tests/models/test_clock_indexes.py`` compares them."""
    from models.schema.clock_indexes import DOCKET_WHERE

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
    found = dict.fromkeys(CATEGORIES, 0)
    with store.reader.connect() as conn:
        for category, n in conn.execute(_counts(towns is not None), _values(as_of, within, towns, kinds)):
            found[category] += int(n or 0)
    return found


def counts_query(*, as_of: date, within: int, towns: Sequence[str] | None, kinds: Sequence[str]):
    """The SELECT of :func:`docket_counts` with its values bound."""
    return _counts(towns is not None).params(_values(as_of, within, towns, kinds))


def _values(as_of: date, within: int, towns: Sequence[str] | None, kinds: Sequence[str]) -> dict:
    values = {"as_of": as_of, "until": as_of + timedelta(days=within), "kinds": list(kinds)}
    if towns is not None:
        values["towns"] = list(towns)
    return values


@cache
def _counts(by_town: bool):
    """(category, count) rows, a category possibly in several, summed from
    the tally's rows (folded or not) of the docket's condition
    (:func:`indexed_docket`'s), one range of ``ix_docket_tally`` (status,
    date, town, kind, n) for each way onto the docket: a deadline passed
    (overdue) or due by ``until``, a period running out in the window, a
    deadline the record cannot judge, a violation whatever its date.
    Made once (the values are bound at each call)."""
    as_of, until = bindparam("as_of", type_=Date), bindparam("until", type_=Date)
    status, day = TALLY.c.status, TALLY.c.date
    legs = (
        ("overdue", and_(status == "due", day < as_of)),
        ("due", and_(status == "due", day >= as_of, day <= until)),
        ("due", and_(status == "runs", day >= as_of, day <= until)),
        ("due", and_(status == "unknown", day <= until)),
        ("violation", status.in_(sorted(VIOLATIONS))),
    )
    scope = [TALLY.c.kind.in_(bindparam("kinds", expanding=True))]
    if by_town:
        scope.append(TALLY.c.town.in_(bindparam("towns", expanding=True)))
    return union_all(*(select(literal(category), func.sum(TALLY.c.n)).where(leg, *scope) for category, leg in legs))
