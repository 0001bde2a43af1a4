"""The schedule's Inspections tab reads its page through the partial index
of migration 0045 (ix_filing_clock_inspection), on SQLite and on
PostgreSQL: the query's predicate is the index's own, or the plan would
read every clock of the store."""

from __future__ import annotations

from datetime import date

from models.handle import Store
from models.read.inspection_schedule import ScheduleQuery, inspections_query
from services.database import upgrade_store

INDEX = "ix_filing_clock_inspection"


def _plan(store: Store, q: ScheduleQuery) -> str:
    query = inspections_query(q)
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            conn.exec_driver_sql("SET enable_seqscan = off")  # an empty table: make the planner show its choice
            return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql))
        return "\n".join(str(r[3]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))


def test_the_inspections_page_is_read_through_the_partial_index(db_url):  # noqa: F811
    store = Store(db_url)
    upgrade_store(store)
    for q in (
        ScheduleQuery(towns=None, until=date(2026, 12, 31)),
        ScheduleQuery(towns=["canton"], until=date(2026, 12, 31), since=date(2026, 12, 1), street="pleasant"),
    ):
        plan = _plan(store, q)
        assert INDEX in plan, f"{INDEX} not used:\n{plan}"
    store.engine.dispose()


def test_the_index_holds_only_the_inspection_clocks(db_url):  # noqa: F811
    from sqlalchemy import inspect

    store = Store(db_url)
    upgrade_store(store)
    indexes = {i["name"]: i for i in inspect(store.engine).get_indexes("filing_clock")}
    store.engine.dispose()
    assert indexes[INDEX]["column_names"] == ["status", "date", "filing_id"]
