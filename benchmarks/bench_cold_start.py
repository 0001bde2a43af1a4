"""Benchmark: how soon the command line answers.  ``permits --help``,
``permits replay FILE``, ``permits show ID`` and ``permits docket``, each a
whole process, against ``python -c pass``, paired (benchmarks/paired.py),
wall time, bytecode compiled first.

    .venv/bin/python benchmarks/bench_cold_start.py [--rounds 9]

Goal: each at most 5x ``python -c pass`` (issue 36).  ``show`` and
``docket`` read a small SQLite store (a few filings, a docket of a few
lines) made in a temporary data directory, so what is measured is the
start (the imports, the settings, the store opened), not a town's docket
printed (``bench_store.py`` measures that, on 10,000 filings).  Each
command's imports are listed too: what the cold start pays for.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from paired import WALL, compile_bytecode, paired, run_process  # noqa: E402

FILINGS = [
    {
        "town": "canton",
        "kind": "noi",
        "id": "CAN-NOI-2026-0001",
        "events": [
            {"type": "filed", "date": "2026-05-01"},
            {"type": "hearing-scheduled", "date": "2026-05-04", "hearing": "2026-05-18"},
        ],
    },
    {
        "town": "saugus",
        "kind": "rda",
        "id": "SAU-RDA-2026-0002",
        "events": [{"type": "filed", "date": "2026-05-20"}],
    },
    {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-SOP-2026-0003",
        "events": [{"type": "filed", "date": "2026-05-26", "applicant": "private", "length_ft": 20}],
    },
]
AS_OF = "2026-06-01"


def commands(filing_file: str) -> list[tuple[str, list[str]]]:
    return [
        ("permits --help", ["--help"]),
        ("permits replay FILE", ["replay", filing_file, "--as-of", AS_OF]),
        ("permits show ID", ["show", "CAN-NOI-2026-0001", "--as-of", AS_OF]),
        ("permits docket", ["docket", "--as-of", AS_OF]),
    ]


def imported(argv: list[str], env: dict) -> list[str]:
    """How many modules a command has imported when it is done."""
    code = (
        "import sys, contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    from cli.main import main\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(len(sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark
    compile_bytecode(str(ROOT))
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as data:
        env = dict(os.environ, PERMITS_DATA_DIR=data, PERMITS_USER="bench")
        env.pop("PERMITS_DATABASE_URL", None)
        batch = Path(data) / "filings.json"
        batch.write_text(json.dumps(FILINGS))
        one = Path(data) / "filing.json"
        one.write_text(json.dumps(FILINGS[0]))
        permits = [sys.executable, "-m", "cli.main"]
        run_process([*permits, "init"], env, cwd=str(ROOT))
        run_process([*permits, "import", str(batch)], env, cwd=str(ROOT))
        base = [sys.executable, "-c", "pass"]
        for name, argv in commands(str(one)):
            print(f"  {name}: {imported(argv, env)[0]} modules in sys.modules")
            paired(
                f"{name} / python -c pass",
                5,
                lambda argv=argv: run_process([*permits, *argv], env, cwd=str(ROOT)),
                lambda: run_process(base, env, cwd=str(ROOT)),
                rounds=args.rounds,
                clock=WALL,
                note="whole processes, bytecode compiled",
            ).report()


if __name__ == "__main__":
    main()
