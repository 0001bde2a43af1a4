"""The record's writing sub-commands of ``permits``: init, db upgrade, import,
export, record, void (the reading ones, show, list, docket and deposits,
are :mod:`cli.reading`).

An edge: it reads the database URL (``--db`` or ``PERMITS_DATABASE_URL``),
today's date and the user's name, and calls the service layer
(:mod:`services.record` for record and void) or :mod:`models.store.filings`
(``show`` and ``docket`` on a SQLite file: :mod:`models.read.sqlite_reader`, the
same queries without SQLAlchemy).  Errors are PermitsError subclasses that
``permits`` turns into one line on standard error and exit status 2, with
nothing written.
"""

from __future__ import annotations

import json
import sys

from cli.args import (
    ProgressBar,
    UsageError,
    check_id,
    now,
    parse_day,
    parse_moment,
    read_json_file,
    record_parents,
    settings,
    today,
    writable_file,
)
from cli.args import as_of as _as_of
from cli.args import open_store as _store
from cli.args import user as _user

__all__ = ["add_store_commands"]


def _dump(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, default=str)


# -- schema ---------------------------------------------------------------------


def cmd_init(args) -> int:
    from services.database import upgrade_store

    store = _store(args, check=False)
    rev = upgrade_store(store)
    print(f"permits: database {store.describe()} is at schema {rev}")
    return 0


def _count(n: int, one: str) -> str:
    return f"{n:,} {one if n == 1 else one + 's'}"


def cmd_db(args) -> int:
    if args.action == "upgrade":
        if args.to:
            raise UsageError("--to goes with 'permits db copy', not 'db upgrade'")
        return cmd_init(args)
    from models.handle import Store
    from services.store_copy import copy_store

    if not args.to:
        raise UsageError("permits db copy: name the database to copy into with --to URL")
    source, target = _store(args, check=False), Store(args.to)
    copied = copy_store(source, target)
    rows = sum(copied.rows.values())
    print(
        f"permits: copied {_count(copied.rows.get('filing', 0), 'filing')} ({_count(rows, 'row')} in "
        f"{_count(len(copied.rows), 'table')}) from {source.describe()} to {target.describe()}"
    )
    for line in copied.differences[:10]:
        print(f"permits: the copy differs: {line}", file=sys.stderr)
    if copied.differences:
        return 1
    print("permits: every table of the new database holds the rows read from the old one")
    return 0


# -- import / export ------------------------------------------------------------


def _read_filings(path: str) -> list:
    obj = read_json_file(path)
    return obj if isinstance(obj, list) else [obj]


def cmd_import(args) -> int:
    from services.imports import import_filings
    from workflows.errors import PermitsError

    store = _store(args)
    read = [(path, n, obj) for path in args.files for n, obj in enumerate(_read_filings(path), 1)]
    # 1,000 filings or more, as the sweep's: then what follows the checks
    bar = ProgressBar("import", len(read), then="writing them to the store in one transaction")
    at: list = [None]  # the file and place of the filing being checked, while they are checked one by one

    def objects():
        for where in read:
            at[0] = where
            yield where[2]
        at[0] = None

    try:
        ids = import_filings(
            store, objects(), by=_user(args), progress=bar.update, act_default=not args.as_written, today=today()
        )
    except PermitsError as exc:
        if at[0] is None:
            raise
        path, n, _ = at[0]
        raise UsageError(f"{path}, filing {n}: {exc}") from None
    print(f"permits: imported {len(ids)} filing(s)" + (f": {', '.join(ids)}" if len(ids) <= 10 else ""))
    return 0


def cmd_export(args) -> int:
    check_id(args.id)
    if args.out:
        writable_file(args.out)
    text = _dump(_store(args).export(args.id)) + "\n"
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write {args.out!r}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


# -- record / void ----------------------------------------------------------------


def _field_value(etype: str, name: str, text: str):
    """A FIELD=VALUE argument as JSON: a field declared a string stays one;
    otherwise true/false is a boolean and a whole number an integer."""
    from workflows.filing import EVENT_FIELDS

    declared = {table[etype][name] for table in EVENT_FIELDS.values() if name in table.get(etype, {})}
    if declared & {"str", "date", "moment", "clock"} or any(isinstance(d, tuple) for d in declared):
        return text
    if text in ("true", "false"):
        return text == "true"
    if text.isascii() and text.isdigit() and len(text) <= 18:  # not "²", not 5,000 digits
        return int(text)
    return text


def _is_lines(etype: str, name: str) -> bool:
    """Whether ``name`` is a list field of ``etype`` (a permit's ``conditions``)."""
    from workflows.event_fields import EVENT_FIELDS, optional_fields

    return any(optional_fields(kind, etype).get(name) == "lines" for kind in EVENT_FIELDS)


def cmd_record(args) -> int:
    check_id(args.id)
    parse_moment(args.date, "--date")  # a clear error for an impossible date; the core parses it again
    raw = {"type": args.type, ("at" if "T" in args.date else "date"): args.date}
    for item in args.fields:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"field {item!r}: write FIELD=VALUE, e.g. hearing=2027-01-05")
        if name in ("type", "date", "at"):
            raise UsageError(f"field {name!r} is given by the command itself (TYPE, --date)")
        if _is_lines(args.type, name):  # conditions=... once per condition, in order
            raw.setdefault(name, []).append(value)
            continue
        raw[name] = _field_value(args.type, name, value)
    if args.photos:
        return _inspection_with_photos(args, raw)
    from services.record import record_event

    recorded = record_event(
        _store(args),
        args.id,
        raw,
        by=_user(args),
        today=_as_of(args),
        now=now(),
        mail_from=settings().mail_from,
        unnoticed=args.not_noticed,
    )
    print(f"permits: {args.id}: recorded event {recorded.seq} ({args.type}); state {recorded.state}")
    return 0


#: the fields of an inspection recorded with photos (the DPW schedule's form)
_INSPECTION_FIELDS = {"type", "date", "at", "stage", "result", "notes", "defect", "reinspect"}


def _read_photo(path: str, limit: int) -> tuple[str, bytes]:
    """The photo's file name and at most ``limit`` + 1 of its bytes (the
    service refuses what is larger)."""
    from pathlib import Path

    try:
        with open(path, "rb") as f:
            return Path(path).name, f.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"--photo {path}: cannot read it ({exc.strerror})") from None


def _inspection_with_photos(args, raw: dict) -> int:
    """``record ID inspected ... --photo FILE``: the inspection recorded by
    :func:`services.inspections.record_inspection`, as the DPW schedule's
    form records it (its stages, limits and refusals)."""
    from datetime import datetime

    from services.bootstrap import backends
    from services.inspections import record_inspection

    if args.type != "inspected":
        raise UsageError(f"--photo: only an inspection (inspected) takes photos, not {args.type}")
    other = sorted(set(raw) - _INSPECTION_FIELDS)
    if other:
        raise UsageError(f"field {other[0]!r}: an inspection with photos takes stage, result, notes, defect and reinspect")
    when = parse_moment(args.date, "--date")
    day, at = (when.date(), when.time()) if isinstance(when, datetime) else (when, None)
    reinspect = parse_day(str(raw["reinspect"]), "reinspect") if "reinspect" in raw else None
    cfg = settings()
    photos = [_read_photo(p, cfg.upload_max_bytes) for p in args.photos]
    store = _store(args)
    recorded = record_inspection(
        store,
        backends(store, uploads_dir=cfg.uploads_dir, upload_max_bytes=cfg.upload_max_bytes).uploads,
        args.id,
        day=day,
        stage=str(raw.get("stage") or ""),
        result=str(raw.get("result") or ""),
        at=at,
        notes=str(raw.get("notes") or ""),
        defect=str(raw.get("defect") or ""),
        reinspect=reinspect,
        photos=photos,
        by=_user(args),
        today=_as_of(args),
        now=now(),
        mail_from=cfg.mail_from,
    )
    print(f"permits: {args.id}: recorded event {recorded.seq} (inspected, {len(photos)} photo(s)); state {recorded.state}")
    return 0


def cmd_void(args) -> int:
    from services.record import void_event

    check_id(args.id)
    if not args.reason.strip():
        raise UsageError("--reason: say why the event is void")
    today = _as_of(args)  # the edge reads today
    day = parse_day(args.date, "--date") if args.date else today
    recorded = void_event(_store(args), args.id, args.seq, reason=args.reason, day=day, by=_user(args), today=today)
    print(f"permits: {args.id}: event {args.seq} voided by event {recorded.seq}; state {recorded.state}")
    return 0


# -- reading ----------------------------------------------------------------------


def _intermixed(parser_class):
    """A parser that takes FIELD=VALUE arguments after options too
    (``record ID TYPE --date D to=...``), which plain argparse refuses."""

    class Intermixed(parser_class):
        _inside = False

        def parse_known_args(self, args=None, namespace=None):
            if self._inside:
                return super().parse_known_args(args, namespace)
            self._inside = True
            try:
                return self.parse_known_intermixed_args(args, namespace)
            finally:
                self._inside = False

    return Intermixed


def add_store_commands(sub, parser_class) -> None:
    """Register the record's sub-commands on ``permits``' sub-parsers."""
    common, writer = record_parents()

    def add(name, func, help, description, parents=(common,), parser_class=None):
        saved = sub._parser_class  # add_parser takes no parser class of its own
        sub._parser_class = parser_class or saved
        try:
            p = sub.add_parser(name, help=help, description=description, parents=list(parents))
        finally:
            sub._parser_class = saved
        p.set_defaults(func=func)
        return p

    add(
        "init",
        cmd_init,
        "create the database at the current schema (or bring it up to date)",
        "Create the permits database at the current schema version; an existing one is upgraded.",
    )
    p = add(
        "db",
        cmd_db,
        "database maintenance: permits db upgrade, permits db copy --to URL",
        "Database maintenance. 'upgrade' applies the schema migrations (Alembic) the database lacks. 'copy --to URL' "
        "copies every table of the database (read at one instant, while the workbench keeps serving) into another that "
        "holds no records, SQLite to PostgreSQL or back, and counts each table of the new one; the uploads folder "
        "stays where it is.",
    )
    p.add_argument("action", choices=("upgrade", "copy"), help="upgrade: apply pending schema migrations; copy: see --to")
    p.add_argument("--to", metavar="URL", help="copy: the database to copy into (new, or holding no records)")

    p = add(
        "import",
        cmd_import,
        "import filing JSON files (all or nothing)",
        "Import filings (docs/reference/filing-format.md): each file holds one filing or a list of them. Every filing is "
        "checked and replayed first; one bad filing or a duplicate id and nothing is imported. A town's Notice of Intent "
        "or Request for Determination that names no 'also' is heard under the Wetlands Protection Act too "
        '("also": ["wpa"]); one heard under the by-law alone gives "bylaw_only": {"reason": ...}.',
        (common, writer),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="filing JSON file(s)")
    p.add_argument(
        "--as-written",
        action="store_true",
        help="take each filing's 'also' as written, adding no Act (restoring an export of a filing heard under the by-law alone)",
    )

    p = add(
        "export",
        cmd_export,
        "a filing's JSON, re-importable",
        "Write a filing's JSON (docs/reference/filing-format.md) with every event, voided ones and voids included.",
    )
    p.add_argument("id", help="filing id")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")

    p = add(
        "record",
        cmd_record,
        "append an event to a filing's history",
        "Append one event; it is checked against the filing's state and sequence in the same transaction that writes it.",
        (common, writer),
        parser_class=_intermixed(parser_class),
    )
    p.add_argument("id", help="filing id")
    p.add_argument("type", help="event type, e.g. hearing-opened (docs/reference/filing-format.md)")
    p.add_argument("--date", required=True, help="event date YYYY-MM-DD (YYYY-MM-DDTHH:MM for events given by 'at')")
    p.add_argument("--as-of", help="the day it is recorded on, YYYY-MM-DD (default: today): a later event is refused")
    p.add_argument(
        "--not-noticed",
        action="store_true",
        help="hearing-opened: record it though no session of the hearing was noticed for that day",
    )
    p.add_argument(
        "fields",
        nargs="*",
        metavar="FIELD=VALUE",
        help="the event's other fields, e.g. hearing=2027-01-05; a permit's conditions as conditions=TEXT, once per condition",
    )
    p.add_argument(
        "--photo",
        dest="photos",
        action="append",
        default=[],
        metavar="FILE",
        help="inspected: a photo of the inspection, JPEG or PNG by its content (up to 3, each --photo FILE), "
        "stored as the DPW schedule's form stores it",
    )

    p = add(
        "void",
        cmd_void,
        "void a mistaken event (both stay in the history)",
        "Record an event-voided naming event SEQ; the voided event is skipped by the replay but kept.",
        (common, writer),
    )
    p.add_argument("id", help="filing id")
    p.add_argument("seq", type=int, help="sequence number of the event to void (see 'permits show')")
    p.add_argument("--reason", required=True, help="why the event is void")
    p.add_argument("--date", help="date of the voiding, YYYY-MM-DD (default: today)")
    p.add_argument("--as-of", help="the day it is recorded on, YYYY-MM-DD (default: today): a later voiding is refused")
