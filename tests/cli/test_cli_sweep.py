"""`permits sweep` and `permits demo` as plain calls (no Prefect server in
unit tests: starting one costs seconds a test); the real flow runs in tests/sweep/test_flow_real.py."""

import json
import re
from datetime import date

from cli.main import main
from demo.generate import generate
from services.database import upgrade_store
from services.imports import import_filings
from sweep.ledger import write_jsonl


def test_demo_without_prefect_sweeps_generated_filings_into_a_named_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--no-prefect", "--no-serve", "--as-of", "2026-11-30", "--count", "200"]) == 0
    out = capsys.readouterr().out
    for name in ("Canton", "Saugus", "Mansfield", "Wetlands Protection Act"):
        assert name in out
    assert "overdue" in out and "Outputs in out/demo-2026-11-30/" in out
    folder = tmp_path / "out" / "demo-2026-11-30"
    for name in (
        "digest.html",
        "digest.json",
        "inspection-schedule.html",
        "inspection-schedule.json",
        "reminders.json",
        "notices.json",
    ):
        assert (folder / name).is_file(), name
    assert {p.name for p in (folder / "ics").iterdir()} >= {
        "canton-dpw.ics",
        "canton-conservation.ics",
        "saugus-conservation.ics",
        "mansfield-conservation.ics",
    }


def test_sweep_without_prefect_reads_a_store_and_is_safe_to_rerun(tmp_path, capsys):
    store = tmp_path / "store"
    store.mkdir()
    write_jsonl(store / "f.jsonl", generate(40, date(2026, 11, 30), seed=9))
    args = [
        "sweep",
        "--no-prefect",
        "--as-of",
        "2026-11-30",
        "--filings",
        str(store),
        "--ledger",
        str(tmp_path / "l.sqlite"),
        "--out",
        str(tmp_path / "out"),
    ]
    assert main(args) == 0
    first = capsys.readouterr().out
    digest = json.loads((tmp_path / "out" / "digest.json").read_text())
    assert digest["counts"]["filings"] == 40
    assert main(args) == 0
    second = capsys.readouterr().out
    assert "\n0 new reminders, 0 notices made" in second
    made = re.search(r"\n(\d+) new reminders, (\d+) notices made", first)
    assert int(made[1]) + int(made[2]) > 0
    assert first.split("\n\n")[0] == second.split("\n\n")[0]


def test_sweep_with_no_notices_lists_them_pending_and_a_later_sweep_makes_them(tmp_path, capsys):
    store = tmp_path / "store"
    store.mkdir()
    write_jsonl(store / "f.jsonl", generate(40, date(2026, 11, 30), seed=9))
    args = ["sweep", "--no-prefect", "--as-of", "2026-11-30", "--filings", str(store), "--ledger", str(tmp_path / "l.sqlite")]
    assert main([*args, "--out", str(tmp_path / "listed"), "--no-notices"]) == 0
    listed = re.search(r"(\d+) notices made, (\d+) notices pending", capsys.readouterr().out)
    assert int(listed[1]) == 0 and int(listed[2]) > 0
    assert not list((tmp_path / "listed").rglob("*.pdf"))
    pending = json.loads((tmp_path / "listed" / "notices.json").read_text())["notices"]
    assert len(pending) == int(listed[2])
    assert main([*args, "--out", str(tmp_path / "made")]) == 0
    made = re.search(r"(\d+) notices made, (\d+) notices pending", capsys.readouterr().out)
    assert int(made[1]) > 0 and int(made[1]) + int(made[2]) == int(listed[2])  # nothing lost by listing first
    assert list((tmp_path / "made").rglob("*.pdf"))


def test_sweep_of_a_missing_store_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["sweep", "--no-prefect", "--filings", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no filings at" in err[0]


def test_sweep_and_ics_read_the_store_by_default(tmp_path, monkeypatch, capsys):
    from models.handle import Store

    url = f"sqlite:///{tmp_path / 'permits.db'}"
    monkeypatch.setenv("PERMITS_DATABASE_URL", url)
    db = Store(url)
    upgrade_store(db)
    import_filings(db, generate(40, date(2026, 11, 30), seed=9), by="test")
    assert (
        main(
            [
                "sweep",
                "--no-prefect",
                "--as-of",
                "2026-11-30",
                "--ledger",
                str(tmp_path / "l.sqlite"),
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 0
    )
    assert "Permit docket for 2026-11-30" in capsys.readouterr().out
    assert main(["ics", "--as-of", "2026-11-30", "--out", str(tmp_path / "all.ics")]) == 0
    assert "events (all-towns-all-departments" in capsys.readouterr().out


def test_sweep_of_a_store_never_initialised_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["sweep", "--no-prefect", "--db", f"sqlite:///{tmp_path / 'none.db'}", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "permits init" in err[0]


def test_flow_tasks_declare_their_retries_and_cache_nothing():
    from prefect.cache_policies import NO_CACHE

    from services import sweep_flow as flows

    assert flows.sweep_chunk.retries == 2 and flows.write_sweep_outputs.retries == 1
    assert flows.sweep_chunk.cache_policy is NO_CACHE


def test_a_chunk_size_or_count_below_one_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["sweep", "--no-prefect", "--chunk-size", "0", "--filings", str(tmp_path)]) == 2
    assert main(["demo", "--no-prefect", "--no-serve", "--count", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "--chunk-size 0" in err[0] and "--count 0" in err[1]


def test_permits_schedule_offers_the_schedules_own_window_by_default():
    from cli.schedule import DEFAULT_WITHIN
    from services.schedule import SCHEDULE_WITHIN

    assert DEFAULT_WITHIN == SCHEDULE_WITHIN
