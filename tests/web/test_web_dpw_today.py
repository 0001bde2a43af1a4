"""Today for DPW staff links only to what they may open (issue 32, item 3):
a violation on one of their permits is shown with the way to the filing's
page, never an errand to the enforcement pages they cannot open (404)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from fastapi.testclient import TestClient
from webkit import csrf_of

AS_OF = date(2026, 12, 3)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from config import load
    from models.handle import Store
    from services.demo import make_demo_store, seed_demo_logins
    from web.app import create_app

    settings = load({"PERMITS_DATA_DIR": str(tmp_path_factory.mktemp("dpw-today"))})
    made = make_demo_store(settings, as_of=AS_OF, count=40, seed=3)
    logins = seed_demo_logins(made.url, AS_OF)
    store = Store(made.url)
    yield create_app(store, secret="dpw-today", today=lambda: AS_OF), logins
    store.engine.dispose()


def _client(app, email, password):
    c = TestClient(app, follow_redirects=False)
    token = csrf_of(c.get("/login").text)
    assert c.post("/login", data={"csrf": token, "email": email, "password": password}).status_code == 303
    return c


def test_every_row_of_todays_list_for_dpw_staff_links_to_a_page_they_may_open(demo):
    app, logins = demo
    violations = 0
    for email, password, role, _ in logins.staff:
        if role != "dpw":
            continue
        c = _client(app, email, password)
        page = c.get("/today?within=90").text
        links = set(re.findall(r'href="(/(?:filings|enforcement)/[^"#?]+)', page))
        assert links, email
        assert {link: c.get(link).status_code for link in links} == dict.fromkeys(links, 200)
        assert "decide enforcement" not in page and "/enforcement" not in page
        assert c.get("/enforcement").status_code == 404  # the pages a row must not send them to
        violations += page.count("review it on the filing's page")
    assert violations >= 1  # the demo has a street opening with a violation on record (Mansfield)


def test_an_agent_who_keeps_enforcement_is_still_told_to_decide_it(demo):
    app, logins = demo
    email, password = next((e, p) for e, p, role, towns in logins.staff if role == "agent" and "mansfield" in towns)
    page = _client(app, email, password).get("/today?within=90&status=violation").text
    assert "decide enforcement" in page
