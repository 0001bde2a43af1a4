"""The daily sweep at town scale: the report's share of the run, the peak
memory per filing, and the Prefect flow against the plain call.

    .venv/bin/python benchmarks/bench_sweep.py [--n 10000] [--rounds 3] [--flow-rounds 2] [--no-flow | --only-flow] [--flow-notices]

* **Report share** (goal <= 20%): in this process, each round on a fresh
  output ledger, the sweep (``run_sweep``: read the JSONL, replay, record,
  docket, schedule, reminders, notices listed not rendered) and then its
  report (the spool taking each chunk's outcomes during the sweep, and
  ``write_report``: digest, schedule, reminders, notices list, ICS feeds),
  CPU time; the share is report / (sweep + report), median of the rounds
  with min and max.
* **Peak memory per filing** (goal: flat): a child process per size sweeps
  SMALL and N filings; the growth of its peak RSS from just before the
  sweep, divided by the count.  The table row is per-filing(N) /
  per-filing(SMALL) (goal <= 1.2x), and the peaks themselves are printed:
  with the outcomes streamed to the report the peak should not grow with
  the count.
* **Flow / plain** (goal <= 1.2x): ``permits sweep`` (the flow, with the
  temporary Prefect server the CLI starts) against ``permits sweep
  --no-prefect``, whole processes, wall time, paired rounds.  Each round
  also runs both at SMALL filings, so the per-filing ratio (N minus SMALL)
  is shown apart from Prefect's fixed cost (its server's start).  Both with
  ``--no-notices`` (the sweep's own work, where Prefect's cost shows);
  ``--flow-notices`` adds the pair making every notice's PDF, the
  command's default, where WeasyPrint is most of either run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from paired import WALL, compile_bytecode, from_ratios, paired, run_process  # noqa: E402

AS_OF = date(2026, 11, 30)
SMALL = 1000
CHUNK = 500


def _sweep_once(filings: Path, work: Path):
    from sweep.ledger import DirectorySource, SqliteLedger
    from sweep.report import write_report
    from sweep.run import run_sweep

    log = SqliteLedger(work / "ledger.sqlite")
    t0 = time.process_time()
    result = run_sweep(DirectorySource(str(filings)), log, AS_OF, chunk_size=CHUNK)
    t1 = time.process_time()
    write_report(result, work / "out")
    t2 = time.process_time()
    log.close()
    result.close()
    # the spool takes each chunk's outcomes during the sweep: that is the
    # report's work, counted on its side
    spooled = result.spool.seconds
    return t1 - t0 - spooled, t2 - t1 + spooled, result.counts()["filings"]


def bench_report_share(filings: Path, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _sweep_once(filings, Path(tmp) / "warm")  # imports, calendars, the ICS time zone
        shares, sweeps, reports = [], [], []
        for r in range(rounds):
            sweep_s, report_s, n = _sweep_once(filings, Path(tmp) / f"r{r}")
            shares.append(report_s / (sweep_s + report_s))
            sweeps.append(sweep_s)
            reports.append(report_s)
    print(
        f"  {n:,} filings: sweep {statistics.median(sweeps):.2f} s ({statistics.median(sweeps) / n * 1e3:.3f} ms/filing), "
        f"report {statistics.median(reports):.2f} s (CPU, median of {rounds})"
    )
    from_ratios(f"report share of the run, {n:,} filings", 0.20, shares, unit="%").report()


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))


def child_memory(filings: str, work: str) -> None:
    """In a child: peak RSS growth of one sweep and its report."""
    import notices.ics  # noqa: F401 - imported before the measure, as in a long-lived worker
    from sweep.ledger import DirectorySource, SqliteLedger
    from sweep.report import write_report
    from sweep.run import run_sweep

    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # Linux: reset the peak (VmHWM) to the RSS now, so imports' own peak is not counted
    before = _status_kb("VmRSS")
    log = SqliteLedger(Path(work) / "ledger.sqlite")
    result = run_sweep(DirectorySource(filings), log, AS_OF, chunk_size=CHUNK)
    write_report(result, Path(work) / "out")
    log.close()
    peak = _status_kb("VmHWM")
    print(json.dumps({"filings": result.counts()["filings"], "growth_kb": peak - before}))


def memory_per_filing(filings: Path) -> float:
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run(
            [sys.executable, __file__, "--child-memory", str(filings), work], capture_output=True, text=True, check=True
        )
    row = json.loads(done.stdout.strip().splitlines()[-1])
    return row["growth_kb"] * 1024 / row["filings"]


def bench_memory(small: Path, big: Path, n: int) -> None:
    per_small, per_big = memory_per_filing(small), memory_per_filing(big)
    marginal = (per_big * n - per_small * SMALL) / (n - SMALL)
    print(
        f"  peak RSS growth: {per_small * SMALL / 2**20:.1f} MB at {SMALL:,} filings ({per_small / 1024:.1f} KB a filing), "
        f"{per_big * n / 2**20:.1f} MB at {n:,} ({per_big / 1024:.1f} KB a filing); "
        f"each filing past {SMALL:,} adds {marginal / 1024:.2f} KB"
    )
    from_ratios(
        f"peak memory per filing, {n:,} / {SMALL:,} filings",
        1.2,
        [per_big / per_small],
        note=f"{marginal / 1024:.2f} KB more per filing past {SMALL:,}",
    ).report()


def bench_flow(small: Path, big: Path, n: int, rounds: int, notices: bool) -> None:
    compile_bytecode(str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = dict(
            os.environ,
            PERMITS_DATA_DIR=str(tmp / "data"),
            DO_NOT_TRACK="1",
            PREFECT_SERVER_ANALYTICS_ENABLED="false",
            PREFECT_LOGGING_LEVEL="WARNING",
        )
        env.pop("PREFECT_API_URL", None)
        runs = iter(range(10**6))

        def argv(filings: Path, plain: bool) -> list[str]:
            k = next(runs)
            out = [sys.executable, "-m", "cli.main", "sweep", "--filings", str(filings), "--as-of", AS_OF.isoformat()]
            out += ["--ledger", str(tmp / f"ledger-{k}.sqlite"), "--out", str(tmp / f"out-{k}"), "--chunk-size", str(CHUNK)]
            return out + (["--no-prefect"] if plain else []) + ([] if notices else ["--no-notices"])

        # a first flow run creates Prefect's database: not what is measured
        run_process(argv(small, False), env, cwd=str(ROOT))
        timings = {}
        what = "notices made" if notices else "notices listed"
        for size, path in ((SMALL, small), (n, big)):
            timings[size] = paired(
                f"flow / plain, {size:,} filings, {what}",
                1.2,
                lambda path=path: run_process(argv(path, False), env, cwd=str(ROOT)),
                lambda path=path: run_process(argv(path, True), env, cwd=str(ROOT)),
                rounds=rounds,
                clock=WALL,
                warmup=0,
                note="whole processes with the CLI's temporary Prefect server",
            )
    big_r, small_r = timings[n], timings[SMALL]
    flow_fixed = statistics.median(small_r.measured_s) - statistics.median(small_r.baseline_s)
    per_filing = [
        (fb - fs) / (pb - ps)
        for fb, fs, pb, ps in zip(big_r.measured_s, small_r.measured_s, big_r.baseline_s, small_r.baseline_s)
    ]
    print(
        f"  medians: flow {statistics.median(big_r.measured_s):.1f} s, plain {statistics.median(big_r.baseline_s):.1f} s at {n:,};"
        f" flow {statistics.median(small_r.measured_s):.1f} s, plain {statistics.median(small_r.baseline_s):.1f} s at {SMALL:,}"
    )
    print(f"  Prefect's fixed cost (temporary server start, flow and task runs): about {flow_fixed:.1f} s a run")
    big_r.report()
    from_ratios(
        f"flow / plain per filing ({n:,} minus {SMALL:,}), {what}", 1.2, per_filing, note="fixed cost of Prefect shown apart"
    ).report()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--flow-rounds", type=int, default=2, help="rounds of the flow against plain (each starts a Prefect server)")
    ap.add_argument("--no-flow", action="store_true", help="skip the flow against plain (the slow part)")
    ap.add_argument("--only-flow", action="store_true", help="only the flow against plain")
    ap.add_argument(
        "--flow-notices",
        action="store_true",
        help="also the flow against plain making the notices' PDFs (permits sweep's default; about 30 minutes)",
    )
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark

    from demo.generate import generate
    from sweep.ledger import write_jsonl

    with tempfile.TemporaryDirectory() as tmp:
        small, big = Path(tmp) / "small.jsonl", Path(tmp) / "big.jsonl"
        write_jsonl(small, generate(SMALL, AS_OF, seed=1))
        write_jsonl(big, generate(args.n, AS_OF, seed=1))
        if not args.only_flow:
            bench_report_share(big, args.rounds)
            bench_memory(small, big, args.n)
        if not args.no_flow:
            bench_flow(small, big, args.n, args.flow_rounds, notices=False)
            if args.flow_notices:
                bench_flow(small, big, args.n, args.flow_rounds, notices=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child-memory":
        child_memory(*sys.argv[2:4])
        sys.exit(0)
    sys.exit(main())
