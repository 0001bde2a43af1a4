"""Benchmark: what an applicant's "My filings" costs on a town-scale store.

Builds a SQLite store of N filings (default 100,000; ``--filings N``) with
``bench_store.generate``, one in 100 naming an applicant's email address
(``applicant.email``), and a proved (invited) applicant account named on
about ten of them.  Then, interleaved in rounds (the side that goes first
rotating), wall time of:

* ``Applicants.filings_visible_to(account)``: the filings that name the
  account's address, found by reading each filing's JSON ``extra``
  (``applicant``/``owner``/``contractor`` ``.email``), plus its links;
* the baseline: the same rows fetched by their ids over the primary key
  (what an index of addresses would make it).

Reports the median of the per-round ratios with min and max, and each side's
median time.  Run: ``.venv/bin/python benchmarks/bench_applicants.py
[--filings N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

from services.database import upgrade_store
from services.imports import import_filings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_store import generate  # noqa: E402
from paired import from_ratios  # noqa: E402
from sqlalchemy import select  # noqa: E402

from models.accounts.applicants import Applicants  # noqa: E402
from models.handle import Store  # noqa: E402
from models.schema.tables import FilingRow  # noqa: E402

ADDRESS = "ann.lee@example.org"
FILING = FilingRow.__table__


def build(path: Path, count: int) -> tuple[Store, object, list[str]]:
    store = Store(f"sqlite:///{path}")
    upgrade_store(store)
    batch, mine = [], []
    for i, f in enumerate(generate(count)):
        if i % 100 == 0:
            address = ADDRESS if i % 10_000 == 0 else f"applicant{i}@example.org"
            f["applicant"] = {"name": f"Applicant {i}", "email": address}
            if address == ADDRESS:
                mine.append(f["id"])
        batch.append(f)
        if len(batch) == 10_000:
            import_filings(store, batch, by="bench")
            batch = []
    if batch:
        import_filings(store, batch, by="bench")
    from models.accounts.applicants import Applicants
    from services.unit_of_work import UnitOfWork

    applicants = Applicants(store)
    with UnitOfWork(store) as uow:
        account = applicants.accept(uow.conn, applicants.invite(uow.conn, mine[0], ADDRESS, by="bench"), "bench password 1")
    return store, account, sorted(mine)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--filings",
        type=int,
        default=10_000,
        help="filings in the store (default 10,000; docs/engineering/speed.md gives the 10,000-filing figure)",
    )
    ap.add_argument("--rounds", type=int, default=9)
    args, _ = ap.parse_known_args()  # run_all.py passes every benchmark the same arguments
    with tempfile.TemporaryDirectory(prefix="bench-applicants-") as tmp:
        t0 = time.perf_counter()
        store, account, mine = build(Path(tmp) / "permits.db", args.filings)
        print(f"built {args.filings:,} filings in {time.perf_counter() - t0:.0f} s; the account is named on {len(mine)}")
        applicants = Applicants(store)

        def visible():
            return [r.id for r in applicants.filings_visible_to(account)]

        def by_ids():
            with store.reader.connect() as conn:
                return [r.id for r in conn.execute(select(FILING.c.id).where(FILING.c.id.in_(mine)).order_by(FILING.c.id))]

        assert visible() == by_ids() == mine
        sides = {"filings_visible_to": visible, "by id (baseline)": by_ids}
        times: dict[str, list[float]] = {k: [] for k in sides}
        ratios = []
        gc.collect()
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            got = {}
            for name in order:
                t = time.perf_counter()
                sides[name]()
                got[name] = time.perf_counter() - t
                times[name].append(got[name])
            ratios.append(got["filings_visible_to"] / got["by id (baseline)"])
        for name, ts in times.items():
            print(f"{name:>22}: median {statistics.median(ts) * 1000:8.2f} ms")
        print(
            f"ratio: median {statistics.median(ratios):.0f}x (min {min(ratios):.0f}x, max {max(ratios):.0f}x), {args.rounds} rounds"
        )
        from_ratios(f"applicants: My filings / the same rows by id ({args.filings:,} filings)", 10.0, ratios).report()
        store.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
