"""``permits notices``: produce a notice of a filing, or list the notices.

Registered by :func:`cli.main.build_parser`.  Light at import: Jinja
and WeasyPrint load only when a notice is produced, so ``permits replay``
never pays for them.

A filing is named by ``ref``: a filing JSON file (docs/reference/filing-format.md, a
name ending in ``.json``), or an id in the store at ``--db``, whose notices
are recorded on the filing there.  A JSON file's log is ``FILE.notices.json``
beside it; ``--log FILE`` chooses a JSON log for either.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from cli.args import (
    UsageError,
    check_id,
    now,
    open_store,
    parse_day,
    parse_moment,
    read_filing_file,
    today,
    writable_folder,
)

__all__ = ["add_parser", "cmd_notices", "load_filing", "list_text"]


def _is_id(ref: str) -> bool:
    return not ref.endswith(".json")


def load_filing(ref: str, args=None):
    """The filing ``ref`` names and the store it is in: a filing JSON file
    (no store), or an id in the store."""
    if _is_id(ref):
        store = open_store(args)
        filing, _ = store.load(check_id(ref))
        return filing, store
    return read_filing_file(ref), None


def _log_for(ref: str, args, store):
    """The notice log: on the filing in the store for an id, else (or with
    ``--log FILE``) a JSON file."""
    if store is not None and not args.log:
        from services.notice_log import StoreNoticeLog

        return StoreNoticeLog(store)
    from notices.log import JsonNoticeLog

    path = Path(args.log) if args.log else Path(ref).with_suffix(".notices.json")
    return JsonNoticeLog(path)


def list_text() -> str:
    """Every notice kind, the permit kinds and towns it serves, and the
    filing states it may be produced in."""
    from notices.kinds import NOTICE_KINDS
    from workflows.towns import registry

    lines = []
    for k in NOTICE_KINDS.values():
        lines.append(f"{k.id:<22} {k.title}")
        lines.append(f"{'':<22} {k.summary}")
        for pk in k.permit_kinds:
            towns = [t for t, prof in registry().items() if k.applies(prof, pk)]
            if towns:
                lines.append(f"{'':<22}   {pk}: {', '.join(towns)}")
        lines.append(
            f"{'':<22}   states: {', '.join(sorted(k.states))}"
            + (f"; needs on record: {', '.join(' or '.join(g) for g in k.needs_events)}" if k.needs_events else "")
            + ("; needs an abutter list" if k.recipients == "abutters" or k.id == "affidavit-of-service" else "")
        )
    return "\n".join(lines) + "\n"


def cmd_notices(args) -> int:
    if args.list:
        sys.stdout.write(list_text())
        return 0
    if not args.ref or not (args.kind or args.history):
        raise UsageError("give a filing and --kind KIND, or --list (see 'permits notices --help')")
    if not args.history:
        writable_folder(args.out)
    filing, store = load_filing(args.ref, args)
    log = _log_for(args.ref, args, store)
    if args.history:
        for e in log.entries(filing.id):
            print(f"{e.at}  {e.kind:<22} {e.recipient.split('|')[0] if '|' in e.recipient else e.recipient}")
        return 0
    from services.abutters import abutters_for_notice
    from services.notices import already_sent_note, produce_notice

    as_of = parse_day(args.as_of, "--as-of date") if args.as_of else today()  # the edge reads the town's today
    if args.at:
        dated = parse_moment(args.at, "--at time")
        if not isinstance(dated, datetime):
            raise UsageError(f"--at {args.at!r}: give a date and a time, YYYY-MM-DDTHH:MM")
    else:
        dated = now()
    abutters = abutters_for_notice(store, filing.id, args.abutters)  # --abutters, else the list kept on the filing
    produced = produce_notice(
        filing,
        args.kind,
        log,
        as_of=as_of,
        now=dated,
        fmt=args.format,
        abutters=abutters,
        templates=args.templates,
        again=args.again,
        out=args.out,
    )
    for path in produced.files:
        print(path)
    note = already_sent_note(produced)
    if note:
        print(f"permits: {note}; --again sends it a second time", file=sys.stderr)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser(
        "notices",
        help="produce a filing's notices (abutters, postings, decisions, DPW letters)",
        description="Produce a notice of a filing from its record and its clocks, as PDF, HTML or text, "
        "and record it in the filing's notice log; or list the notice kinds.",
    )
    p.add_argument(
        "ref", nargs="?", help="the filing: its id in the store (--db), or a filing JSON file (docs/reference/filing-format.md)"
    )
    p.add_argument("--kind", help="notice kind, e.g. abutter-notice (see --list)")
    p.add_argument("--list", action="store_true", help="list every notice kind, its permit kinds, towns and states")
    p.add_argument(
        "--abutters",
        metavar="FILE",
        help="the assessors' abutter list, CSV (parcel, owner, mailing address); default: the list kept on the filing",
    )
    p.add_argument(
        "--format",
        choices=("pdf", "html", "txt"),
        default="pdf",
        help="pdf (default; abutter notices merged for printing, with labels), html, or txt",
    )
    p.add_argument("--out", metavar="DIR", default="out/notices", help="folder to write to (default: out/notices)")
    p.add_argument("--as-of", help="the day the clocks are judged on, YYYY-MM-DD (default: today)")
    p.add_argument("--at", help="the notice's own date and time, YYYY-MM-DDTHH:MM, e.g. a posting's stamp (default: now)")
    p.add_argument("--templates", metavar="DIR", help="folder holding the towns' template folders (default: notices/templates)")
    p.add_argument(
        "--log",
        metavar="FILE",
        help="notice log, JSON (default: on the filing in the store for an id; FILE.notices.json beside a filing JSON file)",
    )
    p.add_argument(
        "--db",
        metavar="URL",
        help="the store's database URL, for a filing id (default: $PERMITS_DATABASE_URL, else permits.db in the data directory)",
    )
    p.add_argument(
        "--again",
        action="store_true",
        help="record a second sending to recipients who already had the notice (without it, a notice already sent "
        "is rendered again as it was sent, and not recorded twice)",
    )
    p.add_argument("--history", action="store_true", help="show which notices went to whom, and when")
    p.set_defaults(func=cmd_notices)
