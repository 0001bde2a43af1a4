"""The daily sweep's chunk tasks on a Dask cluster of two worker processes
(Prefect's DaskTaskRunner), against a throwaway PostgreSQL store: every
reminder and notice is recorded exactly once, a second sweep makes nothing
new, and the digest is the plain call's."""

import json
from datetime import date

import pytest
from sqlalchemy import func, select
from storekit import fresh_postgres_database

from demo.generate import generate
from models.handle import Store
from models.schema.tables import SweepOutput
from services.database import upgrade_store
from services.imports import import_filings
from services.sweep_log import open_log
from sweep.report import build_digest
from sweep.run import run_sweep
from sweep.store_source import StoreSource

AS_OF = date(2026, 11, 30)
FILINGS = 2000


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as c:
        yield c


def _outputs(url) -> tuple[int, int]:
    store = Store(url)
    with store.engine.connect() as conn:
        rows = conn.execute(select(func.count()).select_from(SweepOutput)).scalar()
        distinct = conn.execute(
            select(func.count()).select_from(select(SweepOutput.filing_id, SweepOutput.output_key).distinct().subquery())
        ).scalar()
    store.engine.dispose()
    return rows, distinct


def _workers_that_swept(cluster) -> int:
    from distributed import Client

    with Client(cluster) as client:
        ran = client.run(lambda: "sweep.run" in __import__("sys").modules)
    return sum(ran.values())


def test_the_sweep_on_a_two_worker_dask_cluster_makes_every_output_exactly_once(prefect_api, cluster, tmp_path):
    from services import sweep_flow as flows

    url, drop = fresh_postgres_database()
    plain_url, plain_drop = fresh_postgres_database()
    try:
        for u in (url, plain_url):
            store = Store(u)
            upgrade_store(store)
            import_filings(store, generate(FILINGS, AS_OF, seed=13), by="test")
            store.engine.dispose()
        source = StoreSource(plain_url)
        plain = run_sweep(source, open_log(plain_url, source), AS_OF, chunk_size=250)
        source.store.engine.dispose()

        on_dask = flows.daily_sweep.with_options(task_runner=flows.task_runner(cluster.scheduler_address))
        first = on_dask(as_of=AS_OF, filings=url, ledger=url, out=str(tmp_path / "one"), chunk_size=250, make_notices=False)
        flows.close_parts()
        made = first["counts"]["reminders_new"]
        rows, distinct = _outputs(url)
        assert first["counts"]["filings"] == plain.counts()["filings"] > 1000  # the open filings of the 2,000
        assert made > 0 and rows == distinct == made == plain.counts()["reminders_new"]
        assert json.loads((tmp_path / "one" / "digest.json").read_text()) == build_digest(plain)
        assert _workers_that_swept(cluster) == 2  # the chunks ran in both worker processes, not here

        second = on_dask(as_of=AS_OF, filings=url, ledger=url, out=str(tmp_path / "two"), chunk_size=250, make_notices=False)
        flows.close_parts()
        assert second["counts"]["reminders_new"] == 0
        assert _outputs(url) == (rows, distinct)
    finally:
        drop()
        plain_drop()
