"""``kill -9`` of an import and of a sweep at random moments: afterwards the
database passes its integrity check, holds every filing whole or not at
all, and a rerun ends with the same totals as a run never interrupted:
nothing lost, nothing twice, and the deposit ledger reconciles with the
events.  ``PERMITS_KILLS`` kills each (5 by default;
``make reliability`` runs 10)."""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from datetime import date

import pytest
from kit import assert_ledger_reconciles, report_row
from sqlalchemy import create_engine, text

from models.handle import Store

KILLS = int(os.environ.get("PERMITS_KILLS", "5"))
AS_OF = date(2026, 11, 30)


def permits(*argv, check=True):
    done = subprocess.run([sys.executable, "-m", "cli.main", *argv], capture_output=True, text=True, timeout=600)
    assert "Traceback" not in done.stderr, done.stderr
    if check:
        assert done.returncode == 0, done.stderr
    return done


def killed_after(delay: float, *argv) -> bool:
    """Start ``permits ARGV``, kill -9 it after ``delay`` seconds; True if
    it was still running when killed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    time.sleep(delay)
    alive = proc.poll() is None
    if alive:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return alive


def totals(db_file) -> dict:
    engine = create_engine(f"sqlite:///{db_file}")
    try:
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            out = {
                t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                for t in ("filing", "event", "filing_clock", "party", "abutter", "sweep_output", "notice", "ledger_entry")
            }
            # every filing whole: its row's last_seq is its events' count
            out["torn"] = conn.execute(
                text("SELECT count(*) FROM filing f WHERE f.last_seq != (SELECT count(*) FROM event e WHERE e.filing_id = f.id)")
            ).scalar()
            out["orphan_notices"] = conn.execute(
                text(
                    "SELECT count(*) FROM notice n WHERE n.output_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sweep_output o WHERE o.filing_id = n.filing_id AND o.output_key = n.output_key)"
                )
            ).scalar()
    finally:
        engine.dispose()
    return out


def _filings(tmp_path, n) -> str:
    from demo.generate import generate

    path = tmp_path / "filings.json"
    path.write_text(json.dumps(list(generate(n, AS_OF, seed=5))))
    return str(path)


def test_kill_9_of_an_import_at_random_moments_then_a_rerun_ends_as_an_uninterrupted_import(tmp_path):
    rng = random.Random(14)
    filings = _filings(tmp_path, 300)
    clean = tmp_path / "clean.db"
    permits("init", "--db", f"sqlite:///{clean}")
    start = time.perf_counter()
    permits("import", filings, "--db", f"sqlite:///{clean}")
    took = time.perf_counter() - start
    expected = totals(clean)
    lost = duplicated = interrupted = 0
    for k in range(KILLS):
        db = tmp_path / f"killed{k}.db"
        permits("init", "--db", f"sqlite:///{db}")
        interrupted += killed_after(rng.uniform(0.1, took), "import", filings, "--db", f"sqlite:///{db}")
        after_kill = totals(db)
        assert after_kill["filing"] in (0, expected["filing"]) and after_kill["torn"] == 0, after_kill
        rerun = permits("import", filings, "--db", f"sqlite:///{db}", check=False)
        assert rerun.returncode == 0 or "duplicate filing id" in rerun.stderr, rerun.stderr
        got = totals(db)
        lost += sum(max(0, expected[t] - got[t]) for t in expected)
        duplicated += sum(max(0, got[t] - expected[t]) for t in expected)
    report_row("kill -9 import (300 filings)", KILLS, lost, duplicated, 0)
    store = Store(f"sqlite:///{db}")  # the last rerun's ledger, line by line, is what its events call for
    try:
        assert assert_ledger_reconciles(store, "after kill -9 of an import and a rerun").permits > 0
    finally:
        store.engine.dispose()
    assert (lost, duplicated) == (0, 0)
    assert interrupted >= 1, "no kill landed while the import ran"


def _sweep_kills(tmp_path, n_filings, kills):
    rng = random.Random(41)
    base = tmp_path / "base.db"
    permits("init", "--db", f"sqlite:///{base}")
    permits("import", _filings(tmp_path, n_filings), "--db", f"sqlite:///{base}")
    clean = tmp_path / "clean.db"
    shutil.copy(base, clean)
    argv = ["sweep", "--no-prefect", "--as-of", AS_OF.isoformat()]
    start = time.perf_counter()
    permits(*argv, "--db", f"sqlite:///{clean}", "--out", str(tmp_path / "clean-out"))
    took = time.perf_counter() - start
    expected = totals(clean)
    expected_files = sorted(
        p.relative_to(tmp_path / "clean-out").as_posix() for p in (tmp_path / "clean-out" / "notices").rglob("*.*")
    )
    lost = duplicated = interrupted = 0
    for k in range(kills):
        db, out = tmp_path / f"killed{k}.db", tmp_path / f"out{k}"
        shutil.copy(base, db)
        interrupted += killed_after(rng.uniform(0.2, took), *argv, "--db", f"sqlite:///{db}", "--out", str(out))
        after_kill = totals(db)
        assert after_kill["orphan_notices"] == 0 and after_kill["torn"] == 0, after_kill
        permits(*argv, "--db", f"sqlite:///{db}", "--out", str(out))
        got = totals(db)
        files = sorted(p.relative_to(out).as_posix() for p in (out / "notices").rglob("*.*"))
        lost += sum(max(0, expected[t] - got[t]) for t in expected) + len(set(expected_files) - set(files))
        duplicated += sum(max(0, got[t] - expected[t]) for t in expected) + len(set(files) - set(expected_files))
    report_row(f"kill -9 sweep ({n_filings} filings)", kills, lost, duplicated, 0)
    assert (lost, duplicated) == (0, 0)
    assert interrupted >= 1, "no kill landed while the sweep ran"


def test_kill_9_of_a_sweep_twice_then_a_rerun_makes_what_an_uninterrupted_sweep_makes(tmp_path):
    _sweep_kills(tmp_path, 20, 2)


@pytest.mark.slow
def test_kill_9_of_a_sweep_at_random_moments_then_a_rerun_makes_what_an_uninterrupted_sweep_makes(tmp_path):
    _sweep_kills(tmp_path, 60, KILLS)
