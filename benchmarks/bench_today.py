"""Benchmark: the Today page against its own store query alone (issue 19).

The page's app time (its ``Server-Timing`` header: the session, the user,
the 200-row docket query, the counts, the applications to check, the
one-row-per-act grouping, the template) against the same 200-row query
alone (``models.read.workbench.docket(limit=201, open_only=True)``, for an
admin: every town and kind), both in this process, interleaved in rounds
with the first side rotating: the median of the per-round ratios with min
and max (goal <= 2x).  Both sides are wall time: the page's is measured
inside the server, so the test client's own cost is not counted.

Uses a store built by ``bench_store.py --keep PATH`` (``--db PATH``), else
builds one of ``--filings N`` (default 100,000) the same way.

Run: ``.venv/bin/python benchmarks/bench_today.py [--db PATH] [--filings N]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_store import AS_OF  # noqa: E402
from load import server_ms  # noqa: E402
from pages import admin_store  # noqa: E402

ROUNDS = 21


def main() -> int:
    from models.read import workbench
    from web.staff.pages import TODAY_ROWS
    from workflows.rulebook import KINDS

    store, client, tmp = admin_store("bench-today-", __doc__.splitlines()[0])
    count = len(store.list_filings())

    def query():
        t = time.perf_counter()
        rows = workbench.docket(
            store, as_of=AS_OF, within=14, towns=None, kinds=list(KINDS), limit=TODAY_ROWS + 1, open_only=True
        )
        return rows, time.perf_counter() - t

    def page():
        r = client.get("/today?within=14")
        assert r.status_code == 200
        return r, server_ms(r) / 1000

    page(), query()  # warm both
    ratios, page_t, query_t = [], [], []
    for n in range(ROUNDS):
        sides = [("page", page), ("query", query)]
        if n % 2:
            sides.reverse()
        took = {name: fn()[1] for name, fn in sides}
        ratios.append(took["page"] / took["query"])
        page_t.append(took["page"])
        query_t.append(took["query"])
    rows = len(query()[0])
    print(f"Today benchmark: {count:,} filings, as of {AS_OF}, admin (every town and kind)")
    print(
        f"  Today page (within 14, {min(rows, TODAY_ROWS)} rows shown, with the counts): app {statistics.median(page_t) * 1000:.1f} ms; "
        f"its 200-row docket query alone {statistics.median(query_t) * 1000:.1f} ms; ratio median {statistics.median(ratios):.2f}x "
        f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x, {ROUNDS} interleaved rounds; goal <= 2x)"
    )
    store.engine.dispose()
    if tmp:
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
