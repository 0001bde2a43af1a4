"""Benchmark: the DPW schedule's pages on a town-scale store (issue 19, item 4).

Uses a store built by ``bench_store.py --keep PATH`` (``--db PATH``), else
builds one of ``--filings N`` (default 100,000; 70% street openings) the
same way.  For an admin (every town), each tab's first page (50 rows):

* the page's app time (its ``Server-Timing`` header: routing, the session,
  the user, the page's two queries, the stages that fit each row, the
  template), served through Starlette's in-process test client, against
* the page's own store queries alone (:func:`models.read.inspection_schedule.inspections_page`
  or ``other_dates_page``: the rows and the count), in this process;

interleaved in rounds, the side that goes first alternating; the median of
the per-round ratios with min and max (goal <= 2x).  Also the app time of a
filtered page (a street and a contractor) and of a deep page.

Run: ``.venv/bin/python benchmarks/bench_schedule.py [--db PATH] [--filings N]``.
"""

from __future__ import annotations

import gc
import re
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_store import AS_OF  # noqa: E402
from load import server_ms  # noqa: E402
from pages import admin_store  # noqa: E402
from paired import from_ratios  # noqa: E402

ROUNDS = 15


def _pair(page, query) -> tuple[list[float], list[float], list[float]]:
    ratios, pages, queries = [], [], []
    page()
    query()  # warm-up, untimed
    for n in range(ROUNDS):
        took = {}
        for name in ("page", "query") if n % 2 == 0 else ("query", "page"):
            gc.collect()
            if name == "page":
                took[name] = page()
            else:
                t = time.perf_counter()
                query()
                took[name] = time.perf_counter() - t
        ratios.append(took["page"] / took["query"])
        pages.append(took["page"])
        queries.append(took["query"])
    return ratios, pages, queries


def main() -> int:
    from models.read.inspection_schedule import ScheduleQuery, inspections_page, other_dates_page
    from services.schedule import SCHEDULE_WITHIN

    store, client, tmp = admin_store("bench-schedule-", __doc__.splitlines()[0])
    q = ScheduleQuery(towns=None, until=AS_OF + timedelta(days=SCHEDULE_WITHIN), limit=50)
    filings = len(store.list_filings())
    print(f"schedule benchmark: {filings:,} filings, as of {AS_OF}, admin user, 50 rows a page")
    results = []
    for tab, fn in (("inspections", inspections_page), ("other", other_dates_page)):

        def page(tab=tab):
            r = client.get(f"/schedule?tab={tab}")
            assert r.status_code == 200
            return server_ms(r) / 1000

        rows, total = fn(store, q, as_of=AS_OF)
        ratios, pages, queries = _pair(page, lambda fn=fn: fn(store, q, as_of=AS_OF))
        print(
            f"  {tab} tab, page 1 ({len(rows)} of {total:,} rows): app {statistics.median(pages) * 1000:.1f} ms; "
            f"its store queries alone {statistics.median(queries) * 1000:.1f} ms; ratio median {statistics.median(ratios):.2f}x "
            f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x, {ROUNDS} interleaved rounds; goal <= 2x)"
        )
        results.append(from_ratios(f"schedule page ({tab}) / its store queries, 100k", 2, ratios))
    first = client.get("/schedule").text
    street = (re.search(r"· \d+ ([A-Z][a-z]+ [A-Z][a-z]+)", first) or re.search(r"· ([A-Za-z ]+) ·", first)).group(1)
    for label, url in (
        (f"filtered (street {street!r})", f"/schedule?street={street}"),
        ("deep page (page 40)", "/schedule?tab=other&page=40"),
    ):
        times = [server_ms(client.get(url)) / 1000 for _ in range(5)]
        print(f"  {label}: app {statistics.median(times) * 1000:.1f} ms (median of 5)")
    for r in results:
        r.report()
    store.engine.dispose()
    if tmp:
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
