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
* **the search query / the scan it replaced**: ``models.workbench.search``
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
[--rounds R] [--no-load]`` (or ``make bench``).
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
from paired import CPU, Result, from_ratios, paired  # noqa: E402

from models import workbench  # noqa: E402
from models.service import Store  # noqa: E402

AGENT = load.STAFF[0][0]  # the Canton agent
AGENT_KINDS = ["noi", "rda", "land-disturbance"]
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


def page_against_query(name: str, client, url: str, query, rounds: int, note: str = "") -> Result:
    """The page's app time (Server-Timing) against ``query()`` in this
    process, interleaved rounds, wall time; ``url`` and ``query`` may be
    callables of the round (a different filing each round)."""
    page_s, query_s = [], []
    for k in range(rounds + 1):
        target = url(k) if callable(url) else url
        sides = [("page", lambda t=target: _page(client, t)), ("query", lambda k=k: _wall(lambda: query(k)))]
        took = dict((n, fn()) for n, fn in (sides if k % 2 else sides[::-1]))
        if k:  # the first round warms both up
            page_s.append(took["page"])
            query_s.append(took["query"])
    return Result(name, 2, [p / q for p, q in zip(page_s, query_s)], page_s, query_s, "wall", note=note)


def _page(client, url: str) -> float:
    r = client.get(url)
    if r.status_code != 200:
        raise SystemExit(f"GET {url}: {r.status_code}")
    return load.server_ms(r) / 1000


def _wall(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def filing_reads(store: Store, fid: str) -> None:
    """The store reads of a filing page (web/filing_pages.py): the filing
    with its names, its events, its history, its abutters, its notices."""
    from notices.store_log import StoreNoticeLog

    workbench.summary(store, fid)
    store.load(fid)
    store.history(fid)
    workbench.abutters(store, fid)
    StoreNoticeLog(store).entries(fid)


def page_rows(path: Path, rounds: int) -> None:
    import httpx

    store = Store(f"sqlite:///{path}")
    ids = load.filings_of(path)["visible"][AGENT]
    scope = {"towns": ["canton"], "kinds": AGENT_KINDS}
    deep = sorted(ids)[len(ids) * 2 // 3]
    applicant = "Nguyen"
    with load.Server(path, 1) as server, httpx.Client(base_url=server.base, timeout=60) as client:
        load.login(client, AGENT)
        rows, _ = workbench.search(store, **scope)
        print(f"  the filings list of a Canton agent: {len(ids):,} filings in scope, {len(rows)} a page")
        for r in (
            page_against_query(
                "filings list page / its query (Canton agent, first page)",
                client,
                "/filings",
                lambda k: workbench.search(store, **scope),
                rounds,
            ),
            page_against_query(
                "filings list page / its query (a deep page, by keyset)",
                client,
                f"/filings?after={deep}",
                lambda k: workbench.search(store, **scope, after=deep),
                rounds,
            ),
            page_against_query(
                "search page / its query (a street: Washington St)",
                client,
                "/filings?q=Washington+St",
                lambda k: workbench.search(store, **scope, text="Washington St"),
                rounds,
            ),
            page_against_query(
                f"search page / its query (an applicant: {applicant})",
                client,
                f"/filings?q={applicant}",
                lambda k: workbench.search(store, **scope, text=applicant),
                rounds,
            ),
            page_against_query(
                "filing page / its store reads (a random filing each round)",
                client,
                lambda k: f"/filings/{random.Random(k).choice(ids)}",
                lambda k: filing_reads(store, random.Random(k).choice(ids)),
                rounds,
            ),
        ):
            r.report()
    store.engine.dispose()


def today_reads(store: Store, as_of, towns, kinds, limit: int | None = 201) -> None:
    """The store reads of the Today page (web/pages.py ``today``, within 14
    days): its 200 rows (``limit``), the view's counts, the applications
    submitted online, the enforcement cases' deadlines."""
    from models.docket_counts import docket_counts
    from models.enforcement import EnforcementRecord
    from models.submitted import submitted_filings
    from workflows.towns import registry

    workbench.docket(store, as_of=as_of, within=14, towns=towns, kinds=kinds, limit=limit, open_only=True)
    docket_counts(store, as_of=as_of, within=14, towns=towns, kinds=kinds)
    submitted_filings(store)
    fines = [t for t, p in registry().items() if p.fines and (towns is None or t in towns)]
    if fines:
        EnforcementRecord(store).docket(as_of=as_of, within=14, towns=fines)


def today_query(store: Store, as_of, towns, kinds) -> None:
    """The Today page's 200-row query alone (its first page of deadlines)."""
    workbench.docket(store, as_of=as_of, within=14, towns=towns, kinds=kinds, limit=201, open_only=True)


def workbench_rows(path: Path, rounds: int) -> None:
    """Today, the DPW schedule's two tabs and the deposits, each page's app
    time against the store reads for what it shows, as each user sees it."""
    import httpx

    from config.clock import town_today
    from services.deposits import open_deposits
    from services.schedule import schedule_page
    from workflows.rulebook import KINDS

    store = Store(f"sqlite:///{path}")
    today = town_today()  # the server's day (the town's), as the page reads it
    canton = (["canton"], AGENT_KINDS)
    admin = (None, list(KINDS))
    with load.Server(path, 1) as server:
        clients = {}
        for email, _, _ in load.STAFF[:3]:
            clients[email] = httpx.Client(base_url=server.base, timeout=120)
            load.login(clients[email], email)
        agent, dpw, boss = (clients[e] for e, _, _ in load.STAFF[:3])
        rows = [
            (
                "Today page / its store reads (Canton agent: 200 rows, the counts)",
                agent,
                "/today",
                lambda k: today_reads(store, today, *canton),
            ),
            (
                "Today page / its store reads (admin: 200 rows, the counts)",
                boss,
                "/today",
                lambda k: today_reads(store, today, *admin),
            ),
            ("Today page / its 200-row query alone (admin)", boss, "/today", lambda k: today_query(store, today, *admin)),
            (
                "DPW schedule page, Inspections / its queries (admin, 50 rows)",
                boss,
                "/schedule",
                lambda k: schedule_page(store, as_of=today, towns=None, tab="inspections", within=42),
            ),
            (
                "DPW schedule page, Other dates / its queries (admin, 50 rows)",
                boss,
                "/schedule?tab=other",
                lambda k: schedule_page(store, as_of=today, towns=None, tab="other", within=42),
            ),
            (
                "deposits page / its query (Canton DPW, 100 rows)",
                dpw,
                "/deposits",
                lambda k: open_deposits(store, towns=["canton"]),
            ),
        ]
        for name, client, url, query in rows:
            page_against_query(name, client, url, query, rounds).report()
        for c in clients.values():
            c.close()
    store.engine.dispose()


#: street openings whose ledgers the benchmark fills (filling is about 60 ms
#: a permit here: all 30,000 of a 100,000-filing store would take half an hour)
DEPOSIT_PERMITS = 10_000


def add_deposits(path: Path) -> int:
    """Fill the ledgers of the store's first :data:`DEPOSIT_PERMITS` street
    openings (their deposits and fees, as recording their events does),
    once: how many lines."""
    import sqlite3

    from services.deposits import fill_ledger

    with sqlite3.connect(path) as conn:
        done = {r[0] for r in conn.execute("SELECT DISTINCT filing_id FROM ledger_entry")}
        ids = [
            r[0]
            for r in conn.execute("SELECT id FROM filing WHERE kind = 'street-opening' ORDER BY id LIMIT ?", (DEPOSIT_PERMITS,))
        ]
    ids = [i for i in ids if i not in done]
    store = Store(f"sqlite:///{path}")
    added = 0
    for i in range(0, len(ids), 1000):  # a thousand permits a transaction (recording does one at a time)
        with store.engine.begin() as conn:
            for fid in ids[i : i + 1000]:
                filing, _ = store.load(fid, conn)
                added += fill_ledger(store, conn, filing, by="bench")
    store.engine.dispose()
    return added


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
    args, _ = ap.parse_known_args()  # run_all.py passes every benchmark the same arguments
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        path = _store(args.db, args.filings, Path(tmp), "pages.db")
        print(f"web benchmark: pages and search on a store of {_count(path):,} filings", flush=True)
        t = time.perf_counter()
        added = add_deposits(path)
        if added:
            print(f"  filled the street openings' ledgers: {added:,} lines in {time.perf_counter() - t:.0f} s", flush=True)
        page_rows(path, args.rounds)
        workbench_rows(path, args.rounds)
        search_rows(path, args.rounds)
        if not args.no_load:
            load_path = _store(args.load_db, args.load_filings, Path(tmp), "load.db")
            load_rows(load_path, args.clients, args.seconds, args.load_rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
