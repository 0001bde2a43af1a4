"""Sweep N generated filings as a plain function call and as a Prefect flow
against a running local ``prefect server``, in the same run.

    .venv/bin/python benchmarks/bench_sweep.py [N]      (default 100000; env BENCH_SWEEP_N)

Each measurement runs in its own child process (so each has its own peak
memory) on a fresh output ledger: generate nothing, read the filings from
one JSONL file, replay, record derived state, decide the docket, schedule,
reminders and notices due (notices listed, not rendered: PDFs are the
notices benchmark's), write the digest, the schedule and the ICS feeds.
A small run (SMALL filings) and the full run give the fixed start cost and
the per-filing cost of each:  time(n) = fixed + n * per_filing.
Goal: at N the flow takes at most 1.2x the plain call.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

AS_OF = date(2026, 11, 30)
SMALL = 200
CHUNK = 1000


def child(mode: str, filings: str, work: str) -> None:
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    t0 = time.perf_counter()
    if mode == "plain":
        from sweep.ledger import DirectorySource, SqliteLedger
        from sweep.report import write_report
        from sweep.run import run_sweep

        log = SqliteLedger(Path(work) / "ledger.sqlite")
        result = run_sweep(DirectorySource(filings), log, AS_OF, chunk_size=CHUNK)
        write_report(result, Path(work) / "out")  # what permits sweep --no-prefect does
        log.close()
        n = len(result.outcomes)
    else:
        from sweep import flows

        state = flows.daily_sweep(
            as_of=AS_OF,
            filings=filings,
            ledger=str(Path(work) / "ledger.sqlite"),
            out=str(Path(work) / "out"),
            chunk_size=CHUNK,
            make_notices=False,
            return_state=True,
        )
        assert state.is_completed(), state
        n = state.result()["counts"]["filings"]
    seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"mode": mode, "filings": n, "seconds": seconds, "peak_mb": peak_mb}))


def measure(mode: str, filings: Path, env: dict) -> dict:
    with tempfile.TemporaryDirectory() as work:
        t0 = time.perf_counter()
        r = subprocess.run(
            [sys.executable, __file__, "--child", mode, str(filings), work], env=env, capture_output=True, text=True
        )
        wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{mode} run failed:\n{r.stderr[-3000:]}")
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["process_seconds"] = wall
    return out


def main(n: int) -> int:
    from prefect_server import PrefectServer

    from sweep.generate import generate
    from sweep.ledger import write_jsonl

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t0 = time.perf_counter()
        for size in (SMALL, n):
            (tmp / str(size)).mkdir()
            write_jsonl(tmp / str(size) / "filings.jsonl", generate(size, AS_OF, seed=1))
        events = sum(len(json.loads(line)["events"]) for line in (tmp / str(n) / "filings.jsonl").open())
        print(f"generated {SMALL} + {n:,} filings ({events / n:.1f} events each) in {time.perf_counter() - t0:.1f} s")

        home = tmp / "prefect-home"
        home.mkdir()
        t0 = time.perf_counter()
        server = PrefectServer(home)
        try:
            server.wait_healthy()
            print(
                f"prefect server healthy in {time.perf_counter() - t0:.1f} s at {server.url}"
                f" (database: {'PostgreSQL' if server.database else 'SQLite'})"
            )
            base = dict(
                os.environ, DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", PERMITS_DATA_DIR=str(tmp / "data")
            )
            base.pop("PREFECT_API_URL", None)
            flow_env = dict(base, PREFECT_API_URL=server.url)
            rows = {}
            for mode, env in (("plain", base), ("flow", flow_env)):
                for size in (SMALL, n):
                    rows[(mode, size)] = measure(mode, tmp / str(size), env)
        finally:
            server.stop()

    print(f"\n{'':6} {'filings':>8} {'in-process s':>13} {'process s':>10} {'peak MB':>8}")
    for (mode, _size), r in rows.items():
        print(f"{mode:6} {r['filings']:>8,} {r['seconds']:>13.2f} {r['process_seconds']:>10.2f} {r['peak_mb']:>8.0f}")
    print()
    for mode in ("plain", "flow"):
        small, big = rows[(mode, SMALL)], rows[(mode, n)]
        per = (big["seconds"] - small["seconds"]) / (n - SMALL)
        fixed = small["seconds"] - per * SMALL
        print(
            f"{mode:6} fixed start {fixed:6.2f} s   per filing {per * 1e3:.3f} ms   "
            f"(+ process start and imports {small['process_seconds'] - small['seconds']:.2f} s)"
        )
    ratio = rows[("flow", n)]["seconds"] / rows[("plain", n)]["seconds"]
    verdict = "meets" if ratio <= 1.2 else "MISSES"
    print(f"\nflow / plain at {n:,} filings: {ratio:.2f}x ({verdict} the 1.2x goal)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
        sys.exit(0)
    size = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_SWEEP_N", "100000"))
    sys.exit(main(size))
