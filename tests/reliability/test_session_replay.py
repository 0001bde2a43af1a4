"""Replaying a copied session cookie after the session ended, many times,
on SQLite and PostgreSQL: each round logs a user in (staff or applicant),
copies the cookie to a second app over the same store (another worker
process), ends the session one of the four ways (logging out, changing the
password, a reset by ``permits users passwd``, disabling the account) and
replays the copy on every page it opened and on a form.  A replay that
opens anything counts as "lost"; every round also checks that the copy
opened the pages before the end, so the replay is a real one.
``PERMITS_REPLAYS`` rounds per backend (12; ``make reliability``: 40)."""

from __future__ import annotations

import os

import storekit
from kit import report_row
from sqlalchemy import text
from webkit import PASSWORD, USERS, client, csrf_of, login, make_store, register

ROUNDS = int(os.environ.get("PERMITS_REPLAYS", "12"))
ENDS = ("logout", "password change", "reset", "disable")
PAGES = {
    "staff": ["/today", "/filings", "/filings/CAN-NOI-2026-001", "/today.csv", "/password"],
    "applicant": ["/my", "/password"],
}


def _revive(store, email: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE app_user SET disabled = :f WHERE email = :e"), {"f": False, "e": email})
    storekit.users(store).set_password(email, PASSWORD)


def _end(how: str, c, store, email: str, token: str) -> None:
    if how == "logout":
        assert c.post("/logout", data={"csrf": token}).status_code == 303
    elif how == "password change":
        r = c.post(
            "/password", data={"csrf": token, "current": PASSWORD, "new": "another passphrase", "new2": "another passphrase"}
        )
        assert r.status_code == 303
    elif how == "reset":
        storekit.users(store).set_password(email, "a reset passphrase")
    else:
        storekit.users(store).disable(email)


def test_a_copied_cookie_replayed_after_its_session_ended_opens_nothing(db_url):
    store = make_store(db_url)
    ann = client(store)
    register(ann, "ann@example.org")
    opened = lost = 0
    for n in range(ROUNDS):
        how = ENDS[n % len(ENDS)]
        kind = "applicant" if n % 3 == 2 else "staff"
        email = "ann@example.org" if kind == "applicant" else USERS["canton-agent"][0]
        _revive(store, email)
        c = client(store)
        if kind == "applicant":
            t = csrf_of(c.get("/login").text)
            assert c.post("/login", data={"csrf": t, "email": email, "password": PASSWORD}).status_code == 303
            token = csrf_of(c.get("/my").text)
        else:
            token = login(c, "canton-agent")
        copy = client(store)  # another process over the same store
        copy.cookies.set("permits_session", c.cookies.get("permits_session"))
        assert all(copy.get(p).status_code == 200 for p in PAGES[kind]), "the copy did not work before the end"
        opened += 1
        _end(how, c, store, email, token)
        for p in PAGES[kind]:
            lost += copy.get(p).status_code != 303
        r = copy.post("/calendar/reset" if kind == "staff" else "/password", data={"csrf": token})
        lost += not (r.status_code == 303 and r.headers["location"].startswith("/login"))
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    report_row(f"copied cookie replayed after its session ended ({backend})", ROUNDS, lost, 0, 0)
    store.engine.dispose()
    assert (opened, lost) == (ROUNDS, 0)
