"""Back a town up and bring it back: ``permits backup`` and ``permits restore``.

A backup is the whole record read at one instant while the workbench keeps
serving (:func:`models.read.snapshot.snapshot`: no lock a writer waits
for), every table row by row, and the plans and photos its upload rows
name, in one archive with its manifest (:mod:`services.archive`).  Table by
table rather than SQLite's backup API or pg_dump: one format for both
kinds of store, so a SQLite town's backup restores into PostgreSQL and back,
and what the archive holds can be counted and checked against its manifest.

A restore checks the archive whole first (every checksum and count; a bad
archive and nothing is written), then refuses a store that already holds
records, places the files, and writes every row in one unit of work (the
store at the archive's schema, then brought up to this program's): any
failure and the store is as it was and the files placed are removed.  It
then counts the rows and hashes the files again and says whether they are
what the manifest says.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from models.errors import StoreError
from models.handle import Store
from models.read.snapshot import row_counts, snapshot
from models.schema.migrate import HEAD
from models.store.transfer import finish, load_table

from .archive import STORED_NAME, ArchiveRefused, ArchiveWriter, read_archive, table_rows
from .store_copy import empty_target, known_revision, open_target
from .unit_of_work import UnitOfWork

__all__ = ["BackupMade", "Restored", "take_backup", "restore_backup"]


@dataclass(frozen=True)
class BackupMade:
    path: Path
    revision: str
    rows: dict[str, int]
    files: int
    #: the stored names of the uploads whose file is missing or not what its row says
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Restored:
    revision: str
    made_at: str
    rows: dict[str, int]
    files: int
    #: what does not match the manifest after the restore (empty: all match)
    differences: list[str] = field(default_factory=list)


def take_backup(store: Store, *, uploads_dir: Path, out: Path, now: datetime, version: str) -> BackupMade:
    """Write the archive of ``store`` and the files of ``uploads_dir`` its
    uploads name to ``out`` (a new file), stamped ``now``."""
    store.check_schema()
    out = Path(out)
    problems: list[str] = []
    with ArchiveWriter(out) as writer:
        with snapshot(store) as snap:
            rows = {name: writer.table(name, kinds, snap.rows(name)) for name, kinds in snap.tables()}
            uploads = snap.uploads()
            revision = snap.revision
        for stored, _size, sha in uploads:  # the snapshot closed: files are never changed once named
            path = Path(uploads_dir) / stored
            if not STORED_NAME.fullmatch(stored) or not path.is_file():
                problems.append(stored)
                continue
            if writer.file(stored, path) != sha:
                problems.append(stored)
        writer.close(schema=revision, made_at=now.isoformat(), version=version, source=store.engine.dialect.name)
        return BackupMade(out, revision, rows, len(writer.files), problems)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _place_files(manifest: dict, scratch: Path, uploads_dir: Path) -> list[Path]:
    """Move the archive's files into ``uploads_dir``; those placed (a file
    already there with the same content is kept, one with another refused
    before any is moved)."""
    for f in manifest["files"]:
        there = uploads_dir / f["name"]
        if there.exists() and (not there.is_file() or _sha256(there) != f["sha256"]):
            raise StoreError(
                f"the uploads folder {uploads_dir} already holds another file named {f['name']}: "
                "restore into a new uploads folder (PERMITS_UPLOADS_DIR)"
            )
    placed: list[Path] = []
    if manifest["files"]:
        uploads_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        for f in manifest["files"]:
            there = uploads_dir / f["name"]
            if there.exists():
                continue
            shutil.move(scratch / "uploads" / f["name"], there)
            placed.append(there)
    except BaseException:
        for p in placed:
            p.unlink(missing_ok=True)
        raise
    return placed


def restore_backup(store: Store, *, uploads_dir: Path, archive: Path) -> Restored:
    """Bring the archive at ``archive`` back into ``store``, which must hold
    no records, and its files into ``uploads_dir``; what was restored and
    whether it matches the manifest."""
    uploads_dir = Path(uploads_dir)
    with tempfile.TemporaryDirectory(prefix="permits-restore-") as tmp:
        scratch = Path(tmp)
        manifest = read_archive(archive, scratch)  # checked whole before anything is written
        revision = manifest["schema"]
        known_revision(revision, "the archive")
        at = empty_target(store, revision)
        placed = _place_files(manifest, scratch, uploads_dir)
        try:
            with UnitOfWork(store) as uow:
                open_target(uow.conn, at, revision)
                for t in manifest["tables"]:
                    try:
                        rows = table_rows(scratch / "tables" / f"{t['name']}.jsonl")
                        load_table(uow.conn, t["name"], [tuple(c) for c in t["columns"]], rows)
                    except (ValueError, TypeError) as exc:
                        raise ArchiveRefused(f"table {t['name']} of the archive holds a value its column cannot: {exc}") from None
                    except DBAPIError as exc:
                        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else type(exc).__name__
                        raise ArchiveRefused(f"table {t['name']} of the archive cannot be written: {reason}") from None
                loaded = row_counts(uow.conn, {t["name"] for t in manifest["tables"]})
                short = [t["name"] for t in manifest["tables"] if loaded.get(t["name"]) != t["rows"]]
                if short:
                    raise ArchiveRefused(f"table {short[0]} did not take the archive's {loaded.get(short[0])} rows")
                finish(uow.conn)
                if revision != HEAD:
                    from models.schema.migrate import upgrade

                    upgrade(uow.conn)
        except BaseException:
            for p in placed:
                p.unlink(missing_ok=True)
            raise
    return _verified(store, manifest, uploads_dir)


def _verified(store: Store, manifest: dict, uploads_dir: Path) -> Restored:
    """What the store and the uploads folder hold now, against the manifest."""
    differences = []
    if manifest["schema"] == HEAD:  # an older archive's tables were upgraded since: counted in the transaction
        with store.reader.connect() as conn:
            counts = row_counts(conn, {t["name"] for t in manifest["tables"]})
        differences += [
            f"table {t['name']}: {counts.get(t['name'])} rows, the manifest says {t['rows']}"
            for t in manifest["tables"]
            if counts.get(t["name"]) != t["rows"]
        ]
    for f in manifest["files"]:
        path = uploads_dir / f["name"]
        if not path.is_file() or _sha256(path) != f["sha256"]:
            differences.append(f"file {f['name']}: not the one the manifest names")
    return Restored(
        manifest["schema"],
        str(manifest.get("made_at") or ""),
        {t["name"]: t["rows"] for t in manifest["tables"]},
        len(manifest["files"]),
        differences,
    )
