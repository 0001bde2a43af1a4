"""The daily sweep as a real Prefect flow on a real ``prefect server``
(one per session: the ``prefect_api`` fixture).  Checked through the
Prefect client: the flow run completed, with a task per chunk."""

import asyncio
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from demo.generate import generate
from services.database import upgrade_store
from services.imports import import_filings
from sweep.ledger import DirectorySource, SqliteLedger, write_jsonl
from sweep.report import build_digest
from sweep.run import run_sweep

AS_OF = date(2026, 11, 30)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flow-store")
    write_jsonl(folder / "filings.jsonl", generate(120, AS_OF, seed=21))
    return folder


def _flow_run(name: str):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterName, TaskRunFilter, TaskRunFilterFlowRunId

    async def read():
        async with get_client() as client:
            runs = await client.read_flow_runs(flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=[name])))
            assert len(runs) == 1
            tasks = await client.read_task_runs(
                task_run_filter=TaskRunFilter(flow_run_id=TaskRunFilterFlowRunId(any_=[runs[0].id]))
            )
            return runs[0], tasks

    return asyncio.run(read())


def test_the_flow_on_a_real_server_completes_and_matches_the_plain_call(prefect_api, store, tmp_path):
    import shutil

    from services import sweep_flow as flows

    # Prefect's own database is PostgreSQL wherever PostgreSQL is installed.
    assert prefect_api.database or not shutil.which("initdb")
    plain_log = SqliteLedger(tmp_path / "plain.sqlite")
    plain = build_digest(run_sweep(DirectorySource(store), plain_log, AS_OF, chunk_size=50))
    plain_log.close()

    state = flows.daily_sweep.with_options(flow_run_name="sweep-real-1")(
        as_of=AS_OF,
        filings=str(store),
        ledger=str(tmp_path / "flow.sqlite"),
        out=str(tmp_path / "out"),
        chunk_size=50,
        make_notices=False,
        return_state=True,
    )
    flows.close_parts()
    assert state.is_completed()
    assert state.result()["digest"]["counts"] == plain["counts"]  # the summary; the file holds it all (below)
    run, tasks = _flow_run("sweep-real-1")
    assert run.state.is_completed()
    names = sorted(t.name.rsplit("-", 1)[0] for t in tasks)
    assert names == ["sweep-chunk"] * 3 + ["write-sweep-outputs"]  # 120 filings, chunks of 50
    assert all(t.state.is_completed() for t in tasks)
    assert json.loads((tmp_path / "out" / "digest.json").read_text()) == plain


def test_a_failing_chunk_is_retried_and_nothing_is_made_twice(prefect_api, store, tmp_path, monkeypatch):
    from services import sweep_flow as flows
    from sweep import run as sweep

    real, calls = sweep.process_chunk, []

    def flaky(filings, as_of, log, **kw):
        calls.append(len(filings))
        if len(calls) == 1:
            real(filings[:10], as_of, log, **kw)  # half done, then the failure
            raise OSError("disk hiccup")
        return real(filings, as_of, log, **kw)

    monkeypatch.setattr(sweep, "process_chunk", flaky)
    state = flows.daily_sweep.with_options(flow_run_name="sweep-real-2")(
        as_of=AS_OF,
        filings=str(store),
        ledger=str(tmp_path / "flow.sqlite"),
        out=str(tmp_path / "out"),
        chunk_size=60,
        make_notices=False,
        return_state=True,
    )
    flows.close_parts()
    assert state.is_completed()
    assert len(calls) == 3  # two chunks, the first one twice
    monkeypatch.setattr(sweep, "process_chunk", real)
    clean = SqliteLedger(tmp_path / "clean.sqlite")
    run_sweep(DirectorySource(store), clean, AS_OF, chunk_size=60)
    retried = SqliteLedger(tmp_path / "flow.sqlite")
    assert retried.outputs() == clean.outputs()
    retried.close()
    clean.close()


def test_permits_sweep_command_runs_the_flow_on_the_server(prefect_api, tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    write_jsonl(store / "filings.jsonl", generate(30, AS_OF, seed=21))  # small: it makes real PDFs
    env = {
        "PATH": "/usr/bin:/bin",
        "PREFECT_API_URL": prefect_api.url,
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PERMITS_DATA_DIR": str(tmp_path / "data"),
        "HOME": str(tmp_path),
    }
    permits = Path(sys.executable).with_name("permits")
    r = subprocess.run(
        [str(permits), "sweep", "--as-of", "2026-11-30", "--filings", str(store), "--out", str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "Permit docket for 2026-11-30" in r.stdout
    said = r.stderr.splitlines()  # the stages, on standard error beside the bar
    assert said[0] == "permits: Loading Prefect..." and said[1].startswith("permits: Prefect is ready (")
    assert not any("Starting Prefect's local server" in line for line in said)  # a server was named
    assert (tmp_path / "out" / "digest.html").is_file()
    made = json.loads((tmp_path / "out" / "notices.json").read_text())["notices"]
    assert made and any((tmp_path / "out" / "notices").rglob("*.pdf"))
    assert not (tmp_path / "data" / "prefect").exists()  # a server was named: no embedded home
    listed = subprocess.run(
        [str(permits), "sweep", "--as-of", "2026-11-30", "--filings", str(store), "--out", str(tmp_path / "listed")]
        + ["--ledger", str(tmp_path / "fresh.sqlite"), "--no-notices"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    assert "0 notices made" in listed.stdout and not list((tmp_path / "listed").rglob("*.pdf"))


def test_prefect_yaml_deploys_the_daily_sweep_on_a_weekday_schedule(prefect_api, tmp_path):
    root = Path(__file__).resolve().parents[2]
    prefect = str(Path(sys.executable).with_name("prefect"))
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "PREFECT_API_URL": prefect_api.url,
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PERMITS_CHECKOUT": str(root),
    }
    run = lambda *args: subprocess.run(
        [prefect, "--no-prompt", *args],
        cwd=root,
        env=env,  # noqa: E731
        capture_output=True,
        text=True,
        timeout=120,
    )
    made = run("work-pool", "create", "permits", "--type", "process")
    assert made.returncode == 0, made.stdout + made.stderr
    deployed = run("deploy", "--all")
    assert deployed.returncode == 0, deployed.stdout + deployed.stderr

    from prefect.client.orchestration import get_client

    async def read():
        async with get_client() as client:
            return await client.read_deployment_by_name("daily-sweep/daily-sweep")

    deployment = asyncio.run(read())
    assert deployment.work_pool_name == "permits"
    assert deployment.entrypoint == "services/sweep_flow.py:daily_sweep"
    [schedule] = deployment.schedules
    assert schedule.schedule.cron == "0 6 * * 1-5" and schedule.schedule.timezone == "America/New_York"


def test_the_flow_on_the_store_records_its_outputs_there_by_default(prefect_api, tmp_path):
    from sqlalchemy import func, select

    from models.handle import Store
    from models.schema.tables import SweepOutput
    from services import sweep_flow as flows

    url = f"sqlite:///{tmp_path / 'permits.db'}"
    db = Store(url)
    upgrade_store(db)
    import_filings(db, generate(60, AS_OF, seed=21), by="test")

    def run(name):
        state = flows.daily_sweep.with_options(flow_run_name=name)(
            as_of=AS_OF, filings=url, out=str(tmp_path / name), chunk_size=25, make_notices=False, return_state=True
        )
        flows.close_parts()
        assert state.is_completed()
        return state.result()["counts"]

    first = run("sweep-store-1")
    with db.engine.connect() as conn:
        recorded = conn.execute(select(func.count()).select_from(SweepOutput.__table__)).scalar()
    assert first["reminders_new"] > 0 and recorded == first["reminders_new"]
    assert run("sweep-store-2")["reminders_new"] == 0
    db.engine.dispose()


def test_the_embedded_prefect_home_is_the_settings_own_folder_made_in_a_new_data_directory(tmp_path, monkeypatch):
    """A first ``make demo`` on a new machine: Prefect's home is
    DATA_DIR/prefect, made before Prefect starts (a missing parent made the
    temporary server time out)."""
    import config
    from sweep.prefect_env import configure_embedded

    for name in ("PREFECT_API_URL", "PREFECT_HOME"):
        monkeypatch.delenv(name, raising=False)
    settings = config.load({"PERMITS_DATA_DIR": str(tmp_path / "new")})
    with monkeypatch.context() as m:
        m.setattr("os.environ", dict(os.environ))
        done = configure_embedded(settings.prefect_home)
        assert done["PREFECT_HOME"] == str(tmp_path / "new" / "prefect") == os.environ["PREFECT_HOME"]
    assert (tmp_path / "new" / "prefect").is_dir()


def test_a_sweep_that_starts_prefects_own_server_says_so_before_it_waits_for_it(prefect_api, store, tmp_path, monkeypatch):
    """The quick start's first run: no server named, so Prefect's temporary
    one starts (20-30 s the first time); the sweep says so before it starts
    it and when it is up, then counts the filings.  (The server started here
    is the session's: starting a second would cost the suite half a minute.)"""
    import config
    from services import sweep_flow as flows
    from services.sweep import run_sweep

    events = []
    monkeypatch.setattr(flows, "embedded_server_wanted", lambda: True)
    monkeypatch.setattr(flows, "start_embedded_server", lambda: events.append("server started"))

    class Bar:
        def start(self, total):
            events.append(f"start {total}")

        def update(self, n):
            events.append("update")

    settings = config.load()
    run_sweep(AS_OF, str(store), str(tmp_path / "out"), settings, make_notices=False, progress=Bar(), say=events.append)
    assert events[:4] == [
        "Loading Prefect...",
        "Starting Prefect's local server (a first run creates its database: 20-30 s)...",
        "server started",
        events[3],
    ]
    assert events[3].startswith("Prefect is ready (") and events[4].startswith("start ") and "update" in events
