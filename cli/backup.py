"""``permits backup`` and ``permits restore``: a town's whole record and its
uploads' files in one archive, and back into an empty store
(:mod:`services.backup`).  ``permits db copy`` is beside ``db upgrade``
(:mod:`cli.store`).

An edge: it reads the database URL, the uploads folder and the clock, and
prints what was done in people's words; a refusal is one line and exit
status 2 (``permits``' edge), with nothing written.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from cli.args import UsageError, in_town, open_store, record_parents, settings, store_url, writable_file

__all__ = ["add_commands"]


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ma-permits")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
        return "unknown"


def cmd_backup(args) -> int:
    from services.backup import take_backup

    out = Path(writable_file(args.out))
    if out.exists():
        raise UsageError(f"--out {args.out!r} already exists: name a new file (a backup never overwrites another)")
    made = take_backup(open_store(args), uploads_dir=settings().uploads_dir, out=out, now=datetime.now(UTC), version=_version())
    rows = sum(made.rows.values())
    print(
        f"permits: backed up {_count(made.rows.get('filing', 0), 'filing')} ({_count(rows, 'row')} in "
        f"{_count(len(made.rows), 'table')}) and {_count(made.files, 'file')} to {made.path}"
    )
    for name in made.problems[:10]:
        print(
            f"permits: warning: the upload {name} is missing from {settings().uploads_dir} or not the file its row names",
            file=sys.stderr,
        )
    if made.problems:
        print(f"permits: the backup lacks {_count(len(made.problems), 'uploaded file')} (see above)", file=sys.stderr)
        return 1
    return 0


def cmd_restore(args) -> int:
    from models.handle import Store
    from services.backup import restore_backup
    from workflows.written import moment_written

    store = Store(store_url(args))
    done = restore_backup(store, uploads_dir=settings().uploads_dir, archive=Path(args.file))
    rows = sum(done.rows.values())
    taken = ""
    if done.made_at:
        try:
            taken = f" (the backup taken {moment_written(in_town(datetime.fromisoformat(done.made_at)).replace(tzinfo=None))})"
        except ValueError:
            taken = ""
    print(
        f"permits: restored {_count(done.rows.get('filing', 0), 'filing')} ({_count(rows, 'row')} in "
        f"{_count(len(done.rows), 'table')}) and {_count(done.files, 'file')} into {store.describe()}{taken}"
    )
    for line in done.differences[:10]:
        print(f"permits: does not match the manifest: {line}", file=sys.stderr)
    if done.differences:
        return 1
    print("permits: every table's row count and every file's SHA-256 match the backup's manifest")
    return 0


def add_commands(sub) -> None:
    common, _writer = record_parents()
    p = sub.add_parser(
        "backup",
        parents=[common],
        help="write the whole record and the uploaded files to one archive (.tar.gz)",
        description="Write one archive of everything the town has: every table of the database, read at one instant "
        "while the workbench keeps serving, the plans and photos in the uploads folder ($PERMITS_UPLOADS_DIR) its "
        "uploads name, and a manifest (row counts, SHA-256 checksums, schema, when). Exit status 1 if an uploaded file "
        "is missing (the archive is written without it).",
    )
    p.add_argument(
        "--out", required=True, metavar="FILE", help="the archive to write (a new file, e.g. permits-2027-01-05.tar.gz)"
    )
    p.set_defaults(func=cmd_backup)

    p = sub.add_parser(
        "restore",
        parents=[common],
        help="bring a backup back into an empty database, and check it",
        description="Restore an archive written by 'permits backup' into a database that holds no records (a new SQLite "
        "file or an empty PostgreSQL database), and its files into the uploads folder ($PERMITS_UPLOADS_DIR); then count "
        "every table and hash every file against the archive's manifest. A damaged archive, or a database that already "
        "holds records, and nothing is written.",
    )
    p.add_argument("file", metavar="FILE", help="the archive (.tar.gz) written by 'permits backup'")
    p.set_defaults(func=cmd_restore)
