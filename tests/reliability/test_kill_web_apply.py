"""``kill -9`` of the web server during online applications with plans,
on SQLite and PostgreSQL: between each two steps of the application
(the plan's file written, the filing, the upload row, the applicant's
link), and at random moments while applications arrive.  Afterwards no
filing is half-written (each online filing has its upload row, its file
and its link, or there is no filing), the temporary directory holds
nothing, and once the stray plans are tidied no file is left that no row
names; a restarted server takes the same application whole.
``make test`` kills after the first and the last step and twice at random;
``make reliability`` after every step and ``PERMITS_KILLS`` (10) times at
random."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import storekit
from kit import report_row
from routekit import PDF
from sqlalchemy import func, select
from webkit import PASSWORD, csrf_of

from models.handle import Store
from models.schema.tables import AccountFiling, FilingRow, Upload
from models.store.uploads import Uploads
from services.database import upgrade_store

HERE = Path(__file__).resolve().parent
KILLS = int(os.environ.get("PERMITS_KILLS", "5"))
EMAIL = "ann@example.org"
FORM = {
    "town": "saugus",
    "address": "9 Central St",
    "parcel": "C-12-7",
    "description": "a deck within the 100-foot buffer zone",
    "applicant_name": "Ann Lee",
    "applicant_street": "9 Central St",
    "applicant_city": "Saugus",
    "applicant_state": "MA",
    "applicant_zip": "01906",
    "owner_is_applicant": "yes",
}
PLAN = PDF + b"%" * (2 * 1024 * 1024)  # past what the form parser keeps in memory: spooled to disk


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``serve_and_hang.py`` in a process of its own, its temporary
    directory its own too."""

    def __init__(self, url: str, tmp: Path, step: str):
        self.folder, self.marker, self.spool = tmp / "plans", tmp / f"marker-{step}", tmp / "spool"
        self.spool.mkdir(exist_ok=True)
        self.port = _free_port()
        env = {**os.environ, "PERMITS_UPLOADS_DIR": str(self.folder), "TMPDIR": str(self.spool)}
        argv = [sys.executable, str(HERE / "serve_and_hang.py"), url, str(self.folder), str(self.marker), step, str(self.port)]
        self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.proc.communicate()[1].decode()[-2000:]
            assert time.monotonic() < deadline, "the server did not start"
            try:
                httpx.get(self.base + "/login", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc.stderr.close()

    def applicant(self) -> tuple[httpx.Client, str]:
        c = httpx.Client(base_url=self.base, timeout=120)
        token = csrf_of(c.get("/login").text)
        assert c.post("/login", data={"csrf": token, "email": EMAIL, "password": PASSWORD}).status_code == 303
        return c, csrf_of(c.get("/my/apply?kind=noi").text)


def apply(c: httpx.Client, token: str) -> int | None:
    """Post one application; its status, or None when the server died under it."""
    try:
        r = c.post("/my/apply/noi", data={"csrf": token, **FORM}, files={"plan": ("site-plan.pdf", PLAN, "application/pdf")})
    except httpx.TransportError:
        return None
    return r.status_code


def _count(store: Store, table) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table.__table__)).scalar_one()


def half_written(store: Store, folder: Path) -> int:
    """Filings of online applications missing their upload row, its file or
    the applicant's link; upload rows without their filing or file."""
    with store.engine.connect() as conn:
        filings = set(conn.execute(select(FilingRow.__table__.c.id)).scalars())
        uploads = conn.execute(select(Upload.__table__.c.filing_id, Upload.__table__.c.stored_name)).all()
        links = set(conn.execute(select(AccountFiling.__table__.c.filing_id)).scalars())
    with_plan = {fid for fid, name in uploads if (folder / name).exists()}
    bad = len([f for f in filings if f not in with_plan or f not in links])
    bad += len([1 for fid, name in uploads if fid not in filings or not (folder / name).exists()])
    return bad


def strays(store: Store, folder: Path) -> int:
    """Files left in the plans' folder that no row names, once tidied."""
    Uploads(store, folder, 100 * 1024 * 1024).tidy(older_than=timedelta(0))
    with store.engine.connect() as conn:
        named = set(conn.execute(select(Upload.__table__.c.stored_name)).scalars())
    return len([p for p in folder.iterdir() if p.name not in named]) if folder.exists() else 0


@pytest.fixture
def store(db_url):
    store = Store(db_url)
    upgrade_store(store)
    storekit.applicants(store).register(EMAIL, PASSWORD, verified=True)
    yield store
    store.engine.dispose()


@pytest.mark.parametrize(
    "step",
    [
        "after-file",
        pytest.param("after-filing", marks=pytest.mark.slow),  # the middle steps: make reliability
        pytest.param("after-upload", marks=pytest.mark.slow),
        "after-link",
    ],
)
def test_killed_between_the_steps_of_an_application_on_the_web_leaves_no_half_filing_and_no_stray_file(
    store, db_url, tmp_path, step
):
    server = Server(db_url, tmp_path, step)
    try:
        c, token = server.applicant()
        done = {}
        t = threading.Thread(target=lambda: done.setdefault("status", apply(c, token)))
        t.start()
        deadline = time.monotonic() + 120
        while not server.marker.exists():
            assert time.monotonic() < deadline and t.is_alive(), f"the application never reached {step}: {done}"
            time.sleep(0.05)
        server.kill()
        t.join(60)
    finally:
        server.kill()
    assert done["status"] is None  # the server died under the request
    assert (_count(store, FilingRow), _count(store, Upload), _count(store, AccountFiling)) == (0, 0, 0)
    assert list(server.spool.iterdir()) == []  # the spooled upload went with the process
    assert half_written(store, server.folder) == 0 and strays(store, server.folder) == 0
    again = Server(db_url, tmp_path, "none")  # restarted: the same application goes through whole
    try:
        c, token = again.applicant()
        assert apply(c, token) == 303
    finally:
        again.kill()
    assert (_count(store, FilingRow), _count(store, Upload), _count(store, AccountFiling)) == (1, 1, 1)
    assert half_written(store, server.folder) == 0 and strays(store, server.folder) == 0
    report_row(f"kill -9 web apply {step} ({'sqlite' if db_url.startswith('sqlite') else 'postgresql'})", 1)


def _keep_applying(server: Server, stop: threading.Event, statuses: list) -> None:
    c, token = server.applicant()
    while not stop.is_set():
        s = apply(c, token)
        statuses.append(s)
        if s is None:
            return


def _random_kills(store, db_url, tmp_path, kills: int):
    rng = random.Random(22)
    made = lost = stray = interrupted = 0
    for _ in range(kills):
        server = Server(db_url, tmp_path, "none")
        statuses: list = []
        stop = threading.Event()
        try:
            t = threading.Thread(target=_keep_applying, args=(server, stop, statuses))
            t.start()
            time.sleep(rng.uniform(0.5, 3.0))
            server.kill()
            stop.set()
            t.join(60)
        finally:
            server.kill()
        interrupted += statuses[-1:] == [None]
        made += statuses.count(303)
        lost += half_written(store, server.folder)
        stray += strays(store, server.folder)
        assert list(server.spool.iterdir()) == []
    # every application the server answered 303 is there, whole; none twice
    assert _count(store, FilingRow) == _count(store, AccountFiling) == _count(store, Upload) >= made
    assert _count(store, FilingRow) <= made + kills  # at most the one in flight at each kill
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    report_row(f"kill -9 web apply at random moments ({backend})", kills, lost, 0, 0)
    assert (lost, stray) == (0, 0)
    assert interrupted >= 1, "no kill landed during an application"


def test_killed_at_random_moments_while_applications_arrive_no_filing_is_half_written(store, db_url, tmp_path):
    _random_kills(store, db_url, tmp_path, 2)


@pytest.mark.slow
def test_killed_at_random_moments_many_times_no_filing_is_half_written(store, db_url, tmp_path):
    _random_kills(store, db_url, tmp_path, KILLS)
