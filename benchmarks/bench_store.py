"""Benchmark: the record on SQLite at town scale.

Generates N filings (default 10,000; ``--n N`` for more), about ten
events each (street openings with their patches and inspections, NOIs through
hearing to the recorded Order), seeded, with start dates spread over
2024-2026 and the most recent histories cut short so deadlines are pending.
Imports them through ``services.imports.import_filings`` (each filing parsed and
replayed, its state and clocks stored beside it) in batches of 10,000
filings per transaction, then reports:

* the docket (``Store.docket(within=14)``, what ``permits docket --within 14``
  runs) against a raw ``sqlite3`` SELECT of the same rows over the same index
  (``ix_filing_clock_status_date``), paired (benchmarks/paired.py).
  Goal: docket at most 2x the raw query.
* ``permits show ID`` and ``permits docket`` on that store against
  ``python -c pass``, whole processes, bytecode compiled.  Goal: at most 8x.
* importing 500 new filings per round against parsing and replaying the
  same filings, paired, each side starting with the calendars' memos of
  counted days empty (as a fresh ``permits import`` does).  Goal: import at
  most 3x the replay.

Run: ``.venv/bin/python benchmarks/bench_store.py [--n N] [--rounds R] [--keep PATH] [--only PART]``
(or ``make bench``).  ``--only import`` (or ``docket``, ``commands``) runs
one part; with ``--keep PATH`` naming a store built before, that part runs
on a copy of it instead of building a new one (the kept store stays as it
was: the import rounds write into the copy).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from services.database import upgrade_store
from services.imports import import_filings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paired import WALL, compile_bytecode, paired, run_process  # noqa: E402

from models.handle import Store  # noqa: E402
from workflows.docket import VIOLATIONS  # noqa: E402
from workflows.filing import parse_filing  # noqa: E402
from workflows.replay import replay  # noqa: E402
from workflows.towns import registry  # noqa: E402

AS_OF = date(2026, 6, 15)
BATCH = 10_000
PARTS = ("docket", "commands", "import")
RAW_DOCKET = """
SELECT fc.date, fc.filing_id, f.town, f.kind, f.state, fc.clock_id, fc.rule, fc.explanation, fc.at
FROM filing_clock AS fc JOIN filing AS f ON f.id = fc.filing_id
WHERE (fc.status = 'due' AND fc.date <= :until)
   OR (fc.status = 'runs' AND fc.date >= :as_of AND fc.date <= :until)
   OR (fc.status = 'unknown' AND fc.date <= :until)
   OR fc.status IN ({violations})
ORDER BY fc.date, fc.filing_id, fc.clock_id
""".format(violations=", ".join(f"'{v}'" for v in sorted(VIOLATIONS)))


def street_opening(rng: random.Random, n: int, start: date, cut: int | None) -> dict:
    d = lambda k: (start + timedelta(days=k)).isoformat()  # noqa: E731
    events = [
        {
            "type": "filed",
            "date": d(0),
            "applicant": rng.choice(["private", "utility", "municipal"]),
            "length_ft": rng.choice([12, 25, 40, 80]),
        },
        {"type": "dig-safe-obtained", "date": d(1), "ticket": f"2024{n:07d}"},
        {"type": "permit-issued", "date": d(3)},
        {"type": "work-noticed", "at": f"{d(4)}T09:00"},
        {"type": "excavation-started", "date": d(8)},
        {"type": "inspected", "date": d(8), "stage": "pre-backfill", "result": "pass"},
        {"type": "backfilled", "date": d(9), "material": "gravel"},
        {"type": "temporary-patch-placed", "date": d(9)},
        {"type": "inspected", "date": d(12), "stage": "temporary-patch", "result": "pass"},
        {"type": "permanent-patch-placed", "date": d(400)},
    ]
    return {
        "town": "canton",
        "kind": "street-opening",
        "id": f"CAN-SO-{n:06d}",
        "applicant": f"Applicant {n % 500}",
        "address": f"{n % 300} Washington St",
        "events": events[:cut] if cut else events,
    }


def noi(rng: random.Random, n: int, start: date, cut: int | None) -> dict:
    town = rng.choice(["canton", "saugus", "mansfield"])
    d = lambda k: (start + timedelta(days=k)).isoformat()  # noqa: E731
    events = [
        {"type": "filed", "date": d(0)},
        {"type": "boards-notified", "date": d(0)},
        {"type": "abutters-notified", "date": d(0)},
        {"type": "hearing-scheduled", "date": d(1), "hearing": d(15)},
        {"type": "notice-published", "date": d(5)},
        {"type": "notice-posted", "date": d(9)},
        {"type": "hearing-opened", "date": d(15)},
        {"type": "hearing-closed", "date": d(15)},
        {"type": "permit-issued", "date": d(25)},
        {"type": "permit-recorded", "date": d(35)},
    ]
    return {
        "town": town,
        "kind": "noi",
        "id": f"{town[:3].upper()}-NOI-{n:06d}",
        "applicant": f"Owner {n}",
        "parcel": f"{n % 97}-{n % 1013}",
        "events": events[:cut] if cut else events,
    }


def generate(count: int, seed: int = 2026):
    rng = random.Random(seed)
    span = (AS_OF - date(2024, 1, 2)).days
    for n in range(count):
        start = date(2024, 1, 2) + timedelta(days=rng.randrange(span))
        recent = (AS_OF - start).days < 60
        if rng.random() < 0.7:
            yield street_opening(rng, n, start, rng.randint(2, 9) if recent else None)
        else:
            yield noi(rng, n, start, rng.randint(1, 9) if recent else None)


def build(path: Path, count: int) -> int:
    store = Store(f"sqlite:///{path}")
    upgrade_store(store)
    filings = list(generate(count))
    events = sum(len(f["events"]) for f in filings)
    for i in range(0, len(filings), BATCH):
        import_filings(store, filings[i : i + BATCH], by="bench")
    store.engine.dispose()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return events


def bench_import(path: Path, rounds: int, per_round: int) -> None:
    """Import per filing against parse+replay of the same filings, paired:
    each round imports filings the store has not seen (fresh ids)."""
    store = Store(f"sqlite:///{path}")
    batches = []
    for r in range(rounds + 1):
        batch = list(generate(per_round, seed=7 + r))
        for f in batch:
            f["id"] = f"{f['id']}-R{r}"
        batches.append(batch)
    current: list = []
    calendars = {profile.calendar for profile in registry().values()}

    def cold() -> None:
        # each side starts with no remembered reckonings, so neither is
        # served by the days the other side counted just before it
        for cal in calendars:
            cal.forget_reckonings()

    def measured():
        cold()
        import_filings(store, current, by="bench")

    def baseline():
        cold()
        for obj in current:
            replay(parse_filing(obj), AS_OF)

    result = paired(
        "import / parse+replay, per filing",
        3,
        measured,
        baseline,
        rounds=rounds,
        before_round=lambda k: current.__setitem__(slice(None), batches[k]),
    )
    print(
        f"  import {statistics.median(result.measured_s) / per_round * 1e3:.3f} ms/filing "
        f"({per_round:,} filings per transaction, into a {path.stat().st_size / 1e6:.0f} MB store)"
    )
    result.report()
    store.engine.dispose()


def bench_docket(path: Path, rounds: int) -> None:
    until = AS_OF + timedelta(days=14)
    store = Store(f"sqlite:///{path}")
    raw = sqlite3.connect(path)
    params = {"until": until.isoformat(), "as_of": AS_OF.isoformat()}
    items = store.docket(as_of=AS_OF, within=14)
    rows = raw.execute(RAW_DOCKET, params).fetchall()
    if len(rows) != len(items):
        raise SystemExit(f"mismatch: docket {len(items)} rows, raw query {len(rows)} rows")
    plan = " / ".join(r[3] for r in raw.execute("EXPLAIN QUERY PLAN " + RAW_DOCKET, params))
    print(f"  docket --within 14 as of {AS_OF}: {len(items):,} deadlines; plan: {plan}")
    paired(
        "Store.docket / raw sqlite3 SELECT",
        2,
        lambda: store.docket(as_of=AS_OF, within=14),
        lambda: raw.execute(RAW_DOCKET, params).fetchall(),
        rounds=rounds,
    ).report()
    raw.close()
    store.engine.dispose()


def bench_commands(path: Path, rounds: int) -> None:
    """``permits show ID`` and ``permits docket`` against ``python -c pass``,
    whole processes, wall time, bytecode compiled first."""
    root = str(Path(__file__).resolve().parent.parent)
    compile_bytecode(root)
    env = dict(os.environ, PERMITS_DATABASE_URL=f"sqlite:///{path}")
    with sqlite3.connect(path) as raw:
        count = raw.execute("SELECT count(*) FROM filing").fetchone()[0]
        some_id = raw.execute("SELECT id FROM filing ORDER BY id LIMIT 1 OFFSET ?", (count // 2,)).fetchone()[0]
    permits = [sys.executable, "-m", "cli.main"]
    base = [sys.executable, "-c", "pass"]
    for name, argv in (
        ("permits show ID", [*permits, "show", some_id, "--as-of", AS_OF.isoformat()]),
        ("permits docket", [*permits, "docket", "--as-of", AS_OF.isoformat()]),
    ):
        paired(
            f"{name} / python -c pass",
            8,
            lambda argv=argv: run_process(argv, env, cwd=root),
            lambda: run_process(base, env, cwd=root),
            rounds=rounds,
            clock=WALL,
            note="whole processes, bytecode compiled",
        ).report()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", "--filings", dest="filings", type=int, default=10_000, help="filings in the store (default 10,000)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--keep", help="write the database here and keep it (default: a temporary file, removed)")
    ap.add_argument("--only", choices=PARTS, help="run one part only (default: all)")
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark
    parts = [args.only] if args.only else list(PARTS)
    path = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-store-")) / "permits.db"
    reuse = bool(args.only and args.keep and path.exists())
    if not reuse:
        if path.exists():
            path.unlink()
        t0 = time.perf_counter()
        events = build(path, args.filings)
        elapsed = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
        print(f"store benchmark: {args.filings:,} filings, {events:,} events, SQLite {sqlite3.sqlite_version}")
        print(f"  built in {elapsed:.1f} s; database size {size / 1e6:,.1f} MB ({size / events:,.0f} bytes per event)")
    copy = None
    if args.only and args.keep:
        copy = Path(tempfile.mkdtemp(prefix="bench-store-")) / "permits.db"
        shutil.copyfile(path, copy)
        if reuse:
            with sqlite3.connect(copy) as raw:
                count = raw.execute("SELECT count(*) FROM filing").fetchone()[0]
            print(f"store benchmark: a copy of {path} ({count:,} filings), SQLite {sqlite3.sqlite_version}")
        path = copy
    if "docket" in parts:
        bench_docket(path, args.rounds)
    if "commands" in parts:
        bench_commands(path, args.rounds)
    if "import" in parts:
        bench_import(path, args.rounds, per_round=500)
    if copy is not None or not args.keep:
        for p in path.parent.glob(path.name + "*"):
            os.remove(p)
        path.parent.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
