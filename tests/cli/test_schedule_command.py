"""``permits schedule`` is the workbench's DPW schedule on the command line:
the same service (services/schedule.py), the same rows."""

import json
import re

import pytest
from webkit import TODAY, client, login, make_store

from cli.main import main
from demo.generate import generate
from services.schedule import dpw_schedule


@pytest.fixture(scope="module")
def streets(tmp_path_factory):
    """The web kit's store with 300 generated filings: street openings at
    every stage, so the schedule has rows."""
    store = make_store(f"sqlite:///{tmp_path_factory.mktemp('schedule') / 'permits.db'}")
    store.import_filings(generate(300, TODAY, seed=11), by="test")
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
    page = web.get("/schedule").text
    assert [r.filing for r in rows] == [f for f in re.findall(r'<a href="/filings/([A-Za-z0-9-]+)"', page) if f != "new"]
    assert main(["schedule", "--db", store.url, "--as-of", TODAY.isoformat()]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"DPW schedule as of {TODAY}, the next 42 days: {len(rows)} item(s)")
    assert all(r.filing in text and r.rule in text for r in rows)


def test_a_town_that_runs_no_street_openings_is_refused_with_the_choices(store, capsys):
    assert main(["schedule", "--db", store.url, "--town", "saugus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown town 'saugus'" in err and "canton" in err
