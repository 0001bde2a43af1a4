"""Benchmark: the web workbench on a town-scale store.

Uses a store built by ``bench_store.py --keep PATH`` (``--db PATH``; 100,000
filings there by default), else builds one of ``--filings N`` (default
10,000) the same way.  Reports, for an admin (who sees every filing):

* the *Today* page (docket within 14 days, overdue first) against the
  store's docket query alone (``Store.docket(within=14)``): wall time, both
  in this process, interleaved in rounds with the first side rotating;
  the median of the per-round ratios with min and max (goal <= 2x).  The
  page's time is the app's own (its ``Server-Timing`` header: routing, the
  session, the user, the scoped query and the template), served through
  Starlette's in-process test client;
* a filing page (replay, history, clocks, notices that fit): p50 and p95
  over random filings;
* search: the median of a few searches (id prefix, street, applicant);
* a load run against ``permits serve`` in its own process on 127.0.0.1:
  ``--clients`` (default 20) threads for ``--seconds`` (default 30), each
  logged in and cycling Today, a filing and a search; requests per second
  and the error count (goal: 0 errors).

Run: ``.venv/bin/python benchmarks/bench_web.py [--db PATH] [--filings N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_store import AS_OF, BATCH, generate  # noqa: E402

from models.service import Store  # noqa: E402
from models.users import UserError, Users  # noqa: E402

EMAIL, PASSWORD = "bench-admin@permits.example", "bench password 123"
ROUNDS = 15


def build(path: Path, count: int) -> None:
    store = Store(f"sqlite:///{path}")
    store.upgrade()
    filings = list(generate(count))
    for i in range(0, len(filings), BATCH):
        store.import_filings(filings[i : i + BATCH], by="bench")
    store.engine.dispose()


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def server_ms(response) -> float:
    """The app's own time for a response (its Server-Timing header)."""
    return float(re.search(r"app;dur=([\d.]+)", response.headers["server-timing"]).group(1))


def login(client) -> None:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    r = client.post("/login", data={"csrf": token, "email": EMAIL, "password": PASSWORD, "next": "/today"})
    assert r.status_code in (200, 303), r.status_code


def in_process(store: Store, ids: list[str]) -> dict:
    from fastapi.testclient import TestClient

    from web.app import create_app

    client = TestClient(create_app(store, secret="bench", today=lambda: AS_OF))
    login(client)
    query = lambda: store.docket(as_of=AS_OF, within=14)  # noqa: E731

    def page():
        r = client.get("/today?within=14")
        return r, server_ms(r) / 1000

    r, _ = page()
    assert r.status_code == 200
    rows = r.text.count("<tr class=")
    items = len(query())
    ratios, page_t, query_t = [], [], []
    for n in range(ROUNDS):
        sides = [("page", page), ("query", query)]
        if n % 2:
            sides.reverse()
        took = {}
        for name, fn in sides:
            t = time.perf_counter()
            out = fn()
            took[name] = out[1] if name == "page" else time.perf_counter() - t
        ratios.append(took["page"] / took["query"])
        page_t.append(took["page"])
        query_t.append(took["query"])

    filing_t = []
    for fid in random.Random(7).sample(ids, min(200, len(ids))):
        r = client.get(f"/filings/{fid}")
        assert r.status_code == 200
        filing_t.append(server_ms(r) / 1000)

    searches = {"id prefix": ids[len(ids) // 2][:9], "street": "Washington", "applicant": "Owner 77", "parcel": "12-"}
    search_t = {}
    for label, text in searches.items():
        times = []
        for _ in range(5):
            r = client.get("/filings", params={"q": text})
            assert r.status_code == 200
            times.append(server_ms(r) / 1000)
        search_t[label] = (text, statistics.median(times))
    client.get("/filings", params={"after": sorted(ids)[-60]})
    deep = client.get("/filings", params={"after": sorted(ids)[-60]})
    deep_t = server_ms(deep) / 1000
    assert deep.status_code == 200
    return {
        "rows": rows,
        "items": items,
        "ratios": ratios,
        "page": statistics.median(page_t),
        "query": statistics.median(query_t),
        "filing": filing_t,
        "search": search_t,
        "deep": deep_t,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load(path: Path, ids: list[str], clients: int, seconds: float) -> dict:
    import httpx

    port = _free_port()
    env = {**os.environ, "PERMITS_SECRET_KEY": "bench-secret"}
    permits = ROOT / ".venv" / "bin" / "permits"
    server = subprocess.Popen(
        [str(permits), "serve", "--db", f"sqlite:///{path}", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/login", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        counts, errors, lock = [0], [0], threading.Lock()
        stop = time.monotonic() + seconds
        latencies: list[float] = []

        def client(n: int) -> None:
            rng = random.Random(n)
            with httpx.Client(base_url=base, timeout=30, follow_redirects=False) as c:
                login(c)
                i = 0
                while time.monotonic() < stop:
                    path = ("/today?within=14", f"/filings/{rng.choice(ids)}", "/filings?q=Washington")[i % 3]
                    i += 1
                    t = time.perf_counter()
                    try:
                        ok = c.get(path).status_code == 200
                    except httpx.HTTPError:
                        ok = False
                    with lock:
                        counts[0] += 1
                        errors[0] += not ok
                        latencies.append(time.perf_counter() - t)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait(10)
    return {
        "requests": counts[0],
        "errors": errors[0],
        "rps": counts[0] / elapsed,
        "p50": pct(latencies, 50),
        "p95": pct(latencies, 95),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="a store built by bench_store.py --keep PATH (default: build one)")
    ap.add_argument("--filings", type=int, default=10_000, help="filings to build when --db is not given (default 10,000)")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30)
    args, _ = ap.parse_known_args()  # run_all.py passes every benchmark the same arguments
    tmp = None
    if args.db:
        path = Path(args.db)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="bench-web-"))
        path = tmp / "permits.db"
        build(path, args.filings)
    store = Store(f"sqlite:///{path}")
    store.upgrade()  # a bench_store database from before the users table
    try:
        Users(store.engine).add(EMAIL, PASSWORD, "admin")
    except UserError:
        pass  # added by an earlier run
    ids = [r.id for r in store.list_filings()]
    res = in_process(store, ids)
    print(f"web benchmark: {len(ids):,} filings, as of {AS_OF} ({date.today()} wall clock), admin user")
    r = res["ratios"]
    print(
        f"  Today page (within 14, {res['items']:,} deadlines, {res['rows']:,} rows shown): {res['page'] * 1000:.1f} ms; "
        f"Store.docket alone {res['query'] * 1000:.1f} ms; ratio median {statistics.median(r):.2f}x "
        f"(min {min(r):.2f}x, max {max(r):.2f}x, {ROUNDS} interleaved rounds; goal <= 2x)"
    )
    f = res["filing"]
    print(f"  filing page: p50 {pct(f, 50) * 1000:.1f} ms, p95 {pct(f, 95) * 1000:.1f} ms ({len(f)} random filings)")
    for label, (text, t) in res["search"].items():
        print(f"  search {label} {text!r}: {t * 1000:.1f} ms (median of 5)")
    print(f"  last page of filings (keyset, after the 60th-last id): {res['deep'] * 1000:.1f} ms")
    store.engine.dispose()
    if args.seconds > 0:
        ld = load(path, ids, args.clients, args.seconds)
        print(
            f"  load: {args.clients} clients x {args.seconds:.0f} s on 127.0.0.1 (permits serve, one uvicorn process): "
            f"{ld['requests']:,} requests, {ld['rps']:.1f} req/s, {ld['errors']} errors, "
            f"latency p50 {ld['p50'] * 1000:.0f} ms, p95 {ld['p95'] * 1000:.0f} ms"
        )
    if tmp:
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
