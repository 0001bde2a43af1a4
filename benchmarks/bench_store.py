"""Benchmark: the record on SQLite at town scale.

Generates N filings (default 100,000; ``--filings N`` for fewer), about ten
events each (street openings with their patches and inspections, NOIs through
hearing to the recorded Order), seeded, with start dates spread over
2024-2026 and the most recent histories cut short so deadlines are pending.
Imports them through ``Store.import_filings`` (each filing parsed and
replayed, its state and clocks stored beside it) in batches of 10,000
filings per transaction, then reports:

* the import rate (filings and events per second) and the database size;
* the docket (``Store.docket(within=14)``, what ``permits docket --within 14``
  runs) against a raw ``sqlite3`` SELECT of the same rows over the same index
  (``ix_filing_clock_status_date``), best of 5 each, in the same run.
  Goal: docket at most 2x the raw query.

Run: ``.venv/bin/python benchmarks/bench_store.py [--filings N] [--keep PATH]``
(or ``make bench``).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.service import Store  # noqa: E402

AS_OF = date(2026, 6, 15)
BATCH = 10_000
RAW_DOCKET = """
SELECT fc.date, fc.filing_id, f.town, f.kind, f.state, fc.clock_id, fc.rule, fc.explanation, fc.at
FROM filing_clock AS fc JOIN filing AS f ON f.id = fc.filing_id
WHERE (fc.status = 'due' AND fc.date <= :until)
   OR (fc.status = 'runs' AND fc.date >= :as_of AND fc.date <= :until)
ORDER BY fc.date, fc.filing_id, fc.clock_id
"""


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


def best_of(fn, times: int = 5) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(times):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filings", type=int, default=100_000, help="how many filings to generate (default 100,000)")
    ap.add_argument("--keep", help="write the database here and keep it (default: a temporary file, removed)")
    args = ap.parse_args()
    path = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-store-")) / "permits.db"
    if path.exists():
        path.unlink()
    store = Store(f"sqlite:///{path}")
    store.upgrade()

    filings = list(generate(args.filings))
    events = sum(len(f["events"]) for f in filings)
    t0 = time.perf_counter()
    for i in range(0, len(filings), BATCH):
        store.import_filings(filings[i : i + BATCH], by="bench")
    elapsed = time.perf_counter() - t0
    del filings
    store.engine.dispose()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))

    until = AS_OF + timedelta(days=14)
    store = Store(f"sqlite:///{path}")
    docket_s, items = best_of(lambda: store.docket(as_of=AS_OF, within=14))
    raw = sqlite3.connect(path)
    plan = " / ".join(
        r[3] for r in raw.execute("EXPLAIN QUERY PLAN " + RAW_DOCKET, {"until": until.isoformat(), "as_of": AS_OF.isoformat()})
    )
    raw_s, rows = best_of(lambda: raw.execute(RAW_DOCKET, {"until": until.isoformat(), "as_of": AS_OF.isoformat()}).fetchall())
    raw.close()
    if len(rows) != len(items):
        print(f"mismatch: docket {len(items)} rows, raw query {len(rows)} rows")
        return 1

    print(f"store benchmark: {args.filings:,} filings, {events:,} events, SQLite {sqlite3.sqlite_version}")
    print(
        f"  import: {elapsed:.1f} s = {args.filings / elapsed:,.0f} filings/s, {events / elapsed:,.0f} events/s "
        f"(parsed, replayed, stored with state and clocks; {BATCH:,} filings per transaction)"
    )
    print(f"  database size: {size / 1e6:,.1f} MB ({size / events:,.0f} bytes per event)")
    print(f"  docket --within 14 as of {AS_OF}: {len(items):,} deadlines ({sum(i.status == 'overdue' for i in items):,} overdue)")
    print(
        f"    Store.docket: {docket_s * 1000:.2f} ms   raw sqlite3 SELECT: {raw_s * 1000:.2f} ms   "
        f"ratio {docket_s / raw_s:.2f}x (goal <= 2x)"
    )
    print(f"    plan: {plan}")
    if not args.keep:
        for p in path.parent.glob(path.name + "*"):
            os.remove(p)
        path.parent.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
