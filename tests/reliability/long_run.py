"""``make reliability``: the reliability suite's long versions (10,000 fuzz
examples of the command line, 2,500 of the web's forms, 8 concurrent
writers, 10 kills of an import, of a sweep and of the web server during
online applications, 40 replays of ended sessions), then the table: test,
runs, lost, duplicated, tracebacks.

    .venv/bin/python tests/reliability/long_run.py [pytest args]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LONG = {
    "PERMITS_FUZZ_EXAMPLES": "2500",
    "PERMITS_FORM_FUZZ_EXAMPLES": "2500",
    "PERMITS_REPLAYS": "40",
    "PERMITS_WRITERS": "8",
    "PERMITS_KILLS": "10",
}


def table(rows: list[dict]) -> str:
    head = ("test", "runs", "lost", "duplicated", "tracebacks")
    width = max([len(head[0])] + [len(r["test"]) for r in rows])
    lines = [
        f"| {head[0]:<{width}} | " + " | ".join(head[1:]) + " |",
        f"|{'-' * (width + 2)}|------|------|------------|------------|",
    ]
    for r in rows:
        lines.append(
            f"| {r['test']:<{width}} | {r['runs']:>4} | {r['lost']:>4} | {r['duplicated']:>10} | {r['tracebacks']:>10} |"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rows.jsonl"
        env = {**LONG, **os.environ, "PERMITS_RELIABILITY_REPORT": str(report)}  # the caller's settings win
        done = subprocess.run(
            [sys.executable, "-m", "pytest", str(HERE), "-p", "no:cacheprovider", "-m", "slow or not slow", *argv], env=env
        )
        rows = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    print()
    print(table(rows))
    if done.returncode:
        print(f"\npytest exit status {done.returncode}: a test failed, and its row may be missing above")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
