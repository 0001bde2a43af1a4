"""The staff pages of the demo speak people's words (issue 19, item 6): a
crawl of Today, Filings, the schedule, deposits, the rule book, the
calendar, the users and a sample of every kind's filing pages finds no
event id, clock id or Python value (``None``, ``True``, ``[``, ``{'``) in
the text a person reads (every text node, the closed <details> included)."""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
import storekit
from fastapi.testclient import TestClient
from webkit import PASSWORD, csrf_of

from demo.generate import generate
from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from workflows.event_fields import EVENT_FIELDS
from workflows.rulebook import CLOCK_TYPES, KINDS

AS_OF = date(2026, 12, 3)
IDS = {e for table in EVENT_FIELDS.values() for e in table if "-" in e} | {c for c in CLOCK_TYPES if "-" in c}
ENGINE = re.compile(
    r"(?<![\w/-])(?:" + "|".join(sorted(map(re.escape, IDS), key=len, reverse=True)) + r"|wpa:[a-z-]+)(?![\w-])"
    r"|\bNone\b|\bTrue\b|\bFalse\b|\[|\{'"
)
PAGES = (
    "/today",
    "/today?within=90",
    "/filings",
    "/filings?sort=deadline",
    "/schedule",
    "/deposits",
    "/rules",
    "/calendar",
    "/users",
)


def visible(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from web.app import create_app

    url = f"sqlite:///{tmp_path_factory.mktemp('words') / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, generate(240, date(2026, 11, 30), seed=7), by="demo")
    storekit.users(store).add("admin@permits.example", PASSWORD, "admin", [])
    c = TestClient(create_app(store, secret="words", today=lambda: AS_OF), follow_redirects=False)
    token = csrf_of(c.get("/login").text)
    c.post("/login", data={"csrf": token, "email": "admin@permits.example", "password": PASSWORD, "next": "/today"})
    yield c, store
    store.engine.dispose()


def _engine_words(text: str) -> list[str]:
    return sorted({text[max(0, m.start() - 40) : m.end() + 20].strip() for m in ENGINE.finditer(text)})


def test_the_check_finds_an_id_or_a_python_value_when_one_is_there():
    assert _engine_words(visible("<p>State: permit-issued</p>")) and _engine_words("complete: True")
    assert _engine_words("[1, 2]") and _engine_words("{'a': 1}") and _engine_words("next: wpa:decision")
    assert not _engine_words(
        visible("<p>Order of Conditions issued, Thursday, December 3, 2026</p><a href='/x/permit-issued'>x</a>")
    )


@pytest.mark.parametrize("path", PAGES)
def test_a_staff_list_page_of_the_demo_shows_no_engine_word(demo, path):
    c, _ = demo
    page = c.get(path)
    assert page.status_code == 200
    assert _engine_words(visible(page.text)) == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_filing_pages_of_the_demo_show_no_engine_word(demo, kind):
    c, store = demo
    ids = [r.id for r in store.list_filings(kind=kind)][:25]
    assert ids
    found = {}
    for fid in ids:
        words = _engine_words(visible(c.get(f"/filings/{fid}").text))
        if words:
            found[fid] = words
    assert found == {}
