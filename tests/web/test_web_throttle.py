"""Limits per client address on failed logins, invitation acceptances and
registrations (models/accounts/throttle.py, web/clients.py): kept in the store, so
two web processes over one store count the same attempts; a 429 page that
says when to try again and nothing about whether an account exists; and
X-Forwarded-For read only from a trusted proxy.  The store's clock is fake."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta

import pytest
import storekit
from fastapi.testclient import TestClient
from webkit import PASSWORD, TODAY, USERS, csrf_of, make_store

from models.accounts.throttle import LIMITS
from models.handle import Store
from models.schema.tables import UserRow
from web.clients import parse_trusted_proxies, resolve

LOGINS = LIMITS["login"].attempts
REGISTRATIONS = LIMITS["register"].attempts


class Clock:
    def __init__(self):
        self.t = datetime(2026, 12, 3, 14, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **kw) -> None:
        self.t += timedelta(**kw)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def url(template_db, tmp_path):
    shutil.copy(template_db, tmp_path / "permits.db")
    return f"sqlite:///{tmp_path / 'permits.db'}"


@pytest.fixture
def stores(url, clock):
    """Stores over the same database, as separate web processes have."""
    made = []

    def make():
        made.append(Store(url, now=clock))
        return made[-1]

    yield make
    for s in made:
        s.engine.dispose()


def app_client(store, address: str = "203.0.113.9", trusted: str = "") -> TestClient:
    from web.app import create_app

    app = create_app(store, secret="test-secret", today=lambda: TODAY, trusted_proxies=trusted)
    return TestClient(app, follow_redirects=False, client=(address, 40000))


def try_login(c: TestClient, email: str, password: str = "wrong-wrong-wrong", headers=None):
    token = csrf_of(c.get("/login").text)
    return c.post("/login", data={"csrf": token, "email": email, "password": password}, headers=headers or {})


def use_up_logins(c: TestClient, headers=None) -> None:
    for i in range(LOGINS):  # a different account each time: the accounts' own locks never trip
        r = try_login(c, f"guess{i}@permits.example", headers=headers)
        assert r.status_code == 401, r.text


def test_after_the_limit_of_failed_logins_an_address_is_refused_with_429_even_with_the_right_password(stores, clock):
    c = app_client(stores())
    use_up_logins(c)
    r = try_login(c, USERS["admin"][0], PASSWORD)
    assert r.status_code == 429 and r.headers["retry-after"] == "900"
    assert "Too many failed logins from your network address" in r.text and "try again in 15 minutes" in r.text
    assert c.get("/today").status_code == 303  # not logged in
    other = app_client(stores(), address="198.51.100.20")  # another address is not held back
    assert try_login(other, USERS["admin"][0], PASSWORD).status_code == 303


def test_the_refusal_is_the_same_for_an_account_that_exists_and_one_that_does_not(stores):
    c = app_client(stores())
    use_up_logins(c)
    known = try_login(c, USERS["canton-agent"][0])
    unknown = try_login(c, "nobody-at-all@permits.example")
    assert known.status_code == unknown.status_code == 429
    assert known.text == unknown.text and known.headers["retry-after"] == unknown.headers["retry-after"]


def test_the_window_slides_the_wait_shrinks_and_the_address_may_try_again_once_it_has_passed(stores, clock):
    c = app_client(stores())
    use_up_logins(c)
    clock.advance(minutes=10)
    r = try_login(c, USERS["admin"][0], PASSWORD)
    assert r.status_code == 429 and "try again in 5 minutes" in r.text and r.headers["retry-after"] == "300"
    clock.advance(minutes=5)
    assert try_login(c, USERS["admin"][0], PASSWORD).status_code == 303


def test_a_good_login_does_not_count_against_the_address(stores):
    c = app_client(stores())
    for _ in range(LOGINS + 2):
        assert try_login(c, USERS["admin"][0], PASSWORD).status_code == 303


def test_two_web_processes_over_one_store_count_the_same_failed_logins(stores):
    first, second = app_client(stores()), app_client(stores())
    for i in range(LOGINS):
        assert try_login(first if i % 2 else second, f"guess{i}@permits.example").status_code == 401
    assert try_login(first, USERS["admin"][0], PASSWORD).status_code == 429
    assert try_login(second, USERS["admin"][0], PASSWORD).status_code == 429


def test_on_postgresql_too_two_processes_share_the_count_and_the_window_lifts(db_url, clock):
    make_store(db_url).engine.dispose()
    first, second = Store(db_url, now=clock), Store(db_url, now=clock)
    try:
        a, b = app_client(first), app_client(second)
        for i in range(LOGINS):
            assert try_login(a if i % 2 else b, f"guess{i}@permits.example").status_code == 401
        assert try_login(a, USERS["admin"][0], PASSWORD).status_code == 429
        clock.advance(minutes=15)
        assert try_login(b, USERS["admin"][0], PASSWORD).status_code == 303
    finally:
        first.engine.dispose()
        second.engine.dispose()


def test_registrations_from_one_address_are_limited_and_the_refused_one_writes_nothing(stores, clock):
    from sqlalchemy import func, select

    store = stores()
    c = app_client(store)
    from models.schema.tables import AccountLink

    for i in range(REGISTRATIONS):
        token = csrf_of(c.get("/register").text)
        r = c.post("/register", data={"csrf": token, "email": f"a{i}@example.org", "password": PASSWORD, "password2": PASSWORD})
        assert r.status_code == 200 and "Check your email" in r.text
        c.cookies.clear()
    token = csrf_of(c.get("/register").text)
    r = c.post("/register", data={"csrf": token, "email": "last@example.org", "password": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 429 and "Too many registrations" in r.text and "try again in 60 minutes" in r.text
    with store.engine.connect() as conn:  # a registration is a link waiting to be followed (no account yet)
        emails = conn.execute(select(AccountLink.email).where(AccountLink.email.like("%@example.org"))).scalars().all()
        assert len(emails) == REGISTRATIONS and "last@example.org" not in emails
        assert conn.execute(select(func.count()).select_from(UserRow)).scalar() == len(USERS)
    clock.advance(hours=1)
    r = c.post("/register", data={"csrf": token, "email": "last@example.org", "password": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 200 and "Check your email" in r.text


def test_failed_invitation_acceptances_count_as_failed_logins(stores):

    store = stores()
    applicants = storekit.applicants(store)
    applicants.register("owner@example.org", PASSWORD, verified=True)  # an account whose password must be given
    link = applicants.invite("CAN-NOI-2026-001", "owner@example.org", by="agent@canton.example")
    c = app_client(store)
    for _ in range(LOGINS):  # guessing the existing account's password through the invitation
        token = csrf_of(c.get(f"/invitation/{link}").text)
        assert c.post(f"/invitation/{link}", data={"csrf": token, "password": "guess-guess-guess"}).status_code == 422
    token = csrf_of(c.get(f"/invitation/{link}").text)
    r = c.post(f"/invitation/{link}", data={"csrf": token, "password": PASSWORD})
    assert r.status_code == 429 and "try again in 15 minutes" in r.text
    assert try_login(c, "owner@example.org", PASSWORD).status_code == 429  # the same count
    assert applicants.invitation(link) == ("owner@example.org", "CAN-NOI-2026-001")  # still unused


def test_x_forwarded_for_from_an_untrusted_peer_is_ignored(stores):
    c = app_client(stores())  # no trusted proxies
    for i in range(LOGINS):  # a new forged address each time does not escape the count
        assert try_login(c, f"guess{i}@permits.example", headers={"X-Forwarded-For": f"192.0.2.{i}"}).status_code == 401
    r = try_login(c, USERS["admin"][0], PASSWORD, headers={"X-Forwarded-For": "192.0.2.200"})
    assert r.status_code == 429


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_count(stores):
    c = app_client(stores(), address="10.0.0.2", trusted="10.0.0.0/24")
    use_up_logins(c, headers={"X-Forwarded-For": "192.0.2.7"})
    assert try_login(c, USERS["admin"][0], PASSWORD, headers={"X-Forwarded-For": "192.0.2.7"}).status_code == 429
    # a client cannot escape by writing its own entry: the proxy appends the real one
    spoof = {"X-Forwarded-For": "198.51.100.1, 192.0.2.7"}
    assert try_login(c, USERS["admin"][0], PASSWORD, headers=spoof).status_code == 429
    assert try_login(c, USERS["admin"][0], PASSWORD, headers={"X-Forwarded-For": "192.0.2.8"}).status_code == 303


def test_the_client_is_the_first_untrusted_hop_from_the_right():
    trusted = parse_trusted_proxies("10.0.0.0/8, 2001:db8::1")
    assert resolve("203.0.113.9", ["192.0.2.1"], trusted) == "203.0.113.9"  # not from a proxy: the peer
    assert resolve("10.0.0.2", ["192.0.2.1"], trusted) == "192.0.2.1"
    assert resolve("10.0.0.2", ["6.6.6.6, 192.0.2.1, 10.1.1.1"], trusted) == "192.0.2.1"  # two proxies, one forged entry
    assert resolve("10.0.0.2", ["6.6.6.6", "192.0.2.1"], trusted) == "192.0.2.1"  # the header given twice
    assert resolve("10.0.0.2", [], trusted) == "10.0.0.2"  # a proxy that sent no header
    assert resolve("10.0.0.2", ["not-an-address, 10.0.0.3"], trusted) == "10.0.0.3"  # nonsense stops the walk
    assert resolve("2001:db8::1", ["2001:db8::abcd"], trusted) == "2001:db8::abcd"
    assert resolve("testclient", ["192.0.2.1"], trusted) == "testclient"


def test_a_bad_trusted_proxies_setting_stops_the_server_with_one_line(url, tmp_path, monkeypatch, capsys):
    from cli.main import main

    with pytest.raises(ValueError, match="'10.0.0.300' is not an IP address or network"):
        parse_trusted_proxies("10.0.0.1, 10.0.0.300")
    monkeypatch.setenv("PERMITS_TRUSTED_PROXIES", "10.0.0.0/8,proxy.example")
    assert main(["serve", "--db", url]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "PERMITS_TRUSTED_PROXIES: 'proxy.example' is not an IP address" in err
