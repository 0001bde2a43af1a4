"""``permits schedule`` is the workbench's DPW schedule on the command line:
the same service (services/schedule.py), the same rows."""

import json
import re
from datetime import timedelta

import pytest
from webkit import TODAY, client, login, make_store

from cli.main import main
from demo.generate import generate
from services.imports import import_filings
from services.schedule import TABS, dpw_schedule, schedule_page


@pytest.fixture(scope="module")
def streets(tmp_path_factory):
    """The web kit's store with 300 generated filings: street openings at
    every stage, so the schedule has rows."""
    store = make_store(f"sqlite:///{tmp_path_factory.mktemp('schedule') / 'permits.db'}")
    import_filings(store, generate(300, TODAY, seed=11), by="test")
    yield store
    store.engine.dispose()


def test_the_command_lists_the_rows_the_schedule_page_shows(streets, capsys):
    store, web = streets, client(streets)
    argv = ["schedule", "--db", store.url, "--as-of", TODAY.isoformat(), "--json"]
    assert main(argv) == 0, capsys.readouterr().err
    printed = json.loads(capsys.readouterr().out)
    rows = dpw_schedule(store, as_of=TODAY, towns=None)
    assert printed["items"] == [r.as_dict() for r in rows] and len(rows) > 5
    assert {r.clock for r in rows} >= {"permit-expiry"} and all(r.kind == "street-opening" for r in rows)
    login(web, "admin")
    shown = []
    for tab in TABS:  # the page's two tabs hold the command's rows, page by page, as the command prints them
        n, pages, total = 1, 1, 0
        while n <= pages:
            assert main([*argv, "--tab", tab, "--page", str(n)]) == 0
            one = json.loads(capsys.readouterr().out)
            page = web.get(f"/schedule?tab={tab}&page={n}").text
            links = [f for f in re.findall(r'<a href="/filings/([A-Za-z0-9-]+)"', page) if f != "new"]
            assert [r["filing"] for r in one["items"]] == links and len(links) <= 50
            assert f"page {n} of {one['pages']}" in page
            pages, total, n = one["pages"], one["total"], n + 1
            shown += one["items"]
        assert len(shown) >= total
    assert sorted((r["date"], r["filing"], r["clock"]) for r in shown) == [(r.date.isoformat(), r.filing, r.clock) for r in rows]
    assert main(["schedule", "--db", store.url, "--as-of", TODAY.isoformat()]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"DPW schedule as of {TODAY}, the next 42 days: {len(rows)} item(s)")
    assert all(r.filing in text and r.rule in text for r in rows)


def test_the_command_filters_as_the_page_filters_street_contractor_and_days(streets, capsys):
    store, web = streets, client(streets)
    login(web, "admin")
    everything = schedule_page(store, as_of=TODAY, towns=None, tab="other", per_page=500).rows
    street = everything[0].row.address.split(" ", 1)[1]
    contractor = next(r.row.contractor for r in everything if r.row.contractor)
    for extra, query in (
        (["--street", street], {"street": street}),
        (["--contractor", contractor], {"contractor": contractor}),
        (
            ["--from", TODAY.isoformat(), "--to", (TODAY + timedelta(days=7)).isoformat()],
            {"from": TODAY.isoformat(), "to": (TODAY + timedelta(days=7)).isoformat()},
        ),
    ):
        argv = ["schedule", "--db", store.url, "--as-of", TODAY.isoformat(), "--json", "--tab", "other", *extra]
        assert main(argv) == 0, capsys.readouterr().err
        items = json.loads(capsys.readouterr().out)["items"]
        page = web.get("/schedule", params={"tab": "other", **query}).text
        links = [f for f in re.findall(r'<a href="/filings/([A-Za-z0-9-]+)"', page) if f != "new"]
        assert [r["filing"] for r in items] == links and 0 < len(items) < len(everything)
        if "street" in query:
            assert all(street.lower() in r["address"].lower() for r in items)
        if "contractor" in query:
            assert all(contractor.lower() in (r["contractor"] or "").lower() for r in items)
        if "from" in query:
            assert all(query["from"] <= r["date"] <= query["to"] for r in items)


def test_a_town_that_runs_no_street_openings_is_refused_with_the_choices(store, capsys):
    assert main(["schedule", "--db", store.url, "--town", "saugus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown town 'saugus'" in err and "canton" in err
