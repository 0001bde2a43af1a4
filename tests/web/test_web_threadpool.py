"""Routes do not block each other: every route is a plain ``def`` (FastAPI
runs it in the threadpool), so a slow write (an argon2 hash, a notice
rendered to PDF, a big import) holds one thread, not the event loop.  The
only coroutines are the form readers of web/bodies.py, which await the
body and call no store.  Shown by the app's routes (found from app.routes)
and by a slow write beside a page, against uvicorn on 127.0.0.1; and by a
control, one blocking ``async def`` route, that the same measurement
catches."""

from __future__ import annotations

import inspect
import threading
import time

import httpx
import pytest
from fastapi import FastAPI
from routekit import routes
from webkit import PASSWORD, TODAY, USERS, csrf_of, serving

from web import bodies as form_guard
from web.app import create_app

SLOW = 2.0


def _calls(dependant):
    for d in dependant.dependencies:
        yield d.call
        yield from _calls(d)


def _is_coroutine(f) -> bool:
    return inspect.iscoroutinefunction(f) or inspect.isasyncgenfunction(f)


def test_every_route_is_a_plain_def_and_awaits_only_the_form_readers(web):
    found = []
    for route in routes(web.app):
        if _is_coroutine(route.endpoint):
            found.append(f"{route.path}: async def {route.endpoint.__name__}")
        for call in _calls(route.route.dependant):
            if _is_coroutine(call) and call.__module__ != form_guard.__name__:
                found.append(f"{route.path}: awaits {call.__module__}.{call.__name__}")
    assert found == [], "routes that would hold the event loop (make them plain def):\n" + "\n".join(found)


def test_every_post_route_reads_its_form_through_the_guard(web):
    missing = [
        r.path
        for r in routes(web.app)
        if "POST" in r.methods and not any(getattr(c, "__module__", "") == form_guard.__name__ for c in _calls(r.route.dependant))
    ]
    assert missing == [], f"POST routes without PostedForm, PlanForm or AbutterListForm: {missing}"


def _concurrent(port: int, slow_request, page: str, cookies) -> tuple[float, float]:
    """(how long ``page`` took, asked while ``slow_request`` ran; how long
    the slow one took)."""
    times = {}

    def slow():
        times["slow_start"] = time.perf_counter()
        slow_request()
        times["slow_end"] = time.perf_counter()

    t = threading.Thread(target=slow)
    t.start()
    time.sleep(0.3)  # the slow request is in its write
    start = time.perf_counter()
    r = httpx.get(f"http://127.0.0.1:{port}{page}", cookies=cookies, timeout=30)
    took = time.perf_counter() - start
    t.join(30)
    assert r.status_code == 200, r.status_code
    assert times["slow_start"] < start < times["slow_end"], "the page was not asked for while the slow request ran"
    return took, times["slow_end"] - times["slow_start"]


def _logged_in(port: int, who: str) -> httpx.Client:
    c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    token = csrf_of(c.get("/login").text)
    assert c.post("/login", data={"csrf": token, "email": USERS[who][0], "password": PASSWORD}).status_code == 303
    return c


def test_a_slow_event_write_does_not_delay_a_concurrent_page(store, monkeypatch):
    import services.record

    real = services.record.record_event

    def slow_record(*args, **kwargs):
        time.sleep(SLOW)  # a write that takes its time: an import, a PDF, a hash
        return real(*args, **kwargs)

    monkeypatch.setattr(services.record, "record_event", slow_record)
    with serving(create_app(store, secret="t", today=lambda: TODAY)) as port:
        agent, reader = _logged_in(port, "canton-agent"), _logged_in(port, "admin")
        token = csrf_of(agent.get("/filings/CAN-NOI-2026-001").text)
        data = {"csrf": token, "seq": "2", "type": "withdrawn", "f_date": "2026-12-02"}
        page, slow = _concurrent(
            port, lambda: agent.post("/filings/CAN-NOI-2026-001/events", data=data), "/today", reader.cookies
        )
    assert slow >= SLOW and page < SLOW / 2, (page, slow)
    assert store.history("CAN-NOI-2026-001")[-1]["type"] == "withdrawn"


def test_a_slow_login_does_not_delay_a_concurrent_page(store, monkeypatch):
    """The hash is checked inside the login's write transaction (on SQLite
    the write lock is held): the page's own reads, its session among them,
    take no lock and do not wait for it."""
    from argon2 import PasswordHasher

    real = PasswordHasher.verify

    def slow_verify(self, *args, **kwargs):
        time.sleep(SLOW)  # argon2 at a higher cost
        return real(self, *args, **kwargs)

    with serving(create_app(store, secret="t", today=lambda: TODAY)) as port:
        reader = _logged_in(port, "admin")
        monkeypatch.setattr(PasswordHasher, "verify", slow_verify)

        def slow_login():
            other = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
            token = csrf_of(other.get("/login").text)
            other.post("/login", data={"csrf": token, "email": USERS["canton-dpw"][0], "password": PASSWORD})

        page, slow = _concurrent(port, slow_login, "/today", reader.cookies)
        calendar, _ = _concurrent(port, slow_login, "/calendar", reader.cookies)
    assert slow >= SLOW and page < SLOW / 2 and calendar < SLOW / 2, (page, calendar, slow)


def test_the_measurement_catches_a_route_that_blocks_the_event_loop():
    """The control: an ``async def`` route that sleeps without awaiting holds
    every other request of the process."""
    app = FastAPI()

    @app.get("/slow")
    async def blocking():
        time.sleep(SLOW)
        return {}

    @app.get("/page")
    def page():
        return {}

    with serving(app) as port:
        took, took_slow = _concurrent(port, lambda: httpx.get(f"http://127.0.0.1:{port}/slow", timeout=30), "/page", None)
    assert took > SLOW / 2, took


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
