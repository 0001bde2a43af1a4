"""A new filing's number continues its town's running sequence for its
kind and year (``CAN-NOI-2026-000097`` after ``CAN-NOI-2026-000096``),
whoever makes it (the workbench's New filing, an application online), and
two filings made at once get two consecutive numbers, on SQLite and
PostgreSQL: the highest number is read under a lock held until the import
commits (services/numbering.py, models/store/filing_numbers.py)."""

from __future__ import annotations

import threading
import time

import pytest
import storekit
from webkit import PASSWORD, TODAY, USERS, client, login

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from services.numbering import file_new

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
OLD = [  # the town's running numbers, and ids of other forms the sequence passes over
    {"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-000096", "events": [{"type": "filed", "date": "2026-11-02"}]},
    {"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-000090", "events": [{"type": "filed", "date": "2026-11-02"}]},
    {"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-WC57FC0", "events": [{"type": "filed", "date": "2026-11-02"}]},
    {"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-0999", "events": [{"type": "filed", "date": "2026-11-02"}]},
    {"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-000096-B", "events": [{"type": "filed", "date": "2026-11-02"}]},
    {"town": "canton", "kind": "rda", "id": "CAN-RDA-2026-000400", "events": [{"type": "filed", "date": "2026-11-02"}]},
    {"town": "canton", "kind": "noi", "id": "CAN-NOI-2025-000500", "events": [{"type": "filed", "date": "2025-11-03"}]},
    {"town": "saugus", "kind": "noi", "id": "SAU-NOI-2026-000300", "events": [{"type": "filed", "date": "2026-11-02"}]},
]
FORM = {
    "kind": "noi",
    "town": "canton",
    "filed": "2026-12-01",
    "address": "109 Sherman St",
    "parcel": "44-012",
    "description": "a deck within the buffer zone",
    "applicant_name": "Ann Lee",
    "applicant_street": "109 Sherman St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
}


def _store(url: str) -> Store:
    store = Store(url)
    upgrade_store(store)
    import_filings(store, OLD, by="test")
    users = storekit.users(store)
    email, role, towns = USERS["canton-agent"]
    users.add(email, PASSWORD, role, towns)
    return store


def _noi(filed: str = "2026-12-01", **given) -> dict:
    return {"town": "canton", "kind": "noi", **given, "events": [{"type": "filed", "date": filed}]}


def test_a_new_filing_takes_the_next_number_of_its_town_kind_and_year(tmp_path):
    store = _store(f"sqlite:///{tmp_path / 'p.db'}")
    assert file_new(store, _noi(), by="clerk") == "CAN-NOI-2026-000097"
    assert file_new(store, _noi(), by="clerk") == "CAN-NOI-2026-000098"
    assert file_new(store, _noi("2027-01-04"), by="clerk") == "CAN-NOI-2027-000001"  # a new year starts again
    assert file_new(store, {**_noi(), "kind": "rda"}, by="clerk") == "CAN-RDA-2026-000401"
    assert file_new(store, {**_noi(), "town": "mansfield"}, by="clerk") == "MAN-NOI-2026-000001"
    assert file_new(store, _noi(id="CAN-NOI-2026-GIVEN1"), by="clerk") == "CAN-NOI-2026-GIVEN1"  # given by hand: kept
    store.engine.dispose()


def test_the_workbenchs_new_filing_continues_the_towns_sequence(tmp_path):
    store = _store(f"sqlite:///{tmp_path / 'p.db'}")
    c = client(store)
    token = login(c, "canton-agent")
    r = c.post("/filings/new", data={"csrf": token, **FORM})
    assert r.status_code == 303 and r.headers["location"] == "/filings/CAN-NOI-2026-000097", r.text
    store.engine.dispose()


def test_two_filings_made_at_once_in_the_workbench_get_consecutive_numbers(db_url, monkeypatch):
    """Two clerks file at the same moment, each in a thread of their own
    with their own session; the number each is given is read slowly (a
    pause after the read), so without the lock both would read 96 and one
    of them would be refused as a duplicate."""
    import models.store.filing_numbers as numbers

    store = _store(db_url)
    read = numbers.last_running_number
    reads: list[int] = []

    def slow_read(conn, prefix):
        found = read(conn, prefix)
        reads.append(found)
        time.sleep(0.4)  # the other clerk's filing, were it not waiting for the lock, would read the same number now
        return found

    monkeypatch.setattr(numbers, "last_running_number", slow_read)
    clients = [client(store), client(store)]
    tokens = [login(c, "canton-agent") for c in clients]
    start = threading.Barrier(2)
    answers: list = [None, None]

    def file(i: int) -> None:
        start.wait()
        answers[i] = clients[i].post("/filings/new", data={"csrf": tokens[i], **FORM, "address": f"{i + 1} Elm St"})

    threads = [threading.Thread(target=file, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert [a.status_code for a in answers] == [303, 303], [a.text[:300] for a in answers]
    numbers_given = sorted(a.headers["location"].rsplit("/", 1)[1] for a in answers)
    assert numbers_given == ["CAN-NOI-2026-000097", "CAN-NOI-2026-000098"]
    assert sorted(reads) == [96, 97]  # the second read waited for the first filing to be committed
    assert sorted(store.load(n)[1].address for n in numbers_given) == ["1 Elm St", "2 Elm St"]
    store.engine.dispose()


@pytest.mark.parametrize("kind, prefix", [("noi", "CAN-NOI-2026-"), ("street-opening", "CAN-SOP-2026-")])
def test_an_application_online_is_numbered_in_the_same_sequence(tmp_path, kind, prefix):
    from models.store.uploads import Uploads
    from services.apply import apply_online
    from web.applicant.apply import application

    store = _store(f"sqlite:///{tmp_path / 'p.db'}")
    account = storekit.applicants(store).register("ann.lee@example.org", PASSWORD)
    values = {
        "address": "109 Sherman St",
        "parcel": "44-012",
        "description": "the work",
        "applicant_name": "Ann Lee",
        "applicant_street": "109 Sherman St",
        "applicant_city": "Canton",
        "applicant_state": "MA",
        "applicant_zip": "02021",
        "owner_is_applicant": "on",
        "length_ft": "20",
        "applicant_type": "private",
        "contractor_name": "Acme Paving",
        "contractor_license": "PW-1234",
        "contractor_license_expires": "2027-06-30",
        "insurer": "Mutual",
        "insurance_expires": "2027-06-30",
        "dig_safe": "20261234567",
    }
    obj = application(kind, "canton", values, email=account.email, today=TODAY)
    assert "id" not in obj
    fid = apply_online(store, Uploads(store, tmp_path / "plans", 1 << 20), account, obj, "plan.pdf", PDF)
    expected = {"noi": "000097", "street-opening": "000001"}[kind]
    assert fid == prefix + expected
    store.engine.dispose()
