"""Benchmark: replay generated filings against json.loads of the same
filings, paired (benchmarks/paired.py); and the cold start of
`permits replay` against `python -c pass`, paired whole processes.

    .venv/bin/python benchmarks/bench_replay.py [--n 10000] [--rounds 7] [--profile]

Goals: replay at most 15x json.loads of the same filing, both
sides in steady state (each parsed object dropped at once); cold start at most 5x
`python -c pass` (the replay path must not import Prefect, the database or
Jinja).  The filings come from a small seeded generator below: valid
histories of about 10 events for every town and kind.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
from datetime import date, datetime, timedelta

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from paired import WALL, compile_bytecode, paired, run_process  # noqa: E402

from workflows.filing import parse_filing  # noqa: E402
from workflows.replay import replay  # noqa: E402
from workflows.towns import town  # noqa: E402

COMBOS = [
    ("canton", "noi"),
    ("canton", "rda"),
    ("canton", "street-opening"),
    ("saugus", "noi"),
    ("saugus", "rda"),
    ("mansfield", "noi"),
    ("mansfield", "rda"),
    ("mansfield", "land-disturbance"),
    ("wpa", "noi"),
    ("wpa", "rda"),
]
BOARDS = ["planning", "dpw", "health", "engineering", "building"]


def _d(day: date) -> str:
    return day.isoformat()


def _wetlands(rng: random.Random, kind: str, d0: date) -> list[dict]:
    hearing = d0 + timedelta(days=rng.randint(10, 20))
    ev = [
        {"type": "filed", "date": _d(d0)},
        {"type": "abutters-notified", "date": _d(d0)},
        {"type": "boards-notified", "date": _d(d0)},
        {"type": "hearing-scheduled", "date": _d(d0 + timedelta(days=1)), "hearing": _d(hearing)},
        {"type": "notice-published", "date": _d(hearing - timedelta(days=rng.randint(6, 9)))},
        {"type": "notice-posted", "date": _d(hearing - timedelta(days=rng.randint(3, 5)))},
        {"type": "hearing-opened", "date": _d(hearing)},
    ]
    close = hearing
    if rng.random() < 0.5:
        close = hearing + timedelta(days=14)
        ev.append({"type": "hearing-continued", "date": _d(hearing), "to": _d(close)})
    ev.append({"type": "hearing-closed", "date": _d(close)})
    decided = close + timedelta(days=rng.randint(5, 35))
    if kind == "rda":
        ev.append({"type": "determination-issued", "date": _d(decided), "positive": rng.random() < 0.3})
    elif rng.random() < 0.15:
        ev.append({"type": "permit-denied", "date": _d(decided)})
    else:
        ev.append({"type": "permit-issued", "date": _d(decided)})
        ev.append({"type": "permit-recorded", "date": _d(decided + timedelta(days=rng.randint(3, 20)))})
    return ev


def _land_disturbance(rng: random.Random, d0: date) -> list[dict]:
    ev = [{"type": "filed", "date": _d(d0)}, {"type": "boards-notified", "date": _d(d0)}]
    for board in rng.sample(BOARDS, 2):
        ev.append({"type": "board-reported", "date": _d(d0 + timedelta(days=rng.randint(5, 25))), "board": board})
    hearing = d0 + timedelta(days=rng.randint(41, 55))  # day 41 at the soonest (Mansfield Ch. 25 §7.E)
    ev += [
        {"type": "hearing-scheduled", "date": _d(d0 + timedelta(days=26)), "hearing": _d(hearing)},
        {"type": "notice-published", "date": _d(hearing - timedelta(days=15))},
        {"type": "notice-posted", "date": _d(hearing - timedelta(days=15))},
        {"type": "abutters-notified", "date": _d(hearing - timedelta(days=16))},
        {"type": "hearing-opened", "date": _d(hearing)},
        {"type": "hearing-closed", "date": _d(hearing + timedelta(days=14))},
        {"type": "permit-issued", "date": _d(hearing + timedelta(days=rng.randint(20, 70)))},
    ]
    return sorted(ev, key=lambda e: e["date"])


def _street(rng: random.Random, d0: date) -> list[dict]:
    issued = d0 + timedelta(days=rng.randint(1, 5))
    notice = datetime.combine(issued, datetime.min.time()).replace(hour=rng.randint(7, 15))
    dig = issued + timedelta(days=rng.randint(5, 9))
    temp = dig + timedelta(days=2)
    perm = temp + timedelta(days=rng.randint(370, 540))
    ev = [
        {"type": "filed", "date": _d(d0), "applicant": rng.choice(["private", "utility"]), "length_ft": rng.randint(5, 60)},
        {"type": "dig-safe-obtained", "date": _d(d0), "ticket": f"{d0.year}{rng.randint(0, 10**7):07d}"},
        {"type": "permit-issued", "date": _d(issued)},
        {"type": "work-noticed", "at": notice.isoformat(timespec="minutes")},
        {"type": "excavation-started", "date": _d(dig)},
        {"type": "inspected", "date": _d(dig + timedelta(days=1)), "stage": "pre-backfill", "result": "pass"},
    ]
    if rng.random() < 0.2:
        ev += [
            {"type": "backfilled", "date": _d(dig + timedelta(days=1)), "material": "cdf"},
            {"type": "permanent-patch-placed", "date": _d(dig + timedelta(days=3))},
        ]
    else:
        ev += [
            {"type": "backfilled", "date": _d(dig + timedelta(days=1)), "material": "gravel"},
            {"type": "temporary-patch-placed", "date": _d(temp)},
            {"type": "inspected", "date": _d(temp + timedelta(days=1)), "stage": "temporary-patch", "result": "pass"},
            {"type": "permanent-patch-placed", "date": _d(perm)},
        ]
        dig = perm
    ev += [
        {"type": "inspected", "date": _d(dig + timedelta(days=4)), "stage": "permanent-patch", "result": "pass"},
        {"type": "deposit-refunded", "date": _d(dig + timedelta(days=12))},
    ]
    return ev


def generate(n: int, seed: int = 3) -> list[str]:
    """``n`` filings as JSON text, mixed kinds and towns, valid histories."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        town, kind = COMBOS[i % len(COMBOS)]
        d0 = date(2024, 1, 2) + timedelta(days=rng.randint(0, 3 * 365))
        if kind == "street-opening":
            events = _street(rng, d0)
        elif kind == "land-disturbance":
            events = _land_disturbance(rng, d0)
        else:
            events = _wetlands(rng, kind, d0)
        obj = {"town": town, "kind": kind, "id": f"{town[:3].upper()}-{kind}-{i:06d}", "events": events}
        if town in ("canton", "saugus") and kind != "street-opening" and rng.random() < 0.3:
            obj["also"] = ["wpa"]
        out.append(json.dumps(obj))
    return out


def bench_replay(texts: list[str], as_of: date, rounds: int, profile: bool) -> None:
    objs = [json.loads(t) for t in texts]
    for obj in objs[: len(COMBOS)]:  # one-time setup: holidays and each town's calendar
        replay(parse_filing(obj), as_of)
    n = len(texts)
    events = sum(len(o["events"]) for o in objs)
    clocks = sum(len(replay(parse_filing(o), as_of).clocks) for o in objs)
    print(f"filings: {n}  events: {events} ({events / n:.1f} per filing)  clocks: {clocks}")

    calendars = {town(t).calendar for t, _ in COMBOS}

    def measured():
        for cal in calendars:  # each round starts with no remembered reckonings: no help from earlier rounds
            cal.forget_reckonings()
        for obj in objs:
            replay(parse_filing(obj), as_of)

    def baseline():  # steady state: each parsed object dropped at once, as the replay's are
        for text in texts:
            json.loads(text)

    result = paired("replay / json.loads of the same filing", 15, measured, baseline, rounds=rounds)
    print(
        f"  per filing: replay {statistics.median(result.measured_s) / n * 1e6:.1f} us,"
        f" json.loads {statistics.median(result.baseline_s) / n * 1e6:.1f} us"
    )
    result.report()
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        measured()
        profiler.disable()
        buf = io.StringIO()
        pstats.Stats(profiler, stream=buf).sort_stats("tottime").print_stats(20)
        print(buf.getvalue())


def bench_cold_start(text: str, rounds: int) -> None:
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    compile_bytecode(root)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        fh.write(text)
    replay_argv = [sys.executable, "-m", "cli.main", "replay", fh.name, "--as-of", "2027-06-01", "--json"]
    check = (
        "import sys, contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    from cli.main import main; main(['replay', {fh.name!r}, '--as-of', '2027-06-01'])\n"
        "print(sorted(m for m in ('prefect', 'sqlmodel', 'sqlalchemy', 'jinja2') if m in sys.modules))"
    )
    env = dict(os.environ)
    try:
        heavy = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True, env=env).stdout
        result = paired(
            "permits replay cold start / python -c pass",
            5,
            lambda: run_process(replay_argv, env, cwd=root),
            lambda: run_process([sys.executable, "-c", "pass"], env, cwd=root),
            rounds=rounds,
            clock=WALL,
            note="whole processes, bytecode compiled",
        )
    finally:
        os.unlink(fh.name)
    print(f"heavy modules on the replay path (prefect, sqlmodel, sqlalchemy, jinja2): {heavy.strip()}")
    result.report()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000, help="filings per side per round (default 10,000)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--profile", action="store_true", help="cProfile one replay pass and print the top hot spots")
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark
    texts = generate(args.n)
    bench_replay(texts, date(2027, 6, 1), args.rounds, args.profile)
    bench_cold_start(texts[0], args.rounds)


if __name__ == "__main__":
    main()
