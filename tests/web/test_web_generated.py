"""Every page of every kind of filing the demonstration generates renders:
no filing, state or notice the generator can produce makes the workbench
fail (a 500)."""

from __future__ import annotations

import re
from datetime import date

import pytest
import storekit
from webkit import PASSWORD, client, login

from demo.generate import generate
from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings

AS_OF = date(2026, 11, 30)


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('gen') / 'permits.db'}")
    upgrade_store(store)
    import_filings(store, generate(80, AS_OF, seed=11), by="test")
    storekit.users(store).add("admin@permits.example", PASSWORD, "admin")
    c = client(store)
    login(c, "admin")
    yield c, store
    store.engine.dispose()


def test_every_generated_filing_page_and_every_notice_it_offers_renders(web):
    from workflows.vocabulary import state_name

    c, store = web
    rows = store.list_filings()
    assert {r.kind for r in rows} == {"noi", "rda", "land-disturbance", "street-opening"}
    previews = 0
    for r in rows:
        page = c.get(f"/filings/{r.id}")
        assert page.status_code == 200, r.id
        assert f'<strong id="state" data-state="{r.state}">{state_name(r.kind, r.state)}</strong>' in page.text
        for kind in re.findall(rf'href="/filings/{re.escape(r.id)}/notices/([a-z0-9-]+)"', page.text):
            preview = c.get(f"/filings/{r.id}/notices/{kind}")
            assert preview.status_code in (200, 422), (r.id, kind)  # 422: the notice needs something not on record
            previews += preview.status_code == 200
    assert previews > 0


def test_the_demo_filings_show_their_street_on_today_and_in_search(web):
    c, store = web
    today = c.get("/today?within=60").text
    street = re.search(r"<td>(\d+ [A-Z][a-z]+ (?:St|Rd|Ave|Street|Road|Avenue|Way|Dr|Ln|Pl)[^<]*)</td>", today)
    assert street, "no site address on the Today page"
    found = c.get("/filings", params={"q": street.group(1)}).text
    assert street.group(1) in found
