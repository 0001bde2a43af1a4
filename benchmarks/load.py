"""A bounded load on the workbench: ``permits serve`` on 127.0.0.1 and a
crowd of logged-in staff working at it, for a fixed time, then stopped.

    .venv/bin/python benchmarks/load.py [--db PATH] [--filings N] [--clients 16]
        [--seconds 20] [--workers 1,2] [--rounds 1] [--write-every 5]

Builds a store of ``--filings`` generated filings (default 10,000: the
demonstration's generator, as ``permits demo --count N`` makes them) unless
``--db`` names a SQLite store, and adds the staff it logs in as.  Then, for
each number of ``--workers`` (in rounds, the order alternating), starts
``permits serve --workers N`` on a free port of 127.0.0.1 only, lets
``--clients`` threads each log in (a Canton agent, Canton DPW, an admin, a
Mansfield agent, in turn) and cycle for ``--seconds``: Today, the filings
list, a search by street, a filing of theirs; every ``--write-every``-th
cycle a DPW or admin client records an event on a street opening (the
filing page's form: Dig Safe ticket obtained).  It prints requests per
second, errors and the latency percentiles of each run, and stops the
server.  Nothing but 127.0.0.1 is ever contacted; every run ends by itself.

``benchmarks/bench_web.py`` runs it for ``make bench``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from itertools import islice
from pathlib import Path

from services.database import upgrade_store
from services.imports import import_filings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "bench password 123"
#: who the clients log in as, in turn: (email, role, towns)
STAFF = [
    ("agent@canton.bench", "agent", ["canton"]),
    ("dpw@canton.bench", "dpw", ["canton"]),
    ("admin@permits.bench", "admin", []),
    ("agent@mansfield.bench", "agent", ["mansfield"]),
]
STREETS = {"canton": "Washington St", "mansfield": "School St"}
AS_OF = date(2026, 12, 1)
HOST = "127.0.0.1"  # never anything else


def build_store(path: Path, count: int, as_of: date = AS_OF) -> None:
    """A SQLite store of ``count`` filings from the demonstration's
    generator, as of ``as_of``, with the :data:`STAFF`."""
    from demo.generate import generate
    from models.handle import Store

    store = Store(f"sqlite:///{path}")
    upgrade_store(store)
    filings = generate(count, as_of, seed=2026)
    while batch := list(islice(filings, 10_000)):
        import_filings(store, batch, by="bench")
    store.engine.dispose()
    add_staff(path)


def add_staff(path: Path) -> None:
    from models.accounts.users import UserError
    from models.handle import Store

    store = Store(f"sqlite:///{path}")
    upgrade_store(store)
    from services.users import add_user

    for email, role, towns in STAFF:
        try:
            add_user(store, email, PASSWORD, role, towns)
        except UserError:
            pass  # added by an earlier run
    store.engine.dispose()


def filings_of(path: Path) -> dict:
    """The store's filings by role: every id a client may open, and the
    street openings a client may write on (not closed)."""
    import sqlite3

    from workflows.replay import MACHINES

    final = MACHINES["street-opening"].final
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT id, town, kind, state FROM filing").fetchall()
    seen = {}
    for email, role, towns in STAFF:
        kinds = {"agent": {"noi", "rda", "land-disturbance"}, "dpw": {"street-opening"}}.get(role)
        seen[email] = [i for i, t, k, _ in rows if (not towns or t in towns) and (kinds is None or k in kinds)]
    writable = [i for i, t, k, s in rows if k == "street-opening" and t == "canton" and s not in final]
    return {"visible": seen, "writable": writable}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """``permits serve --workers N`` on a free port of 127.0.0.1, until
    :meth:`stop` (or the end of the ``with`` block): its own process group,
    so its workers stop with it."""

    def __init__(self, path: Path, workers: int):
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        env = {**os.environ, "PERMITS_SECRET_KEY": "bench-load-secret", "PERMITS_SERVER_TIMING": "yes"}
        permits = ROOT / ".venv" / "bin" / "permits"
        argv = [str(permits), "serve", "--db", f"sqlite:///{path}", "--host", HOST, "--port", str(self.port)]
        self.proc = subprocess.Popen(
            [*argv, "--workers", str(workers)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._wait_ready(workers)

    def _wait_ready(self, workers: int, timeout: float = 120) -> None:
        """Until every worker has served a request: new connections, each
        asked for the login page, until the processes holding their
        server ends (psutil) cover every worker."""
        import http.client

        import psutil

        deadline = time.monotonic() + timeout
        served: set[int] = set()
        parent = psutil.Process(self.proc.pid)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"permits serve stopped: {self.proc.stderr.read().decode()[-2000:]}")
            procs = [parent] if workers == 1 else parent.children()
            conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
            try:
                conn.request("GET", "/login")
                if conn.getresponse().read() and workers == 1:
                    return
                local = conn.sock.getsockname()[1]
                for proc in procs:
                    try:
                        if any(c.raddr and c.raddr.port == local for c in proc.net_connections(kind="tcp")):
                            served.add(proc.pid)
                    except psutil.NoSuchProcess:
                        pass
            except OSError:
                time.sleep(0.2)
            finally:
                conn.close()
            if len(served) >= workers:
                return
        raise SystemExit(f"permits serve --workers {workers}: not every worker answered within {timeout:.0f} s")

    def cpu(self) -> float:
        """CPU seconds the server's processes (the workers and their
        supervisor) have used so far."""
        import psutil

        total = 0.0
        parent = psutil.Process(self.proc.pid)
        for proc in [parent, *parent.children(recursive=True)]:
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return total

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def login(client, email: str) -> None:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    r = client.post("/login", data={"csrf": token, "email": email, "password": PASSWORD, "next": "/today"})
    if r.status_code != 303:
        raise SystemExit(f"login of {email} refused: {r.status_code}")


def server_ms(response) -> float:
    """The app's own time for a response (its Server-Timing header)."""
    return float(re.search(r"app;dur=([\d.]+)", response.headers["server-timing"]).group(1))


@dataclass
class Run:
    workers: int
    clients: int
    seconds: float
    requests: int = 0
    writes: int = 0
    errors: list = field(default_factory=list)
    latencies: list = field(default_factory=list)
    by_page: dict = field(default_factory=dict)  # {page: [latency, ...]}: which page makes the tail
    client_cpu: float = 0.0  # CPU seconds the clients (this process) spent during the run
    server_cpu: float = 0.0  # CPU seconds the server's processes spent during the run

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def pct(self, p: float) -> float:
        return percentile(self.latencies, p)

    def line(self) -> str:
        return (
            f"  {self.workers} worker{'s' if self.workers > 1 else ''}, {self.clients} clients x {self.seconds:.0f} s: "
            f"{self.requests:,} requests ({self.writes} writes), {self.rps:.1f} req/s, {len(self.errors)} errors; "
            f"latency p50 {self.pct(50) * 1000:.0f} ms, p95 {self.pct(95) * 1000:.0f} ms, "
            f"p99 {self.pct(99) * 1000:.0f} ms; the server used {self.server_cpu / self.seconds:.0%} of a core, the clients "
            f"{self.client_cpu / self.seconds:.0%}"
        )


def pages_line(run: Run) -> str:
    """Each page's p50 and p95 in the run, slowest p95 first."""
    parts = sorted(((percentile(v, 95), percentile(v, 50), k, len(v)) for k, v in run.by_page.items()), reverse=True)
    return "    by page: " + "; ".join(f"{k} p50 {p50 * 1000:.0f} / p95 {p95 * 1000:.0f} ms ({n:,})" for p95, p50, k, n in parts)


def page_of(method: str, path: str) -> str:
    """The page a request asked for, without its ids: ``GET /filings/ID``."""
    if path.startswith("/filings?q="):
        return "search"
    if method == "POST":
        return "record an event"
    if "?event=" in path:
        return "the event form"
    if path.startswith("/filings/"):
        return "a filing"
    return path.lstrip("/") or "/"


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def run_load(path: Path, workers: int, clients: int, seconds: float, write_every: int = 5, seed: int = 0) -> Run:
    """One bounded run: the server, ``clients`` threads for ``seconds``, the
    server stopped."""
    import httpx

    ids = filings_of(path)
    run = Run(workers, clients, seconds)
    lock = threading.Lock()
    with Server(path, workers) as server:
        stop_at = [0.0]
        # the end is set as the last client is ready, before any is let go
        ready = threading.Barrier(clients + 1, timeout=180, action=lambda: stop_at.__setitem__(0, time.monotonic() + seconds))

        def client(n: int) -> None:
            email, role, towns = STAFF[n % len(STAFF)]
            rng = random.Random(seed * 1000 + n)
            mine = ids["visible"][email]
            writable = ids["writable"][n::clients] if role in ("dpw", "admin") else []
            street = STREETS.get(towns[0] if towns else "canton", "Washington St")
            with httpx.Client(base_url=server.base, timeout=60, follow_redirects=False) as c:
                login(c, email)
                ready.wait()
                cycle = 0
                while time.monotonic() < stop_at[0]:
                    cycle += 1
                    pages = ["/today", "/filings", f"/filings?q={street}", f"/filings/{rng.choice(mine)}"]
                    for page in pages:
                        _timed(c, run, lock, "GET", page, stop_at)
                    if writable and write_every and cycle % write_every == 0:
                        _write(c, run, lock, rng.choice(writable), cycle, stop_at)

        threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
        for t in threads:
            t.start()
        ready.wait()
        cpu, server_cpu = time.process_time(), server.cpu()
        for t in threads:
            t.join(seconds + 120)
        run.client_cpu, run.server_cpu = time.process_time() - cpu, server.cpu() - server_cpu
    return run


def _timed(c, run: Run, lock, method: str, path: str, stop_at, data=None, ok=(200,)):
    import httpx

    if time.monotonic() >= stop_at[0]:
        return None
    t = time.perf_counter()
    try:
        r = c.request(method, path, data=data)
        error = None if r.status_code in ok else f"{method} {path}: {r.status_code}"
    except httpx.HTTPError as exc:
        r, error = None, f"{method} {path}: {type(exc).__name__}"
    took = time.perf_counter() - t
    with lock:
        if time.monotonic() <= stop_at[0] + 1:  # a request that ended after the run's end does not count
            run.requests += 1
            run.latencies.append(took)
            run.by_page.setdefault(page_of(method, path), []).append(took)
            if error:
                run.errors.append(error)
    return r


def _write(c, run: Run, lock, fid: str, cycle: int, stop_at) -> None:
    """Record an event on a street opening through the filing page's form."""
    page = _timed(c, run, lock, "GET", f"/filings/{fid}?event=dig-safe-obtained", stop_at)
    if page is None or page.status_code != 200:
        return
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    seq = re.search(r'name="seq" value="(\d+)"', page.text).group(1)
    form = {"csrf": token, "seq": seq, "type": "dig-safe-obtained", "f_date": AS_OF.isoformat(), "f_ticket": f"B{cycle:08d}"}
    done = _timed(c, run, lock, "POST", f"/filings/{fid}/events", stop_at, data=form, ok=(303,))
    if done is not None and done.status_code == 303:
        with lock:
            run.writes += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="a SQLite store file (default: build one of --filings)")
    ap.add_argument("--filings", type=int, default=10_000, help="filings to build when --db is not given (default 10,000)")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--workers", default="1,2", help="numbers of workers to run, comma-separated (default 1,2)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--write-every", type=int, default=5, help="a write every N cycles of a DPW or admin client (0: none)")
    args = ap.parse_args(argv)
    if not (1 <= args.clients <= 256 and 0 < args.seconds <= 600 and 1 <= args.rounds <= 20):
        ap.error("--clients 1-256, --seconds up to 600, --rounds 1-20: the load is bounded")
    counts = [int(w) for w in args.workers.split(",")]
    tmp = None
    if args.db:
        path = Path(args.db)
        add_staff(path)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="permits-load-")
        path = Path(tmp.name) / "permits.db"
        t = time.perf_counter()
        build_store(path, args.filings)
        print(f"built a store of {args.filings:,} filings in {time.perf_counter() - t:.0f} s")
    runs: dict[int, list[Run]] = {n: [] for n in counts}
    for k in range(args.rounds):
        for n in counts if k % 2 == 0 else counts[::-1]:
            run = run_load(path, n, args.clients, args.seconds, args.write_every, seed=k)
            runs[n].append(run)
            print(run.line(), flush=True)
            print(pages_line(run), flush=True)
            for e in sorted(set(run.errors))[:5]:
                print(f"    error: {e}")
    for n, rs in runs.items():
        print(f"{n} worker(s): median {statistics.median(r.rps for r in rs):.1f} req/s over {len(rs)} run(s)")
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
