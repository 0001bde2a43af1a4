"""The Today page in the users' words (issue 19, item 6): its counts equal
the daily sweep's for the same day, the by-law's clock and the Act's for
the same act are one row naming the binding one (the other one click
away), and an application sent back as incomplete no longer waits under
"to check"."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
import storekit
from webkit import PASSWORD, TODAY, client, login

import config
from demo.generate import generate
from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from services.sweep import run_sweep


def _count(page: str, category: str) -> int:
    return int(re.search(rf'data-count="{category}">(\d+)<', page).group(1))


@pytest.mark.parametrize("as_of", [date(2026, 11, 30), date(2026, 12, 7)])
def test_todays_counts_equal_the_sweeps_for_the_same_day(tmp_path, as_of):
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, generate(300, date(2026, 11, 30), seed=11), by="test")
    storekit.users(store).add("admin@permits.example", PASSWORD, "admin", [])
    res = run_sweep(as_of, url, str(tmp_path / "out"), config.load(), use_prefect=False, make_notices=False)
    digest = json.loads(open(res["paths"]["digest.json"]).read())
    swept = {c: sum(len(g[c]) for g in digest["dockets"]) for c in ("overdue", "due", "violation")}
    assert swept["overdue"] == res["counts"]["overdue"]
    assert swept["overdue"] > 0 and swept["due"] > 0  # a comparison of something
    from fastapi.testclient import TestClient

    from web.app import create_app

    c = TestClient(create_app(store, secret="test-secret", today=lambda: as_of), follow_redirects=False)
    login(c, "admin")
    page = c.get("/today?within=14").text
    assert {k: _count(page, k) for k in swept} == swept
    store.engine.dispose()


@pytest.fixture
def both(store):
    """A Canton NOI heard under the by-law and the Act both."""
    filing = {
        "town": "canton",
        "kind": "noi",
        "id": "CAN-NOI-2026-050",
        "also": ["wpa"],
        "address": "5 Neponset St",
        "events": [
            {"type": "filed", "date": "2026-11-02"},
            {"type": "hearing-scheduled", "date": "2026-11-03", "hearing": "2026-11-17"},
            {"type": "hearing-opened", "date": "2026-11-17"},
            {"type": "hearing-closed", "date": "2026-11-24"},
        ],
    }
    import_filings(store, [filing], by="test")
    return filing["id"]


def test_the_bylaws_and_the_acts_clock_for_one_act_are_one_row_naming_the_binding_one(store, both):
    from workflows.replay import replay

    filing, _ = store.load(both)
    clocks = {c.id: c for c in replay(filing, TODAY).clocks}
    assert {"decision", "wpa:decision"} <= set(clocks)
    binding = min((clocks["decision"], clocks["wpa:decision"]), key=lambda c: (c.date, ":" in c.id))
    c = client(store)
    login(c, "canton-agent")
    page = c.get("/today?within=60").text
    rows = re.findall(
        r'<tr class="[a-z]+" data-clock="([^"]+)">\s*<td>[^<]*</td>\s*<td>[^<]*</td>\s*<td><a href="/filings/CAN-NOI-2026-050"',
        page,
    )
    decisions = [r for r in rows if r.endswith("decision")]
    assert decisions == [binding.id]
    assert "This one binds" in page
    filing_page = c.get(f"/filings/{both}").text
    assert len(re.findall(r'data-clock="(?:wpa:)?decision"', filing_page)) == 1
    assert "also counted under" in filing_page


def test_an_application_sent_back_as_incomplete_is_not_under_to_check(store):
    from services.record import mark_incomplete

    app = {
        "town": "canton",
        "kind": "noi",
        "id": "CAN-NOI-2026-A00001",
        "address": "1 Elm St",
        "application": {"online": True, "owner_consent": True, "submitted_by": "a@example.org"},
        "events": [{"type": "submitted", "date": "2026-12-01"}],
    }
    import_filings(store, [app], by="test")
    c = client(store)
    login(c, "canton-agent")
    to_check = re.search(r'<section id="submitted">(.*?)</section>', c.get("/today").text, re.S).group(1)
    assert "CAN-NOI-2026-A00001" in to_check
    mark_incomplete(
        store,
        app["id"],
        day=TODAY,
        reasons="no plan",
        by="agent@canton.example",
        today=TODAY,
        now=None,
        mail_from="x@example.org",
        expect_seq=1,
    )
    page = c.get("/today").text
    assert '<section id="submitted">' not in page
    assert re.search(r'<details id="sent-back">.*CAN-NOI-2026-A00001', page, re.S)


def test_no_state_is_final_for_one_kind_and_open_for_another():
    """models/docket_counts.open_filings reads one list of final states for every kind."""
    from workflows.replay import MACHINES

    final = {s for m in MACHINES.values() for s in m.final}
    for m in MACHINES.values():
        assert not (final - set(m.final)) & {s.value for s in m.states}, m.kind
