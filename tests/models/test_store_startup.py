"""Store commands start without Alembic: the schema check is one query on
``alembic_version`` that answers what Alembic's own check answers, and
Alembic is imported only when a migration runs."""

import subprocess
import sys
from pathlib import Path

import storekit
from alembic.runtime.migration import MigrationContext
from storekit import NOI

from models.handle import Store
from models.schema.db import make_engine
from models.schema.migrate import HEAD, current_revision
from services.database import upgrade_store
from services.imports import import_filings

ROOT = Path(__file__).resolve().parents[2]


def _alembic_says(engine):
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_the_one_query_revision_agrees_with_alembic_on_an_empty_an_old_and_a_current_database(db_url):
    engine = make_engine(db_url)
    seen = [(current_revision(engine), _alembic_says(engine))]
    storekit.migrate(engine, "0001")
    seen.append((current_revision(engine), _alembic_says(engine)))
    storekit.migrate(engine)
    seen.append((current_revision(engine), _alembic_says(engine)))
    engine.dispose()
    assert seen == [(None, None), ("0001", "0001"), (HEAD, HEAD)]


def test_a_failed_revision_query_on_postgresql_leaves_the_engine_usable(db_url):
    engine = make_engine(db_url)
    assert current_revision(engine) is None  # no alembic_version table: the query fails, is rolled back
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT 1").scalar() == 1
    engine.dispose()


def test_show_and_docket_on_a_current_store_never_import_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, [NOI], by="clerk")
    store.engine.dispose()
    probe = (
        "import sys, contextlib, io\n"
        "from cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['show', {NOI['id']!r}, '--db', {url!r}]) == 0\n"
        f"    assert main(['docket', '--db', {url!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m == 'alembic' or m.startswith('alembic.')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
