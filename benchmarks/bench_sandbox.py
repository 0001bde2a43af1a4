"""Sandbox benchmark: the default abutter notice rendered 200 times in
Jinja's SandboxedEnvironment against the ordinary Environment
(notices/render.py keeps the defaults unsandboxed only if that is
measurably faster).  Both sides interleaved in rounds, the first side
rotating, CPU time, GC state the same for both; the median of the
per-round ratios (sandboxed / ordinary) with its min and max.

    .venv/bin/python benchmarks/bench_sandbox.py [ROUNDS]
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from notice_fixtures import filing_for  # noqa: E402

from notices.context import Party, build_context  # noqa: E402
from notices.kinds import notice_kind  # noqa: E402
from notices.render import template_environment  # noqa: E402
from workflows.replay import replay  # noqa: E402
from workflows.towns import town  # noqa: E402

N = 200
DATED = datetime(2026, 12, 3, 9, 30)


def main(rounds: int = 15) -> dict:
    filing = filing_for("canton", "noi", "abutter-notice")
    r = replay(filing, date(2026, 12, 3))
    abutters = [Party(f"Owner {i}", f"{i} Elm St", "Canton", "MA", "02021", (f"12-{i:03d}",), "abutter") for i in range(N)]
    base = build_context(filing, r, town("canton"), notice_kind("abutter-notice"), dated=DATED).variables(abutters=abutters)
    sides = {
        "ordinary": template_environment(None, False).get_template("abutter-notice.html.j2"),
        "sandboxed": template_environment(None, True).get_template("abutter-notice.html.j2"),
    }

    def run(template):
        for i, p in enumerate(abutters, start=1):
            template.render({**base, "recipient": p, "copy_for": "abutter", "copy_number": i, "copies": N})

    for t in sides.values():
        run(t)  # compile and warm both
    ratios = []
    for k in range(rounds):
        order = list(sides) if k % 2 == 0 else list(reversed(sides))
        took = {}
        for name in order:
            gc.collect()
            start = time.process_time()
            run(sides[name])
            took[name] = time.process_time() - start
        ratios.append(took["sandboxed"] / took["ordinary"])
    out = {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios), "rounds": rounds}
    print(
        f"default abutter notice x{N}, sandboxed / ordinary CPU time: median {out['median']:.2f}x "
        f"(min {out['min']:.2f}, max {out['max']:.2f}, {rounds} rounds)"
    )
    return out


if __name__ == "__main__":
    rounds = [a for a in sys.argv[1:] if a.isdigit()]  # run_all.py passes every benchmark the same arguments
    main(int(rounds[0]) if rounds else 15)
