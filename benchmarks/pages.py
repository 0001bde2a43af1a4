"""The web benchmark's rows for the pages of issue 19 (bench_web.py runs
them): Today, the DPW schedule's two tabs and the deposits, each page's
app time (``Server-Timing``) against the store reads for what it shows,
as a Canton agent, a Canton DPW and an admin see them."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import load
from paired import Result

from models.handle import Store
from models.read import workbench
from services.database import upgrade_store
from services.users import add_user

AGENT_KINDS = ["noi", "rda", "land-disturbance"]
#: the administrator the page benchmarks log in as
ADMIN = "admin@permits.bench"


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


def today_reads(store: Store, as_of, towns, kinds, limit: int | None = 201) -> None:
    """The store reads of the Today page (web/staff/pages.py ``today``, within 14
    days): its 200 rows (``limit``), the view's counts, the applications
    submitted online, the enforcement cases' deadlines."""
    from models.read.docket_counts import docket_counts
    from models.read.enforcement import EnforcementRecord
    from models.read.submitted import submitted_filings
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
    from services.deposits import DepositFilter, deposit_list
    from services.inspection_requests import requests_for_schedule
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
                "DPW schedule page, Inspections / its queries (admin, 50 rows, the requests asked for online)",
                boss,
                "/schedule",
                lambda k: (
                    schedule_page(store, as_of=today, towns=None, tab="inspections", within=42),
                    requests_for_schedule(store, towns=None),
                ),
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
                lambda k: deposit_list(store, DepositFilter(towns=["canton"], today=today)),
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

    from services.deposits import fill_ledger_in
    from services.unit_of_work import UnitOfWork

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
        with UnitOfWork(store) as uow:
            for fid in ids[i : i + 1000]:
                filing, _ = store.load(fid, uow.conn)
                added += fill_ledger_in(uow, store, filing, by="bench")
    store.engine.dispose()
    return added


def admin_store(prefix: str, description: str):
    """The store a page benchmark measures and an admin's client logged in
    to it: ``--db PATH`` (a store built by bench_store.py --keep) or one of
    ``--filings N`` (default 100,000) built in a temporary folder, which is
    returned to be removed after.  Returns (store, client, folder or None)."""
    import argparse
    import tempfile

    from bench_store import AS_OF, build
    from fastapi.testclient import TestClient

    from models.accounts.users import UserError
    from web.app import create_app

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--db", help="a store built by bench_store.py --keep PATH (default: build one)")
    ap.add_argument("--filings", type=int, default=100_000, help="filings to build when --db is not given (default 100,000)")
    args, _ = ap.parse_known_args()  # run_all.py passes every benchmark the same arguments
    tmp = None
    if args.db:
        path = Path(args.db)
    else:
        tmp = Path(tempfile.mkdtemp(prefix=prefix))
        path = tmp / "permits.db"
        build(path, args.filings)
    store = Store(f"sqlite:///{path}")
    upgrade_store(store)
    try:
        add_user(store, ADMIN, load.PASSWORD, "admin")
    except UserError:
        pass
    client = TestClient(create_app(store, settings=_timed(), secret="bench", today=lambda: AS_OF), follow_redirects=False)
    load.login(client, ADMIN)
    return store, client, tmp


def _timed():
    """The environment's settings with the app time sent (``Server-Timing``, read here)."""
    import os

    import config

    return config.load({**os.environ, "PERMITS_SERVER_TIMING": "yes"})
