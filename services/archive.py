"""A backup archive: one ``.tar.gz`` holding a town's whole record and the
files its uploads name, and the manifest that says what it holds.

    manifest.json           first: what, when, which schema, every member's
                            row count or size and SHA-256
    tables/<table>.jsonl    a table's rows, one JSON array a line, in the
                            column order and kinds the manifest gives
    uploads/<stored name>   each plan or photo an upload row names

:class:`ArchiveWriter` stages the members beside the archive and writes it
under a temporary name, renamed into place only when whole.
:func:`read_archive` reads one back into a scratch folder and checks it
whole before anything is written anywhere: the manifest's form, every
member's SHA-256 and count, no member missing, none unknown.  The names
inside never become paths: a member is accepted only by its exact form
(a table's name, a stored upload's random name), and written under the
name this module makes of it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tarfile
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from workflows.errors import PermitsError

__all__ = ["ArchiveRefused", "ArchiveWriter", "read_archive", "table_rows", "FORMAT", "STORED_NAME"]

FORMAT = "permits-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
#: bounds on what an archive may hold
MANIFEST_MAX = 64 * 1024 * 1024
ROW_MAX = 256 * 1024 * 1024
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
STORED_NAME = re.compile(r"[0-9a-f]{32}\.(pdf|jpg|png)")
_SHA = re.compile(r"[0-9a-f]{64}")
_KINDS = frozenset({"str", "int", "float", "bool", "date", "datetime", "utc", "bytes", "json"})


class ArchiveRefused(PermitsError):
    """A backup archive that cannot be read, or whose contents are not
    what its manifest says."""


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class ArchiveWriter:
    """An archive written to ``out``: tables and files staged beside it,
    the whole written by :meth:`close`, or nothing if the block raises."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self._scratch = tempfile.TemporaryDirectory(prefix=".permits-backup-", dir=self.out.parent)
        self.tables: list[dict] = []
        self.files: list[dict] = []

    def __enter__(self) -> ArchiveWriter:
        return self

    def __exit__(self, *exc) -> None:
        self._scratch.cleanup()

    def table(self, name: str, kinds: list[tuple[str, str]], rows: Iterable[list]) -> int:
        """Stage table ``name``'s ``rows``; how many."""
        path = Path(self._scratch.name) / f"{name}.jsonl"
        h, count = hashlib.sha256(), 0
        with open(path, "wb") as f:
            for row in rows:
                line = json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
                h.update(line)
                f.write(line)
                count += 1
        self.tables.append({"name": name, "columns": [list(k) for k in kinds], "rows": count, "sha256": h.hexdigest()})
        return count

    def file(self, name: str, path: Path) -> str:
        """Add the upload ``path`` as ``name``; its SHA-256."""
        digest = _sha256_file(path)
        self.files.append({"name": name, "size": path.stat().st_size, "sha256": digest, "path": str(path)})
        return digest

    def close(self, **about) -> None:
        """Write the archive: the manifest (``about`` and what was staged),
        the tables, the files; fsynced, then renamed into place."""
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            **about,
            "tables": self.tables,
            "files": [{k: v for k, v in f.items() if k != "path"} for f in self.files],
        }
        data = json.dumps(manifest, indent=1, ensure_ascii=False).encode()
        part = self.out.with_name(f".{self.out.name}.part")
        try:
            with open(part, "wb") as raw:
                with tarfile.open(fileobj=raw, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
                    info = tarfile.TarInfo(MANIFEST)
                    info.size, info.mode = len(data), 0o600
                    tar.addfile(info, io.BytesIO(data))
                    for t in self.tables:
                        tar.add(Path(self._scratch.name) / f"{t['name']}.jsonl", arcname=f"tables/{t['name']}.jsonl")
                    for f in self.files:
                        tar.add(f["path"], arcname=f"uploads/{f['name']}")
                raw.flush()
                os.fsync(raw.fileno())
            os.replace(part, self.out)
        except BaseException:
            part.unlink(missing_ok=True)
            raise


# -- reading one back ------------------------------------------------------------------


def _check_manifest(m) -> dict:
    def bad(what: str):
        return ArchiveRefused(f"the archive's manifest is not a permits backup's: {what}")

    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise bad("it does not say it is one")
    if m.get("format_version") != FORMAT_VERSION:
        raise bad(f"format version {m.get('format_version')!r}, this program reads {FORMAT_VERSION}")
    if not isinstance(m.get("schema"), str) or not re.fullmatch(r"[0-9]{4}", m["schema"]):
        raise bad("no schema revision")
    tables, files = m.get("tables"), m.get("files")
    if not isinstance(tables, list) or not isinstance(files, list):
        raise bad("no list of tables or files")
    seen: set[str] = set()
    for t in tables:
        ok = isinstance(t, dict) and isinstance(t.get("name"), str) and _NAME.fullmatch(t["name"])
        ok = ok and isinstance(t.get("rows"), int) and t["rows"] >= 0 and isinstance(t.get("sha256"), str)
        ok = ok and _SHA.fullmatch(t["sha256"]) and isinstance(t.get("columns"), list) and t["columns"]
        ok = ok and all(
            isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) and _NAME.fullmatch(c[0]) and c[1] in _KINDS
            for c in t["columns"]
        )
        if not ok or t["name"] in seen:
            raise bad(f"a table entry it cannot read ({str(t)[:80]})")
        seen.add(t["name"])
    for f in files:
        ok = isinstance(f, dict) and isinstance(f.get("name"), str) and STORED_NAME.fullmatch(f["name"])
        ok = ok and isinstance(f.get("size"), int) and f["size"] >= 0 and isinstance(f.get("sha256"), str)
        if not ok or not _SHA.fullmatch(f["sha256"]) or f["name"] in seen:
            raise bad(f"a file entry it cannot read ({str(f)[:80]})")
        seen.add(f["name"])
    return m


def _copy_checked(src, dest: Path) -> tuple[str, int, int]:
    """Copy ``src`` to ``dest``: its SHA-256, size and lines."""
    h, size, lines = hashlib.sha256(), 0, 0
    with open(dest, "xb") as out:
        for block in iter(lambda: src.read(1 << 20), b""):
            h.update(block)
            size += len(block)
            lines += block.count(b"\n")
            out.write(block)
    return h.hexdigest(), size, lines


def read_archive(path: Path, scratch: Path) -> dict:
    """The manifest of the archive at ``path``, its tables and files
    written into ``scratch`` (``tables/<name>.jsonl``, ``uploads/<name>``)
    and each checked against it; ArchiveRefused, in one line, for anything
    amiss."""
    path = Path(path)
    if not path.is_file():
        raise ArchiveRefused(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    (scratch / "tables").mkdir()
    (scratch / "uploads").mkdir()
    try:
        with tarfile.open(path, mode="r:gz") as tar:
            return _read_members(tar, scratch)
    except (tarfile.TarError, EOFError, zlib.error, OSError, UnicodeDecodeError) as exc:
        reason = str(exc).strip() or type(exc).__name__
        raise ArchiveRefused(f"{path} cannot be read as a permits backup (.tar.gz): {reason}") from None


def _read_members(tar: tarfile.TarFile, scratch: Path) -> dict:
    first = tar.next()
    if first is None or first.name != MANIFEST or not first.isfile():
        raise ArchiveRefused("the archive does not begin with its manifest (manifest.json): not a permits backup")
    if first.size > MANIFEST_MAX:
        raise ArchiveRefused(f"the archive's manifest is larger than {MANIFEST_MAX // (1024 * 1024)} MB")
    try:
        manifest = _check_manifest(json.loads(tar.extractfile(first).read()))
    except ValueError:
        raise ArchiveRefused("the archive's manifest is not JSON") from None
    expected = {f"tables/{t['name']}.jsonl": t for t in manifest["tables"]}
    expected |= {f"uploads/{f['name']}": f for f in manifest["files"]}
    for member in tar:
        if member is first:
            continue
        entry = expected.pop(member.name, None)
        if entry is None or not member.isfile():
            raise ArchiveRefused(f"the archive holds {member.name[:120]!r}, which its manifest does not list")
        folder, _, name = member.name.partition("/")
        digest, size, lines = _copy_checked(tar.extractfile(member), scratch / folder / name)
        if digest != entry["sha256"]:
            raise ArchiveRefused(f"{member.name} in the archive is damaged: its SHA-256 is not the manifest's")
        if folder == "tables" and lines != entry["rows"]:
            raise ArchiveRefused(f"{member.name} holds {lines} rows, the manifest says {entry['rows']}")
        if folder == "uploads" and size != entry["size"]:
            raise ArchiveRefused(f"{member.name} is {size} bytes, the manifest says {entry['size']}")
    if expected:
        raise ArchiveRefused(f"the archive lacks {sorted(expected)[0]}, which its manifest lists (cut short?)")
    return manifest


def table_rows(path: Path) -> Iterator[list]:
    """The rows of a table's file read by :func:`read_archive`."""
    with open(path, "rb") as f:
        while line := f.readline(ROW_MAX + 1):
            if len(line) > ROW_MAX or not line.endswith(b"\n"):
                raise ArchiveRefused(f"{path.name}: a row longer than {ROW_MAX // (1024 * 1024)} MB")
            try:
                row = json.loads(line)
            except ValueError:
                raise ArchiveRefused(f"{path.name}: a row that is not JSON") from None
            if not isinstance(row, list):
                raise ArchiveRefused(f"{path.name}: a row that is not a list of values")
            yield row
