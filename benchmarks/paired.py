"""One way to benchmark: two sides interleaved in rounds.

    result = paired("replay / json.loads", goal=15, measured=f, baseline=g, rounds=9)
    result.report()     # prints the line run_all.py collects into its table

Each round runs both sides once, the side that goes first alternating from
round to round (so neither always meets a warm or a cold cache, nor always
follows the other's garbage); the garbage collector is run before each side
so both start in the same GC state.  The clock is CPU time
(``time.process_time``) for work done in this process and wall time
(``time.perf_counter``) where another process or a server does part of the
work (pass ``clock=WALL``).  The answer is the median of the per-round
ratios measured / baseline, with their min and max: one sequential sample
per side is noise on a shared two-core machine.

Each benchmark ends with :meth:`Result.report`, which prints a line
starting ``BENCH-RESULT`` (JSON) for ``run_all.py``.  A benchmark that
cannot pair (a fixed share, such as the report's part of the sweep) makes
a Result from its own per-round ratios with :func:`from_ratios`.
"""

from __future__ import annotations

import gc
import json
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

CPU = time.process_time
WALL = time.perf_counter
MARK = "BENCH-RESULT "


@dataclass
class Result:
    name: str
    goal: float
    ratios: list[float]
    measured_s: list[float] = field(default_factory=list)
    baseline_s: list[float] = field(default_factory=list)
    clock: str = "cpu"
    unit: str = "x"  # "x" for a ratio, "%" for a share (ratios are then fractions)
    note: str = ""
    at_least: bool = False  # the goal is a floor (two workers' throughput over one's), not a ceiling

    @property
    def op(self) -> str:
        return ">=" if self.at_least else "<="

    @property
    def median(self) -> float:
        return statistics.median(self.ratios)

    @property
    def verdict(self) -> str:
        met = self.median >= self.goal if self.at_least else self.median <= self.goal
        return "meets" if met else "MISSES"

    def _fmt(self, value: float) -> str:
        if self.unit == "%":
            return f"{value * 100:.0f}%"
        return f"{value:.2f}x" if value >= 0.1 else f"{value:.4f}x"

    def summary(self) -> str:
        return (
            f"{self._fmt(self.median)} ({self._fmt(min(self.ratios))}-{self._fmt(max(self.ratios))}), "
            f"goal {self.op} {self._fmt(self.goal)}: {self.verdict}"
        )

    def report(self) -> None:
        rounds = len(self.ratios)
        sides = ""
        if self.measured_s and self.baseline_s:
            sides = (
                f"  median per round: measured {statistics.median(self.measured_s) * 1e3:.2f} ms,"
                f" baseline {statistics.median(self.baseline_s) * 1e3:.2f} ms ({self.clock} time)"
            )
        print(f"{self.name}: {self.summary()}  [{rounds} rounds]")
        if sides:
            print(sides)
        row = {
            "name": self.name,
            "goal": self._fmt(self.goal),
            "op": self.op,
            "median": self._fmt(self.median),
            "min": self._fmt(min(self.ratios)),
            "max": self._fmt(max(self.ratios)),
            "verdict": self.verdict,
            "rounds": rounds,
            "note": self.note,
        }
        print(MARK + json.dumps(row), flush=True)


def _timed(fn: Callable[[], object], clock: Callable[[], float]) -> float:
    gc.collect()
    t0 = clock()
    fn()
    return clock() - t0


def paired(
    name: str,
    goal: float,
    measured: Callable[[], object],
    baseline: Callable[[], object],
    rounds: int = 9,
    clock: Callable[[], float] = CPU,
    warmup: int = 1,
    note: str = "",
    before_round: Callable[[int], object] | None = None,
) -> Result:
    """Run ``measured`` and ``baseline`` once each per round, alternating
    which goes first; ``warmup`` untimed rounds first.  ``before_round(k)``,
    if given, is called untimed before round k (warm-up rounds counted
    first), e.g. to hand both sides the same fresh input."""
    for k in range(warmup):
        if before_round is not None:
            before_round(k)
        measured()
        baseline()
    m_s: list[float] = []
    b_s: list[float] = []
    for i in range(rounds):
        if before_round is not None:
            before_round(warmup + i)
        if i % 2 == 0:
            m = _timed(measured, clock)
            b = _timed(baseline, clock)
        else:
            b = _timed(baseline, clock)
            m = _timed(measured, clock)
        m_s.append(m)
        b_s.append(b)
    return Result(
        name,
        goal,
        [m / b for m, b in zip(m_s, b_s)],
        m_s,
        b_s,
        "cpu" if clock is CPU else "wall",
        note=note,
    )


def from_ratios(
    name: str, goal: float, ratios: Sequence[float], unit: str = "x", note: str = "", at_least: bool = False
) -> Result:
    return Result(name, goal, list(ratios), unit=unit, note=note, at_least=at_least)


def run_process(argv: Sequence[str], env: dict | None = None, cwd: str | None = None) -> None:
    """Run a whole process to completion (output discarded); raise if it fails."""
    done = subprocess.run(list(argv), env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")


def compile_bytecode(*paths: str) -> None:
    """``python -m compileall`` the project and the interpreter's
    site-packages once, so whole-process timings read cached bytecode even
    where PYTHONDONTWRITEBYTECODE=1 (Python still reads .pyc files then)."""
    import site
    import sys

    targets = [*paths, *site.getsitepackages()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *targets], stdout=subprocess.DEVNULL, check=False)
