import os

# Unit tests must never start a Prefect server by accident: with the temporary
# server disabled, any accidental use of the engine fails at once.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

# Commands run by the tests keep their data (the holidays cache, the default
# store) in a throw-away folder, never in the user's data directory.
import tempfile as _tempfile

os.environ.setdefault("PERMITS_DATA_DIR", _tempfile.mkdtemp(prefix="permits-test-data-"))


import pytest as _pytest


@_pytest.fixture(scope="session")
def prefect_api(tmp_path_factory):
    """The one real Prefect server of the session (tests/prefect_server.py),
    its URL set for this process with temporary_settings.  Only the
    real-flow tests ask for it; every other test keeps the ephemeral server
    disabled."""
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_EPHEMERAL_ENABLED, temporary_settings
    from prefect_server import PrefectServer

    server = PrefectServer(tmp_path_factory.mktemp("prefect-home"))
    try:
        server.wait_healthy()
        with temporary_settings(updates={PREFECT_API_URL: server.url, PREFECT_SERVER_EPHEMERAL_ENABLED: False}):
            yield server
    finally:
        server.stop()


def _fresh_store_url(backend: str, tmp_path, name: str):
    """A new, empty store's URL on ``backend``: a SQLite file in tmp_path, or
    a fresh database on the test PostgreSQL server (dropped afterwards)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / name}"
        return
    from storekit import fresh_postgres_database

    url, drop = fresh_postgres_database()
    try:
        yield url
    finally:
        drop()


@_pytest.fixture(params=["sqlite", _pytest.param("postgresql", marks=_pytest.mark.postgresql)])
def db_url(request, tmp_path):
    """The test runs on SQLite (a file in tmp_path) and on PostgreSQL, in a
    fresh database on the server of PERMITS_TEST_POSTGRES_URL (.ci/run starts
    one; without it the case is skipped, except under CI, where it fails)."""
    yield from _fresh_store_url(request.param, tmp_path, "permits.db")


@_pytest.fixture
def second_url(db_url, tmp_path):
    """A second new store on the backend of ``db_url`` (the same action done
    by two interfaces, compared)."""
    yield from _fresh_store_url("sqlite" if db_url.startswith("sqlite") else "postgresql", tmp_path, "second.db")


@_pytest.fixture(scope="module")
def template_db(tmp_path_factory):
    """The web kit's store (tests/webkit.py: a few filings, one user of each
    role), built once per module (migrations and argon2 hashes are slow);
    each test gets its own copy of the file."""
    from webkit import make_store

    path = tmp_path_factory.mktemp("web") / "template.db"
    make_store(f"sqlite:///{path}").engine.dispose()  # checkpoints the WAL into the file
    return path


@_pytest.fixture
def store(template_db, tmp_path):
    import shutil

    from models.handle import Store

    shutil.copy(template_db, tmp_path / "permits.db")
    s = Store(f"sqlite:///{tmp_path / 'permits.db'}")
    yield s
    s.engine.dispose()


@_pytest.fixture
def web(store):
    """A TestClient of the workbench over ``store`` (not logged in)."""
    from webkit import client

    return client(store)
