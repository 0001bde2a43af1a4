"""The Today page's docket, the DPW schedule's Other dates tab
and the applications submitted online are read through the indexes of
migrations 0090 and 0130 (models/schema/clock_indexes.py), on SQLite and on
PostgreSQL (the counts sum the docket's tally: tests/models/test_docket_tally.py):
a page reads the first entries of an index in the page's order instead of
sorting every deadline of the store, and one town's page reads that
town's.  And the page's condition, written so
the planner takes the index, lists the same clocks as the docket's own
(``DOCKET_CONDITION``, which ``permits docket`` and the exports run)."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from models.handle import Store
from models.read.docket_counts import docket_counts
from models.read.inspection_schedule import ScheduleQuery, other_dates_query
from models.read.submitted import submitted_query
from models.read.workbench import docket, docket_query
from models.schema.clock_indexes import DOCKET_INDEX, DOCKET_TOWN_INDEX, OTHER_DATES_INDEX
from services.database import upgrade_store
from services.imports import import_filings
from workflows.rulebook import KINDS

AS_OF = date(2026, 12, 1)
AGENT_KINDS = ["noi", "rda", "land-disturbance"]


def _plan(store: Store, query) -> str:
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            conn.exec_driver_sql("SET enable_seqscan = off")  # an empty table: make the planner show its choice
            return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql))
        return "\n".join(str(r[3]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))


@pytest.fixture
def empty_store(db_url):
    store = Store(db_url)
    upgrade_store(store)
    yield store
    store.engine.dispose()


@pytest.mark.parametrize(
    "towns, kinds, index",
    [
        (None, list(KINDS), DOCKET_INDEX),
        (["canton", "saugus"], ["noi"], DOCKET_INDEX),
        (["canton"], AGENT_KINDS, DOCKET_TOWN_INDEX),  # one town's clocks, not every town's
    ],
)
@pytest.mark.parametrize("status", [None, "open", "overdue"])
def test_a_page_of_the_docket_is_read_in_date_order_from_the_docket_index(empty_store, towns, kinds, index, status):
    query = docket_query(as_of=AS_OF, within=14, towns=towns, kinds=kinds, status=status, limit=201, open_only=True)
    plan = _plan(empty_store, query)
    used = set(re.findall(r"ix_filing_clock_docket\w*", plan))
    assert "ix_filing_town_kind" not in plan, f"the filings drive the page:\n{plan}"
    if empty_store.engine.dialect.name == "sqlite":
        assert used == {index}, f"{index} not the index used:\n{plan}"
        # the page's clocks, read first (materialized), then joined to their filings
        clocks, _, joined = plan.partition("SCAN page")
        assert joined, f"the clocks are not read first:\n{plan}"
        assert "B-TREE" not in clocks, f"the page sorts what it read instead of reading in order:\n{plan}"
        assert "filing " not in clocks.replace("filing_clock", ""), f"the filings are read to choose the clocks:\n{plan}"
    else:  # PostgreSQL chooses by its statistics (none in an empty table): one of the docket's indexes
        assert used and used <= {DOCKET_INDEX, DOCKET_TOWN_INDEX}, plan
        # the filings joined to the page's clocks only: the clocks' Limit under the joins, the filings after it
        lines = plan.splitlines()
        limit = next(i for i, line in enumerate(lines) if line.strip().startswith("->  Limit"))
        clocks = next(i for i, line in enumerate(lines) if " on filing_clock" in line)
        filings = next(i for i, line in enumerate(lines) if " on filing " in line)
        assert limit < clocks < filings, f"the filings are read to choose the clocks:\n{plan}"


@pytest.mark.parametrize("towns", [None, ["canton"]])
def test_the_other_dates_tab_reads_its_page_from_its_own_index(empty_store, towns):
    q = ScheduleQuery(towns=towns, until=AS_OF + timedelta(days=30), street="wash")
    plan = _plan(empty_store, other_dates_query(q, AS_OF))
    assert OTHER_DATES_INDEX in plan, f"{OTHER_DATES_INDEX} not used:\n{plan}"
    if empty_store.engine.dialect.name == "sqlite":
        assert "ORDER BY" not in plan, f"the page sorts what it read:\n{plan}"


def test_the_applications_submitted_online_are_found_through_the_state_index(empty_store):
    plan = _plan(empty_store, submitted_query())
    assert "ix_filing_state_id" in plan, f"ix_filing_state_id not used:\n{plan}"


def test_a_page_of_the_docket_lists_what_the_whole_view_lists_in_the_same_order(db_url):
    """The page's condition (lower(status), through the index) against the
    docket's own text condition (the whole view), on generated filings of
    every kind, for days across a year, each status filter, two scopes."""
    from demo.generate import generate

    store = Store(db_url)
    upgrade_store(store)
    import_filings(store, list(generate(400, AS_OF, seed=7)), by="test")
    seen = 0
    try:
        for as_of in (AS_OF - timedelta(days=200), AS_OF - timedelta(days=31), AS_OF, AS_OF + timedelta(days=90)):
            for towns, kinds in ((None, list(KINDS)), (["canton"], AGENT_KINDS), (["canton", "mansfield"], list(KINDS))):
                for status in (None, "open", "overdue"):
                    args = dict(as_of=as_of, within=14, towns=towns, kinds=kinds, status=status, open_only=True)
                    whole = docket(store, **args)
                    page = docket(store, **args, limit=len(whole) + 1)
                    assert page == whole, (as_of, towns, status)
                    assert docket(store, **args, limit=5) == whole[:5]
                    if status is None:
                        counts = docket_counts(store, as_of=as_of, within=14, towns=towns, kinds=kinds)
                        assert sum(counts.values()) == len(whole)
                    seen += len(whole)
    finally:
        store.engine.dispose()
    assert seen > 100  # the generated filings put deadlines on these dockets


def test_the_inspections_asked_for_online_are_found_through_their_own_index(empty_store):
    """The DPW schedule's requests (models/read/inspection_requests.py), not a
    pass over every event of the store (migration 0140)."""
    from models.read.inspection_requests import requested_query

    query = requested_query(towns=["canton"])
    plan = _plan(empty_store, query)
    assert "ix_event_inspection_requested" in plan, f"ix_event_inspection_requested not used:\n{plan}"


def test_the_deposits_are_summed_along_the_ledger_index(empty_store):
    from models.read.deposits import deposits_query

    plan = _plan(empty_store, deposits_query(towns=["canton"], state="closed").limit(100))
    assert "ix_ledger_entry_filing_party" in plan, f"ix_ledger_entry_filing_party not used:\n{plan}"


def test_every_town_kind_and_clock_id_is_lower_case_as_the_pages_test_them():
    """The pages test the filing's town and kind, and the clock's status and
    id, on ``lower(...)`` (models/schema/clock_indexes.py): a capital in an id
    would drop its rows from the pages and not from the exports."""
    from models.schema.clock_indexes import DOCKET_INDEX_STATUSES, OTHER_DATES_STATUSES
    from workflows.inspections import INSPECTION_CLOCKS
    from workflows.towns import registry

    ids = [*registry(), *KINDS, *INSPECTION_CLOCKS, *DOCKET_INDEX_STATUSES, *OTHER_DATES_STATUSES]
    ids += [c.id for p in registry().values() for rules in p.permits.values() for c in rules.clocks]
    assert ids and [i for i in ids if i != i.lower()] == []
