"""The workbench's accounts and sessions: logins, pauses after failed ones, the session
cookie, CSRF on the login form, the admin's users page and ``permits
users``, the calendar's secret URL, and the headers every response sends."""

from __future__ import annotations

import re

import storekit
from webkit import PASSWORD, USERS, csrf_of, login

import config
from models.types import PAUSE_AFTER


def test_the_session_cookie_is_signed_httponly_and_samesite_lax(web):
    token = csrf_of(web.get("/login").text)
    r = web.post("/login", data={"csrf": token, "email": USERS["admin"][0], "password": PASSWORD, "next": "/today"})
    cookie = r.headers["set-cookie"].lower()
    assert "permits_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert USERS["admin"][0] not in r.headers["set-cookie"]  # holds an id, signed; not the email


def test_a_wrong_password_is_refused_without_saying_whether_the_email_exists(web):
    token = csrf_of(web.get("/login").text)
    bad_pw = web.post("/login", data={"csrf": token, "email": USERS["admin"][0], "password": "nope-nope-nope"})
    no_user = web.post("/login", data={"csrf": token, "email": "nobody@permits.example", "password": "nope-nope-nope"})
    assert bad_pw.status_code == no_user.status_code == 401
    assert "wrong email or password" in bad_pw.text and "wrong email or password" in no_user.text


def test_repeated_failed_logins_pause_that_place_even_for_the_right_password(web):
    token = csrf_of(web.get("/login").text)
    for _ in range(PAUSE_AFTER):
        web.post("/login", data={"csrf": token, "email": USERS["admin"][0], "password": "wrong-password"})
    r = web.post("/login", data={"csrf": token, "email": USERS["admin"][0], "password": PASSWORD})
    assert r.status_code == 401 and "paused until" in r.text
    assert web.get("/today").status_code == 303


def test_a_paused_account_asked_with_a_wrong_password_answers_as_a_made_up_address(web):
    token = csrf_of(web.get("/login").text)
    for _ in range(PAUSE_AFTER + 2):
        probe = web.post("/login", data={"csrf": token, "email": USERS["admin"][0], "password": "wrong-password"})
        made_up = web.post("/login", data={"csrf": token, "email": "nobody@permits.example", "password": "wrong-password"})
    assert probe.status_code == made_up.status_code == 401
    assert "paused until" in probe.text
    assert probe.text.replace(USERS["admin"][0], "X") == made_up.text.replace("nobody@permits.example", "X")


def test_a_disabled_user_cannot_log_in(web, store):
    storekit.users(store).disable(USERS["canton-agent"][0])
    token = csrf_of(web.get("/login").text)
    r = web.post("/login", data={"csrf": token, "email": USERS["canton-agent"][0], "password": PASSWORD})
    assert r.status_code == 401


def test_login_never_sends_the_browser_to_another_site(web):
    token = csrf_of(web.get("/login").text)
    r = web.post("/login", data={"csrf": token, "email": USERS["admin"][0], "password": PASSWORD, "next": "//evil.example/x"})
    assert r.status_code == 303 and r.headers["location"] == "/today"


def test_the_login_form_without_its_csrf_token_is_refused(web):
    web.get("/login")
    r = web.post("/login", data={"email": USERS["admin"][0], "password": PASSWORD})
    assert r.status_code == 403


def test_the_calendar_feed_is_served_by_its_secret_token_until_reset(web, store):
    token = login(web, "canton-agent")
    url = re.search(r'id="calendar-url">([^<]+)<', web.get("/calendar").text).group(1)
    path = url.removeprefix(config.load().base_url)  # PERMITS_BASE_URL's, never the request's host
    web.cookies.clear()  # a calendar program has no session
    feed = web.get(path)
    assert feed.status_code == 200 and b"CAN-NOI-2026-001" in feed.content and b"SAU-NOI" not in feed.content
    login(web, "canton-agent")
    token = csrf_of(web.get("/calendar").text)
    assert web.post("/calendar/reset", data={"csrf": token}).status_code == 303
    assert web.get(path).status_code == 404


def test_users_command_adds_lists_and_disables_with_the_password_from_a_file(tmp_path, capsys):
    from cli.main import main

    url = f"sqlite:///{tmp_path / 'p.db'}"
    assert main(["init", "--db", url]) == 0
    pw = tmp_path / "pw"
    pw.write_text("a long enough password\n")
    assert (
        main(["users", "add", "x@canton.example", "--role", "agent", "--town", "canton", "--password-file", str(pw), "--db", url])
        == 0
    )
    assert (
        main(["users", "add", "x@canton.example", "--role", "agent", "--town", "canton", "--password-file", str(pw), "--db", url])
        == 2
    )
    assert main(["users", "add", "y@canton.example", "--role", "dpw", "--password-file", str(pw), "--db", url]) == 2  # no town
    assert main(["users", "disable", "x@canton.example", "--db", url]) == 0
    assert main(["users", "list", "--db", url]) == 0
    out = capsys.readouterr()
    assert "x@canton.example  agent  canton  disabled" in out.out
    assert "already exists" in out.err and "at least one town" in out.err
    from models.handle import Store

    assert storekit.users(Store(url)).list()[0].email == "x@canton.example"


def test_only_an_admin_sees_the_users_page_and_can_add_and_disable_users(web, store):
    login(web, "canton-agent")
    assert web.get("/users").status_code == 404
    token = login(web, "admin")
    assert "agent@saugus.example" in web.get("/users").text
    r = web.post(
        "/users",
        data={"csrf": token, "email": "new@mansfield.example", "role": "agent", "town": "mansfield", "password": "x" * 12},
    )
    assert r.status_code == 303
    short = web.post(
        "/users", data={"csrf": token, "email": "b@mansfield.example", "role": "agent", "town": "mansfield", "password": "x"}
    )
    assert short.status_code == 422 and "too short" in short.text
    assert web.post("/users/disable", data={"csrf": token, "email": "new@mansfield.example"}).status_code == 303
    assert [u.disabled for u in storekit.users(store).list() if u.email == "new@mansfield.example"] == [True]
    assert web.post("/users", data={"email": "c@x.example", "role": "admin", "password": "x" * 12}).status_code == 403


def test_every_page_says_not_to_be_framed_or_sniffed(web):
    r = web.get("/login")
    assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"
