"""``permits sweep --dask ADDRESS`` from the command line (issue 36, item 3):
the chunk tasks run in the worker processes of a local two-worker Dask
cluster against a throwaway PostgreSQL store, the command's progress bar
counts every open filing (the tasks return their counts and the bar is told
here, in the client: it is never pickled for a worker), every output is
recorded once, and ``--notices N`` makes N notices in the whole run, not N
per worker, and the next run N more, none twice."""

from datetime import date

import pytest
from sqlalchemy import select
from storekit import fresh_postgres_database

from cli.main import main
from demo.generate import generate
from models.handle import Store
from models.schema.tables import SweepOutput
from services.database import upgrade_store
from services.imports import import_filings

AS_OF = date(2026, 11, 30)
FILINGS = 2000
LIMIT = 10


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as c:
        yield c


@pytest.fixture
def pg_store():
    url, drop = fresh_postgres_database()
    try:
        store = Store(url)
        upgrade_store(store)
        import_filings(store, generate(FILINGS, AS_OF, seed=13), by="test")
        store.engine.dispose()
        yield url
    finally:
        drop()


def _outputs(url) -> dict[str, tuple[int, int]]:
    """Per kind of output (notice, reminder...): rows recorded, and distinct (filing, key) pairs."""
    store = Store(url)
    with store.engine.connect() as conn:
        rows = conn.execute(select(SweepOutput.filing_id, SweepOutput.output_key)).all()
    store.engine.dispose()
    kinds = sorted({key.split(":")[0] for _, key in rows})
    return {
        k: (sum(key.split(":")[0] == k for _, key in rows), len({(f, key) for f, key in rows if key.split(":")[0] == k}))
        for k in kinds
    }


def _workers_that_swept(cluster) -> int:
    from distributed import Client

    with Client(cluster) as client:
        ran = client.run(lambda: "sweep.run" in __import__("sys").modules)
    return sum(ran.values())


def _sweep(url, cluster, out, capsys) -> tuple[str, str]:
    argv = ["sweep", "--db", url, "--as-of", AS_OF.isoformat(), "--out", str(out), "--chunk-size", "250"]
    code = main([*argv, "--dask", cluster.scheduler_address, "--notices", str(LIMIT)])
    got = capsys.readouterr()
    assert code == 0, got.err
    return got.out, got.err


def test_permits_sweep_dask_shows_progress_records_once_and_keeps_the_notice_limit_once(
    prefect_api, cluster, pg_store, tmp_path, capsys
):
    url = pg_store
    out, err = _sweep(url, cluster, tmp_path / "one", capsys)
    # the bar, told by the client as each chunk came back: started and finished, every open filing counted
    started = [line for line in err.splitlines() if line.startswith("sweep: ") and line.endswith("open filings...")]
    finished = [line for line in err.splitlines() if line.startswith("sweep: ") and " open filings in " in line]
    assert len(started) == 1 and len(finished) == 1, err
    total = started[0].removeprefix("sweep: ").split()[0]
    assert finished[0].startswith(f"sweep: {total} open filings in ") and int(total.replace(",", "")) > 1000
    assert "TypeError" not in err and "pickle" not in err
    assert _workers_that_swept(cluster) == 2  # the chunks ran in both worker processes

    first = _outputs(url)
    assert first["notice"] == (LIMIT, LIMIT)  # ten in all, not ten per worker
    assert all(rows == distinct for rows, distinct in first.values())  # each output recorded once
    assert f"{first['reminder'][0]} new reminders, {LIMIT} notices made" in out
    pending = int(out.split(f"{LIMIT} notices made, ")[1].split()[0])
    assert pending > LIMIT  # more were due: the limit, not the notices due, stopped it
    assert len(list((tmp_path / "one" / "notices").rglob("*.pdf"))) >= LIMIT

    out2, _ = _sweep(url, cluster, tmp_path / "two", capsys)
    second = _outputs(url)
    assert second["notice"] == (2 * LIMIT, 2 * LIMIT)  # ten more, none of the first ten again
    assert second["reminder"] == first["reminder"]  # the reminders were all made the first time
    assert f"0 new reminders, {LIMIT} notices made, {pending - LIMIT} notices pending" in out2


def test_the_progress_bar_travels_to_a_worker_only_as_a_relay_that_tells_no_one_there():
    """Why the bar is wrapped: it holds a lock, which cannot be pickled (the
    issue's TypeError); its Relay pickles, tells the bar where it was made,
    and its copy in another process tells no one."""
    import io
    import pickle

    from cli.progress import ProgressBar
    from services.sweep_flow import Relay

    bar = ProgressBar("sweep", total=500, stream=io.StringIO(), minimum=0)
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(bar.update)
    relay = Relay(bar.update)
    relay(250)
    copy = pickle.loads(pickle.dumps(relay))
    copy(250)
    assert bar.done == 250 and copy.callback is None
