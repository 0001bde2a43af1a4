"""``permits serve --workers N``: several processes behind one port, each
with its own app over the same store, and nothing a worker keeps in its
memory that another would need.  A session made by one worker is good on
another (one session key, made at start and handed to every worker; the
user checked against the store), a form posted there passes its CSRF
check, and failed logins counted by one worker count on the other (the
limits are rows in the store).

Which worker served a request is read from the kernel: the process
holding the server's end of the client's connection (psutil), so the test
needs no trace of the worker in the responses."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import psutil
import pytest
import storekit

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings

ROOT = Path(__file__).resolve().parents[2]
EMAIL, PASSWORD = "agent@canton.example", "correct horse battery"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Connection:
    """One kept-alive HTTP connection to the server, with the session
    cookie it was handed; :attr:`worker` is the process that accepted it."""

    def __init__(self, port: int, cookie: str = ""):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.http.connect()
        self.cookie = cookie
        self.worker: int | None = None

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.http.request(method, path, body=body, headers=headers)
        response = self.http.getresponse()
        text = response.read().decode()
        cookie = response.getheader("set-cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, text

    def local_port(self) -> int:
        return self.http.sock.getsockname()[1]

    def close(self) -> None:
        self.http.close()


def _owner(workers: list[psutil.Process], conn: Connection) -> int | None:
    """The worker process holding the server's end of ``conn``."""
    port = conn.local_port()
    for proc in workers:
        try:
            if any(c.raddr and c.raddr.port == port for c in proc.net_connections(kind="tcp")):
                return proc.pid
        except psutil.NoSuchProcess:
            continue
    return None


def _served_by(workers, port: int, cookie: str, other_than: int | None, tries: int = 60) -> Connection:
    """A new connection (carrying ``cookie``) that a worker other than
    ``other_than`` accepted: each is asked for the login page first, so it
    has been accepted before its owner is read."""
    for _ in range(tries):
        conn = Connection(port, cookie)
        status, _ = conn.request("GET", "/login")
        assert status == 200
        conn.worker = _owner(workers, conn)
        if conn.worker is not None and conn.worker != other_than:
            return conn
        conn.close()
    raise AssertionError(f"no connection reached a worker other than {other_than} in {tries} tries")


@pytest.fixture
def server(tmp_path):
    """``permits serve --workers 2`` over a SQLite store with one agent, no
    PERMITS_SECRET_KEY set (the command makes the one key); its workers."""
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(
        store,
        [{"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-001", "events": [{"type": "filed", "date": "2026-12-01"}]}],
        by="test",
    )
    storekit.users(store).add(EMAIL, PASSWORD, "agent", ["canton"])
    store.engine.dispose()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PERMITS_")}
    env["PERMITS_DATA_DIR"] = str(tmp_path / "data")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", url, "--port", str(port), "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 90
        workers: list[psutil.Process] = []
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            listening = [c for c in parent.children() if _listens(c, port)]
            if len(listening) == 2 and _answers(port):
                workers = listening
                break
            time.sleep(0.2)
        assert len(workers) == 2, "two workers did not start"
        yield port, workers, proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)


def _listens(proc: psutil.Process, port: int) -> bool:
    try:
        return any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in proc.net_connections(kind="tcp"))
    except psutil.NoSuchProcess:
        return False


def _answers(port: int) -> bool:
    try:
        conn = Connection(port)
        ok = conn.request("GET", "/login")[0] == 200
        conn.close()
        return ok
    except OSError:
        return False


def _login(conn: Connection, email: str, password: str) -> int:
    status, page = conn.request("GET", "/login")
    assert status == 200
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    status, _ = conn.request("POST", "/login", {"csrf": token, "email": email, "password": password, "next": "/today"})
    return status


def test_a_session_made_by_one_worker_is_served_and_can_post_on_another(server):
    port, workers, proc = server
    first = _served_by(workers, port, "", other_than=None)
    assert _login(first, EMAIL, PASSWORD) == 303
    assert _owner(workers, first) == first.worker  # the login was this worker's
    status, page = first.request("GET", "/today")
    assert status == 200 and EMAIL in page

    second = _served_by(workers, port, first.cookie, other_than=first.worker)
    assert second.worker != first.worker and {first.worker, second.worker} == {w.pid for w in workers}
    status, page = second.request("GET", "/today")
    assert status == 200 and EMAIL in page, "the other worker did not know the session"
    status, page = second.request("GET", "/filings/CAN-NOI-2026-001")
    assert status == 200 and "CAN-NOI-2026-001" in page
    # a form posted to the other worker passes the CSRF check of the session the first made
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    status, _ = second.request("POST", "/calendar/reset", {"csrf": token})
    assert status == 303
    status, _ = second.request("POST", "/calendar/reset", {"csrf": "forged"})
    assert status == 403
    assert _owner(workers, second) == second.worker
    first.close()
    second.close()
    assert proc.poll() is None


def test_failed_logins_counted_by_one_worker_count_on_the_other(server):
    from models.accounts.throttle import LIMITS

    port, workers, _ = server
    first = _served_by(workers, port, "", other_than=None)
    for n in range(LIMITS["login"].attempts):
        assert _login(first, f"nobody{n}@example.org", "wrong password") == 401
    second = _served_by(workers, port, "", other_than=first.worker)
    status = _login(second, EMAIL, PASSWORD)
    assert status == 429, "the second worker did not count the first one's failed logins"
    first.close()
    second.close()


@pytest.mark.parametrize("workers", ["0", "-1", "65"])
def test_a_number_of_workers_out_of_range_is_one_line_and_status_2(tmp_path, capsys, workers):
    from cli.main import main

    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'p.db'}", "--workers", workers]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"--workers {workers}: between 1 and 64" in err[0]


def test_the_default_is_one_worker_per_core_this_process_may_use():
    from cli.web import default_workers

    assert default_workers() == len(os.sched_getaffinity(0)) >= 1


def test_a_page_reads_its_user_and_its_rows_without_waiting_for_a_writer(store, web):
    """Workers share one SQLite file: while another process holds the write
    lock (an import, an event being recorded), a page still answers at once
    (its reads, its user's included, take no lock)."""
    import sqlite3
    import threading

    from webkit import PASSWORD as KIT_PASSWORD
    from webkit import USERS

    email = USERS["canton-agent"][0]
    page = web.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    assert web.post("/login", data={"csrf": token, "email": email, "password": KIT_PASSWORD}).status_code == 303
    writer = sqlite3.connect(store.url.removeprefix("sqlite:///"), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, held
    answers = {}

    def read(path):
        answers[path] = web.get(path).status_code

    try:
        threads = [threading.Thread(target=read, args=(p,)) for p in ("/today", "/filings", "/filings?q=Washington")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(3)  # the busy timeout is far longer: a page that waited for the lock would not be back
        assert answers == {"/today": 200, "/filings": 200, "/filings?q=Washington": 200}
    finally:
        writer.execute("ROLLBACK")
        writer.close()


@pytest.mark.parametrize(
    "given, host, expected",
    [
        (None, "127.0.0.1", "http://127.0.0.1:{port}"),  # not set: the links open the server
        (None, "0.0.0.0", "http://127.0.0.1:{port}"),
        ("https://permits.canton.example", "127.0.0.1", "https://permits.canton.example"),  # set: the public address
    ],
)
def test_the_emails_links_start_where_the_workbench_is_served_unless_a_base_url_is_set(
    tmp_path, monkeypatch, given, host, expected
):
    import uvicorn

    from cli.main import main
    from web.deps import context_of

    url = f"sqlite:///{tmp_path / 'p.db'}"
    assert main(["db", "upgrade", "--db", url]) == 0
    if given:
        monkeypatch.setenv("PERMITS_BASE_URL", given)
    else:
        monkeypatch.delenv("PERMITS_BASE_URL", raising=False)
    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(app=app, **options))
    port = _free_port()
    assert main(["serve", "--db", url, "--host", host, "--port", str(port), "--workers", "1"]) == 0
    assert served["port"] == port and context_of(served["app"]).settings.base_url == expected.format(port=port)
    context_of(served["app"]).store.engine.dispose()
