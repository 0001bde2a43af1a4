"""The record's reading sub-commands of ``permits``: show, list, docket,
and deposits (an applicant's deposit account, read or one entry added).

An edge like :mod:`cli.store`: it reads the database URL (``--db`` or
``PERMITS_DATABASE_URL``), the day asked about and the user's name, and
calls :mod:`models.store.filings` (``show`` and ``docket`` on a SQLite file through
:mod:`models.read.sqlite_reader`, the same queries without SQLAlchemy) or the
deposit ledger.  Errors are PermitsError subclasses that ``permits`` turns
into one line on standard error and exit status 2, with nothing written.
"""

from __future__ import annotations

import json
from datetime import timedelta

from cli.args import UsageError, check_choice, check_id, parse_day, record_parents
from cli.args import as_of as _as_of
from cli.args import in_town as _in_town
from cli.args import open_store as _store
from cli.args import reading_store as _reading_store
from cli.args import today as _today
from cli.args import user as _user

__all__ = ["add_commands"]


def _dump(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, default=str)


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
        print(
            _dump({**result.as_dict(), "stage": result.stage, "as_of": as_of.isoformat(), "history": events, "notices": notices})
        )
        return 0
    from workflows.vocabulary import clock_name, event_name, in_words, state_name, status_name
    from workflows.written import when_written

    kind = result.kind
    # the stage, as every page names it (workflows/stage.py)
    print(f"{result.id}  {result.town} {kind}  state: {result.stage} ({state_name(kind, result.stage)})  (as of {as_of})")
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
    """Every stage a filing of any kind can be in (its machine's states,
    and ``incomplete`` for an application sent back: workflows/stage.py)."""
    from workflows.rulebook import KINDS
    from workflows.stage_choices import stages

    return {s for kind in KINDS for s in stages(kind)}


#: the longest text ``permits list --search`` takes (what the Filings page's box takes)
SEARCH_MAX = 200


def _found(store, args) -> list:
    """Every filing ``--search`` finds (:func:`models.read.workbench.search`:
    any part of the number, the address with its suffix either way, the
    parcel, the MassDEP file number, the applicant or owner), within
    ``--town``, ``--kind`` and ``--state``, page after page in id order."""
    from models.read.workbench import search
    from workflows.rulebook import KINDS

    text = args.search.strip()
    if not text or len(text) > SEARCH_MAX:
        raise UsageError(f"--search: give the text to look for, 1 to {SEARCH_MAX} characters")
    towns, kinds = ([args.town] if args.town else None), ([args.kind] if args.kind else list(KINDS))
    rows, after = [], None
    while True:
        page, after = search(store, towns=towns, kinds=kinds, text=text, state=args.state, after=after, limit=500)
        rows += page
        if after is None:
            return rows


def cmd_list(args) -> int:
    from workflows.rulebook import KINDS
    from workflows.towns import registry

    check_choice("town", args.town, registry())
    check_choice("permit kind", args.kind, KINDS)
    check_choice("state", args.state, _states())
    store = _store(args)
    try:
        rows = (
            _found(store, args)
            if args.search is not None
            else store.list_filings(town=args.town, kind=args.kind, state=args.state)
        )
    finally:
        store.engine.dispose()
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
                        "address": r.address,
                    }
                    for r in rows
                ]
            )
        )
        return 0
    from workflows.stage import stage_name

    for r in rows:
        nxt = f"  next: {r.next_deadline_clock} {r.next_deadline_date}" if r.next_deadline_date else ""
        site = f"  at {r.address}" if args.search is not None and r.address else ""
        print(f"{r.id}  {r.town}  {r.kind}  {r.state} ({stage_name(r.kind, r.state)})  {r.last_seq} events{nxt}{site}")
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


def _check(args) -> int:
    """``permits deposits --check``: the ledger reconciled with the events;
    exit status 1 when it finds a difference."""
    from services.ledger_check import check_ledger
    from workflows.towns import registry

    if args.applicant or args.charge or args.deduct or args.refund or args.filing:
        raise UsageError("--check reads every permit: give no applicant, --charge, --deduct, --refund or --filing with it")
    town = check_choice("town", args.town, sorted(registry()))
    store = _store(args)
    try:
        got = check_ledger(store, town=town)
    finally:
        store.engine.dispose()
    if args.json:
        print(_dump(got.as_dict()))
        return 0 if got.ok else 1
    scope = f" of {town}" if town else ""
    found = "no difference" if got.ok else f"{len(got.differences)} difference(s)"
    print(
        f"deposit ledger check{scope}: {got.permits} street opening(s) recomputed from their events, "
        f"{got.accounts} account(s) read again, ${got.held / 100:,.2f} held; {found}"
        + (f"; {got.by_hand} line(s) entered by hand (not from an event)" if got.by_hand else "")
    )
    for d in got.differences:
        print(f"  {d.words()}")
    return 0 if got.ok else 1


def cmd_deposits(args) -> int:
    from services import deposits

    if args.check:
        return _check(args)
    if not args.applicant:
        raise UsageError("name the applicant whose account to show, or give --check")
    if args.town:
        raise UsageError("--town goes with --check")
    store = _store(args)
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
        deposits.charge(store, args.applicant, args.filing, args.charge, args.quantity, day=day, by=by)
    elif args.deduct:
        deposits.deduct(store, args.applicant, args.filing, args.deduct, reason=args.reason, day=day, by=by)
    elif args.refund:
        deposits.refund(store, args.applicant, args.filing, day=day, by=by)
    st = deposits.statement(store, args.applicant)
    if args.json:
        print(_dump(st.as_dict()))
        return 0
    d = st.as_dict()
    print(f"{st.applicant}: refundable deposit account ({d['rule']}): the Town holds ${d['balance']}, fees charged ${d['fees']}")
    for e in d["entries"]:
        what = e["item"] or e["note"] or ""
        print(
            f"  {e['date']}  {e['entry']:<9} ${e['amount']:>9}  {e['filing'] or '':<16} {what}  [{e['rule']}]  balance ${e['balance']}"
        )
    for filing, f in d["permits"].items():
        print(
            f"  {filing}: charged ${f['charged']}, received ${f['received']}, kept ${f['kept']}, "
            f"refunded ${f['refunded']}; held ${f['held']}"
        )
    return 0


# -- the parser -------------------------------------------------------------------


def add_commands(sub) -> None:
    """Register show, list, docket and deposits on ``permits``' sub-parsers."""
    common, writer = record_parents()

    def add(name, func, help, description, parents=(common,)):
        p = sub.add_parser(name, help=help, description=description, parents=list(parents))
        p.set_defaults(func=func)
        return p

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

    p = add(
        "list",
        cmd_list,
        "the filings on record, or those a text finds (--search)",
        "List filings with their state and next deadline; --search finds them as the workbench's Filings page does, "
        "by any part of the filing number, the site address (Street or St alike), the parcel, the MassDEP file "
        "number, the applicant or the owner.",
    )
    p.add_argument(
        "--search",
        metavar="TEXT",
        help="only the filings TEXT finds: part of the number (000096), an address (109 Sherman Street), a parcel, "
        "a MassDEP file number (SE 073-1234), an applicant or owner",
    )
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
        "an applicant's refundable deposit account (Canton 16-12 §5), or the ledger's reconciliation",
        "Show an applicant's refundable deposit account and fees (Canton 16-12 §5-6), or add one entry: "
        "a schedule charge, a deduction after a Default, or the refund of a permit's unexpended balance. "
        "--check recomputes every street opening's deposit and fees from its events and compares them with the "
        "ledger (exit status 1 when it finds a difference).",
        (common, writer),
    )
    p.add_argument("applicant", nargs="?", help="the applicant's name, as in the filing's 'applicant' field")
    p.add_argument(
        "--check",
        action="store_true",
        help="reconcile the ledger: every permit's charged, received, kept, refunded and held recomputed from its events",
    )
    p.add_argument("--town", help="with --check: only this town's permits")
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
