"""Plans uploaded with an online application: checked, stored under a
generated name in a folder outside any web root, a row per upload.

- The folder is the caller's (``PERMITS_UPLOADS_DIR``, else ``uploads/`` in
  the data directory: :mod:`config.settings`); never a folder the web
  server serves.
- What the user typed never becomes a path: the stored name is random
  (``<32 hex>.pdf``); the user's file name is kept only to show, cleaned
  of bidi, format and control characters (:func:`display_name`), and
  refused when it names a folder (``../plan.pdf``, ``a/b.pdf``) or holds
  C0 control characters.
- A plan is a PDF: the content must begin with ``%PDF-`` (the type the
  browser claims is not trusted), and be at most the caller's limit
  (``PERMITS_UPLOAD_MAX_MB``) and not empty.  An inspection's photo
  (:meth:`Uploads.check_photo`) is a JPEG or a PNG by the same rules: its
  first bytes are the format's signature, its size within the limit; it is
  stored as ``<32 hex>.jpg`` or ``.png``, with purpose ``photo``.
- A refused upload stores nothing: every check runs before the first byte is
  written; the file is written to a temporary name and renamed into place,
  then the row is inserted (in the caller's transaction: an online
  application's filing, plans and link commit together), and the file
  removed if the transaction fails.  A process killed in between leaves a
  file no row names: :meth:`Uploads.tidy` removes those.
- A file is read back only by its unguessable ``token`` through
  :meth:`Uploads.read`, which the caller gives the filings the viewer may
  see (:func:`models.accounts.applicants.Applicants.filings_visible_to`, or staff's
  rule): anything else is :class:`UnknownUpload` (a 404, never a 403).
"""

import hashlib
import os
import re
import secrets
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from sqlalchemy import insert, select

from models.errors import UnknownUpload, UploadRefused
from models.handle import Store
from models.schema.tables import Upload

__all__ = ["UploadRefused", "UnknownUpload", "Staged", "StoredUpload", "Uploads", "check_name", "display_name", "PHOTO_TYPES"]

UPLOAD = Upload.__table__
PDF_MAGIC = b"%PDF-"
_NAME_MAX = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: a photo's first bytes -> its stored extension and media type
PHOTO_TYPES = {b"\xff\xd8\xff": ("jpg", "image/jpeg"), b"\x89PNG\r\n\x1a\n": ("png", "image/png")}
#: a stored file's name: random, never the user's
_STORED = re.compile(r"[0-9a-f]{32}\.(pdf|jpg|png)")


#: what is removed from a name before it is shown: the bidi embeddings,
#: overrides and isolates (U+202A-U+202E, U+2066-U+2069), the direction
#: marks, zero-width and other format characters (category Cf), C1
#: controls and line or paragraph separators, by which a name could show
#: as another ("plan\u202efdp.exe" as "planexe.pdf")
_HIDDEN = frozenset(("Cf", "Cc", "Zl", "Zp", "Cs", "Co", "Cn"))


def display_name(name: str) -> str:
    """``name`` as it may be shown: without the characters of
    :data:`_HIDDEN`, its runs of spaces made one."""
    kept = "".join(c for c in name if unicodedata.category(c) not in _HIDDEN)
    return " ".join(kept.split())


def check_name(name: str) -> str:
    """The user's file name, to show (:func:`display_name`: without bidi,
    format or control characters); refused if it names a folder, or holds
    a C0 control character (no browser sends one: a forged request)."""
    if not isinstance(name, str) or not name.strip():
        raise UploadRefused("the file has no name; choose the plan's PDF file")
    if "/" in name or "\\" in name or name.strip() in (".", "..") or ".." in Path(name.replace("\\", "/")).parts:
        raise UploadRefused(f"the file name {name[:80]!r} names a folder ('../' or '/'); upload the file under its own name")
    if _CONTROL.search(name):
        raise UploadRefused("the file name holds control characters; rename the file and upload it again")
    shown = display_name(name)
    if not shown or shown in (".", ".."):
        raise UploadRefused("the file has no name one can read; rename the file and upload it again")
    if len(shown) > _NAME_MAX:
        raise UploadRefused(f"the file name is longer than {_NAME_MAX} characters; rename the file")
    return shown


@dataclass(frozen=True)
class Staged:
    """A checked plan written under its random name, its row not yet
    recorded (:meth:`Uploads.staged`)."""

    token: str
    name: str
    stored_name: str
    size: int
    sha256: str
    purpose: str = "plan"
    media_type: str = "application/pdf"


@dataclass(frozen=True)
class StoredUpload:
    token: str
    filing_id: str | None
    original_name: str
    size: int
    sha256: str
    media_type: str = "application/pdf"


class Uploads:
    """The plans kept in ``folder``, each at most ``limit`` bytes."""

    def __init__(self, store: Store, folder: Path, limit: int):
        self.store = store
        self.folder = Path(folder)
        self.limit = limit

    def check(self, original_name: str, data: bytes) -> str:
        """The name to show, if the file may be stored; else UploadRefused."""
        name = check_name(original_name)
        if len(data) > self.limit:
            raise UploadRefused(
                f"{name}: the file is larger than the limit of {self.limit // (1024 * 1024)} MB; "
                f"send a smaller PDF (fewer pages, or scanned at a lower resolution)"
            )
        if not data:
            raise UploadRefused(f"{name}: the file is empty")
        if not data.startswith(PDF_MAGIC):
            raise UploadRefused(f"{name}: the file is not a PDF (it does not begin with %PDF-); plans are uploaded as PDF")
        return name

    def check_photo(self, original_name: str, data: bytes) -> tuple[str, str, str]:
        """(the name to show, the stored extension, the media type) of an
        inspection's photo, if it may be stored: a JPEG or a PNG by its first
        bytes, within the limit, not empty; else UploadRefused."""
        name = check_name(original_name)
        if len(data) > self.limit:
            raise UploadRefused(
                f"{name}: the photo is larger than the limit of {self.limit // (1024 * 1024)} MB; take it at a lower resolution"
            )
        if not data:
            raise UploadRefused(f"{name}: the file is empty")
        for magic, (ext, media_type) in PHOTO_TYPES.items():
            if data.startswith(magic):
                return name, ext, media_type
        raise UploadRefused(f"{name}: the file is not a JPEG or PNG photo (its content says otherwise)")

    @contextmanager
    def staged(self, original_name: str, data: bytes, *, photo: bool = False) -> Iterator[Staged]:
        """Check ``data`` and write it under a random name (fsynced), for
        :meth:`record` to name in the unit of work opened inside this block;
        if the block raises (the unit of work did not commit), the file is
        removed.  The file is written first and the row committed after,
        so a crash between leaves an unnamed file (:meth:`tidy` removes it),
        never a row naming a missing file.  UploadRefused, nothing written, for a file that
        may not be stored.  ``photo``: an inspection's photo
        (:meth:`check_photo`), not a plan."""
        if photo:
            name, ext, media_type = self.check_photo(original_name, data)
        else:
            name, ext, media_type = self.check(original_name, data), "pdf", "application/pdf"
        stored = f"{secrets.token_hex(16)}.{ext}"
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        final = self.folder / stored
        temp = self.folder / f".{stored}.part"
        try:
            with open(temp, "xb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, final)
            digest = hashlib.sha256(data).hexdigest()
            purpose = "photo" if photo else "plan"
            yield Staged(secrets.token_urlsafe(24), name, stored, len(data), digest, purpose, media_type)
        except BaseException:
            temp.unlink(missing_ok=True)
            final.unlink(missing_ok=True)
            raise

    def record(self, conn, staged: Staged, *, by: str, filing_id: str | None = None, account_id: int | None = None):
        """The row naming a :meth:`staged` file, on the unit of work's ``conn``."""
        conn.execute(
            insert(UPLOAD).values(
                token=staged.token,
                filing_id=filing_id,
                account_id=account_id,
                purpose=staged.purpose,
                original_name=staged.name,
                stored_name=staged.stored_name,
                size=staged.size,
                sha256=staged.sha256,
                media_type=staged.media_type,
                uploaded_at=self.store.now(),
                uploaded_by=by,
            )
        )
        return StoredUpload(staged.token, filing_id, staged.name, staged.size, staged.sha256, staged.media_type)

    def tidy(self, older_than: timedelta = timedelta(hours=1)) -> list[str]:
        """Remove the files of the folder that no upload row names and that
        are older than ``older_than``: what a process killed between writing
        a plan and committing its row left (a younger one may be an upload
        in flight).  Returns the names removed."""
        if not self.folder.is_dir():
            return []
        with self.store.reader.connect() as conn:
            named = set(conn.execute(select(UPLOAD.c.stored_name)).scalars())
        cutoff = time.time() - older_than.total_seconds()
        removed = []
        for path in self.folder.iterdir():
            partial = path.name.startswith(".") and path.name.endswith(".part")
            stored = path.name[1:-5] if partial else path.name
            if not _STORED.fullmatch(stored) or (stored in named and not partial):
                continue  # not ours, or a plan its row names
            try:
                if path.stat().st_mtime <= cutoff:
                    path.unlink()
                    removed.append(path.name)
            except FileNotFoundError:
                pass
        return removed

    def of_filing(self, filing_id: str, purpose: str | None = "plan") -> list[StoredUpload]:
        """The filing's uploads of ``purpose`` (``plan``, ``photo``; None: all)."""
        query = select(UPLOAD).where(UPLOAD.c.filing_id == filing_id).order_by(UPLOAD.c.id)
        if purpose is not None:
            query = query.where(UPLOAD.c.purpose == purpose)
        with self.store.reader.connect() as conn:
            return [
                StoredUpload(r.token, r.filing_id, r.original_name, r.size, r.sha256, r.media_type) for r in conn.execute(query)
            ]

    def _row(self, token: object):
        if not isinstance(token, str) or not re.fullmatch(r"[A-Za-z0-9_-]{16,64}", token):
            raise UnknownUpload()
        with self.store.reader.connect() as conn:
            r = conn.execute(select(UPLOAD).where(UPLOAD.c.token == token)).first()
        if r is None or r.filing_id is None:
            raise UnknownUpload()
        return r

    def find(self, token: object) -> StoredUpload:
        """The upload ``token`` of a filing; UnknownUpload for a token that
        does not exist (the caller then checks who may see its filing)."""
        r = self._row(token)
        return StoredUpload(r.token, r.filing_id, r.original_name, r.size, r.sha256, r.media_type)

    def content(self, token: object) -> bytes:
        """The bytes of the upload ``token``; UnknownUpload when its file is
        not there."""
        r = self._row(token)
        path = self.folder / r.stored_name
        if not _STORED.fullmatch(r.stored_name) or not path.is_file():
            raise UnknownUpload()
        return path.read_bytes()

    def read(self, token: object, *, filing_id: str) -> tuple[StoredUpload, bytes]:
        """The upload ``token`` and its bytes if it belongs to ``filing_id``;
        else UnknownUpload, as for a token that does not exist."""
        found = self.find(token)
        if found.filing_id != filing_id:
            raise UnknownUpload()
        return found, self.content(token)
