"""The Today page's counts are summed from the docket's tally (migration
0130: the writers of ``filing_clock`` add the net change of the counts
they make, folds sum them), on SQLite and PostgreSQL, and they are the
counts of the clocks themselves joined to their filings: after an import,
a recording, a withdrawal and its void, a sweep, a rederive, folds forced
at every write, a migration from 0120, and writers recording at once while
folding."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
import storekit
from sqlalchemy import case, func, literal, select, text

import config
import models.store.docket_tally as tally
from models.handle import Store
from models.read.docket_counts import counts_query, docket_counts, indexed_docket, open_filings
from models.schema.tables import FilingClock, FilingRow
from services.database import upgrade_store
from services.imports import import_filings
from services.sweep import run_sweep
from workflows.rulebook import KINDS
from workflows.violations import VIOLATIONS

AS_OF = date(2026, 12, 1)
AGENT_KINDS = ["noi", "rda", "land-disturbance"]
CLOCK, FILING = FilingClock.__table__, FilingRow.__table__
IMPORTED = datetime(2026, 1, 1, tzinfo=UTC)  # the import's moment: a row the sweep rewrote has another
VIEWS = ((None, list(KINDS)), (["canton"], AGENT_KINDS), (["canton", "mansfield"], ["street-opening"]))


def _joined_counts(store: Store, *, as_of: date, within: int, towns, kinds) -> dict[str, int]:
    """The counts of the clocks themselves: each docket clock joined to its
    filing for the town, kind and state (as they were read before 0120)."""
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


def _assert_counts_agree(store: Store) -> int:
    """The tally's counts equal the clocks' in every view, on days before,
    on and after AS_OF; how many deadlines they counted in all."""
    compared = 0
    for as_of in (AS_OF - timedelta(days=200), AS_OF - timedelta(days=31), AS_OF, AS_OF + timedelta(days=90)):
        for towns, kinds in VIEWS:
            for within in (0, 14):
                args = dict(as_of=as_of, within=within, towns=towns, kinds=kinds)
                counted = docket_counts(store, **args)
                assert counted == _joined_counts(store, **args), args
                compared += sum(counted.values())
    return compared


def _tally(store: Store) -> tuple[int, int, int]:
    """(rows, keys, the sum of n) of the tally."""
    with store.reader.connect() as conn:
        return tuple(
            conn.execute(
                text(
                    "SELECT count(*), (SELECT count(*) FROM (SELECT DISTINCT status, date, town, kind FROM docket_tally) AS k),"
                    " coalesce(sum(n), 0) FROM docket_tally"
                )
            ).one()
        )


def _generated(store: Store, n: int = 400, seed: int = 7) -> None:
    from demo.generate import generate

    upgrade_store(store)
    import_filings(store, list(generate(n, AS_OF, seed=seed)), by="test")


def _open_with_a_deadline(store: Store, kind: str = "noi", limit: int = 1) -> list[tuple[str, int]]:
    """Open filings of ``kind`` with a deadline due: (id, last seq)."""
    with store.reader.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                select(FILING.c.id, FILING.c.last_seq)
                .join(CLOCK, CLOCK.c.filing_id == FILING.c.id)
                .where(FILING.c.kind == kind, CLOCK.c.status == "due", CLOCK.c.filing_open.is_(True))
                .group_by(FILING.c.id, FILING.c.last_seq)
                .order_by(FILING.c.id)
                .limit(limit)
            )
        ]


def _plan(store: Store, query) -> str:
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql))
        return "\n".join(str(r[3]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))


@pytest.mark.parametrize("towns, kinds", [(None, list(KINDS)), (["canton"], AGENT_KINDS)])
def test_the_counts_read_the_tally_and_no_clock_or_filing(db_url, towns, kinds):
    store = Store(db_url)
    upgrade_store(store)
    try:
        plan = _plan(store, counts_query(as_of=AS_OF, within=14, towns=towns, kinds=kinds))
    finally:
        store.engine.dispose()
    assert "docket_tally" in plan, plan
    assert "filing_clock" not in plan and "filing " not in plan and "filing_pkey" not in plan, plan


def _derived(store) -> dict:
    """Each filing's stored state, next deadline and clocks (id, date, status)."""
    with store.reader.connect() as conn:
        rows = {
            r.id: [(r.state, str(r.next_deadline_date), r.next_deadline_clock)]
            for r in conn.execute(select(FILING.c.id, FILING.c.state, FILING.c.next_deadline_date, FILING.c.next_deadline_clock))
        }
        for fid, cid, day, status in conn.execute(
            select(CLOCK.c.filing_id, CLOCK.c.clock_id, CLOCK.c.date, CLOCK.c.status).order_by(CLOCK.c.filing_id, CLOCK.c.n)
        ):
            rows[fid].append((cid, str(day), status))
    return rows


def test_the_tally_counts_equal_the_clocks_after_a_withdrawal_its_void_and_a_sweep(db_url, tmp_path):
    store = Store(db_url, now=lambda: IMPORTED)
    _generated(store)
    try:
        assert _assert_counts_agree(store) > 100  # the generated filings put deadlines on these dockets
        # an open NOI with a deadline due on the docket is withdrawn: a final state
        [(fid, seq)] = _open_with_a_deadline(store)
        before = docket_counts(store, as_of=AS_OF, within=14, towns=None, kinds=list(KINDS))
        filing, _ = store.load(fid)
        day = max(e.date for e in filing.events)
        assert (
            storekit.append(store, fid, {"type": "withdrawn", "date": day.isoformat()}, by="test", expect_seq=seq)[1]
            == "withdrawn"
        )
        after = docket_counts(store, as_of=AS_OF, within=14, towns=None, kinds=list(KINDS))
        assert sum(after.values()) < sum(before.values())  # its deadlines left the counts
        _assert_counts_agree(store)
        # the withdrawal voided: the filing is open again, its deadlines back
        storekit.void(store, fid, seq + 1, reason="recorded on the wrong filing", day=day, by="test", expect_seq=seq + 1)
        assert docket_counts(store, as_of=AS_OF, within=14, towns=None, kinds=list(KINDS)) == before
        _assert_counts_agree(store)
        # the sweep rewrites exactly the open filings whose state, next
        # deadline or clocks changed since their import (models/outputs.save_derived)
        derived = _derived(store)
        run_sweep(AS_OF, db_url, str(tmp_path / "out"), config.load(), use_prefect=False, make_notices=False)
        with store.reader.connect() as conn:
            rewritten = set(conn.execute(select(FILING.c.id).where(FILING.c.updated_at > IMPORTED)).scalars())
        changed = {fid for fid, rows in _derived(store).items() if rows != derived.get(fid)}
        assert len(changed) > 50 and rewritten - {fid} == changed - {fid}  # the withdrawn-then-voided one was written by hand
        _assert_counts_agree(store)
    finally:
        store.engine.dispose()


def _recount(conn) -> None:
    """The tally made again from the clocks as they stand (as migration
    0130 fills it): a store whose clocks were written before the tally."""
    conn.execute(text("DELETE FROM docket_tally"))
    conn.execute(
        text(
            "INSERT INTO docket_tally (status, date, town, kind, n) SELECT status, date, filing_town, filing_kind, count(*)"
            " FROM filing_clock WHERE filing_open AND status IN ('due', 'premature', 'runs', 'unknown', 'violated')"
            " GROUP BY status, date, filing_town, filing_kind"
        )
    )


def test_the_tally_follows_a_rederive(db_url):
    from services.rederive import rederive

    store = Store(db_url, now=lambda: IMPORTED)
    _generated(store, 200, seed=11)
    try:
        # a store whose NOIs' clocks were never derived (as one built before
        # a clock existed), tallied as 0130 tallies it: rederive writes them,
        # and the tally follows
        with store.engine.begin() as conn:
            assert conn.execute(CLOCK.delete().where(CLOCK.c.filing_kind == "noi")).rowcount > 0
            _recount(conn)
        _assert_counts_agree(store)
        assert rederive(store, by="test").clocks_changed > 0
        assert _assert_counts_agree(store) > 100
    finally:
        store.engine.dispose()


def test_a_clock_rewritten_as_it_was_adds_nothing_to_the_tally(db_url, tmp_path):
    """Every open filing's clocks rewritten as they were add no row (the
    counts' net change is nothing); and the sweep of the same day again,
    every open filing (``--all``), finds nothing changed and rewrites
    no filing's clocks."""
    from models.store.filings import derive, write_derived

    store = Store(db_url, now=lambda: IMPORTED)
    later = Store(db_url, now=lambda: IMPORTED + timedelta(days=400))
    _generated(store, 150, seed=17)
    try:
        run_sweep(AS_OF, db_url, str(tmp_path / "out"), config.load(), use_prefect=False, make_notices=False)
        with store.engine.begin() as conn:
            tally.fold(conn)
        before = _tally(store)
        with store.reader.connect() as conn:
            written = conn.execute(select(func.max(FILING.c.updated_at))).scalar()
        # the same day swept again, whole: nothing changed, nothing rewritten
        run_sweep(AS_OF, db_url, str(tmp_path / "again"), config.load(), use_prefect=False, make_notices=False, everything=True)
        with store.reader.connect() as conn:
            assert conn.execute(select(func.max(FILING.c.updated_at))).scalar() == written
        assert _tally(store) == before
        # every filing's clocks rewritten as they were, by the one writer
        rows = store.list_filings()
        with later.engine.begin() as conn:
            for row in rows:
                filing, kept = store.load(row.id, conn)
                d = derive(filing, store.replayer, kept.derived_on)
                assert write_derived(conn, row.id, d, later.now(), last_seq=None)
        with store.reader.connect() as conn:
            assert conn.execute(select(func.max(FILING.c.updated_at))).scalar() > written  # rewritten
        assert _tally(store) == before  # not one row added
        _assert_counts_agree(store)
    finally:
        later.engine.dispose()
        store.engine.dispose()


def test_a_fold_changes_no_count_and_leaves_one_row_per_key(db_url):
    store = Store(db_url)
    _generated(store, 300, seed=3)
    try:
        fid, seq = _open_with_a_deadline(store)[0]
        filing, _ = store.load(fid)
        day = max(e.date for e in filing.events)
        storekit.append(store, fid, {"type": "withdrawn", "date": day.isoformat()}, by="test", expect_seq=seq)
        rows, keys, total = _tally(store)
        assert rows > keys  # the withdrawal's changes are rows of their own
        counts = [docket_counts(store, as_of=AS_OF, within=14, towns=t, kinds=k) for t, k in VIEWS]
        with store.engine.begin() as conn:
            left = tally.fold(conn)
        after_rows, after_keys, after_total = _tally(store)
        assert left == after_rows == after_keys <= keys and after_total == total
        with store.reader.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM docket_tally WHERE n = 0")).scalar() == 0
            upto, kept = conn.execute(text("SELECT upto, rows FROM docket_tally_fold")).one()
            assert kept == after_rows and upto == conn.execute(text("SELECT max(id) FROM docket_tally")).scalar()
        assert [docket_counts(store, as_of=AS_OF, within=14, towns=t, kinds=k) for t, k in VIEWS] == counts
        _assert_counts_agree(store)
    finally:
        store.engine.dispose()


def test_a_writer_folds_once_the_changes_outnumber_the_folded_rows(db_url, monkeypatch):
    store = Store(db_url)
    _generated(store, 300, seed=5)
    try:
        monkeypatch.setattr(tally, "FOLD_AFTER", 0)
        with store.engine.begin() as conn:
            tally.fold(conn)
        rows, keys, _ = _tally(store)
        assert rows == keys
        with store.engine.begin() as conn:
            assert tally.settle(conn) is False  # nothing written since
        with store.engine.begin() as conn:  # changes fewer than the folded rows: kept as they are
            conn.execute(
                text("INSERT INTO docket_tally (status, date, town, kind, n) VALUES ('due', :d, 'canton', 'noi', 1)"),
                {"d": AS_OF},
            )
            conn.execute(
                text("INSERT INTO docket_tally (status, date, town, kind, n) VALUES ('due', :d, 'canton', 'noi', -1)"),
                {"d": AS_OF},
            )
            assert tally.settle(conn) is False
        assert _tally(store)[0] == rows + 2
        with store.engine.begin() as conn:  # as many changes as the folded rows and more: folded
            for _ in range(rows // 2 + 1):
                for n in (1, -1):
                    conn.execute(
                        text("INSERT INTO docket_tally (status, date, town, kind, n) VALUES ('due', :d, 'canton', 'noi', :n)"),
                        {"d": AS_OF, "n": n},
                    )
            assert tally.settle(conn) is True
        assert _tally(store)[0] == keys
        _assert_counts_agree(store)
    finally:
        store.engine.dispose()


def test_folding_at_every_write_keeps_every_count(db_url, monkeypatch):
    """FOLD_AFTER and FOLD_RATIO 0: every recording that changes a count folds."""
    monkeypatch.setattr(tally, "FOLD_AFTER", 0)
    monkeypatch.setattr(tally, "FOLD_RATIO", 0)
    store = Store(db_url)
    _generated(store, 120, seed=9)
    try:
        folds = 0
        for fid, seq in _open_with_a_deadline(store, "noi", limit=6):
            filing, _ = store.load(fid)
            day = max(e.date for e in filing.events)
            storekit.append(store, fid, {"type": "withdrawn", "date": day.isoformat()}, by="test", expect_seq=seq)
            with store.reader.connect() as conn:
                folds += (
                    conn.execute(
                        text("SELECT count(*) FROM docket_tally WHERE id > (SELECT upto FROM docket_tally_fold)")
                    ).scalar()
                    == 0
                )
            _assert_counts_agree(store)
        assert folds == 6
    finally:
        store.engine.dispose()


def test_a_store_at_0120_is_tallied_by_the_migration(db_url, tmp_path):
    from storekit import import_at_old_schema

    from demo.generate import generate
    from models.schema.db import make_engine

    engine = make_engine(db_url)
    storekit.migrate(engine, "0120")
    engine.dispose()
    import_at_old_schema(db_url, list(generate(200, AS_OF, seed=13)), tmp_path)
    store = Store(db_url)
    upgrade_store(store)
    try:
        assert _assert_counts_agree(store) > 50
        rows, keys, total = _tally(store)
        assert rows == keys and total > 0
    finally:
        store.engine.dispose()


def test_writers_recording_at_once_while_folding_lose_no_change(db_url, monkeypatch):
    """Four threads withdraw and void filings at once, each write folding
    (FOLD_AFTER and FOLD_RATIO 0): on PostgreSQL the folds and the writers'
    changes cross, and every count still equals the clocks'."""
    monkeypatch.setattr(tally, "FOLD_AFTER", 0)
    monkeypatch.setattr(tally, "FOLD_RATIO", 0)
    store = Store(db_url)
    _generated(store, 300, seed=21)
    targets = _open_with_a_deadline(store, "noi", limit=8) + _open_with_a_deadline(store, "land-disturbance", limit=8)
    errors: list[BaseException] = []

    def writer(mine):
        try:
            for fid, seq in mine:
                filing, _ = store.load(fid)
                day = max(e.date for e in filing.events)
                storekit.append(store, fid, {"type": "withdrawn", "date": day.isoformat()}, by="test", expect_seq=seq)
                storekit.void(store, fid, seq + 1, reason="test", day=day, by="test", expect_seq=seq + 1)
                storekit.append(store, fid, {"type": "withdrawn", "date": day.isoformat()}, by="test", expect_seq=seq + 2)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(targets[k::4],)) for k in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not errors, errors
        assert len(targets) == 16
        _assert_counts_agree(store)
    finally:
        store.engine.dispose()
