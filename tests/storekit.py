"""Helpers for the store's tests: a fresh PostgreSQL database, a snapshot
of every table, sample filings.  The ``db_url`` fixture (tests/conftest.py)
runs a test on SQLite (a file in tmp_path) and on PostgreSQL, in a
fresh database on the server named by ``PERMITS_TEST_POSTGRES_URL`` (.ci/run
starts one).  Without that variable the PostgreSQL case is skipped, except
under CI (``CI`` set), where it fails: CI must exercise the real server.
"""

import json
import os
import uuid

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from services.database import upgrade_store
from services.imports import import_filings

PG_ENV = "PERMITS_TEST_POSTGRES_URL"


def postgres_admin_url() -> str:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {PG_ENV} is not: .ci/run must start PostgreSQL for the store's tests")
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it; see docs/operations/installation.md)")
    return url


def fresh_postgres_database():
    """A new, empty database on the test server: (url, drop)."""
    admin = make_url(postgres_admin_url())
    name = f"permits_t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop():
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()

    return admin.set(database=name).render_as_string(hide_password=False), drop


def snapshot(url: str) -> dict:
    """Every row of every table: to show that a refused command wrote nothing."""
    from sqlmodel import SQLModel

    import models.schema.tables  # noqa: F401

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            out = {}
            for name, table in SQLModel.metadata.tables.items():
                rows = conn.execute(select(table)).all()
                out[name] = sorted(json.dumps(list(r), default=str) for r in rows)
            return out
    finally:
        engine.dispose()


NOI = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-2026-014",
    "address": "12 Washington St",
    "parcel": "12-345",
    "applicant": "J. Doe",
    "owner": "J. Doe",
    "abutters": [{"name": "A. Smith", "address": "14 Washington St"}],
    "events": [
        {"type": "filed", "date": "2026-12-01"},
        {"type": "boards-notified", "date": "2026-12-01"},
        {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15"},
        {"type": "notice-published", "date": "2026-12-07"},
    ],
}

STREET = {
    "town": "canton",
    "kind": "street-opening",
    "id": "CAN-SO-2026-101",
    "applicant": {"name": "Eversource", "category": "utility"},
    "contractor": {
        "name": "Acme Paving",
        "license": {"number": "PWC-19", "expires": "2027-06-30"},
        "insurance": [{"coverage": "general-liability", "insurer": "Mass Mutual", "expires": "2027-01-01"}],
    },
    "events": [
        {"type": "filed", "date": "2026-06-01", "applicant": "utility", "length_ft": 40},
        {"type": "dig-safe-obtained", "date": "2026-06-02", "ticket": "20261234567"},
        {"type": "permit-issued", "date": "2026-06-03"},
    ],
}


def import_at_old_schema(url: str, filings: list, scratch) -> None:
    """``filings`` written into the store at ``url`` (at an earlier
    revision) as a store of that revision held them: imported into a
    scratch store at head (a file in the folder ``scratch``), and their rows
    copied in the columns the tables have at ``url`` (``filing_clock`` has
    since gained its filing's columns, migration 0120)."""
    from sqlalchemy import inspect
    from sqlmodel import SQLModel

    from models.handle import Store
    from models.schema.db import make_engine

    head = Store(f"sqlite:///{scratch / 'head-for-old-schema.db'}")
    upgrade_store(head)
    import_filings(head, filings, by="test")
    old = make_engine(url)
    present = set(inspect(old).get_table_names())
    with head.engine.connect() as src, old.begin() as dst:
        for name in ("party", "insurance_certificate", "filing", "event", "filing_clock", "abutter"):
            if name not in present:
                continue
            table = SQLModel.metadata.tables[name]
            columns = [table.c[c["name"]] for c in inspect(dst).get_columns(name)]
            rows = [dict(r) for r in src.execute(select(*columns)).mappings()]
            if rows:
                dst.execute(table.insert(), rows)
    head.engine.dispose()
    old.dispose()


def write_json(path, obj) -> str:
    path.write_text(json.dumps(obj, indent=2))
    return str(path)


def append(store, filing_id: str, raw: dict, *, by: str, expect_seq: int | None = None, today=None) -> tuple[int, str]:
    """Append one event in a unit of work of its own, without the effects a
    recording causes (:func:`services.record.record_event` does those):
    (its sequence number, the filing's new state).  What the tests of the
    store itself write."""
    from models.store.filings import append_event
    from services.unit_of_work import UnitOfWork

    with UnitOfWork(store) as uow:
        seq, state, _ = append_event(uow.conn, store, filing_id, raw, by=by, expect_seq=expect_seq, today=today)
    return seq, state


def void(store, filing_id: str, seq: int, *, reason: str, day, by: str, expect_seq: int | None = None, today=None):
    """Append an ``event-voided`` naming event ``seq`` (:func:`append`)."""
    from models.store.filings import void_raw

    return append(store, filing_id, void_raw(seq, reason=reason, day=day), by=by, expect_seq=expect_seq, today=today)


def migrate(engine, target: str = "head") -> None:
    """Migrate the store on ``engine`` to ``target`` in a transaction of its own."""
    from models.schema.migrate import upgrade

    with engine.begin() as conn:
        upgrade(conn, target)


#: the writes of each account repository: called on a connection of a unit of work
_ACCOUNT_WRITES = {
    "add",
    "disable",
    "enable",
    "change_access",
    "unlock",
    "reset_calendar_token",
    "change_password",
    "set_password",
    "authenticate",
    "start",
    "end",
    "record",
    "confirm",
    "reset",
    "register",
    "invite",
    "accept",
    "link",
}


class EachInItsOwnUnitOfWork:
    """An account repository whose writes each run in a unit of work of
    their own, as the tests of the record call them (the services call them
    on their own unit of work): a write answering (value, refusal), as a
    login does, raises the refusal after its commit."""

    def __init__(self, store, repo):
        self._store, self._repo = store, repo

    def __getattr__(self, name):
        attr = getattr(self._repo, name)
        if name not in _ACCOUNT_WRITES:
            return attr

        def write(*args, **kwargs):
            from models.errors import LoginRefused
            from services.unit_of_work import UnitOfWork

            with UnitOfWork(self._store) as uow:
                out = attr(uow.conn, *args, **kwargs)
            if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], LoginRefused):
                raise out[1]
            if isinstance(out, tuple) and len(out) == 2 and out[1] is None and name in ("authenticate", "change_password"):
                return out[0]
            return out

        return write


def users(store, **kw):
    """:class:`models.accounts.users.Users` of ``store``, each write its own unit of work."""
    from models.accounts.users import Users

    return EachInItsOwnUnitOfWork(store, Users(store.engine, now=kw.get("now", store.now)))


def applicants(store):
    """:class:`models.accounts.applicants.Applicants` of ``store``, each write its own unit of work."""
    from models.accounts.applicants import Applicants

    return EachInItsOwnUnitOfWork(store, Applicants(store))


def sessions(store, **kw):
    """:class:`models.accounts.sessions.Sessions` of ``store``, each write its own unit of work."""
    from models.accounts.sessions import Sessions

    return EachInItsOwnUnitOfWork(store, Sessions(store.engine, now=kw.get("now", store.now)))
