"""Run every ``bench_*.py`` in this folder, one process each, with the
project's virtualenv Python (``.venv/bin/python``) when there is one, else
the Python running this script, and print one table of their goals:
benchmark, goal, ratio (median of the paired rounds, min-max), verdict.

    .venv/bin/python benchmarks/run_all.py [--only NAME] [-- ARGS...]

Arguments after ``--`` go to every benchmark, each taking those it knows
(e.g. ``-- --n 100000``, or ``-- --no-flow`` to leave out the flow runs).
Exit status 1 if any benchmark fails to run (a missed goal is a verdict in
the table, not a failure)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV_PYTHON = HERE.parent / ".venv" / "bin" / "python"
MARK = "BENCH-RESULT "


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    python = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable
    failed, rows = [], []
    for bench in sorted(HERE.glob("bench_*.py")):
        if only and only not in bench.name:
            continue
        print(f"== {bench.name} ({python})", flush=True)
        t0 = time.perf_counter()
        proc = subprocess.Popen([python, str(bench), *extra], stdout=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if line.startswith(MARK):
                rows.append((bench.stem.removeprefix("bench_"), json.loads(line[len(MARK) :])))
            else:
                print(line, end="", flush=True)
        if proc.wait() != 0:
            failed.append(bench.name)
        print(f"   ({time.perf_counter() - t0:.0f} s)", flush=True)
    name_w = max([len(f"{b}: {r['name']}") for b, r in rows] + [9])
    print(f"\n{'benchmark':<{name_w}}  {'goal':>8}  {'median (min-max)':<26} verdict")
    for bench, r in rows:
        spread = f"{r['median']} ({r['min']}-{r['max']})"
        note = f"  ({r['note']})" if r.get("note") else ""
        goal = f"{r.get('op', '<=')} {r['goal']}"
        print(f"{bench + ': ' + r['name']:<{name_w}}  {goal:>8}  {spread:<26} {r['verdict']}{note}")
    if failed:
        print("failed:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
