"""A session ends when it ends: after logging out, a password change, a
reset (``permits users passwd``) or disabling the account, a copy of the
session cookie taken before opens nothing, for staff and applicants alike,
and on every web process that shares the store (models/accounts/sessions.py)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta

import pytest
import storekit
from itsdangerous import TimestampSigner
from sqlalchemy import text
from webkit import PASSWORD, USERS, client, csrf_of, login

from cli.main import main
from models.accounts.sessions import SESSION_HOURS, token_digest

NEW = "a brand new passphrase"


def copied(c, store):
    """A second browser holding a copy of ``c``'s session cookie (an attacker
    who copied it), on an app of its own over the same store."""
    thief = client(store)
    thief.cookies.set("permits_session", c.cookies.get("permits_session"))
    return thief


def opens(c, path: str) -> bool:
    r = c.get(path)
    assert r.status_code in (200, 303), (path, r.status_code)
    return r.status_code == 200


def test_a_cookie_copied_before_logout_opens_nothing_after_it(web, store):
    token = login(web, "canton-agent")
    thief = copied(web, store)
    assert opens(thief, "/today")  # the copy works while the session lives
    assert web.post("/logout", data={"csrf": token}).status_code == 303
    r = thief.get("/today")
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert not opens(thief, "/filings/CAN-NOI-2026-001") and not opens(web, "/today")
    # the replayed cookie cannot post either: sent to log in, nothing written
    r = thief.post(
        "/filings/CAN-NOI-2026-001/events", data={"csrf": token, "seq": "2", "type": "withdrawn", "f_date": "2026-12-02"}
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert store.history("CAN-NOI-2026-001")[-1]["seq"] == 2


def test_logging_out_ends_only_that_session(store):
    first, second = client(store), client(store)
    t1 = login(first, "canton-agent")
    login(second, "canton-agent")
    first.post("/logout", data={"csrf": t1})
    assert not opens(first, "/today") and opens(second, "/today")


def test_an_applicants_cookie_copied_before_logout_opens_nothing_after_it(store):
    from test_web_applicants import register

    ann = client(store)
    token = register(ann, "ann@example.org")
    thief = copied(ann, store)
    assert opens(thief, "/my")
    ann.post("/logout", data={"csrf": token})
    assert not opens(thief, "/my")


def test_a_cookie_copied_before_a_password_change_opens_nothing_after_it(web, store):
    login(web, "canton-agent")
    thief = copied(web, store)
    page = web.get("/password")
    r = web.post("/password", data={"csrf": csrf_of(page.text), "current": PASSWORD, "new": NEW, "new2": NEW})
    assert r.status_code == 303
    assert not opens(thief, "/today")
    assert opens(web, "/today")  # the browser that changed it has a new session


def test_a_cookie_copied_before_a_reset_opens_nothing_after_it(web, store, tmp_path, capsys):
    login(web, "saugus-agent")
    thief = copied(web, store)
    pw = tmp_path / "pw"
    pw.write_text(NEW + "\n")
    assert main(["users", "passwd", USERS["saugus-agent"][0], "--password-file", str(pw), "--db", store.url]) == 0
    assert not opens(thief, "/today") and not opens(web, "/today")


@pytest.mark.parametrize("how", ["admin page", "command line"])
def test_a_cookie_copied_before_the_account_is_disabled_opens_nothing_after_it(web, store, how, capsys):
    login(web, "canton-dpw")
    thief = copied(web, store)
    uid = next(u.id for u in storekit.users(store).list() if u.email == USERS["canton-dpw"][0])
    assert storekit.sessions(store).count(uid) == 1
    if how == "admin page":
        admin = client(store)
        token = login(admin, "admin")
        assert admin.post("/users/disable", data={"csrf": token, "email": USERS["canton-dpw"][0]}).status_code == 303
    else:
        assert main(["users", "disable", USERS["canton-dpw"][0], "--db", store.url]) == 0
    assert storekit.sessions(store).count(uid) == 0  # ended on the server's side, not only refused
    assert not opens(thief, "/schedule") and not opens(web, "/today")


def test_a_session_ends_after_its_hours_whatever_the_cookie_says(store):
    clock = {"now": datetime(2026, 12, 3, 13, 0, tzinfo=UTC)}
    sessions = storekit.sessions(store, now=lambda: clock["now"])
    uid = storekit.users(store).list()[0].id
    token = sessions.start(uid)
    clock["now"] += timedelta(hours=SESSION_HOURS) - timedelta(minutes=1)
    assert sessions.user(token) is not None
    clock["now"] += timedelta(minutes=2)
    assert sessions.user(token) is None
    sessions.start(uid)  # a new login sweeps the expired rows away
    with store.engine.connect() as conn:
        kept = conn.execute(text("SELECT token_sha256 FROM web_session")).scalars().all()
    assert token_digest(token) not in kept and len(kept) == 1


def test_the_store_keeps_only_a_digest_of_the_token(web, store):
    login(web, "canton-agent")
    with store.engine.connect() as conn:
        [stored] = conn.execute(text("SELECT token_sha256 FROM web_session")).scalars().all()
    assert len(stored) == 64 and stored not in web.cookies.get("permits_session")


def test_a_session_is_good_on_every_process_sharing_the_store_and_ends_on_all(store):
    a = client(store)  # two apps over one store: two worker processes
    token = login(a, "canton-agent")
    b = copied(a, store)
    assert opens(b, "/today")
    b.post("/logout", data={"csrf": token})  # logged out on the other process
    assert not opens(a, "/today")


def test_garbage_in_the_session_token_is_a_login_page_not_an_error(store):
    for sid in (None, 7, "", "x" * 10_000, "\ud800", ["a"]):
        c = client(store)
        data = base64.b64encode(json.dumps({"sid": sid}, ensure_ascii=True).encode())
        c.cookies.set("permits_session", TimestampSigner("test-secret").sign(data).decode())
        r = c.get("/today")
        assert r.status_code == 303 and r.headers["location"].startswith("/login"), sid
