"""Changing a password: on the workbench's Password page (staff and
applicants alike, the current password and the new one twice, CSRF), and
``permits users passwd``.  A change ends the user's other sessions (their
session version is bumped); the session that made it carries on."""

from __future__ import annotations

import storekit
from webkit import PASSWORD, USERS, client, csrf_of, login

from models.types import PAUSE_AFTER

NEW = "a brand new passphrase"


def change(c, token: str, current: str = PASSWORD, new: str = NEW, new2: str | None = None):
    return c.post("/password", data={"csrf": token, "current": current, "new": new, "new2": new if new2 is None else new2})


def can_log_in(store, who_email: str, password: str, client_address: str = "testclient") -> bool:
    c = client(store, client_address)
    token = csrf_of(c.get("/login").text)
    return c.post("/login", data={"csrf": token, "email": who_email, "password": password}).status_code == 303


def test_a_staff_user_changes_their_password_and_their_other_session_is_logged_out(web, store):
    other = client(store)  # the same user on another computer
    login(other, "canton-agent")
    assert other.get("/today").status_code == 200
    token = login(web, "canton-agent")
    page = web.get("/password")
    assert page.status_code == 200 and 'name="current"' in page.text and 'name="new2"' in page.text
    r = change(web, csrf_of(page.text))
    assert r.status_code == 303 and r.headers["location"] == "/password?changed=1"
    assert "Your password was changed" in web.get("/password?changed=1").text
    assert web.get("/today").status_code == 200  # this session carries on
    gone = other.get("/today")
    assert gone.status_code == 303 and gone.headers["location"].startswith("/login")
    assert other.get("/today").status_code == 303  # and stays logged out
    assert not can_log_in(store, USERS["canton-agent"][0], PASSWORD)
    assert can_log_in(store, USERS["canton-agent"][0], NEW)
    assert token != csrf_of(web.get("/today").text)  # a new session, a new CSRF token


def test_an_applicant_changes_their_password_on_the_same_page(store):
    from test_web_applicants import register

    first, second = client(store), client(store)
    register(first, "ann@example.org")
    token = csrf_of(second.get("/login").text)
    assert second.post("/login", data={"csrf": token, "email": "ann@example.org", "password": PASSWORD}).status_code == 303
    assert second.get("/my").status_code == 200
    page = first.get("/password")
    assert page.status_code == 200 and 'href="/my"' in page.text  # the applicant's own header
    assert change(first, csrf_of(page.text)).status_code == 303
    assert first.get("/my").status_code == 200
    assert second.get("/my").status_code == 303
    assert can_log_in(store, "ann@example.org", NEW) and not can_log_in(store, "ann@example.org", PASSWORD)


def test_a_wrong_current_password_a_mismatch_or_a_short_new_one_changes_nothing(web, store):
    other = client(store)
    login(other, "admin")
    token = login(web, "admin")
    wrong = change(web, token, current="not my password")
    assert wrong.status_code == 401 and "the current password is wrong; nothing was changed" in wrong.text
    differ = change(web, token, new2="something else entirely")
    assert differ.status_code == 422 and "the two new passwords differ" in differ.text
    short = change(web, token, new="short", new2="short")
    assert short.status_code == 422 and "too short: at least 10 characters" in short.text
    same = change(web, token, new=PASSWORD)
    assert same.status_code == 422 and "the one you have now" in same.text
    assert other.get("/today").status_code == 200  # no session ended
    assert can_log_in(store, USERS["admin"][0], PASSWORD)


def test_wrong_current_passwords_count_towards_a_pause_of_that_place(web, store):
    token = login(web, "canton-dpw")
    for _ in range(PAUSE_AFTER):
        assert change(web, token, current="guess-guess-guess").status_code == 401
    paused = change(web, token)
    assert paused.status_code == 401 and "paused until" in paused.text
    assert not can_log_in(store, USERS["canton-dpw"][0], PASSWORD, "testclient")
    assert can_log_in(store, USERS["canton-dpw"][0], PASSWORD, "198.51.100.7")  # the owner elsewhere


def test_the_password_form_without_its_csrf_token_is_refused_and_changes_nothing(web, store):
    login(web, "canton-agent")
    r = web.post("/password", data={"current": PASSWORD, "new": NEW, "new2": NEW})
    assert r.status_code == 403
    assert can_log_in(store, USERS["canton-agent"][0], PASSWORD)


def test_a_disabled_users_session_ends_on_the_next_request(web, store):
    login(web, "canton-agent")
    storekit.users(store).disable(USERS["canton-agent"][0])
    assert web.get("/password").status_code == 303


def test_users_passwd_sets_the_password_from_a_file_unlocks_the_account_and_ends_its_sessions(web, store, tmp_path, capsys):
    from cli.main import main

    other = client(store)
    login(other, "saugus-agent")
    for _ in range(PAUSE_AFTER):  # this place paused
        assert not can_log_in(store, USERS["saugus-agent"][0], "wrong-wrong-wrong")
    pw = tmp_path / "pw"
    pw.write_text(NEW + "\n")
    url = str(store.engine.url)
    assert main(["users", "passwd", USERS["saugus-agent"][0], "--password-file", str(pw), "--db", url]) == 0
    assert "password of agent@saugus.example changed" in capsys.readouterr().out
    assert other.get("/today").status_code == 303
    assert can_log_in(store, USERS["saugus-agent"][0], NEW)
    assert main(["users", "passwd", "nobody@permits.example", "--password-file", str(pw), "--db", url]) == 2
    pw.write_text("short\n")
    assert main(["users", "passwd", USERS["saugus-agent"][0], "--password-file", str(pw), "--db", url]) == 2
    err = capsys.readouterr().err
    assert "no user 'nobody@permits.example'" in err and "too short" in err
    assert can_log_in(store, USERS["saugus-agent"][0], NEW)
