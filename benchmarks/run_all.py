"""Run every benchmarks/bench_*.py in turn (`make bench`)."""

import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).resolve().parent
status = 0
for bench in sorted(here.glob("bench_*.py")):
    print(f"== {bench.name}", flush=True)
    status |= subprocess.run([sys.executable, str(bench)]).returncode
sys.exit(status)
