"""The web tests' kit: a store with a few filings of Canton, Saugus and
Mansfield, one user of each role, and a TestClient that logs in.  The
fixtures built on it (``template_db``, ``store``, ``web``) are in
tests/conftest.py."""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import date

import storekit
from fastapi.testclient import TestClient

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings

TODAY = date(2026, 12, 3)
PASSWORD = "correct horse battery"
PARTIES = {
    "address": "40 Washington St",
    "parcel": "12-033",
    "site": {"address": "40 Washington St", "parcel": "12-033"},
    "applicant": {
        "name": "Neponset Builders LLC",
        "address": {"street": "200 Turnpike St", "city": "Canton", "state": "MA", "zip": "02021"},
    },
    "owner": {"name": "M. Sullivan", "address": {"street": "40 Washington St", "city": "Canton", "state": "MA", "zip": "02021"}},
    "project": {"description": "a house within the buffer zone"},
    "authority": {"name": "Conservation Commission", "address": "801 Washington St", "signer": "Pat Rivera"},
    "plans": {"where": "the Conservation Office"},
    "hearing": {"place": "Town Hall, Room 201"},
}
FILINGS = [
    {
        "town": "canton",
        "kind": "noi",
        "id": "CAN-NOI-2026-001",
        **PARTIES,
        "events": [{"type": "filed", "date": "2026-12-01"}, {"type": "boards-notified", "date": "2026-12-01"}],
    },
    {
        "town": "saugus",
        "kind": "noi",
        "id": "SAU-NOI-2026-001",
        **PARTIES,
        "events": [{"type": "filed", "date": "2026-12-01"}],
    },
    {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-SOP-2026-001",
        "address": "12 Pleasant St",
        "applicant": "Eversource",
        "contractor": {"name": "Acme Paving"},
        "events": [{"type": "filed", "date": "2026-12-01", "applicant": "utility", "length_ft": 40}],
    },
]
USERS = {
    "canton-agent": ("agent@canton.example", "agent", ["canton"]),
    "saugus-agent": ("agent@saugus.example", "agent", ["saugus"]),
    "canton-dpw": ("dpw@canton.example", "dpw", ["canton"]),
    "admin": ("admin@permits.example", "admin", []),
}
#: the full names staff gave: a page says who recorded an entry by it
NAMES = {"agent@canton.example": "Dana Reyes"}


def make_store(url: str) -> Store:
    store = Store(url)
    upgrade_store(store)
    import_filings(store, FILINGS, by="test")
    users = storekit.users(store)
    for email, role, towns in USERS.values():
        users.add(email, PASSWORD, role, towns, full_name=NAMES.get(email, ""))
    return store


def client(store: Store, address: str = "testclient") -> TestClient:
    """A browser on the workbench over ``store``, from the network ``address``."""
    from web.app import create_app

    app = create_app(store, secret="test-secret", today=lambda: TODAY)
    return TestClient(app, follow_redirects=False, client=(address, 50000))


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def login(c: TestClient, who: str) -> str:
    """Log ``who`` in; the session's CSRF token."""
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "email": USERS[who][0], "password": PASSWORD, "next": "/today"})
    assert r.status_code == 303, r.text
    return csrf_of(c.get("/today").text)


def emailed_link(store: Store, address: str, prefix: str) -> str:
    """The path of the last link starting with ``prefix`` (``/confirm/``,
    ``/reset/``) emailed to ``address`` through the outbox."""
    from email import message_from_bytes
    from email.policy import default

    from models.read.outbox import Outbox

    outbox = Outbox(store)
    for e in reversed(outbox.entries()):
        if e.address == address:
            body = message_from_bytes(outbox.message(e.id), policy=default).get_body().get_content()
            found = re.search(r"https?://[^\s/]+(" + re.escape(prefix) + r"[A-Za-z0-9_-]+)", body)
            if found:
                return found.group(1)
    raise AssertionError(f"no {prefix} link emailed to {address}")


def register(c, email: str, store: Store | None = None, password: str = PASSWORD) -> str:
    """Register ``email`` through the web and follow the link emailed to
    it (read from the outbox of ``store``, default the client's app's);
    the logged-in session's CSRF token."""
    from web.deps import context_of

    store = store or context_of(c.app).store
    token = csrf_of(c.get("/register").text)
    r = c.post("/register", data={"csrf": token, "email": email, "password": password, "password2": password})
    assert r.status_code == 200 and "Check your email" in r.text, r.text
    link = emailed_link(store, email.strip().lower(), "/confirm/")
    r = c.post(link, data={"csrf": csrf_of(c.get(link).text), "password": password})
    assert r.status_code == 303 and r.headers["location"] == "/my", r.text
    return csrf_of(c.get("/my").text)


@contextmanager
def serving(app):
    """``app`` served by uvicorn in a thread on a free 127.0.0.1 port; its port."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
