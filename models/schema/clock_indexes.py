"""The partial indexes of ``filing_clock`` that let a page read only its
rows (migration 0090; the inspections' own is 0045's, in
:mod:`models.schema.tables`), with the predicate each query must repeat word for
word so the planner may take the index:

- ``ix_filing_clock_docket`` (date, filing, clock, status, and the
  filing's kind and openness) holds the clocks a docket can list
  (:data:`models.read.queries.DOCKET_STATUSES`): the Today page of several
  towns (an administrator's) reads its 200 rows in date order from its
  start and stops, instead of sorting every deadline of the store first,
  testing each clock's kind and openness from the index (migration 0130
  added them) and looking up only the filings of the rows it shows.
- ``ix_filing_clock_docket_town`` (the filing's town, then the same) holds
  the same clocks by town: the Today page of one town (an agent's, the
  DPW's) reads that town's in date order and stops at its 200th row,
  instead of passing over every other town's (migration 0130).  (Its counts are
  summed from the docket's tally, :mod:`models.store.docket_tally`, which
  counts each clock by its copy of its filing's town, kind and
  openness: :func:`filing_open`.)
- ``ix_filing_clock_other_dates`` (date, filing, n) holds the clocks the
  DPW schedule's Other dates tab can show (due, or a period running, or a
  window waiting) that are not inspections: a page is its first rows in
  date order.

Each predicate tests ``lower(status)`` (the statuses are lower-case ids,
so it is the status itself): a test of the bare column could be answered
by ``ix_filing_clock_status_date`` instead, which on SQLite (without
statistics) wins the planner's choice and then sorts every clock it read.
``tests/models/test_clock_indexes.py`` checks the plans on SQLite and
PostgreSQL."""

from __future__ import annotations

from workflows.inspections import INSPECTION_CLOCKS
from workflows.violations import VIOLATIONS

__all__ = [
    "filing_open",
    "DOCKET_INDEX",
    "DOCKET_INDEX_COLUMNS",
    "DOCKET_TOWN_INDEX",
    "DOCKET_WHERE",
    "DOCKET_INDEX_STATUSES",
    "OTHER_DATES_INDEX",
    "OTHER_DATES_WHERE",
    "OTHER_DATES_STATUSES",
]


def _quoted(values) -> str:
    return ", ".join(f"'{v}'" for v in values)  # the core's constants, never input


DOCKET_INDEX = "ix_filing_clock_docket"
DOCKET_INDEX_COLUMNS = ("date", "filing_id", "clock_id", "status", "filing_kind", "filing_open")
DOCKET_TOWN_INDEX = "ix_filing_clock_docket_town"
#: the stored statuses a docket can list (as models.read.queries.DOCKET_STATUSES)
DOCKET_INDEX_STATUSES = tuple(sorted({"due", "runs", "unknown", *VIOLATIONS}))
DOCKET_WHERE = f"lower(status) IN ({_quoted(DOCKET_INDEX_STATUSES)})"


def filing_open(kind: str, state: str) -> bool:
    """Whether a filing of ``kind`` in ``state`` is open: not in a final
    state of its machine (a permit closed, denied, withdrawn...), as
    :func:`models.read.docket_counts.open_filings` and the sweep's docket
    (:func:`sweep.agenda.is_open`) read it.  A kind without a machine is
    open.  Stored on each of its clocks (``filing_clock.filing_open``)."""
    from workflows.replay import MACHINES

    machine = MACHINES.get(kind)
    return machine is None or str(state) not in machine.final


OTHER_DATES_INDEX = "ix_filing_clock_other_dates"
#: the stored statuses the Other dates tab can show
OTHER_DATES_STATUSES = ("active", "due", "runs", "waiting")
OTHER_DATES_WHERE = (
    f"lower(status) IN ({_quoted(OTHER_DATES_STATUSES)}) AND lower(clock_id) NOT IN ({_quoted(INSPECTION_CLOCKS)})"
)
