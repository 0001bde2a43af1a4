"""Parties upserted for a whole import at once end as one mention after
another would leave them: the same rows, categories, licences and
certificates, on SQLite and PostgreSQL."""

from datetime import date

import pytest
import storekit
from sqlalchemy import select
from storekit import STREET, snapshot

from models.handle import Store
from models.schema.db import make_engine
from models.store.parties import INSURANCE, PARTY, upsert_parties, upsert_party
from services.database import upgrade_store
from services.imports import import_filings
from workflows.errors import MalformedEvent

GL = {"coverage": "general-liability", "insurer": "X", "expires": date(2027, 1, 1)}
AUTO = {"coverage": "auto", "insurer": None, "expires": date(2027, 6, 1)}
SPECS = [
    {"name": "Acme Paving", "category": None, "insurance": [GL]},
    {"name": "Eversource", "category": "utility", "insurance": []},
    {
        "name": "Acme Paving",
        "category": "private",
        "license_number": "PWC-19",
        "license_expires": date(2027, 6, 30),
        "insurance": [GL, AUTO],
    },
    {"name": "J. Doe", "category": None, "insurance": []},
    {"name": "Eversource", "category": "gas-company", "insurance": []},
]


def _fresh(url):
    engine = make_engine(url)
    storekit.migrate(engine)
    with engine.begin() as conn:  # a party already known before the import
        upsert_party(conn, {"name": "Eversource", "category": "utility", "insurance": []}, {})
    return engine


def test_a_batch_upsert_leaves_the_parties_as_one_upsert_after_another_does(db_url):
    one = _fresh(db_url)
    with one.begin() as conn:
        cache: dict = {}
        singly = {s["name"]: upsert_party(conn, s, cache) for s in SPECS}
        expected = _state_in(conn)
    with one.begin() as conn:  # undo, then the batch on the same database
        conn.execute(INSURANCE.delete())
        conn.execute(PARTY.delete().where(PARTY.c.name != "Eversource"))
        conn.execute(PARTY.update().values(category="utility", license_number=None, license_expires=None))
        batch = upsert_parties(conn, SPECS)
        got = _state_in(conn)
    one.dispose()
    assert got == expected
    assert set(batch) == set(singly) and batch["Eversource"] == singly["Eversource"]


def test_a_second_batch_of_the_same_parties_adds_no_rows_and_no_certificate_twice(db_url):
    engine = _fresh(db_url)
    with engine.begin() as conn:
        first = upsert_parties(conn, SPECS)
    with engine.begin() as conn:
        second = upsert_parties(conn, SPECS)
        parties, certs = _state_in(conn)
    engine.dispose()
    assert first == second
    assert len(parties) == 3 and len(certs) == 2


def _state_in(conn) -> tuple:
    parties = sorted(tuple(r)[1:] for r in conn.execute(select(PARTY)))
    names = {pid: name for pid, name in conn.execute(select(PARTY.c.id, PARTY.c.name))}
    certs = sorted((names[r.party_id], r.coverage, r.insurer, r.expires) for r in conn.execute(select(INSURANCE)))
    return parties, certs


def test_an_insurer_that_is_not_a_name_is_refused_naming_the_field_and_nothing_is_written(db_url):
    filing = {**STREET, "contractor": {**STREET["contractor"], "insurance": [{**GL, "expires": "2027-01-01", "insurer": [1]}]}}
    store = Store(db_url)
    upgrade_store(store)
    before = snapshot(db_url)
    with pytest.raises(MalformedEvent, match=r"'contractor\.insurance\[1\]\.insurer': a name"):
        import_filings(store, [filing], by="clerk")
    assert snapshot(db_url) == before
    store.engine.dispose()


@pytest.mark.parametrize("insurance", [True, "GL policy", {"coverage": "auto"}, 7])
def test_insurance_that_is_not_a_list_is_refused_naming_the_field_and_nothing_is_written(db_url, insurance):
    filing = {**STREET, "contractor": {**STREET["contractor"], "insurance": insurance}}
    store = Store(db_url)
    upgrade_store(store)
    before = snapshot(db_url)
    with pytest.raises(MalformedEvent, match=r"'contractor\.insurance': a list of certificates"):
        import_filings(store, [filing], by="clerk")
    assert snapshot(db_url) == before
    store.engine.dispose()


def test_a_batch_updating_known_parties_stores_what_one_update_after_another_stores(db_url):
    known = [
        {"name": "Acme Paving", "category": "private", "insurance": []},
        {"name": "Eversource", "category": "utility", "insurance": []},
    ]
    later = [
        {"name": "Acme Paving", "category": "municipal", "license_number": "PWC-7", "license_expires": date(2028, 2, 29)},
        {"name": "Eversource", "category": "gas-company"},
    ]
    stored = []
    for write in (
        lambda conn: [upsert_party(conn, {**s, "insurance": []}, {}) for s in later],
        lambda c: upsert_parties(c, later),
    ):
        engine = make_engine(db_url)
        storekit.migrate(engine)
        with engine.begin() as conn:
            conn.execute(PARTY.delete())
            upsert_parties(conn, known)
        with engine.begin() as conn:
            write(conn)
            stored.append(conn.exec_driver_sql("SELECT name, category, license_number, license_expires FROM party").all())
        engine.dispose()
    assert sorted(stored[0]) == sorted(stored[1])
    assert ("Acme Paving", "municipal", "PWC-7") in {tuple(r)[:3] for r in stored[1]}
