"""What the server gives away and holds open (issue 35, item 6): the
calendar feed's address comes from ``PERMITS_BASE_URL``, never the
request's Host header; ``Server-Timing`` only when the setting turns it
on; ``permits serve`` closes silent and trickling connections
(web/serving.py); an invitation to follow a filing goes only to an
applicant's address, never a member of staff's."""

from __future__ import annotations

import re
import socket
import threading
import time

import pytest
from fastapi.testclient import TestClient
from webkit import TODAY, USERS, client, csrf_of, login

import config
from models.read.outbox import Outbox

BASE = "https://permits.canton.example"


def app_client(store, **env) -> TestClient:
    from web.app import create_app

    settings = config.load({"PERMITS_BASE_URL": BASE, **env})
    return TestClient(create_app(store, settings=settings, secret="test-secret", today=lambda: TODAY), follow_redirects=False)


def test_the_calendar_address_is_the_configured_one_whatever_host_the_request_names(store):
    c = app_client(store)
    login(c, "canton-agent")
    page = c.get("/calendar", headers={"Host": "evil.example"}).text
    url = re.search(r'id="calendar-url">([^<]+)<', page).group(1)
    assert url.startswith(BASE + "/calendar/") and url.endswith(".ics") and "evil.example" not in page
    feed = c.get(url.removeprefix(BASE))
    assert feed.status_code == 200 and b"BEGIN:VCALENDAR" in feed.content


def test_server_timing_is_sent_only_when_the_setting_turns_it_on(store):
    assert "server-timing" not in app_client(store).get("/login").headers
    timed = app_client(store, PERMITS_SERVER_TIMING="yes").get("/login").headers["server-timing"]
    assert re.fullmatch(r"app;dur=\d+\.\d\d", timed)
    with pytest.raises(config.BadSetting, match="PERMITS_SERVER_TIMING"):
        config.load({"PERMITS_SERVER_TIMING": "maybe"})
    assert config.load(config.environment(config.load({"PERMITS_SERVER_TIMING": "yes"}))).server_timing  # handed to workers


def test_staff_cannot_invite_a_staff_address_to_follow_a_filing_and_nothing_is_sent(store):
    agent = client(store)
    token = login(agent, "canton-agent")
    for staff in (USERS["admin"][0], USERS["canton-dpw"][0].upper()):
        r = agent.post("/filings/CAN-NOI-2026-001/invite", data={"csrf": token, "email": staff})
        assert r.status_code == 422 and "is a staff account" in r.text
    assert Outbox(store).entries(filing_id="CAN-NOI-2026-001") == []
    ok = agent.post(
        "/filings/CAN-NOI-2026-001/invite", data={"csrf": csrf_of(agent.get("/today").text), "email": "owner@example.org"}
    )
    assert ok.status_code == 303 and len(Outbox(store).entries(filing_id="CAN-NOI-2026-001")) == 1


def test_the_invite_command_refuses_a_staff_address_with_one_line(store, capsys):
    from cli.main import main

    assert main(["invite", "CAN-NOI-2026-001", USERS["admin"][0], "--db", store.url]) == 2
    assert "is a staff account" in capsys.readouterr().err
    assert Outbox(store).entries(filing_id="CAN-NOI-2026-001") == []


def test_permits_serve_runs_the_connections_with_deadlines(store, monkeypatch):
    import uvicorn

    import cli.web
    from web.serving import TimedH11Protocol

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    monkeypatch.setattr(cli.web, "settings", lambda: config.load({}))
    cli.web.serve(store.url, "127.0.0.1", 0, workers=1)
    assert seen["http"] is TimedH11Protocol and seen["timeout_keep_alive"] == 5


@pytest.fixture
def served(store, monkeypatch):
    """The workbench under uvicorn with the deadlines of web/serving.py, short."""
    import uvicorn

    import web.serving
    from web.app import SERVING, create_app

    monkeypatch.setattr(web.serving, "HEAD_SECONDS", 0.5)
    monkeypatch.setattr(web.serving, "BODY_SILENCE_SECONDS", 0.5)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    app = create_app(store, settings=config.load({}), secret="test-secret", today=lambda: TODAY)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", **SERVING))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)


def _closed_within(conn: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``conn`` within ``seconds`` (what it sends first is read and dropped)."""
    conn.settimeout(seconds)
    try:
        while conn.recv(65536):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_silent_connection_and_a_trickling_one_are_closed_and_a_request_is_answered(served):
    silent = socket.create_connection(("127.0.0.1", served))
    trickle = socket.create_connection(("127.0.0.1", served))
    start, sent = time.monotonic(), 0
    try:  # a byte every 0.1 s of a head that never ends: the head's deadline does not move
        for ch in b"GET /login HTTP/1.1\r\nX-Slow: " + b"a" * 60:
            trickle.sendall(bytes([ch]))
            sent += 1
            time.sleep(0.1)
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert sent < 40 and time.monotonic() - start < 4  # closed about 0.5 s in, bytes still coming
    assert _closed_within(silent, 3)
    slow_body = socket.create_connection(("127.0.0.1", served))
    slow_body.sendall(
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail="
    )
    assert _closed_within(slow_body, 3)
    ok = socket.create_connection(("127.0.0.1", served))
    ok.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    ok.settimeout(10)
    answer = b""
    while chunk := ok.recv(65536):
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200") and b"Log in" in answer
    kept = socket.create_connection(("127.0.0.1", served))
    kept.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n")  # kept alive, then silent: closed too
    assert _closed_within(kept, 8)
