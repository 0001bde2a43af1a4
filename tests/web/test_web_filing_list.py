"""The Filings page (issue 19, item 6): a total, previous and next pages, a
sort either way, and choice lists for town, kind and state; within the
user's towns and kinds."""

from __future__ import annotations

import re
from datetime import date

import pytest
from webkit import client, login

from demo.generate import generate
from services.imports import import_filings


@pytest.fixture
def many(store):
    import_filings(store, generate(150, date(2026, 11, 30), seed=3), by="test")
    return store


def _ids(page: str) -> list[str]:
    return re.findall(r'<td><a href="/filings/([A-Z0-9-]+)">', page)


def _total(page: str) -> int:
    return int(re.search(r'<p id="total">([\d,]+) filing', page).group(1).replace(",", ""))


def test_the_list_gives_its_total_and_pages_back_and_forth(many):
    c = client(many)
    login(c, "admin")
    first = c.get("/filings").text
    total = _total(first)
    assert total == len(many.list_filings())
    assert "page 1 of" in first and 'rel="prev"' not in first
    nxt = re.search(r'rel="next" href="([^"]+)"', first).group(1).replace("&amp;", "&")
    second = c.get(nxt).text
    assert "page 2 of" in second and set(_ids(first)).isdisjoint(_ids(second))
    back = re.search(r'rel="prev" href="([^"]+)"', second).group(1).replace("&amp;", "&")
    assert _ids(c.get(back).text) == _ids(first)
    last = c.get("/filings?page=999999").text  # past the end: the last page
    assert 'rel="next"' not in last and _ids(last)


def test_the_list_sorts_by_a_column_either_way(many):
    c = client(many)
    login(c, "admin")
    up = _ids(c.get("/filings?sort=id").text)
    down = _ids(c.get("/filings?sort=id&order=desc").text)
    assert up == sorted(up) and down == sorted(down, reverse=True) and up[0] != down[0]
    by_town = c.get("/filings?sort=town").text
    towns = re.findall(r"</a></td><td>([A-Za-z ()-]+)</td>", by_town)
    assert towns == sorted(towns)


def test_town_kind_and_state_are_choice_lists_and_narrow_the_total(many):
    c = client(many)
    login(c, "admin")
    page = c.get("/filings").text
    assert re.search(r'<select name="state">.*<option value="hearing-open"\s*>Hearing open</option>', page, re.S)
    assert re.search(r'<select name="kind">.*>Notice of Intent</option>', page, re.S)
    assert re.search(r'<select name="town">.*>Canton</option>', page, re.S)
    wanted = [r for r in many.list_filings() if r.town == "canton" and r.kind == "noi" and r.state == "issued"]
    narrowed = c.get("/filings?town=canton&kind=noi&state=issued").text
    assert _total(narrowed) == len(wanted) > 0
    assert "Order of Conditions issued" in narrowed and ">issued<" not in narrowed
    assert _total(c.get("/filings?state=no-such-state").text) == _total(page)  # not a choice: ignored


def test_an_agent_counts_and_sees_only_their_towns_and_kinds(many):
    c = client(many)
    login(c, "saugus-agent")
    page = c.get("/filings").text
    mine = [r for r in many.list_filings() if r.town == "saugus" and r.kind != "street-opening"]
    assert _total(page) == len(mine)
    assert all(i.startswith("SAU-") for i in _ids(page))
    assert _total(c.get("/filings?town=canton").text) == 0
