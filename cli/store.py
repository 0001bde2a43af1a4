"""The record's sub-commands of ``permits``: init, db upgrade, import,
export, record, void, show, list, docket, deposits.

An edge: it reads the database URL (``--db`` or ``PERMITS_DATABASE_URL``),
today's date and the user's name, and calls the service layer
(:mod:`services.record` for record and void) or :mod:`models.service`
(``show`` and ``docket`` on a SQLite file: :mod:`models.sqlite_reader`, the
same queries without SQLAlchemy).  Errors are PermitsError subclasses that
``permits`` turns into one line on standard error and exit status 2, with
nothing written.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import timedelta

from cli.args import (
    ProgressBar,
    UsageError,
    check_choice,
    check_id,
    now,
    parse_day,
    parse_moment,
    read_json_file,
    settings,
    writable_file,
)
from cli.args import as_of as _as_of
from cli.args import in_town as _in_town
from cli.args import open_store as _store
from cli.args import reading_store as _reading_store
from cli.args import today as _today
from cli.args import user as _user

__all__ = ["add_store_commands"]


def _dump(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, default=str)


# -- schema ---------------------------------------------------------------------


def cmd_init(args) -> int:
    from models.db import describe_url

    store = _store(args, check=False)
    rev = store.upgrade()
    print(f"permits: database {describe_url(store.url)} is at schema {rev}")
    return 0


# -- import / export ------------------------------------------------------------


def _read_filings(path: str) -> list:
    obj = read_json_file(path)
    return obj if isinstance(obj, list) else [obj]


def cmd_import(args) -> int:
    store = _store(args)
    objects = [obj for path in args.files for obj in _read_filings(path)]
    # 1,000 filings or more, as the sweep's: then what follows the checks
    bar = ProgressBar("import", len(objects), then="writing them to the store in one transaction")
    ids = store.import_filings(objects, by=_user(args), progress=bar.update)
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

    from models.uploads import Uploads
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
        Uploads(store, cfg.uploads_dir, cfg.upload_max_bytes),
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


def _to_whom(recipient: str) -> str:
    """A notice log's recipient key (``owner|street|city|zip``) as a name."""
    return recipient.split("|")[0] if recipient else "(not recorded)"


def cmd_show(args) -> int:
    from notices.log import SentNotice

    check_id(args.id)
    as_of = _as_of(args)
    with _reading_store(args) as store:
        history = store.history(args.id)
        result = store.replay(args.id, as_of)
        sent = [SentNotice(*fields) for fields in store.notice_entries(args.id)]
    if args.json:
        events = [
            {
                "seq": h["seq"],
                "event": h["raw"],
                "recorded_at": _in_town(h["recorded_at"]).isoformat(timespec="seconds"),
                "recorded_by": h["recorded_by"],
                "voided_by": h["voided_by"],
            }
            for h in history
        ]
        notices = [
            {"kind": n.kind, "at": n.at, "to": _to_whom(n.recipient), "recipient": n.recipient, "files": list(n.files)}
            for n in sent
        ]
        print(_dump({**result.as_dict(), "as_of": as_of.isoformat(), "history": events, "notices": notices}))
        return 0
    from workflows.vocabulary import clock_name, event_name, in_words, state_name, status_name
    from workflows.written import when_written

    kind = result.kind
    print(f"{result.id}  {result.town} {kind}  state: {result.state} ({state_name(kind, result.state)})  (as of {as_of})")
    print("history:")
    for h in history:
        fields = " ".join(f"{k}={v}" for k, v in h["raw"].items() if k not in ("type", "date"))
        mark = f"  [voided by event {h['voided_by']}]" if h["voided_by"] else ""
        print(
            f"  {h['seq']:>3}  {h['date']}  {h['type']} ({event_name(kind, h['type'])})"
            + (f"  {fields}" if fields else "")
            + mark
            + f"  (recorded {_in_town(h['recorded_at']):%Y-%m-%d %H:%M %Z} by {h['recorded_by']})"
        )
    print("clocks:")
    for c in result.clocks:
        when = c.at.isoformat(timespec="minutes") if c.at else c.date.isoformat()
        print(
            f"  {c.id} ({clock_name(c.id)})  {c.type}  {when} ({when_written(c.date, c.at)})  {c.status} ({status_name(c.status)})  [{c.rule}]"
        )
        print(f"      {in_words(c.explanation, kind)}")
    print("notices:" if sent else "notices: none produced")
    for n in sent:
        print(f"  {n.at}  {n.kind}  to {_to_whom(n.recipient)}")
    return 0


def _states() -> set[str]:
    """Every state a filing of any kind can be in (the machines' enums)."""
    from workflows.replay import MACHINES

    return {str(s.value) for m in MACHINES.values() for s in m.states}


def cmd_list(args) -> int:
    from workflows.rulebook import KINDS
    from workflows.towns import registry

    check_choice("town", args.town, registry())
    check_choice("permit kind", args.kind, KINDS)
    check_choice("state", args.state, _states())
    rows = _store(args).list_filings(town=args.town, kind=args.kind, state=args.state)
    if args.json:
        print(
            _dump(
                [
                    {
                        "id": r.id,
                        "town": r.town,
                        "kind": r.kind,
                        "state": r.state,
                        "events": r.last_seq,
                        "next_deadline": r.next_deadline_date.isoformat() if r.next_deadline_date else None,
                        "next_clock": r.next_deadline_clock,
                    }
                    for r in rows
                ]
            )
        )
        return 0
    for r in rows:
        nxt = f"  next: {r.next_deadline_clock} {r.next_deadline_date}" if r.next_deadline_date else ""
        print(f"{r.id}  {r.town}  {r.kind}  {r.state}  {r.last_seq} events{nxt}")
    print(f"({len(rows)} filing(s))")
    return 0


def cmd_docket(args) -> int:
    if args.within < 0:
        raise UsageError(f"--within {args.within}: a number of days, 0 or more")
    from workflows.towns import registry

    check_choice("town", args.town, registry())
    as_of = _as_of(args)
    with _reading_store(args) as store:
        items = store.docket(as_of=as_of, within=args.within, town=args.town, overdue_only=args.overdue)
    if args.json:
        print(_dump({"as_of": as_of.isoformat(), "within": args.within, "items": [i.as_dict() for i in items]}))
        return 0
    scope = "overdue" if args.overdue else f"due by {as_of + timedelta(days=args.within)}"
    print(f"docket as of {as_of}: {len(items)} deadline(s) {scope}" + (f", {args.town}" if args.town else ""))
    for i in items:
        print(f"  {i.date}  {i.status:<7}  {i.filing}  {i.town} {i.kind} ({i.state})  {i.clock}: {i.action}  [{i.rule}]")
    return 0


def cmd_deposits(args) -> int:
    from models.deposit_ledger import DepositLedger

    store = _store(args)
    accounts = DepositLedger(store.engine, now=store.now)
    day = parse_day(args.date, "--date") if args.date else _today()
    actions = [a for a in (args.charge, args.deduct, args.refund) if a]
    if len(actions) > 1:
        raise UsageError("give one of --charge, --deduct, --refund at a time")
    if actions and not args.filing:
        raise UsageError("--filing: name the permit the entry belongs to")
    if args.filing:
        check_id(args.filing)
    by = _user(args)
    if args.charge:
        accounts.charge(args.applicant, args.filing, args.charge, args.quantity, day=day, by=by)
    elif args.deduct:
        accounts.deduct(args.applicant, args.filing, args.deduct, reason=args.reason, day=day, by=by)
    elif args.refund:
        accounts.refund(args.applicant, args.filing, day=day, by=by)
    st = accounts.statement(args.applicant)
    if args.json:
        print(_dump(st.as_dict()))
        return 0
    d = st.as_dict()
    print(f"{st.applicant}: refundable deposit account ({d['rule']}): balance ${d['balance']}, fees charged ${d['fees']}")
    for e in d["entries"]:
        what = e["item"] or e["note"] or ""
        print(
            f"  {e['date']}  {e['entry']:<9} ${e['amount']:>9}  {e['filing'] or '':<16} {what}  [{e['rule']}]  balance ${e['balance']}"
        )
    for filing, held in d["held"].items():
        print(f"  held for {filing}: ${held}")
    return 0


# -- the parser -------------------------------------------------------------------


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
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: $PERMITS_DATABASE_URL, else "
        "permits.db in the data directory, ~/.local/share/permits); postgresql+psycopg://... for PostgreSQL",
    )
    writer = argparse.ArgumentParser(add_help=False)
    writer.add_argument("--by", help="who records it (default: $PERMITS_USER, else the login name)")

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
        cmd_init,
        "database maintenance: permits db upgrade",
        "Database maintenance. 'upgrade' applies the schema migrations (Alembic) the database lacks.",
    )
    p.add_argument("action", choices=("upgrade",), help="upgrade: apply pending schema migrations")

    p = add(
        "import",
        cmd_import,
        "import filing JSON files (all or nothing)",
        "Import filings (docs/reference/filing-format.md): each file holds one filing or a list of them. Every filing is "
        "checked and replayed first; one bad filing or a duplicate id and nothing is imported.",
        (common, writer),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="filing JSON file(s)")

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

    p = add(
        "show",
        cmd_show,
        "a filing's history, state, clocks with explanations, and notices sent",
        "Show a filing's history (who recorded each event, and what voided it), its state, its clocks "
        "and the notices produced for it (which, when, to whom).",
    )
    p.add_argument("id", help="filing id")
    p.add_argument("--as-of", help="the day to judge open/overdue by, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add("list", cmd_list, "the filings on record", "List filings with their state and next deadline.")
    p.add_argument("--town", help="only this town, e.g. canton")
    p.add_argument("--kind", help="only this kind: noi, rda, land-disturbance, street-opening")
    p.add_argument("--state", help="only filings in this state, e.g. hearing-open")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add(
        "docket",
        cmd_docket,
        "what is due: open deadlines in the window and every overdue one",
        "Every deadline still to be acted on that is due within the window, and every overdue one, "
        "soonest first, with the filing, the rule and what to do.",
    )
    p.add_argument("--town", help="only this town")
    p.add_argument("--within", type=int, default=7, metavar="DAYS", help="window in days after --as-of (default 7)")
    p.add_argument("--overdue", action="store_true", help="only deadlines already passed")
    p.add_argument("--as-of", help="the day asked about, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = add(
        "deposits",
        cmd_deposits,
        "an applicant's refundable deposit account (Canton 16-12 §5)",
        "Show an applicant's refundable deposit account and fees (Canton 16-12 §5-6), or add one entry: "
        "a schedule charge, a deduction after a Default, or the refund of a permit's unexpended balance.",
        (common, writer),
    )
    p.add_argument("applicant", help="the applicant's name, as in the filing's 'applicant' field")
    p.add_argument(
        "--charge",
        metavar="ITEM",
        help="charge a deposit or fee from the Canton schedule, "
        "e.g. across-public-way, trench-paved-way, application, after-hours",
    )
    p.add_argument("--quantity", type=int, default=1, help="units of --charge: openings, feet, sq yd, hours (default 1)")
    p.add_argument("--deduct", metavar="DOLLARS", help="deduct the cost of a repair after a Default")
    p.add_argument("--reason", help="what the deduction paid for")
    p.add_argument("--refund", action="store_true", help="release the permit's unexpended deposit")
    p.add_argument("--filing", help="the permit the entry belongs to")
    p.add_argument("--date", help="entry date, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print JSON")
