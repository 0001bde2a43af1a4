"""Why the machines are a declared table of our own and not python-statemachine:
the same NOI life (filed, scheduled, opened, continued, closed, issued) through
both, in one run.  Run: .venv/bin/python benchmarks/bench_statemachine_choice.py"""

import time

from statemachine import State, StateMachine


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


N = 20000
t = time.perf_counter()
for _ in range(N):
    m = Noi()
    m.schedule()
    m.open_()
    m.cont()
    m.close()
    m.issue()
psm = (time.perf_counter() - t) / N

from workflows.filing import parse_filing  # noqa: E402 - timed after the library above
from workflows.noi import MACHINE  # noqa: E402 - timed after the library above
from workflows.towns import town  # noqa: E402 - timed after the library above


class Ctx:
    filing_id = "x"
    rules = town("canton").rules("noi")


evs = parse_filing(
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
t = time.perf_counter()
for _ in range(N):
    s = "(start)"
    for e in evs:
        s = MACHINE.step(s, e, Ctx)
own = (time.perf_counter() - t) / N
print(f"python-statemachine: {psm * 1e6:.1f} us per filing (instantiate + 5 transitions)")
print(f"declared table:      {own * 1e6:.1f} us per filing (6 events)")
print(f"ratio psm/own: {psm / own:.1f}x")
