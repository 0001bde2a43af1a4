"""Migrations: a new database is built by the same Alembic scripts that
upgrade an old one, and they describe exactly the tables the code declares."""

import sqlite3

import pytest
import storekit
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlmodel import SQLModel

import models.schema.tables  # noqa: F401
from cli.main import main
from models.handle import Store
from models.read.search import SEARCH_INDEXES, is_search_table
from models.schema.db import PAGE_SIZE, make_engine
from models.schema.migrate import HEAD, alembic_config, current_revision
from models.schema.party_email import PARTY_EMAIL_INDEXES
from services.database import upgrade_store
from services.imports import import_filings


def _declared(obj, name, type_, reflected, compare_to) -> bool:
    """Everything but the party email indexes (expression indexes, which
    Alembic reflects on PostgreSQL and not on SQLite: their plans are
    tested in tests/models/test_applicant_email_index.py) and the search
    index (SQLite's FTS5 table and its shadow tables, PostgreSQL's trigram
    indexes: tests/models/test_search_index.py)."""
    if type_ == "index" and name in PARTY_EMAIL_INDEXES | SEARCH_INDEXES:
        return False
    return not (type_ == "table" and is_search_table(name))


_OPTS = {"include_object": _declared}

# SQLite's reflection skips the party email indexes with a warning: expected
pytestmark = pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index ix_filing_")


def test_head_constant_is_the_last_migration_script():
    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD


def test_migrations_from_an_empty_database_build_every_table_at_head_and_match_the_models(db_url):
    engine = make_engine(db_url)
    assert current_revision(engine) is None
    storekit.migrate(engine)
    assert current_revision(engine) == HEAD
    assert set(inspect(engine).get_table_names()) >= set(SQLModel.metadata.tables)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts=_OPTS), SQLModel.metadata)
    assert diff == []
    storekit.migrate(engine)  # a second upgrade is a no-op
    assert current_revision(engine) == HEAD
    engine.dispose()


def test_db_upgrade_command_creates_a_new_database_at_the_current_version(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'new' / 'permits.db'}"
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"is at schema {HEAD}" in capsys.readouterr().out
    Store(url).check_schema()


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'w.db'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
    engine.dispose()


def test_a_new_sqlite_store_has_16_kib_pages_and_one_made_with_4_kib_keeps_them_and_imports(tmp_path):
    from storekit import NOI

    new = Store(f"sqlite:///{tmp_path / 'new.db'}")
    upgrade_store(new)
    old_path = tmp_path / "old.db"
    with sqlite3.connect(old_path) as raw:  # a store made before: SQLite's default page size, in WAL mode
        raw.execute("PRAGMA page_size=4096")
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute("CREATE TABLE t (x)")
        raw.execute("DROP TABLE t")
    old = Store(f"sqlite:///{old_path}")
    upgrade_store(old)
    assert import_filings(old, [NOI], by="clerk") == [NOI["id"]]
    sizes = []
    for store in (new, old):
        with store.engine.connect() as conn:
            sizes.append(conn.exec_driver_sql("PRAGMA page_size").scalar())
        store.engine.dispose()
    assert sizes == [PAGE_SIZE, 4096] and PAGE_SIZE == 16384


def test_db_upgrade_brings_a_0001_database_with_filings_up_to_head_keeping_them(db_url, tmp_path, capsys):
    from storekit import NOI, import_at_old_schema

    engine = make_engine(db_url)
    storekit.migrate(engine, "0001")
    assert current_revision(engine) == "0001"
    engine.dispose()
    import_at_old_schema(db_url, [NOI], tmp_path)  # the rows a store of 0001 held
    assert main(["show", NOI["id"], "--db", db_url]) == 2
    assert "permits db upgrade" in capsys.readouterr().err
    assert main(["db", "upgrade", "--db", db_url]) == 0
    assert f"is at schema {HEAD}" in capsys.readouterr().out
    engine = make_engine(db_url)
    columns = {c["name"] for c in inspect(engine).get_columns("notice")}
    assert {"recipient", "dated", "files", "output_key"} <= columns
    assert "sweep_output" in inspect(engine).get_table_names()
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts=_OPTS), SQLModel.metadata)
    assert diff == []
    with engine.connect() as conn:  # 0120 filled each clock's filing columns from the filing
        copied = conn.exec_driver_sql("SELECT DISTINCT filing_town, filing_kind, filing_open FROM filing_clock").all()
    assert [tuple(r) for r in copied] == [(NOI["town"], NOI["kind"], True)]
    engine.dispose()
    assert main(["show", NOI["id"], "--db", db_url]) == 0
    assert NOI["id"] in capsys.readouterr().out
