"""Failed logins pause the place they come from, never the account's owner
(issue 35: five wrong passwords from five addresses locked the admin out,
again every fifteen minutes; models/accounts/login_pauses.py).  The store's
clock is fake; each client has its own network address."""

from __future__ import annotations

import email
import re
import shutil
from datetime import UTC, datetime, timedelta

import pytest
import storekit
from fastapi.testclient import TestClient
from webkit import PASSWORD, TODAY, USERS, csrf_of

import config
from models.handle import Store
from models.read.outbox import Outbox
from models.types import LIMITS, PAUSE_AFTER

ADMIN = USERS["admin"][0]
BASE = "https://permits.canton.example"
STRANGERS = [f"203.0.113.{n}" for n in range(1, 6)]
OWNER = "198.51.100.7"


class Clock:
    def __init__(self):
        self.t = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)  # 2:00 p.m. in Canton

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **kw) -> None:
        self.t += timedelta(**kw)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(template_db, tmp_path, clock):
    shutil.copy(template_db, tmp_path / "permits.db")
    made = Store(f"sqlite:///{tmp_path / 'permits.db'}", now=clock)
    yield made
    made.engine.dispose()


def app_client(store, address: str) -> TestClient:
    from web.app import create_app

    settings = config.load({"PERMITS_BASE_URL": BASE, "PERMITS_SECRET_KEY": "test-secret"})
    app = create_app(store, settings=settings, secret="test-secret", today=lambda: TODAY)
    return TestClient(app, follow_redirects=False, client=(address, 40000))


def try_login(c: TestClient, address: str, password: str = "wrong-wrong-wrong"):
    token = csrf_of(c.get("/login").text)
    return c.post("/login", data={"csrf": token, "email": address, "password": password})


def login_links(store) -> list[str]:
    """The paths of the login links queued in the outbox, oldest first."""
    out = []
    for entry in Outbox(store).entries():
        body = email.message_from_bytes(Outbox(store).message(entry.id)).get_payload(decode=True).decode()
        out += [m.removeprefix(BASE) for m in re.findall(re.escape(BASE) + r"/login/link/[A-Za-z0-9_-]+", body)]
    return out


def test_fifty_wrong_passwords_from_five_addresses_leave_the_admin_able_to_log_in_from_another(store, clock):
    strangers = [app_client(store, a) for a in STRANGERS]
    for i in range(50):
        clock.advance(seconds=10)
        assert try_login(strangers[i % 5], ADMIN).status_code == 401
    assert 50 < LIMITS["login"].attempts * len(STRANGERS)  # no stranger was stopped by its address's own limit
    owner = app_client(store, OWNER)
    r = try_login(owner, ADMIN, PASSWORD)
    assert r.status_code == 303 and owner.get("/today").status_code == 200
    # and again in the next window, while the strangers go on
    clock.advance(minutes=16)
    for i in range(50):
        try_login(strangers[i % 5], ADMIN)
    assert try_login(app_client(store, "198.51.100.99"), ADMIN, PASSWORD).status_code == 303


def test_a_paused_place_gets_one_answer_whatever_the_password_and_whatever_the_address(store):
    stranger = app_client(store, STRANGERS[0])
    for _ in range(PAUSE_AFTER):
        assert "wrong email or password" in try_login(stranger, ADMIN).text
        try_login(stranger, "nobody@permits.example")
    wrong = try_login(stranger, ADMIN)
    right = try_login(stranger, ADMIN, PASSWORD)
    made_up = try_login(stranger, "nobody@permits.example")
    assert wrong.status_code == right.status_code == made_up.status_code == 401
    assert "paused until 2:15 p.m." in wrong.text and "emailed to the account" in wrong.text
    assert wrong.text == right.text == made_up.text.replace("nobody@permits.example", ADMIN)
    assert stranger.get("/today").status_code == 303  # the right password alone opened nothing
    assert len(login_links(store)) == 1  # and only the right password sent the owner a link


def test_the_right_password_from_a_paused_place_emails_a_link_that_logs_in_once(store):
    office = app_client(store, STRANGERS[0])  # the owner shares an address with whoever guessed
    for _ in range(PAUSE_AFTER):
        try_login(office, ADMIN)
    assert try_login(office, ADMIN, PASSWORD).status_code == 401
    [link] = login_links(store)
    queued = Outbox(store).message(Outbox(store).entries()[0].id).decode()
    assert f"To: {ADMIN}" in queued and "2026-" not in queued
    page = office.get(link)
    assert page.status_code == 200 and "<form" in page.text  # a page: a mail scanner's visit logs no one in
    assert app_client(store, OWNER).get(link).status_code == 200  # nor does a second visit
    assert office.get("/today").status_code == 303
    page = office.get(link)
    r = office.post(link, data={"csrf": csrf_of(page.text)})
    assert r.status_code == 303 and office.get("/today").status_code == 200
    assert try_login(app_client(store, STRANGERS[0]), ADMIN, PASSWORD).status_code == 303  # its pause is over
    again = app_client(store, OWNER)
    assert again.post(link, data={"csrf": csrf_of(again.get(link).text)}).status_code == 410
    assert again.get("/today").status_code == 303


def test_a_pause_ends_when_its_failures_leave_the_window(store, clock):
    stranger = app_client(store, STRANGERS[0])
    for _ in range(PAUSE_AFTER):
        try_login(stranger, ADMIN)
    clock.advance(minutes=14)
    assert "paused" in try_login(stranger, ADMIN, PASSWORD).text
    clock.advance(minutes=2)
    assert try_login(stranger, ADMIN, PASSWORD).status_code == 303


def test_many_strangers_at_once_pause_every_new_place_but_not_one_the_owner_used(store, clock):
    from models.accounts.login_pauses import GUARD_CLIENTS

    home = app_client(store, OWNER)
    assert try_login(home, ADMIN, PASSWORD).status_code == 303
    for n in range(GUARD_CLIENTS):
        try_login(app_client(store, f"192.0.2.{n + 1}"), ADMIN)
    new_place = try_login(app_client(store, "198.51.100.99"), ADMIN, PASSWORD)
    assert new_place.status_code == 401 and "paused" in new_place.text and len(login_links(store)) == 1
    listed = storekit.users(store).failed_logins()  # what the admin's list says of each stranger
    assert len(listed) == GUARD_CLIENTS and all(f.paused for f in listed)  # the right password is no failure
    assert try_login(app_client(store, OWNER), ADMIN, PASSWORD).status_code == 303


def test_the_admin_sees_the_failed_logins_and_ends_the_pauses(store):
    stranger = app_client(store, STRANGERS[2])
    for _ in range(PAUSE_AFTER):
        try_login(stranger, USERS["canton-agent"][0])
    admin = app_client(store, OWNER)
    try_login(admin, ADMIN, PASSWORD)
    page = admin.get("/users").text
    table = page[page.index('id="failed-logins"') :]
    row = table[table.index(USERS["canton-agent"][0]) :]
    assert STRANGERS[2] in row and "paused" in row and "2:00 p.m." in row
    assert "logins from some place paused" in page
    r = admin.post("/users/unlock", data={"csrf": csrf_of(page), "email": USERS["canton-agent"][0]})
    assert r.status_code == 303
    assert try_login(stranger, USERS["canton-agent"][0], PASSWORD).status_code == 303


def test_wrong_current_passwords_on_the_password_form_pause_that_place_only(store):
    c = app_client(store, STRANGERS[0])
    try_login(c, USERS["canton-dpw"][0], PASSWORD)
    token = csrf_of(c.get("/password").text)
    form = {"csrf": token, "current": "guess-guess-guess", "new": "a brand new pass", "new2": "a brand new pass"}
    for _ in range(PAUSE_AFTER):
        assert c.post("/password", data=form).status_code == 401
    r = c.post("/password", data={**form, "current": PASSWORD})
    assert r.status_code == 401 and "paused" in r.text
    assert try_login(app_client(store, OWNER), USERS["canton-dpw"][0], PASSWORD).status_code == 303


def test_on_sqlite_and_postgresql_two_processes_share_the_pauses_and_the_owner_logs_in(db_url, clock):
    from webkit import make_store

    make_store(db_url).engine.dispose()
    first, second = Store(db_url, now=clock), Store(db_url, now=clock)
    try:
        for i in range(2 * PAUSE_AFTER):
            clock.advance(seconds=1)
            try_login(app_client(first if i % 2 else second, STRANGERS[0]), ADMIN)
        assert "paused" in try_login(app_client(first, STRANGERS[0]), ADMIN, PASSWORD).text
        assert "paused" in try_login(app_client(second, STRANGERS[0]), ADMIN, PASSWORD).text
        assert len(login_links(first)) == 2
        assert try_login(app_client(second, OWNER), ADMIN, PASSWORD).status_code == 303
        page = app_client(first, OWNER)
        try_login(page, ADMIN, PASSWORD)
        assert STRANGERS[0] in page.get("/users").text
    finally:
        first.engine.dispose()
        second.engine.dispose()
