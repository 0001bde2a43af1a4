"""Running ``permits`` for the reliability suite and judging how it ended:
success, or exit status 2 with exactly one line on standard error, never a
traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

from cli.main import main


@dataclass
class Ended:
    code: int
    out: str
    err: str

    def one_line_or_success(self) -> bool:
        if self.code == 0:
            return True
        return self.code == 2 and len(self.err.strip().splitlines()) == 1 and "Traceback" not in self.err


def run_inprocess(capsys, *argv: str) -> Ended:
    """``permits ARGV`` in this process; an exception escaping main() is a
    traceback and fails the test where it happens."""
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return Ended(code, captured.out, captured.err)


def run_process(*argv: str, env: dict | None = None, timeout: float = 120) -> Ended:
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return Ended(done.returncode, done.stdout, done.stderr)


def assert_one_line(ended: Ended, *needles: str) -> str:
    assert ended.code == 2, (ended.code, ended.err)
    lines = ended.err.strip().splitlines()
    assert len(lines) == 1, ended.err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def report_row(test: str, runs: int, lost: int = 0, duplicated: int = 0, tracebacks: int = 0) -> None:
    """Add a row to the reliability table ``make reliability`` prints (when
    ``PERMITS_RELIABILITY_REPORT`` names its file)."""
    import json

    path = os.environ.get("PERMITS_RELIABILITY_REPORT")
    if path:
        row = {"test": test, "runs": runs, "lost": lost, "duplicated": duplicated, "tracebacks": tracebacks}
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")


def assert_ledger_reconciles(store, label: str):
    """The deposit ledger of the store a reliability test built, recomputed
    from its events (services/ledger_check.py, ``permits deposits --check``),
    shows no difference; a row of the reliability table counts the permits
    compared and the differences found.  The check, for a test to say more."""
    from services.ledger_check import check_ledger

    got = check_ledger(store)
    report_row(f"ledger reconciled: {label}", got.permits, lost=len(got.differences))
    assert got.ok, [d.words() for d in got.differences]
    return got
