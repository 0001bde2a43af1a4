"""``permits backup`` and ``permits restore`` (issue 35, item 1): a town's
whole record and its uploads' files in one archive, taken while a writer
keeps recording, brought back into a fresh SQLite file and a fresh
PostgreSQL database with every row the backup read, its files byte for
byte, a store that works (search, the next id); a store that holds records
refused, a damaged archive refused, each in one line, exit 2, nothing
written."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import tarfile
import threading
import time
from datetime import datetime

import pytest
import storekit
from sqlalchemy import create_engine, inspect, select, text
from storekit import snapshot
from webkit import TODAY, make_store

from cli.main import main
from models.handle import Store
from models.read.search import Scope, page_ids
from models.schema.portable import TABLES, unknown_tables
from models.schema.tables import EventRow, FilingRow
from services.bootstrap import backends
from services.inspections import record_inspection

SOP = "CAN-SOP-2026-001"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3
JPEG = b"\xff\xd8\xff\xe0" + b"trench" * 100
#: tables the writer of the running-backup test does not touch: compared whole
UNTOUCHED = ("app_user", "party", "upload", "ledger_entry", "abutter", "parcel")


def _town(url: str, uploads_dir):
    """The web kit's store (filings, a user of each role, a street opening's
    ledger) with an inspection of the street opening and its two photos."""
    store = make_store(url)
    for raw in (
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
        {"type": "permit-issued", "date": "2026-12-01"},
        {"type": "work-noticed", "at": "2026-12-01T09:00"},
        {"type": "excavation-started", "date": "2026-12-02"},
    ):
        storekit.append(store, SOP, raw, by="t")
    uploads = backends(store, uploads_dir=uploads_dir, upload_max_bytes=1 << 20).uploads
    record_inspection(
        store,
        uploads,
        SOP,
        day=TODAY,
        stage="pre-backfill",
        result="pass",
        at=None,
        notes="",
        defect="",
        reinspect=None,
        photos=[("trench.png", PNG), ("north.jpg", JPEG)],
        by="dpw@canton.example",
        today=TODAY,
        now=datetime(2026, 12, 3, 10, 0),
        mail_from="permits@canton.example",
    )
    return store


@pytest.fixture
def town(tmp_path, monkeypatch):
    uploads = tmp_path / "uploads"
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(uploads))
    url = f"sqlite:///{tmp_path / 'town.db'}"
    store = _town(url, uploads)
    yield url, store, uploads
    store.engine.dispose()


def _files(folder) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*"))} if folder.exists() else {}


def _events(url: str) -> dict[str, list]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            out: dict[str, list] = {}
            for fid, seq, raw in conn.execute(select(EventRow.filing_id, EventRow.seq, EventRow.raw).order_by(EventRow.seq)):
                out.setdefault(fid, []).append((seq, json.dumps(raw, sort_keys=True)))
            last = dict(conn.execute(select(FilingRow.id, FilingRow.last_seq)).all())
        return out, last
    finally:
        engine.dispose()


def test_a_backup_taken_while_a_writer_records_restores_into_sqlite_and_postgresql_whole(town, tmp_path, monkeypatch, capsys):
    url, store, uploads = town
    storekit.postgres_admin_url()  # skipped without the PostgreSQL test server (failed under CI)
    stop, committed, failed = threading.Event(), [], []

    def writer():
        writer_store = Store(url)
        try:
            i = 0
            while not stop.is_set():
                i += 1
                storekit.append(
                    writer_store,
                    "CAN-SOP-2026-001",
                    {"type": "dig-safe-obtained", "date": "2026-12-02", "ticket": f"W{i}"},
                    by="w",
                )
                committed.append(i)
        except Exception as exc:  # shown by the assertion below
            failed.append(repr(exc))
        finally:
            writer_store.engine.dispose()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(committed) < 5 and thread.is_alive():
            time.sleep(0.01)
        before = len(committed)
        archive = tmp_path / "town.tar.gz"
        assert main(["backup", "--db", url, "--out", str(archive)]) == 0, capsys.readouterr().err
        during = len(committed)
    finally:
        stop.set()
        thread.join()
    assert failed == [] and during > before, (failed, before, during)  # the writer kept writing while the backup read
    out = capsys.readouterr().out
    assert "and 2 files to" in out, out

    source_events, _ = _events(url)
    source = snapshot(url)
    for backend in ("sqlite", "postgresql"):
        target_uploads = tmp_path / f"uploads-{backend}"
        monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(target_uploads))
        if backend == "sqlite":
            target, drop = f"sqlite:///{tmp_path / 'restored' / 'town.db'}", lambda: None
        else:
            target, drop = storekit.fresh_postgres_database()
        try:
            assert main(["restore", str(archive), "--db", target]) == 0, capsys.readouterr().err
            out = capsys.readouterr().out
            assert "and 2 files into" in out and "match the backup's manifest" in out, out

            events, last = _events(target)
            sop = [seq for seq, _ in events[SOP]]
            assert sop == list(range(1, len(sop) + 1)) and last[SOP] == len(sop)  # one instant: no gap, the row agrees
            assert 4 + 1 + before <= len(sop) <= 4 + 1 + during + 1  # every event committed before the backup began
            assert {f: e[: len(events[f])] for f, e in source_events.items()} == events  # each row as the source holds it
            restored = snapshot(target)
            assert {t: restored[t] for t in UNTOUCHED} == {t: source[t] for t in UNTOUCHED}
            assert _files(target_uploads) == _files(uploads) and len(_files(uploads)) == 2
        finally:
            drop()


def test_the_restored_store_searches_and_takes_the_next_row_without_a_clash(town, tmp_path, monkeypatch, capsys):
    url, _store, _uploads = town
    archive = tmp_path / "b.tar.gz"
    assert main(["backup", "--db", url, "--out", str(archive)]) == 0
    backends_to_try = ["sqlite"] + (["postgresql"] if os.environ.get(storekit.PG_ENV) else [])
    for backend in backends_to_try:
        monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / f"up-{backend}"))
        target, drop = (
            (f"sqlite:///{tmp_path / 'r.db'}", lambda: None) if backend == "sqlite" else storekit.fresh_postgres_database()
        )
        try:
            assert main(["restore", str(archive), "--db", target]) == 0, capsys.readouterr().err
            restored = Store(target)
            restored.check_schema()
            with restored.reader.connect() as conn:  # SQLite's index was filled by its triggers as the filings came in
                assert page_ids(conn, Scope(None, ["street-opening"]), "SOP-2026-001", 10) == [SOP]
            users = storekit.users(restored)
            users.add("new.clerk@canton.example", "correct horse battery", "agent", ["canton"])  # the next id is free
            storekit.append(restored, SOP, {"type": "dig-safe-obtained", "date": "2026-12-03", "ticket": "after"}, by="t")
            restored.engine.dispose()
        finally:
            drop()
        capsys.readouterr()


def test_a_store_that_holds_records_is_refused_in_one_line_with_nothing_written(town, tmp_path, monkeypatch, db_url, capsys):
    url, _store, _uploads = town
    archive = tmp_path / "b.tar.gz"
    assert main(["backup", "--db", url, "--out", str(archive)]) == 0
    target = make_store(db_url)
    target_uploads = tmp_path / "other-uploads"
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(target_uploads))
    before = snapshot(db_url)
    capsys.readouterr()
    assert main(["restore", str(archive), "--db", db_url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds records" in err and "name a new, empty database" in err, err
    assert snapshot(db_url) == before and not target_uploads.exists()
    target.engine.dispose()


def _rewritten(archive, tmp_path, change) -> str:
    """A copy of ``archive`` whose members ``change(name, data)`` rewrote,
    its gzip and tar whole (only the content is wrong)."""
    out = tmp_path / "changed.tar.gz"
    with tarfile.open(archive, "r:gz") as src, tarfile.open(out, "w:gz") as dst:
        for m in src:
            data = change(m.name, src.extractfile(m).read())
            if data is None:
                continue
            info = tarfile.TarInfo(m.name)
            info.size = len(data)
            dst.addfile(info, io.BytesIO(data))
    return str(out)


def _flip(data: bytes) -> bytes:
    return data[: len(data) // 2] + bytes([data[len(data) // 2] ^ 0xFF]) + data[len(data) // 2 + 1 :]


@pytest.mark.parametrize(
    "damage, said",
    [
        ("truncated", "cannot be read as a permits backup"),
        ("flipped", "cannot be read as a permits backup|in the archive is damaged: its SHA-256"),
        ("not a tar", "cannot be read as a permits backup"),
        ("row changed", r"tables/ledger_entry\.jsonl in the archive is damaged: its SHA-256 is not the manifest's"),
        ("photo changed", "in the archive is damaged: its SHA-256 is not the manifest's"),
        ("member missing", r"the archive lacks tables/upload\.jsonl, which its manifest lists \(cut short\?\)"),
        ("member added", r"the archive holds '\.\./\.\./etc/cron\.d/x', which its manifest does not list"),
        ("manifest not first", "does not begin with its manifest"),
    ],
)
def test_a_damaged_archive_is_refused_in_one_line_with_nothing_written(town, tmp_path, monkeypatch, capsys, damage, said):
    url, _store, _uploads = town
    archive = tmp_path / "b.tar.gz"
    assert main(["backup", "--db", url, "--out", str(archive)]) == 0
    raw = archive.read_bytes()
    if damage == "truncated":
        bad = tmp_path / "bad.tar.gz"
        bad.write_bytes(raw[: len(raw) // 2])
        bad = str(bad)
    elif damage == "flipped":
        bad = tmp_path / "bad.tar.gz"
        bad.write_bytes(_flip(raw))
        bad = str(bad)
    elif damage == "not a tar":
        bad = tmp_path / "bad.tar.gz"
        bad.write_bytes(gzip.compress(b"just some text\n" * 100))
        bad = str(bad)
    elif damage == "row changed":
        bad = _rewritten(archive, tmp_path, lambda n, d: d.replace(b"16-12", b"16-13") if n.endswith("ledger_entry.jsonl") else d)
    elif damage == "photo changed":
        bad = _rewritten(archive, tmp_path, lambda n, d: _flip(d) if n.endswith(".png") else d)
    elif damage == "member missing":
        bad = _rewritten(archive, tmp_path, lambda n, d: None if n == "tables/upload.jsonl" else d)
    elif damage == "member added":
        first = _rewritten(archive, tmp_path, lambda n, d: d)
        with tarfile.open(first, "r:gz") as src:
            members = [(m, src.extractfile(m).read()) for m in src]
        bad = tmp_path / "added.tar.gz"
        with tarfile.open(bad, "w:gz") as dst:
            for m, d in [*members, (tarfile.TarInfo("../../etc/cron.d/x"), b"* * * * * root true\n")]:
                m.size = len(d)
                dst.addfile(m, io.BytesIO(d))
        bad = str(bad)
    else:
        with tarfile.open(archive, "r:gz") as src:
            members = [(m, src.extractfile(m).read()) for m in src]
        bad = tmp_path / "reordered.tar.gz"
        with tarfile.open(bad, "w:gz") as dst:
            for m, d in members[1:] + members[:1]:
                dst.addfile(m, io.BytesIO(d))
        bad = str(bad)
    target_db = tmp_path / "fresh" / "town.db"
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "fresh-uploads"))
    capsys.readouterr()
    assert main(["restore", bad, "--db", f"sqlite:///{target_db}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("permits: error: ") and re.search(said, err), err
    assert not target_db.parent.exists() and not (tmp_path / "fresh-uploads").exists()  # nothing written, not even a folder


def test_a_backup_never_overwrites_a_file_and_a_missing_upload_is_said(town, tmp_path, capsys):
    url, _store, uploads = town
    archive = tmp_path / "b.tar.gz"
    archive.write_text("last week's")
    assert main(["backup", "--db", url, "--out", str(archive)]) == 2
    assert "already exists" in capsys.readouterr().err and archive.read_text() == "last week's"
    lost = sorted(uploads.glob("*.png"))[0]
    lost.unlink()
    fresh = tmp_path / "c.tar.gz"
    assert main(["backup", "--db", url, "--out", str(fresh)]) == 1
    captured = capsys.readouterr()
    assert "and 1 file to" in captured.out and f"the upload {lost.name} is missing" in captured.err
    with tarfile.open(fresh, "r:gz") as tar:
        manifest = json.loads(tar.extractfile("manifest.json").read())
    assert [f["name"] for f in manifest["files"]] == [p.name for p in uploads.glob("*")]
    assert {t["name"]: t["rows"] for t in manifest["tables"]}["upload"] == 2  # the row is kept: the file is what is lost


def test_every_table_a_migrated_store_holds_is_carried_or_made_again_from_the_rows(db_url):
    """A migration that adds a table outside the metadata must say how it is
    carried (models/schema/portable.py), or a backup would lose it."""
    store = make_store(db_url)
    names = inspect(store.engine).get_table_names()
    assert unknown_tables(names) == []
    assert {t.name for t in TABLES} <= set(names)
    store.engine.dispose()


def test_a_table_the_program_does_not_know_is_refused_rather_than_left_behind(town, tmp_path, capsys):
    url, store, _uploads = town
    with store.engine.begin() as conn:
        conn.execute(text("CREATE TABLE town_notes (id INTEGER PRIMARY KEY, note TEXT)"))
    assert main(["backup", "--db", url, "--out", str(tmp_path / "b.tar.gz")]) == 2
    err = capsys.readouterr().err
    assert "holds table 'town_notes', which this program does not know how to carry" in err, err
    assert not (tmp_path / "b.tar.gz").exists() and list(tmp_path.glob(".*")) == []
