"""Benchmark: the workbench where people wait.

On a store of ``--filings`` generated filings (default 100,000; the
demonstration's generator, as ``permits demo --count N`` makes them:
realistic streets, parcels and ids; ``--db PATH`` uses a store made before),
served by ``permits serve --workers 1`` on 127.0.0.1:

* **a page / the store query for the rows it shows**: the app's own time
  for the page (its ``Server-Timing`` header: routing, the session, the
  user, the query, the template) against the same query called in this
  process on the same store, paired: interleaved rounds, the side that goes
  first alternating, wall time (the server is another process); the median
  of the per-round ratios with min and max (goal <= 2x).  The filings list
  of a Canton agent (first page, and a deep page by keyset); a search by
  street and by applicant; a filing page against the store reads it makes
  (the filing, its history, its abutters, its notices); Today (a Canton
  agent's and an admin's: the page against its store reads, its 200 rows,
  the view's counts, the applications to check, the enforcement
  deadlines; and against the 200-row query alone), the DPW schedule's
  Inspections and Other dates tabs (against ``services.schedule.schedule_page``)
  and the deposits (a Canton DPW's, against ``open_deposits``; the
  ledgers of the store's first 10,000 street openings are filled first, as
  recording their events fills them).
* **the search query / the scan it replaced**: ``models.read.workbench.search``
  against the query it replaced (``lower(column) LIKE '%text%'`` of every
  filing in id order, the applicants' names of every party), both in this
  process, CPU time, paired (goal <= 1x): a street, an applicant, a
  parcel, and a street of another town (the index's worst case).

Then on a store of ``--load-filings`` (default 10,000), through
``benchmarks/load.py``: ``--clients`` (16) staff for ``--seconds`` (20)
against ``permits serve --workers 1`` and ``--workers 2`` in interleaved
rounds (``--load-rounds``, 3): requests per second of two workers over one
(goal >= 1.7x) and, with two workers, p95 over p50 latency (goal <= 3x).

Run: ``.venv/bin/python benchmarks/bench_web.py [--db PATH] [--filings N]
[--rounds R] [--no-load | --load-only [--load-db PATH]]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402
import pages  # noqa: E402
from pages import AGENT_KINDS, page_against_query  # noqa: E402
from paired import CPU, from_ratios, paired  # noqa: E402

from models.handle import Store  # noqa: E402
from models.read import workbench  # noqa: E402

AGENT = load.STAFF[0][0]  # the Canton agent
#: the search that was a scan: every filing's address and parcel, every party's name
OLD_SEARCH = """
SELECT f.id, f.town, f.kind, f.state, f.last_seq, f.address, f.parcel, a.name, c.name,
       f.next_deadline_date, f.next_deadline_clock
FROM filing AS f LEFT JOIN party AS a ON a.id = f.applicant_id LEFT JOIN party AS c ON c.id = f.contractor_id
WHERE f.kind IN ('noi', 'rda', 'land-disturbance') AND f.town IN ('canton')
  AND ((f.id >= :up AND f.id < :up || char(65535)) OR (f.id >= :text AND f.id < :text || char(65535))
       OR lower(f.address) LIKE :like ESCAPE '\\' OR lower(f.parcel) LIKE :like ESCAPE '\\'
       OR f.applicant_id IN (SELECT id FROM party WHERE lower(name) LIKE :like ESCAPE '\\'))
ORDER BY f.id LIMIT 51
"""


def filing_reads(store: Store, fid: str, uploads=None) -> None:
    """The store reads of a filing page (web/staff/filing_pages.py): the filing
    with its names, its events, its history, its abutters, its notices,
    where its abutter list came from and its site's parcel, a street
    opening's ledger, its plans and photos (``uploads``: a
    ``models.store.uploads.Uploads`` of the store)."""
    from models.read import parcels as stored
    from services.deposits import permit_ledger
    from services.notice_log import StoreNoticeLog
    from services.parcels import site_match

    summary = workbench.summary(store, fid)
    store.load(fid)
    store.history(fid)
    workbench.abutters(store, fid)
    StoreNoticeLog(store).entries(fid)
    stored.abutter_source(store, fid)
    site_match(store, summary.town, address=summary.address, parcel=summary.parcel)
    if summary.kind == "street-opening":
        permit_ledger(store, fid)
    if uploads is not None:
        uploads.of_filing(fid)
        uploads.of_filing(fid, "photo")


def page_rows(path: Path, rounds: int) -> None:
    import httpx

    import config
    from models.read.filing_list import filing_list
    from models.store.uploads import Uploads

    store = Store(f"sqlite:///{path}")
    settings = config.load()
    uploads = Uploads(store, settings.uploads_dir, settings.upload_max_bytes)  # as the server makes it
    ids = load.filings_of(path)["visible"][AGENT]
    scope = {"towns": ["canton"], "kinds": AGENT_KINDS}
    applicant = "Nguyen"
    deep = 300  # page 300 of the agent's 400

    def listing(**kw):
        return lambda k: filing_list(store, **scope, **kw)

    with load.Server(path, 1) as server, httpx.Client(base_url=server.base, timeout=60) as client:
        load.login(client, AGENT)
        first = filing_list(store, **scope)
        print(f"  the filings list of a Canton agent: {first.total:,} filings in scope, {len(first.rows)} a page")
        for r in (
            page_against_query("filings list page / its query (Canton agent, first page)", client, "/filings", listing(), rounds),
            page_against_query(
                f"filings list page / its query (page {deep})", client, f"/filings?page={deep}", listing(page=deep), rounds
            ),
            page_against_query(
                "filings list page / its query (sorted by site, first page)",
                client,
                "/filings?sort=site",
                listing(sort="site"),
                rounds,
            ),
            page_against_query(
                "search page / its query (a street: Washington St)",
                client,
                "/filings?q=Washington+St",
                listing(text="Washington St"),
                rounds,
            ),
            page_against_query(
                f"search page / its query (an applicant: {applicant})",
                client,
                f"/filings?q={applicant}",
                listing(text=applicant),
                rounds,
            ),
            page_against_query(
                "filing page / its store reads (a random filing each round)",
                client,
                lambda k: f"/filings/{random.Random(k).choice(ids)}",
                lambda k: filing_reads(store, random.Random(k).choice(ids), uploads),
                rounds,
            ),
        ):
            r.report()
    store.engine.dispose()


def old_search(store: Store, params: dict) -> list:
    """The scan, as the search ran it: through the store's reader, its
    rows made summaries (the same conditions as the measured side)."""
    from sqlalchemy import text

    with store.reader.connect() as conn:
        return [workbench.FilingSummary(*r) for r in conn.execute(text(OLD_SEARCH), params)]


def search_rows(path: Path, rounds: int) -> None:
    """The search against the scan it replaced, in this process."""
    import sqlite3

    store = Store(f"sqlite:///{path}")
    raw = sqlite3.connect(path)
    scope = {"towns": ["canton"], "kinds": AGENT_KINDS}
    with sqlite3.connect(path) as conn:
        parcels = [r[0] for r in conn.execute("SELECT parcel FROM filing WHERE town = 'canton' AND kind = 'noi' ORDER BY id")]
    parcel = parcels[len(parcels) // 2]  # one from the middle of the town's filings
    for label, text in (
        ("a street: Washington St", "Washington St"),
        ("an applicant: Nguyen", "Nguyen"),
        (f"a parcel: {parcel}", parcel),
        ("a street of another town: Chauncy St", "Chauncy St"),
    ):
        like = "%" + text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        params = {"up": text.upper(), "text": text, "like": like}
        rows, _ = workbench.search(store, **scope, text=text)
        old = raw.execute(OLD_SEARCH, params).fetchall()
        if [r.id for r in rows] != [r[0] for r in old[:50]]:
            raise SystemExit(f"search {text!r}: the index found {len(rows)} rows, the scan {len(old)}")
        paired(
            f"search query / the scan it replaced ({label})",
            1,
            lambda text=text: workbench.search(store, **scope, text=text),
            lambda params=params: old_search(store, params),
            rounds=rounds,
            clock=CPU,
            note=f"{len(rows)} rows",
        ).report()
    raw.close()
    store.engine.dispose()


def load_rows(path: Path, clients: int, seconds: float, rounds: int) -> None:
    runs: dict[int, list] = {1: [], 2: []}
    for k in range(rounds):
        for n in (1, 2) if k % 2 == 0 else (2, 1):
            run = load.run_load(path, n, clients, seconds, seed=k)
            runs[n].append(run)
            print(run.line(), flush=True)
            print(load.pages_line(run), flush=True)
            for e in sorted(set(run.errors))[:3]:
                print(f"    error: {e}")
    errors = sum(len(r.errors) for rs in runs.values() for r in rs)
    from_ratios(
        f"load: 2 workers / 1 worker, requests a second ({clients} clients, writes in the mix)",
        1.7,
        [two.rps / one.rps for one, two in zip(runs[1], runs[2])],
        note=f"{errors} errors; {statistics.median(r.rps for r in runs[2]):.1f} / "
        f"{statistics.median(r.rps for r in runs[1]):.1f} req/s; the server used "
        f"{statistics.median(r.server_cpu / r.seconds for r in runs[2]):.0%} / "
        f"{statistics.median(r.server_cpu / r.seconds for r in runs[1]):.0%} of a core",
        at_least=True,
    ).report()
    from_ratios(
        f"load: p95 / p50 latency, 2 workers, {clients} clients",
        3,
        [r.pct(95) / r.pct(50) for r in runs[2]],
        note=f"p50 {statistics.median(r.pct(50) for r in runs[2]) * 1000:.0f} ms, "
        f"p95 {statistics.median(r.pct(95) for r in runs[2]) * 1000:.0f} ms",
    ).report()
    from_ratios(
        f"load: p95 / p50 latency, 1 worker, {clients} clients",
        3,
        [r.pct(95) / r.pct(50) for r in runs[1]],
        note=f"p50 {statistics.median(r.pct(50) for r in runs[1]) * 1000:.0f} ms, "
        f"p95 {statistics.median(r.pct(95) for r in runs[1]) * 1000:.0f} ms",
    ).report()


def _store(given: str | None, count: int, tmp: Path, name: str) -> Path:
    if given:
        path = Path(given)
        load.add_staff(path)
        return path
    path = tmp / name
    t = time.perf_counter()
    load.build_store(path, count)
    print(f"  built a store of {count:,} generated filings in {time.perf_counter() - t:.0f} s", flush=True)
    return path


def _count(path: Path) -> int:
    import sqlite3

    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT count(*) FROM filing").fetchone()[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="a SQLite store for the page rows (default: build one of --filings)")
    ap.add_argument("--n", "--filings", dest="filings", type=int, default=100_000, help="filings of the page rows' store")
    ap.add_argument("--load-db", help="a SQLite store for the load rows (default: build one of --load-filings)")
    ap.add_argument("--load-filings", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--load-rounds", type=int, default=3)
    ap.add_argument("--no-load", action="store_true", help="leave out the load rows")
    ap.add_argument("--load-only", action="store_true", help="only the load rows")
    args, _ = ap.parse_known_args()  # run_all.py passes every benchmark the same arguments
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        if args.load_only:
            load_rows(_store(args.load_db, args.load_filings, Path(tmp), "load.db"), args.clients, args.seconds, args.load_rounds)
            return 0
        path = _store(args.db, args.filings, Path(tmp), "pages.db")
        print(f"web benchmark: pages and search on a store of {_count(path):,} filings", flush=True)
        t = time.perf_counter()
        added = pages.add_deposits(path)
        if added:
            print(f"  filled the street openings' ledgers: {added:,} lines in {time.perf_counter() - t:.0f} s", flush=True)
        page_rows(path, args.rounds)
        pages.workbench_rows(path, args.rounds)
        search_rows(path, args.rounds)
        if not args.no_load:
            load_path = _store(args.load_db, args.load_filings, Path(tmp), "load.db")
            load_rows(load_path, args.clients, args.seconds, args.load_rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
