"""The front door (issue 21, items 1 and 2) through Starlette's TestClient,
with a real SMTP server (aiosmtpd) taking the emails: the login page's
links, a registration usable only once its emailed link is followed,
squatting, enumeration (a new, a taken and a staff address answered
alike; reset likewise), the Host header, the reset link's single use and
its hour, CSRF and nothing written on a refusal.  The store's clock is
fake; the app's today is the clock's day in Canton."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import storekit
from mailkit import body, smtp_server
from sqlalchemy import func, select
from webkit import PASSWORD, USERS, csrf_of, login, make_store

import config
from models.handle import Store
from models.read.outbox import Outbox
from models.schema.tables import AccountLink, UserRow, WebSession

BASE = "https://permits.canton.example"
NY = ZoneInfo("America/New_York")
T0 = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)  # 10:00 in Canton
OTHER = "another passphrase 2"


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now

    def advance(self, **kw):
        self.now += timedelta(**kw)


@pytest.fixture
def smtp():
    with smtp_server() as sink:
        yield sink


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(db_url, clock):
    make_store(db_url).engine.dispose()
    s = Store(db_url, now=clock)
    yield s
    s.engine.dispose()


@pytest.fixture
def extra_env() -> dict:
    """More settings for the app (a test module overrides this)."""
    return {}


@pytest.fixture
def app_client(store, smtp, clock, tmp_path, extra_env):
    from fastapi.testclient import TestClient

    from web.app import create_app

    env = {
        "PERMITS_SMTP_URL": smtp.url,
        "PERMITS_BASE_URL": BASE,
        "PERMITS_UPLOADS_DIR": str(tmp_path / "uploads"),
        "PERMITS_DATA_DIR": str(tmp_path),
        **extra_env,
    }
    app = create_app(store, settings=config.load(env), secret="front-door", today=lambda: clock().astimezone(NY).date())

    def make(**kw):
        return TestClient(app, follow_redirects=False, **kw)

    return make


def post(c, path, data, **kw):
    """Post ``data`` to ``path`` with the session's CSRF token (from the
    form's page, or the login page's when the page has no form: a refused link)."""
    page = c.get(path).text
    token = csrf_of(page if 'name="csrf"' in page else c.get("/login").text)
    return c.post(path, data={"csrf": token, **data}, **kw)


def register(c, email, password=PASSWORD, **kw):
    return post(c, "/register", {"email": email, "password": password, "password2": password}, **kw)


def rows(store, table) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar()


def path_of(url: str) -> str:
    assert url.startswith(BASE + "/"), url
    return url[len(BASE) :]


def answer(html: str, address: str) -> str:
    """The page's answer with the address typed taken out."""
    main = re.search(r"<main.*?</main>", html, re.S).group(0)
    return re.sub(r'name="csrf" value="[^"]+"', "", main).replace(address, "ADDRESS")


# -- the front door --------------------------------------------------------------


def test_the_login_page_links_to_registration_and_to_forgot_your_password(app_client):
    page = app_client().get("/login").text
    assert '<a href="/register">' in page and '<a href="/forgot">Forgot your password?</a>' in page


# -- a registration proved by its link ----------------------------------------------


def test_a_registration_is_not_usable_until_its_emailed_link_is_followed_with_its_password(app_client, store, smtp):
    c = app_client()
    r = register(c, "Ann@Example.org")
    assert r.status_code == 200 and "Check your email" in r.text
    assert rows(store, UserRow) == len(USERS)  # no account yet
    r = post(c, "/login", {"email": "ann@example.org", "password": PASSWORD})
    assert r.status_code == 401 and "wrong email or password" in r.text
    [message] = smtp.to("ann@example.org")
    assert message["Subject"] == "Finish your registration"
    link = path_of(smtp.link("ann@example.org", "/confirm/"))
    assert c.get(link).status_code == 200 and rows(store, UserRow) == len(USERS)  # opening the link changes nothing
    r = post(c, link, {"password": "not the one chosen"})
    assert r.status_code == 401 and "not the password chosen" in r.text and rows(store, UserRow) == len(USERS)
    r = post(c, link, {"password": PASSWORD})
    assert r.status_code == 303 and r.headers["location"] == "/my"
    assert "My filings" in c.get("/my").text
    with store.engine.connect() as conn:
        ann = conn.execute(select(UserRow).where(UserRow.email == "ann@example.org")).one()
    assert ann.role == "applicant" and ann.verified_at is not None
    again = app_client()
    r = post(again, link, {"password": PASSWORD})
    assert r.status_code == 410 and "used already" in r.text
    assert post(again, "/login", {"email": "ann@example.org", "password": PASSWORD}).status_code == 303


def test_a_registrations_link_expires_after_a_day(app_client, store, smtp, clock):
    c = app_client()
    register(c, "ann@example.org")
    link = path_of(smtp.link("ann@example.org", "/confirm/"))
    clock.advance(hours=24, seconds=1)
    r = post(c, link, {"password": PASSWORD})
    assert r.status_code == 410 and "expired" in r.text and rows(store, UserRow) == len(USERS)


# -- squatting ----------------------------------------------------------------------


def test_a_squatters_registration_never_blocks_the_real_owners_invitation_and_its_password_never_works(app_client, store, smtp):
    squatter = app_client()
    register(squatter, "owner@example.org", password="the squatter's password")
    assert rows(store, UserRow) == len(USERS)  # nothing made, nothing proved
    agent = app_client()
    token = login(agent, "canton-agent")
    assert agent.post("/filings/CAN-NOI-2026-001/invite", data={"csrf": token, "email": "owner@example.org"}).status_code == 303
    from services.accounts import deliver_now

    deliver_now(store, smtp.url, [e.id for e in Outbox(store).entries(pending_only=True)])
    invitation = path_of(smtp.link("owner@example.org", "/invitation/"))
    owner = app_client()
    r = post(owner, invitation, {"password": OTHER})
    assert r.status_code == 303 and "CAN-NOI-2026-001" in owner.get("/my").text
    r = post(app_client(), "/login", {"email": "owner@example.org", "password": "the squatter's password"})
    assert r.status_code == 401
    # the squatter's link (in the owner's mailbox) opens nothing now: the address has its account
    confirm = path_of(smtp.link("owner@example.org", "/confirm/"))
    r = post(app_client(), confirm, {"password": "the squatter's password"})
    assert r.status_code == 410 and "exists already" in r.text
    assert post(app_client(), "/login", {"email": "owner@example.org", "password": OTHER}).status_code == 303


def test_an_invitation_takes_over_an_account_whose_address_nobody_proved(store):
    from models.accounts.users import LoginRefused

    applicants = storekit.applicants(store)
    squatter = applicants.register("owner@example.org", "the squatter's password")  # an account of before the links
    with pytest.raises(LoginRefused, match="not confirmed"):
        storekit.users(store, now=store.now).authenticate("owner@example.org", "the squatter's password")
    token = applicants.invite("CAN-NOI-2026-001", "owner@example.org", by="agent")
    owner = applicants.accept(token, OTHER)
    assert owner.id == squatter.id and owner.verified
    users = storekit.users(store, now=store.now)
    with pytest.raises(LoginRefused):
        users.authenticate("owner@example.org", "the squatter's password")
    assert users.authenticate("owner@example.org", OTHER).email == "owner@example.org"


# -- enumeration --------------------------------------------------------------------


def test_registering_a_new_a_taken_and_a_staff_address_gets_the_same_page_and_status(app_client, store, smtp):

    storekit.applicants(store).register("taken@example.org", PASSWORD, verified=True)
    answers = {}
    for address in ("new@example.org", "taken@example.org", USERS["canton-agent"][0]):
        r = register(app_client(), address)
        answers[address] = (r.status_code, answer(r.text, address))
    assert len(set(answers.values())) == 1, answers
    assert smtp.to("new@example.org")[0]["Subject"] == "Finish your registration"
    for taken in ("taken@example.org", USERS["canton-agent"][0]):
        [message] = smtp.to(taken)
        assert message["Subject"] == "Someone tried to register your address" and "/confirm/" not in body(message)
    assert rows(store, AccountLink) == 1  # only the new address waits for its link


def test_asking_for_a_reset_gets_the_same_page_and_status_whether_or_not_the_address_has_an_account(app_client, smtp):
    answers = {}
    for address in ("nobody@example.org", USERS["canton-agent"][0]):
        r = post(app_client(), "/forgot", {"email": address})
        answers[address] = (r.status_code, answer(r.text, address))
    assert len(set(answers.values())) == 1, answers
    assert smtp.to("nobody@example.org") == []
    assert smtp.to(USERS["canton-agent"][0])[0]["Subject"] == "Reset your password"


# -- the Host header --------------------------------------------------------------


def test_a_request_naming_another_host_gets_emails_whose_links_use_permits_base_url(app_client, store, smtp):
    evil = {"Host": "evil.example"}
    register(app_client(), "ann@example.org", headers=evil)
    post(app_client(), "/forgot", {"email": USERS["canton-agent"][0]}, headers=evil)
    agent = app_client()
    token = login(agent, "canton-agent")
    agent.post("/filings/CAN-NOI-2026-001/invite", data={"csrf": token, "email": "owner@example.org"}, headers=evil)
    queued = [Outbox(store).message(e.id).decode() for e in Outbox(store).entries()]
    assert len(queued) == 3 and all("evil.example" not in m for m in queued)
    from services.accounts import deliver_now

    deliver_now(store, smtp.url, [e.id for e in Outbox(store).entries(pending_only=True)])
    links = [
        smtp.link("ann@example.org", "/confirm/"),
        smtp.link(USERS["canton-agent"][0], "/reset/"),
        smtp.link("owner@example.org", "/invitation/"),
    ]
    assert all(link.startswith(BASE + "/") for link in links), links


# -- reset -------------------------------------------------------------------------


def test_a_reset_link_works_once_ends_every_other_session_and_the_old_password(app_client, store, smtp):
    email = USERS["canton-agent"][0]
    elsewhere = app_client()
    login(elsewhere, "canton-agent")
    assert elsewhere.get("/today").status_code == 200
    c = app_client()
    post(c, "/forgot", {"email": email})
    link = path_of(smtp.link(email, "/reset/"))
    r = post(c, link, {"new": OTHER, "new2": OTHER})
    assert r.status_code == 303 and r.headers["location"] == "/today"
    assert c.get("/today").status_code == 200  # this browser has a new session
    assert elsewhere.get("/today").status_code == 303  # the other was ended
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(WebSession)).scalar() == 1
    r = post(app_client(), link, {"new": "a third passphrase", "new2": "a third passphrase"})
    assert r.status_code == 410 and "used already" in r.text
    assert post(app_client(), "/login", {"email": email, "password": PASSWORD}).status_code == 401
    assert post(app_client(), "/login", {"email": email, "password": OTHER}).status_code == 303


def test_a_reset_link_works_for_an_hour_and_not_a_second_more(app_client, store, smtp, clock):
    email = USERS["canton-agent"][0]
    post(app_client(), "/forgot", {"email": email})
    first = path_of(smtp.link(email, "/reset/"))
    clock.advance(minutes=59, seconds=59)
    assert app_client().get(first).status_code == 200
    clock.advance(seconds=2)  # an hour and a second
    r = post(app_client(), first, {"new": OTHER, "new2": OTHER})
    assert r.status_code == 410 and "expired" in r.text
    assert post(app_client(), "/login", {"email": email, "password": PASSWORD}).status_code == 303


def test_a_reset_proves_an_applicants_address_and_a_second_link_spends_the_first(app_client, store, smtp):

    storekit.applicants(store).register("ann@example.org", PASSWORD)  # an account of before the links: not usable
    c = app_client()
    post(c, "/forgot", {"email": "ann@example.org"})
    post(c, "/forgot", {"email": "ann@example.org"})
    first, second = (
        path_of(re.search(rf"({re.escape(BASE)}/reset/[A-Za-z0-9_-]+)", body(m)).group(1)) for m in smtp.to("ann@example.org")
    )
    assert first != second
    r = post(c, second, {"new": OTHER, "new2": OTHER})
    assert r.status_code == 303 and r.headers["location"] == "/my"
    assert post(app_client(), first, {"new": "a third passphrase", "new2": "a third passphrase"}).status_code == 410
    assert post(app_client(), "/login", {"email": "ann@example.org", "password": OTHER}).status_code == 303


def test_reset_requests_to_one_address_are_capped_at_three_an_hour_with_the_same_answer(app_client, smtp, clock):
    email = USERS["canton-agent"][0]
    pages = {post(app_client(), "/forgot", {"email": email}).text.count("Check your email") for _ in range(5)}
    assert pages == {2} and len(smtp.to(email)) == 3  # title and heading; a mailbox not flooded
    clock.advance(hours=1, seconds=1)
    post(app_client(), "/forgot", {"email": email})
    assert len(smtp.to(email)) == 4


# -- refusals write nothing ---------------------------------------------------------


@pytest.mark.parametrize("path", ["/register", "/forgot", "/confirm/" + "x" * 43, "/reset/" + "x" * 43])
def test_the_front_doors_forms_without_their_csrf_token_are_refused_and_write_nothing(app_client, store, path):
    c = app_client()
    c.get("/login")
    data = {"email": "ann@example.org", "password": PASSWORD, "password2": PASSWORD, "new": OTHER, "new2": OTHER}
    r = c.post(path, data=data)
    assert r.status_code == 403
    assert rows(store, AccountLink) == 0 and Outbox(store).entries() == []


def test_a_registration_with_two_passwords_or_a_short_one_is_refused_and_writes_nothing(app_client, store, smtp):
    c = app_client()
    r = post(c, "/register", {"email": "ann@example.org", "password": PASSWORD, "password2": PASSWORD + "x"})
    assert r.status_code == 422 and "the two passwords differ" in r.text
    r = register(c, "ann@example.org", password="short")
    assert r.status_code == 422 and "at least 10 characters" in r.text
    r = register(c, "not an address")
    assert r.status_code == 422 and "is not an email address" in r.text
    assert rows(store, AccountLink) == 0 and Outbox(store).entries() == [] and smtp.received == []


def test_a_links_page_for_an_unknown_or_malformed_token_is_refused(app_client):
    c = app_client()
    for path in ("/confirm/" + "A" * 43, "/reset/" + "A" * 43, "/confirm/short", "/reset/%3Cscript%3E"):
        r = c.get(path)
        assert r.status_code == 410 and "This link is not valid" in r.text and "<script>" not in r.text, path


# -- the command line asks for the same reset ------------------------------------------


def test_permits_users_reset_queues_the_link_the_web_sends_and_it_works_there(
    app_client, store, smtp, clock, capsys, monkeypatch
):
    from cli.main import main

    clock.now = datetime.now(UTC)  # the command reads the wall clock
    monkeypatch.setenv("PERMITS_BASE_URL", BASE)
    monkeypatch.setenv("PERMITS_SMTP_URL", smtp.url)
    email = USERS["canton-dpw"][0]
    assert main(["users", "reset", email, "--db", store.url]) == 0
    assert "reset link" in capsys.readouterr().out
    [message] = smtp.to(email)
    assert message["Subject"] == "Reset your password"
    link = path_of(smtp.link(email, "/reset/"))
    assert post(app_client(), link, {"new": OTHER, "new2": OTHER}).status_code == 303
    assert main(["users", "reset", "nobody@example.org", "--db", store.url]) == 2
    assert "nothing was sent" in capsys.readouterr().err
