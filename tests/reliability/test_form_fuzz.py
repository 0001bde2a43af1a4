"""Every field of every form of every route, fed arbitrary text: no answer
is a 500 and the server logs no traceback.

The forms are the ones the pages draw, found by visiting the workbench as
each kind of user (tests/routekit.py crawls from the start pages through
links and GET forms); every POST route of the app (app.routes) is fuzzed,
through the forms that post to it, or, for a route no page of the kit
draws a form for, through its CSRF token and invented fields.  The GET
forms' fields (the filters) are fuzzed as query values.  Against uvicorn
on 127.0.0.1, its log captured.  A form that ends the session (logging
out, a password changed, an account disabled by the admin's form) is
followed by a fresh login for that user.  Afterwards the deposit ledger
reconciles with the events the forms recorded (``permits deposits --check``).

``PERMITS_FORM_FUZZ_EXAMPLES`` examples on SQLite (400 by default;
``make reliability`` runs 2,500), a quarter of them on PostgreSQL.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from urllib.parse import urlsplit

import httpx
import pytest
import storekit
from fuzzing import HOSTILE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kit import assert_ledger_reconciles, report_row
from routekit import APPLICANT_EMAIL, PDF, ROLES, crawl, fill, parse_page, routes, values_for, world
from sqlalchemy import text
from webkit import PASSWORD, TODAY, USERS, csrf_of, make_store, serving

from models.handle import Store
from web.app import create_app

EXAMPLES = int(os.environ.get("PERMITS_FORM_FUZZ_EXAMPLES", "400"))
STARTS = {
    "admin": ["/today", "/filings", "/users", "/schedule", "/deposits?applicant=Eversource", "/calendar", "/password", "/rules"],
    "canton-agent": ["/today", "/filings", "/filings/new?kind=noi"],
    "canton-dpw": ["/today", "/schedule", "/filings/new?kind=street-opening"],
    "applicant": ["/my", "/my/apply", "/password"],
    "anonymous": ["/login", "/register"],
}
#: text no form of the workbench would send, and text that looks almost right
TRICKY = [h for h in HOSTILE if not any(0xD800 <= ord(c) <= 0xDFFF for c in h)] + [
    "²",
    "٣",
    "１２",
    "-1",
    "0",
    "99999999999999999999",
    "1e9",
    "2026-W49-2",
    "20261201",
    "2026-12-15T19:00Z",
    "yes",
    "true",
    "on",
    "<script>alert(1)</script>",
    "%00",
    "' OR 1=1 --",
    "\u202e",
    "a" * 5000,
]
field_text = st.one_of(st.text(max_size=40), st.sampled_from(TRICKY), st.text(st.characters(codec="utf-8"), max_size=8))


class Tracebacks(logging.Handler):
    """Every log record of the server that carries an exception or a traceback."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.found: list[str] = []

    def emit(self, record):
        message = record.getMessage()
        if record.exc_info or "Traceback" in message or record.levelno >= logging.ERROR:
            self.found.append(f"{record.name}: {message[:300]}")


class Fuzzed:
    """The served workbench, a logged-in client per role, and the forms."""

    def __init__(self, store: Store, port: int, extra: dict):
        self.store, self.port, self.extra = store, port, extra
        self.base = f"http://127.0.0.1:{port}"
        self.clients = {"anonymous": httpx.Client(base_url=self.base, timeout=60, follow_redirects=False)}
        for who in ROLES:
            if who != "anonymous":
                self.clients[who] = self._logged_in(who)

    def _logged_in(self, who: str) -> httpx.Client:
        """A new client logged in as ``who`` over HTTP (its own cookie jar:
        a cookie copied in from another client would be a second one)."""
        email = APPLICANT_EMAIL if who == "applicant" else USERS[who][0]
        c = httpx.Client(base_url=self.base, timeout=60, follow_redirects=False)
        token = csrf_of(c.get("/login").text)
        r = c.post("/login", data={"csrf": token, "email": email, "password": PASSWORD})
        assert r.status_code == 303, r.text
        return c

    def token(self, who: str) -> str:
        """The CSRF token the client's session cookie holds now (the cookie
        is signed, not secret: its first part is the session's JSON)."""
        cookie = self.clients[who].cookies.get("permits_session")
        if not cookie:
            return csrf_of(self.clients[who].get("/login").text)
        return json.loads(base64.b64decode(cookie.split(".")[0])).get("csrf") or csrf_of(self.clients[who].get("/login").text)

    def revive(self, who: str) -> None:
        """Make ``who`` a logged-in user again, whatever a form did to them."""
        if who == "anonymous":
            return
        if self.clients[who].get("/password").status_code == 200:
            return
        email = APPLICANT_EMAIL if who == "applicant" else USERS[who][0]
        with self.store.engine.begin() as conn:
            conn.execute(
                text("UPDATE app_user SET disabled = :f, failed_logins = 0, locked_until = NULL WHERE email = :e"),
                {"f": False, "e": email},
            )
            conn.execute(text("DELETE FROM client_attempt"))
        storekit.users(self.store).set_password(email, PASSWORD)
        self.clients[who] = self._logged_in(who)


def _forms(clients, extra) -> list:
    forms = []
    for who in ROLES:
        starts = STARTS[who] + (["/invitation/" + extra["invitation"]] if who == "anonymous" else [])
        _, found = crawl(clients[who], who, starts)
        forms += found
    return forms


def _get_forms(clients) -> list:
    """The GET forms (the filters) as (who, path, fields)."""
    out = []
    for who in ROLES:
        for start in STARTS[who]:
            r = clients[who].get(start)
            if r.status_code != 200:
                continue
            _, forms = parse_page(str(clients[who].base_url) + start, r.text)
            out += [(who, f.path, [n for n, *_ in f.fields]) for f in forms if f.method == "get" and f.fields]
    return out


def _targets(app, clients, extra, values):
    """(who, method, path, fields, multipart) for every POST form, every POST
    route no form was found for, and every GET form."""
    forms = _forms(clients, extra)
    targets = [(f.who, "post", urlsplit(f.action).path, f.fields, bool(f.files)) for f in forms]
    covered = {r.path for r in routes(app) for f in forms if "POST" in r.methods and r.matches(f.path)}
    uncovered = []
    for r in routes(app):
        if "POST" in r.methods and r.path not in covered:
            uncovered.append(r.path)
            for who in ROLES:
                path = fill(r.path, values_for(r.path, who, values, extra))
                fields = [("csrf", "", "hidden", ()), ("seq", "1", "hidden", ()), ("x", "", "text", ())]
                targets.append((who, "post", path, fields, False))
    targets += [(who, "get", path, [(n, "", "text", ()) for n in names], False) for who, path, names in _get_forms(clients)]
    # one of each: the same form on many pages (logging out) is one target
    app_routes, distinct = routes(app), {}
    for t in targets:
        who, method, path, fields, _ = t
        route = next((r.path for r in app_routes if method.upper() in r.methods and r.matches(path)), path)
        distinct.setdefault((who, method, route, tuple(sorted(n for n, *_ in fields))), t)
    return list(distinct.values()), sorted(covered), uncovered


@pytest.fixture
def fuzzed(db_url, tmp_path, monkeypatch):
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    store = make_store(db_url)
    values, clients, extra = world(store)
    app = create_app(store, secret="test-secret", today=lambda: TODAY)
    targets, covered, uncovered = _targets(app, clients, extra, values)
    catcher = Tracebacks()
    loggers = [logging.getLogger(), logging.getLogger("uvicorn.error"), logging.getLogger("uvicorn")]
    for logger in loggers:
        logger.addHandler(catcher)
    try:
        with serving(app) as port:
            yield Fuzzed(store, port, extra), targets, covered, uncovered, catcher
    finally:
        for logger in loggers:
            logger.removeHandler(catcher)
        store.engine.dispose()


def _fuzz(fuzzed, examples: int, label: str):
    f, targets, covered, uncovered, catcher = fuzzed
    assert len(covered) >= 15, f"the crawl found forms for only {covered}"
    seen = {"runs": 0, "500": [], "statuses": {}}

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def post_anything(data):
        who, method, path, fields, multipart = data.draw(st.sampled_from(targets), label="target")
        f.revive(who)
        sent = {}
        for name, value, _kind, options in fields:
            if name == "csrf":
                sent[name] = f.token(who) if data.draw(st.integers(0, 9)) else data.draw(field_text)
                continue
            choice = data.draw(st.sampled_from(["keep", "text", "text", "drop", "option"]), label=name)
            if choice == "keep":
                sent[name] = value
            elif choice == "option" and options:
                sent[name] = data.draw(st.sampled_from(options))
            elif choice != "drop":
                sent[name] = data.draw(field_text)
        c = f.clients[who]
        if method == "get":
            r = c.get(path.split("?")[0], params=sent)
        elif multipart:
            plan = data.draw(st.sampled_from([PDF, b"", b"<html>", PDF + b"x" * 2000]))
            name = next((n for n, _, k, _ in fields if k == "file"), "plan")
            sent.pop(name, None)
            files = {
                name: (data.draw(st.sampled_from(["p.pdf", "../../etc/passwd", "a\u202e.pdf", ""])), plan, "application/pdf")
            }
            r = c.post(path, data=sent, files=files)
        else:
            r = c.post(path, data=sent)
        seen["runs"] += 1
        seen["statuses"][r.status_code] = seen["statuses"].get(r.status_code, 0) + 1
        assert r.status_code < 500, (method, path, sent, r.status_code, r.text[:500])
        assert "Traceback" not in r.text
        assert catcher.found == [], catcher.found

    post_anything()
    report_row(f"form fuzz: every field of every route ({label})", seen["runs"], tracebacks=len(catcher.found))
    # whatever the forms recorded (payments, refunds, voids, deposits by hand), the ledger adds up
    assert_ledger_reconciles(f.store, f"after the form fuzz ({label})")
    # the fuzz reached past the CSRF check into the routes, not only refusals
    assert sum(n for s, n in seen["statuses"].items() if s not in (403,)) > examples // 3, seen["statuses"]


def test_every_form_field_of_every_route_fed_arbitrary_text_never_makes_a_500_or_a_traceback(fuzzed, db_url):
    label = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    _fuzz(fuzzed, EXAMPLES if label == "sqlite" else max(50, EXAMPLES // 4), label)
