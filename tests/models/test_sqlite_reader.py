"""``permits show`` and ``permits docket`` on a SQLite store read through the
standard library's ``sqlite3`` (models/read/sqlite_reader.py), with the same
queries as the Store (models/read/queries.py): the same bytes out as through the
Store, on SQLite and on PostgreSQL, the same errors, and no SQLAlchemy
imported."""

import json
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import storekit
from storekit import STREET

import models.read.sqlite_reader
from cli.main import main
from demo.generate import generate
from models.handle import Store
from models.read.sqlite_reader import open_sqlite_reader, sqlite_file
from models.schema.db import make_engine
from models.schema.migrate import HEAD
from notices.log import SentNotice
from services.database import upgrade_store
from services.imports import import_filings
from services.notice_log import StoreNoticeLog

ROOT = Path(__file__).resolve().parents[2]
AS_OF = date(2026, 6, 15)
NOW = datetime(2026, 6, 15, 16, 45, 12, 345678, tzinfo=UTC)

#: a street opening whose length is not on record: its winter patch is ``unknown``
NO_LENGTH = {
    "town": "canton",
    "kind": "street-opening",
    "id": "CAN-SO-2026-900",
    "events": [
        {"type": "filed", "date": "2026-06-01", "applicant": "utility"},
        {"type": "dig-safe-obtained", "date": "2026-06-02", "ticket": "20260000001"},
        {"type": "permit-issued", "date": "2026-06-03"},
        {"type": "work-noticed", "at": "2026-06-04T09:00"},
        {"type": "excavation-started", "date": "2026-06-10"},
    ],
}


def _fill(url: str) -> list[str]:
    """The same record on any store: 150 generated filings, one with a void,
    notices with and without their own date; recorded at NOW.  The ids
    ``permits show`` is asked about."""
    store = Store(url, now=lambda: NOW)
    upgrade_store(store)
    filings = [*generate(150, AS_OF, seed=3), NO_LENGTH, STREET]
    import_filings(store, filings, by="clerk")
    storekit.void(store, STREET["id"], 3, reason="entered on the wrong permit", day=date(2026, 6, 4), by="clerk")
    log = StoreNoticeLog(store)
    log.record(SentNotice(STREET["id"], "permit", "J. Doe|12 Washington St|Canton|02021", "2026-06-03T10:15", ("out/a.pdf",)))
    log.record(SentNotice(STREET["id"], "dpw-letter", "boards", None, ("out/b.pdf", "out/b.html")))
    store.engine.dispose()
    return [STREET["id"], NO_LENGTH["id"], *(f["id"] for f in filings[:150:37])]


def _commands(ids: list[str]) -> list[list[str]]:
    out = []
    for fid in ids:
        out += [["show", fid, "--as-of", "2026-06-15"], ["show", fid, "--as-of", "2026-09-01", "--json"]]
    out += [
        ["show", "CAN-SO-2026-999", "--as-of", "2026-06-15"],  # not recorded: the same error
        ["docket", "--as-of", "2026-06-15"],
        ["docket", "--as-of", "2026-06-15", "--json"],
        ["docket", "--as-of", "2026-06-15", "--town", "canton"],
        ["docket", "--as-of", "2026-06-15", "--overdue"],
        ["docket", "--as-of", "2026-06-15", "--overdue", "--town", "saugus", "--json"],
        ["docket", "--as-of", "2026-06-15", "--within", "200", "--json"],
        ["docket", "--as-of", "2026-06-15", "--within", "0"],
    ]
    return out


def _run(argv, url, capsys) -> tuple[int, str, str]:
    code = main([*argv, "--db", url])
    out, err = capsys.readouterr()
    return code, out, err


def _through_the_reader(commands, url, capsys, monkeypatch) -> list:
    """Each command's exit status, output and errors; the Store never opened."""

    def no_store(*args, **kwargs):
        raise AssertionError("the Store was opened")

    with monkeypatch.context() as m:
        m.setattr("cli.args.open_store", no_store)
        return [_run(argv, url, capsys) for argv in commands]


def _through_the_store(commands, url, capsys, monkeypatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(models.read.sqlite_reader, "open_sqlite_reader", lambda url: None)
        return [_run(argv, url, capsys) for argv in commands]


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('reader') / 'permits.db'}"
    return url, _fill(url)


def test_show_and_docket_print_the_same_bytes_through_the_sqlite_reader_as_through_the_store(sqlite_store, capsys, monkeypatch):
    url, ids = sqlite_store
    commands = _commands(ids)
    light = _through_the_reader(commands, url, capsys, monkeypatch)
    full = _through_the_store(commands, url, capsys, monkeypatch)
    for argv, a, b in zip(commands, light, full, strict=True):
        assert a == b, argv
    # the comparison covers what the commands can print
    by_command = dict(zip((" ".join(c) for c in commands), light, strict=True))
    shown = by_command[f"show {ids[0]} --as-of 2026-06-15"][1]
    assert "[voided by event 4]" in shown and "to J. Doe" in shown and "to boards" in shown
    statuses = {i["status"] for i in json.loads(by_command["docket --as-of 2026-06-15 --within 200 --json"][1])["items"]}
    assert {"open", "overdue", "violation", "unknown"} <= statuses
    assert by_command["show CAN-SO-2026-999 --as-of 2026-06-15"][0] == 2


@pytest.mark.postgresql
def test_show_and_docket_on_postgresql_print_what_the_sqlite_reader_prints(sqlite_store, capsys, monkeypatch):
    from storekit import fresh_postgres_database

    url, ids = sqlite_store
    pg_url, drop = fresh_postgres_database()
    try:
        assert _fill(pg_url) == ids
        commands = _commands(ids)
        light = _through_the_reader(commands, url, capsys, monkeypatch)
        on_postgresql = [_run(argv, pg_url, capsys) for argv in commands]
    finally:
        drop()
    for argv, a, b in zip(commands, light, on_postgresql, strict=True):
        assert a == b, argv


def test_a_store_behind_head_is_refused_with_the_upgrade_advice_and_exit_2(tmp_path, capsys, monkeypatch):
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    engine = make_engine(url)
    storekit.migrate(engine, "0001")
    engine.dispose()
    assert open_sqlite_reader(url) is None
    for argv in (["show", STREET["id"]], ["docket"]):
        code, out, err = _run(argv, url, capsys)
        assert (code, out) == (2, "")
        assert (
            err == f"permits: error: database at {url} is at schema 0001, this program needs {HEAD}: run 'permits db upgrade'\n"
        )


def test_a_missing_database_is_one_line_naming_it_and_is_not_created(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'nowhere.db'}"
    assert open_sqlite_reader(url) is None
    for argv in (["show", STREET["id"]], ["docket"]):
        assert _run(argv, url, capsys) == (2, "", f"permits: error: no permits database at {url}: run 'permits init' first\n")
    assert not (tmp_path / "nowhere.db").exists()


def test_a_folder_named_as_the_database_is_the_stores_one_line_error(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}"
    assert open_sqlite_reader(url) is None
    code, out, err = _run(["docket"], url, capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"permits: error: cannot connect to the database {url} (file {tmp_path}):") and err.count("\n") == 1


def test_only_a_plain_sqlite_file_url_is_read_without_sqlalchemy():
    assert sqlite_file("sqlite:////srv/permits/permits.db") == Path("/srv/permits/permits.db")
    assert sqlite_file("sqlite:///permits.db") == Path("permits.db")
    for url in (
        "postgresql+psycopg://clerk@db/permits",
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///permits.db?mode=ro",  # options: SQLAlchemy's to read
        "sqlite:///a%20b.db",  # escapes: SQLAlchemy decodes them
        "sqlite:///~/permits.db",
        "sqlite+pysqlite:///permits.db",
    ):
        assert sqlite_file(url) is None, url


def test_show_and_docket_on_sqlite_never_import_sqlalchemy(sqlite_store):
    url, ids = sqlite_store
    probe = (
        "import sys, contextlib, io\n"
        "from cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['show', {ids[0]!r}, '--db', {url!r}]) == 0\n"
        f"    assert main(['docket', '--json', '--db', {url!r}]) == 0\n"
        "heavy = {'sqlalchemy', 'sqlmodel', 'alembic', 'pydantic', 'psycopg', 'services.notice_log', 'models.store.filings', 'models.handle'}\n"
        "print(sorted(m for m in sys.modules if m in heavy))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
