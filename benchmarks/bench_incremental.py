"""The incremental sweep against the full sweep (``permits sweep --all``)
on the same store, an ordinary day (issue 36).

    .venv/bin/python benchmarks/bench_incremental.py [--n 10000] [--rounds 5]

The store: ``n`` generated filings (demo.generate), imported with their
events up to the day before and swept whole that day, so each keeps the
day it next changes; then, an ordinary day, the events their generated
histories put on the day itself recorded on 1% of the filings.  Each round hands both sides a fresh copy of that
store (untimed), and times, CPU in this process:

* **an ordinary day** (goal <= 0.5x): the incremental sweep of the day
  (the filings due, the rows that changed) against the full sweep of
  every open filing, each with its report (digest, schedule, lists, ICS
  feeds) and its notices made (as HTML: the same few on both sides; a
  PDF's rendering would only add the same to both);
* **a second run the same day** (goal <= 0.1x): each side swept once
  (untimed), then the same day again: the incremental one against the
  full one.

Both sides are the same functions ``permits sweep --no-prefect`` calls
(:func:`sweep.run.run_sweep`, :func:`sweep.report.write_report`), the
store as source and output log.  10,000 filings is the issue's size.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from paired import paired  # noqa: E402

DAY = date(2026, 11, 30)
MAIL_FROM = "permits@town.example"


def _day_of(raw: dict) -> date:
    return date.fromisoformat((raw.get("date") or raw["at"])[:10])


def _sweep(url: str, day: date, out: Path, *, everything: bool) -> int:
    from models.handle import Store  # noqa: F401 - imported before timing, with the rest
    from services.sweep_log import StoreOutputLog
    from sweep.dispatch import notice_hook
    from sweep.report import write_report
    from sweep.run import run_sweep
    from sweep.store_source import StoreSource

    source = StoreSource(url, None if everything else day)
    log = StoreOutputLog(source.store)
    try:
        result = run_sweep(source, log, day, notice_hook=notice_hook(day, fmt="html", email=True, mail_from=MAIL_FROM))
        write_report(result, out)
        result.close()
        return result.counts()["filings"]
    finally:
        source.store.engine.dispose()


def build(folder: Path, n: int) -> tuple[Path, dict]:
    """The store of an ordinary morning: swept yesterday, today's events recorded."""
    from demo.generate import generate
    from models.handle import Store
    from services.database import upgrade_store
    from services.imports import import_filings
    from services.record import record_event
    from workflows.errors import PermitsError

    yesterday = DAY - timedelta(days=1)
    # generated as of a later day: histories cut at the day swept would put
    # an event on that very day on one filing in ten
    histories = [f for f in generate(2 * n, DAY + timedelta(days=90), seed=36) if _day_of(f["events"][0]) <= yesterday][:n]
    path = folder / "base.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    upgrade_store(store)
    t0 = time.perf_counter()
    import_filings(
        store,
        [{**f, "events": [e for e in f["events"] if _day_of(e) <= yesterday]} for f in histories],
        by="bench",
        today=yesterday,
    )
    print(f"imported {n} filings in {time.perf_counter() - t0:.0f} s", flush=True)
    t0 = time.perf_counter()
    swept = _sweep(url, yesterday, folder / "yesterday", everything=True)
    print(f"swept yesterday whole ({swept} open filings) in {time.perf_counter() - t0:.0f} s", flush=True)
    recorded, filings, refused = 0, 0, 0
    # an ordinary day: 1% of the filings have events recorded (chosen at
    # random among those whose history has some on the day)
    eligible = [f for f in histories if _day_of(f["events"][0]) < DAY and any(_day_of(e) == DAY for e in f["events"])]
    for f in random.Random(36).sample(eligible, min(len(eligible), n // 100)):
        today = [e for e in f["events"] if _day_of(e) == DAY]
        filings += 1
        for raw in today:
            try:
                record_event(store, f["id"], raw, by="bench", today=DAY, now=None, mail_from=None)
                recorded += 1
            except PermitsError:
                refused += 1
                break
    store.engine.dispose()
    facts = {"open": swept, "filings_with_events": filings, "events": recorded, "refused": refused}
    print(f"today: {recorded} events recorded on {filings} filings ({filings / n:.1%} of {n})", flush=True)
    return path, facts


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=5)
    args, _ = ap.parse_known_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base, facts = build(tmp, args.n)
        urls = {side: f"sqlite:///{tmp / (side + '.db')}" for side in ("inc", "full")}
        counts: dict[str, list[int]] = {"inc": [], "full": []}
        k = [0]

        def fresh(i: int) -> None:
            k[0] = i
            for side in urls:
                shutil.copy(base, tmp / f"{side}.db")

        def side(name: str, everything: bool, again: bool = False):
            def run():
                counts[name].append(_sweep(urls[name], DAY, tmp / f"out-{name}-{k[0]}-{again}", everything=everything))

            return run

        first = paired(
            f"incremental / full sweep, an ordinary day ({args.n:,} filings)",
            0.5,
            side("inc", False),
            side("full", True),
            rounds=args.rounds,
            warmup=0,
            before_round=fresh,
            note=f"{facts['filings_with_events']} filings with events",
        )
        print(f"filings swept: incremental {counts['inc']}, full {counts['full']}", flush=True)
        first.report()
        counts = {"inc": [], "full": []}

        def swept_once(i: int) -> None:
            fresh(i)
            side("inc", False)()
            side("full", True)()
            counts["inc"].pop()  # the first sweeps of the day: untimed, not counted
            counts["full"].pop()

        again = paired(
            f"incremental / full sweep, a second run the same day ({args.n:,} filings)",
            0.1,
            side("inc", False, True),
            side("full", True, True),
            rounds=args.rounds,
            warmup=0,
            before_round=swept_once,
        )
        print(f"filings swept again: incremental {counts['inc']}, full {counts['full']}", flush=True)
        again.report()


if __name__ == "__main__":
    main(sys.argv[1:])
