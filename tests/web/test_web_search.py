"""Search that finds (issue 32): the Filings page and ``permits list
--search`` find a filing by any part of its number ("000096"), by its
address with its suffix spelled out or not ("109 Sherman Street" finds
"109 Sherman St", and the other way), by its MassDEP file number (given
with the filing, or assigned later by a ``file-number-assigned`` event,
and no longer once that event is voided), by its owner and by its parcel,
on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import date

import pytest
import storekit
from webkit import PASSWORD, USERS, client, login

from cli.main import main
from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from services.record import record_event, void_event

FILINGS = [
    {
        "town": "canton",
        "kind": "noi",
        "id": "CAN-NOI-2026-000096",
        "address": "109 Sherman St",
        "parcel": "44-012",
        "applicant": "Neponset Builders LLC",
        "owner": "Rita Ocampo",
        "events": [{"type": "filed", "date": "2026-11-02"}],
    },
    {
        "town": "canton",
        "kind": "noi",
        "id": "CAN-NOI-2026-000103",
        "address": "12 Sherman Street",
        "parcel": "44-019",
        "massdep_file": "SE 073-1187",
        "events": [{"type": "filed", "date": "2026-11-02"}],
    },
    {
        "town": "canton",
        "kind": "rda",
        "id": "CAN-RDA-2026-000104",
        "address": "4 Shermanside Rd",
        "parcel": "7-960",
        "events": [{"type": "filed", "date": "2026-11-02"}],
    },
    {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-SOP-2026-000960",
        "address": "430 Bolivar St",
        "applicant": "Eversource",
        "events": [{"type": "filed", "date": "2026-11-02", "applicant": "utility", "length_ft": 20}],
    },
]


@pytest.fixture
def searched(db_url):
    store = Store(db_url)
    upgrade_store(store)
    import_filings(store, FILINGS, by="test")
    users = storekit.users(store)
    email, role, towns = USERS["admin"]
    users.add(email, PASSWORD, role, towns)
    yield store
    store.engine.dispose()


def _page(c, text: str) -> list[str]:
    r = c.get("/filings", params={"q": text})
    assert r.status_code == 200
    return re.findall(r'<a href="/filings/([A-Z0-9-]+)"', r.text)


def _cli(capsys, url: str, text: str) -> list[str]:
    assert main(["list", "--search", text, "--db", url]) == 0
    return re.findall(r"^([A-Z]{3}-[A-Z]{3}-\d{4}-\d+) ", capsys.readouterr().out, flags=re.M)


def test_a_number_an_address_either_way_and_a_massdep_number_each_find_their_filing(searched, capsys):
    record_event(
        searched,
        "CAN-NOI-2026-000096",
        {"type": "file-number-assigned", "date": "2026-11-20", "number": "SE 073-1234"},
        by="agent",
        today=date(2026, 12, 3),
        now=None,
        mail_from=None,
    )
    c = client(searched)
    login(c, "admin")
    wanted = {
        "000096": ["CAN-NOI-2026-000096"],
        "109 Sherman Street": ["CAN-NOI-2026-000096"],
        "109 sherman st.": ["CAN-NOI-2026-000096"],
        "12 Sherman St": ["CAN-NOI-2026-000103"],  # written "12 Sherman Street"
        "Sherman Street": ["CAN-NOI-2026-000096", "CAN-NOI-2026-000103"],  # not Shermanside Rd
        "Sherman": ["CAN-NOI-2026-000096", "CAN-NOI-2026-000103", "CAN-RDA-2026-000104"],
        "SE 073-1234": ["CAN-NOI-2026-000096"],  # assigned by an event
        "073-1187": ["CAN-NOI-2026-000103"],  # given with the filing
        "Ocampo": ["CAN-NOI-2026-000096"],  # the owner
        "44-01": ["CAN-NOI-2026-000096", "CAN-NOI-2026-000103"],  # the parcels
        "960": ["CAN-RDA-2026-000104", "CAN-SOP-2026-000960"],  # a parcel, and part of a number
    }
    for text, ids in wanted.items():
        assert _page(c, text) == ids, text
        assert _cli(capsys, searched.url, text) == ids, text
    void_event(
        searched,
        "CAN-NOI-2026-000096",
        2,
        reason="the wrong filing's number",
        day=date(2026, 11, 21),
        by="agent",
        today=date(2026, 12, 3),
    )
    assert _page(c, "SE 073-1234") == [] == _cli(capsys, searched.url, "SE 073-1234")


def test_the_command_lines_search_is_bounded_and_keeps_to_the_filters(searched, capsys):
    assert main(["list", "--search", "Sherman", "--kind", "rda", "--db", searched.url]) == 0
    out = capsys.readouterr().out
    assert "CAN-RDA-2026-000104" in out and "at 4 Shermanside Rd" in out and "CAN-NOI" not in out
    assert main(["list", "--search", "x" * 201, "--db", searched.url]) == 2
    assert "--search" in capsys.readouterr().err
