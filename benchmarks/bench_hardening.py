"""Benchmark: what the hardening of issue 22 costs, and what it buys.

* **A page beside slow writes.**  ``GET /today`` (wall time, 20 requests a
  round) while two threads keep logging in (each login an argon2 hash, the
  slowest thing a form asks of the server), against the same 20 requests
  with nobody logging in; uvicorn in this process on 127.0.0.1, a small
  store.  Every route is a plain ``def`` now, so a hash holds a thread of
  the pool, not the event loop (goal <= 3x: the two hashes still take the
  machine's two cores).  Run on a checkout before this branch, where
  ``POST /login`` was ``async def``, the same measurement gives the
  "before" figure.
* **The session looked up in the store.**  ``Sessions.user(token)`` (a
  join of the session row and the user row) against ``Users.get(id)``
  (the primary-key read the signed cookie needed before): CPU time, 2,000
  look-ups a round (goal <= 2x).
* **The CSRF token read first.**  A 5 MB plan posted as multipart, parsed
  by ``web.bodies.read_form`` (its first field checked before any file
  part reaches the parser) against Starlette's own ``MultiPartParser`` on
  the same bytes: CPU time (goal <= 1.2x).

Run: ``.venv/bin/python benchmarks/bench_hardening.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

from services.database import upgrade_store
from services.imports import import_filings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from paired import CPU, WALL, paired  # noqa: E402

TODAY = date(2026, 12, 3)
PASSWORD = "bench password 123"
EMAILS = ("bench-a@permits.example", "bench-b@permits.example", "bench-c@permits.example")


def _store(folder: Path):
    from demo.generate import generate
    from models.handle import Store

    store = Store(f"sqlite:///{folder / 'permits.db'}")
    upgrade_store(store)
    import_filings(store, list(generate(300, TODAY, seed=22)), by="bench")
    from services.users import add_user

    for email in EMAILS:
        add_user(store, email, PASSWORD, "admin")
    return store


def _serve(app):
    import socket

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, port


def _login(c, email: str) -> None:
    import re

    token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
    assert c.post("/login", data={"csrf": token, "email": email, "password": PASSWORD}).status_code == 303


def page_beside_logins(store, rounds: int):
    import httpx

    from web.app import create_app

    server, port = _serve(create_app(store, secret="bench", today=lambda: TODAY))
    base = f"http://127.0.0.1:{port}"
    reader = httpx.Client(base_url=base, timeout=60)
    _login(reader, EMAILS[0])
    busy = threading.Event()
    stop = threading.Event()

    def keep_logging_in(email):
        c = httpx.Client(base_url=base, timeout=60)
        while not stop.is_set():
            if busy.is_set():
                _login(c, email)
            else:
                time.sleep(0.01)

    threads = [threading.Thread(target=keep_logging_in, args=(e,), daemon=True) for e in EMAILS[1:]]
    for t in threads:
        t.start()

    def pages():
        for _ in range(20):
            assert reader.get("/today").status_code == 200

    def with_logins():
        busy.set()
        time.sleep(0.2)  # the logins are hashing
        try:
            pages()
        finally:
            busy.clear()

    def alone():
        time.sleep(0.3)  # the last login has ended
        pages()

    try:
        result = paired(
            "a page (20 x GET /today) while 2 threads log in (argon2) / the same pages alone",
            goal=3.0,
            measured=with_logins,
            baseline=alone,
            rounds=rounds,
            clock=WALL,
            note="uvicorn in-process; wall time of the 20 GETs",
        )
    finally:
        stop.set()
        server.should_exit = True
    return result


def session_lookup(store, rounds: int):
    from models.accounts.sessions import Sessions
    from models.accounts.users import Users
    from services.sessions import start_session

    users, sessions = Users(store.engine), Sessions(store.engine)
    uid = users.list()[0].id
    token = start_session(store, uid)
    assert sessions.user(token).id == uid

    def by_session():
        for _ in range(2000):
            sessions.user(token)

    def by_id():
        for _ in range(2000):
            users.get(uid)

    return paired(
        "the session's user: Sessions.user(token) / Users.get(id)", goal=2.0, measured=by_session, baseline=by_id, rounds=rounds
    )


def token_first(rounds: int):
    from starlette.datastructures import Headers
    from starlette.formparsers import MultiPartParser
    from starlette.requests import Request

    from web.bodies import read_form

    boundary = "----benchBoundary"
    token = "t" * 32
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="town"\r\n\r\ncanton\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="plan"; filename="p.pdf"\r\n'
            "Content-Type: application/pdf\r\n\r\n"
        ).encode()
        + b"%PDF"
        + b"%" * (5 * 1024 * 1024)
        + f"\r\n--{boundary}--\r\n".encode()
    )
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)]
    headers = [
        (b"content-type", f"multipart/form-data; boundary={boundary}".encode()),
        (b"content-length", str(len(body)).encode()),
    ]

    class Settings:
        form_max_bytes = 512 * 1024

    class App:
        class state:
            settings = Settings()

    def receive_of():
        queue = list(chunks)

        async def receive():
            chunk = queue.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(queue)}

        return receive

    def scope():
        return {"type": "http", "method": "POST", "headers": headers, "session": {"csrf": token}, "app": App, "path": "/x"}

    async def guarded():
        form = await read_form(Request(scope(), receive_of()), max_bytes=10 * 1024 * 1024, files=1)
        await form.close()

    async def plain():
        request = Request(scope(), receive_of())
        form = await MultiPartParser(Headers(raw=headers), request.stream(), max_files=1).parse()
        await form.close()

    return paired(
        "a 5 MB plan: read_form (the token read first) / Starlette's MultiPartParser",
        goal=1.2,
        measured=lambda: asyncio.run(guarded()),
        baseline=lambda: asyncio.run(plain()),
        rounds=rounds,
        clock=CPU,
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument(
        "--only", choices=("page", "session", "token"), help="one of the three (page runs on a checkout before this branch too)"
    )
    args, _ = ap.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = _store(Path(tmp))
        runs = {
            "page": lambda: page_beside_logins(store, args.rounds),
            "session": lambda: session_lookup(store, args.rounds),
            "token": lambda: token_first(args.rounds),
        }
        for name, run in runs.items():
            if not args.only or args.only == name:
                run().report()
        store.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
