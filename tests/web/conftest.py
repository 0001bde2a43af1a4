"""The web tests' fixtures: one store per module (migrations and argon2
hashes are slow), copied for each test, and a client over it."""

import shutil

import pytest
from webkit import client, make_store


@pytest.fixture(scope="module")
def template_db(tmp_path_factory):
    """One store built (migrations, argon2 hashes) per module; each test
    gets its own copy of the file."""
    path = tmp_path_factory.mktemp("web") / "template.db"
    make_store(f"sqlite:///{path}").engine.dispose()  # checkpoints the WAL into the file
    return path


@pytest.fixture
def store(template_db, tmp_path):
    from models.service import Store

    shutil.copy(template_db, tmp_path / "permits.db")
    s = Store(f"sqlite:///{tmp_path / 'permits.db'}")
    yield s
    s.engine.dispose()


@pytest.fixture
def web(store):
    return client(store)
