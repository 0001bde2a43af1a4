"""Why the machines are a declared table of our own and not python-statemachine:
the same NOI life (filed, scheduled, opened, continued, closed, issued) through
both, paired rounds (benchmarks/paired.py).  Goal: ours at most as costly.

    .venv/bin/python benchmarks/bench_statemachine_choice.py [--n 300] [--rounds 9]
"""

import argparse
import sys
from pathlib import Path

from paired import paired
from statemachine import State, StateMachine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workflows.filing import parse_filing  # noqa: E402
from workflows.noi import MACHINE  # noqa: E402
from workflows.towns import town  # noqa: E402


class Noi(StateMachine):
    filed = State(initial=True)
    scheduled = State()
    opened = State()
    closed = State()
    issued = State(final=True)
    schedule = filed.to(scheduled)
    open_ = scheduled.to(opened) | filed.to(opened)
    cont = opened.to.itself()
    close = opened.to(closed)
    issue = closed.to(issued)


class Ctx:
    filing_id = "x"
    rules = town("canton").rules("noi")


EVENTS = parse_filing(
    {
        "town": "canton",
        "kind": "noi",
        "id": "x",
        "events": [
            {"type": "filed", "date": "2026-01-02"},
            {"type": "hearing-scheduled", "date": "2026-01-03", "hearing": "2026-01-20"},
            {"type": "hearing-opened", "date": "2026-01-20"},
            {"type": "hearing-continued", "date": "2026-01-20", "to": "2026-02-03"},
            {"type": "hearing-closed", "date": "2026-02-03"},
            {"type": "permit-issued", "date": "2026-02-10"},
        ],
    }
).events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300, help="lives per side per round")
    ap.add_argument("--rounds", type=int, default=9)
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark

    def theirs():
        for _ in range(args.n):
            m = Noi()
            m.schedule()
            m.open_()
            m.cont()
            m.close()
            m.issue()

    def ours():
        for _ in range(args.n):
            s = "(start)"
            for e in EVENTS:
                s = MACHINE.step(s, e, Ctx)

    result = paired("declared table / python-statemachine, one NOI life", 1.0, ours, theirs, rounds=args.rounds)
    print(
        f"  per life: declared table {min(result.measured_s) / args.n * 1e6:.1f} us (6 events), "
        f"python-statemachine {min(result.baseline_s) / args.n * 1e6:.1f} us (instantiate + 5 transitions)"
    )
    result.report()


if __name__ == "__main__":
    main()
