"""The Today page's counts are read from ``ix_filing_clock_counts`` alone
(migration 0120: each clock carries its filing's town, kind and whether the
filing is open), on SQLite and PostgreSQL, and they are the counts the join
to the filing table gave before: on generated filings, after a filing moved
to a final state (its clocks leave the counts) and after the sweep rewrote
the clocks (its writes fill the columns too)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import case, func, literal, select

import config
from models.clock_indexes import COUNTS_INDEX
from models.docket_counts import counts_query, docket_counts, indexed_docket, open_filings
from models.service import Store
from models.tables import FilingClock, FilingRow
from services.sweep import run_sweep
from workflows.rulebook import KINDS
from workflows.violations import VIOLATIONS

AS_OF = date(2026, 12, 1)
AGENT_KINDS = ["noi", "rda", "land-disturbance"]
CLOCK, FILING = FilingClock.__table__, FilingRow.__table__
IMPORTED = datetime(2026, 1, 1, tzinfo=UTC)  # the import's moment: a row the sweep rewrote has another


def _joined_counts(store: Store, *, as_of: date, within: int, towns, kinds) -> dict[str, int]:
    """The counts as they were read before 0120: each docket clock joined to
    its filing for the town, kind and state."""
    category = case(
        (CLOCK.c.status.in_(sorted(VIOLATIONS)), literal("violation")),
        (CLOCK.c.status == "unknown", literal("due")),
        (CLOCK.c.date < as_of, literal("overdue")),
        else_=literal("due"),
    )
    query = (
        select(category, func.count())
        .select_from(CLOCK.join(FILING, FILING.c.id == CLOCK.c.filing_id))
        .where(indexed_docket(as_of, as_of + timedelta(days=within)))
        .where(FILING.c.kind.in_(list(kinds)), open_filings(kinds))
        .group_by(category)
    )
    if towns is not None:
        query = query.where(FILING.c.town.in_(list(towns)))
    with store.reader.connect() as conn:
        found = dict(conn.execute(query).all())
    return {c: int(found.get(c, 0)) for c in ("overdue", "due", "violation")}


def _plan(store: Store, query) -> str:
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            conn.exec_driver_sql("SET enable_seqscan = off")  # an empty table: make the planner show its choice
            return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql))
        return "\n".join(str(r[3]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))


@pytest.mark.parametrize("towns, kinds", [(None, list(KINDS)), (["canton"], AGENT_KINDS)])
def test_the_counts_are_read_from_the_counts_index_alone(db_url, towns, kinds):
    store = Store(db_url)
    store.upgrade()
    try:
        plan = _plan(store, counts_query(as_of=AS_OF, within=14, towns=towns, kinds=kinds))
    finally:
        store.engine.dispose()
    if store.engine.dialect.name == "postgresql":
        assert f"Index Only Scan using {COUNTS_INDEX}" in plan, plan
    else:
        assert f"COVERING INDEX {COUNTS_INDEX}" in plan, plan
    assert "filing_pkey" not in plan and "SEARCH filing " not in plan and " on filing " not in plan, plan


def _clock_filing(store: Store, fid: str) -> set[tuple]:
    with store.reader.connect() as conn:
        rows = conn.execute(select(CLOCK.c.filing_town, CLOCK.c.filing_kind, CLOCK.c.filing_open).where(CLOCK.c.filing_id == fid))
        return {tuple(r) for r in rows}


def test_the_indexed_counts_equal_the_joined_counts_after_a_withdrawal_and_a_sweep(db_url, tmp_path):
    from demo.generate import generate

    store = Store(db_url, now=lambda: IMPORTED)
    store.upgrade()
    store.import_filings(list(generate(400, AS_OF, seed=7)), by="test")
    # an open NOI with a deadline due on the docket is withdrawn: a final state
    with store.reader.connect() as conn:
        fid, seq, last = conn.execute(
            select(FILING.c.id, FILING.c.last_seq, func.max(CLOCK.c.date))
            .join(CLOCK, CLOCK.c.filing_id == FILING.c.id)
            .where(FILING.c.kind == "noi", CLOCK.c.status == "due", CLOCK.c.filing_open.is_(True))
            .group_by(FILING.c.id, FILING.c.last_seq)
            .order_by(FILING.c.id)
            .limit(1)
        ).one()
    before = docket_counts(store, as_of=AS_OF, within=14, towns=None, kinds=list(KINDS))
    filing, _ = store.load(fid)
    day = max(e.date for e in filing.events)
    assert store.record(fid, {"type": "withdrawn", "date": day.isoformat()}, by="test", expect_seq=seq)[1] == "withdrawn"
    assert _clock_filing(store, fid) == {(filing.town, "noi", False)}
    after = docket_counts(store, as_of=AS_OF, within=14, towns=None, kinds=list(KINDS))
    assert after != before and sum(after.values()) < sum(before.values())  # its deadlines left the counts
    # the sweep rewrites the open filings' clocks (models/outputs.save_derived)
    run_sweep(AS_OF, db_url, str(tmp_path / "out"), config.load(), use_prefect=False, make_notices=False)
    with store.reader.connect() as conn:
        rewritten = conn.execute(select(func.count()).select_from(FILING).where(FILING.c.updated_at > IMPORTED)).scalar()
    assert rewritten > 100
    try:
        compared = 0
        for as_of in (AS_OF - timedelta(days=200), AS_OF - timedelta(days=31), AS_OF, AS_OF + timedelta(days=90)):
            for towns, kinds in ((None, list(KINDS)), (["canton"], AGENT_KINDS), (["canton", "mansfield"], ["street-opening"])):
                for within in (0, 14):
                    args = dict(as_of=as_of, within=within, towns=towns, kinds=kinds)
                    indexed = docket_counts(store, **args)
                    assert indexed == _joined_counts(store, **args), args
                    compared += sum(indexed.values())
        assert compared > 100  # the generated filings put deadlines on these dockets
    finally:
        store.engine.dispose()
