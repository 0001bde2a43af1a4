"""``permits enforcement``: an enforcement case from the violation to its
close, over :mod:`services.enforcement` (the workbench's enforcement pages
call the same functions), and its reads: show, list, docket, the town's fine
schedules and the case's notices.

    permits enforcement open    --town T --bylaw B --violator NAME --provision P --description D --date D
    permits enforcement notice  CASE --date D [--delivered in-hand|mailed]
    permits enforcement order   CASE --date D --comply-by D --requires TEXT [--requires TEXT ...]
    permits enforcement ticket  CASE --date D --provision P --day D [--through D]
    permits enforcement record  CASE TYPE --date D [FIELD=VALUE ...]
    permits enforcement void    CASE SEQ --reason TEXT
    permits enforcement show | list | docket | fines | print

Bad input is one line on standard error and exit status 2, nothing written.
"""

from __future__ import annotations

import argparse
import json
from datetime import date, timedelta

from cli.args import UsageError, as_of, check_choice, check_id, open_store, parse_day, user, writable_folder

__all__ = ["add_commands"]


def _dump(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, default=str)


def _today(args) -> date:
    return as_of(args)


def _day(args) -> date:
    return parse_day(args.date, "--date") if args.date else _today(args)


def _recorded(args, recorded) -> int:
    print(f"permits: {args.case}: recorded event {recorded.seq}; state {recorded.state}")
    for provision, day, _number, fine, label in recorded.tickets:
        shown = "a warning ($0)" if fine == 0 else f"${fine}"
        print(f"  ticket: {provision} on {day}: {label}, {shown}")
    return 0


def cmd_open(args) -> int:
    from services.enforcement import open_case

    if args.filing:
        check_id(args.filing)
    opened = open_case(
        open_store(args),
        town_id=args.town,
        bylaw=args.bylaw,
        violator=args.violator or "",
        provision=args.provision,
        description=args.description,
        day=_day(args),
        by=user(args),
        today=_today(args),
        filing=args.filing,
        address=args.address,
        parcel=args.parcel,
    )
    print(f"permits: opened enforcement case {opened.case} ({args.town}, {args.bylaw}); state {opened.state}")
    return 0


def cmd_notice(args) -> int:
    from services.enforcement import notice_violation

    check_id(args.case)
    done = notice_violation(
        open_store(args), args.case, day=_day(args), by=user(args), today=_today(args), delivered=args.delivered
    )
    return _recorded(args, done)


def cmd_order(args) -> int:
    from services.enforcement import issue_order

    check_id(args.case)
    done = issue_order(
        open_store(args),
        args.case,
        day=_day(args),
        comply_by=parse_day(args.comply_by, "--comply-by"),
        requires=args.requires,
        by=user(args),
        today=_today(args),
    )
    return _recorded(args, done)


def cmd_ticket(args) -> int:
    from services.enforcement import issue_tickets

    check_id(args.case)
    days = [parse_day(d, "--day") for d in args.day]
    if args.through:
        if len(days) != 1:
            raise UsageError("--through: give one --day, the first day of the span")
        last = parse_day(args.through, "--through")
        if last < days[0] or (last - days[0]).days > 366:
            raise UsageError(f"--through {last}: a day from {days[0]} up to a year after it")
        days = [days[0] + timedelta(days=i) for i in range((last - days[0]).days + 1)]
    done = issue_tickets(
        open_store(args),
        args.case,
        day=_day(args),
        provisions=args.provision,
        days=days,
        by=user(args),
        today=_today(args),
        delivered=args.delivered,
        mailed_to=_mailing(args),
        dollars=args.amount,
    )
    return _recorded(args, done)


def _dollars(text: str) -> int:
    """``--amount``: a whole number of dollars, at most six digits."""
    if not text.isdigit() or len(text) > 6:
        raise UsageError(f"--amount {text[:20]!r}: a whole number of dollars, e.g. 150")
    return int(text)


def _mailing(args) -> dict | None:
    """The violator's mailing address the ticket gives (``--mail-street``...), or None."""
    parts = {k: getattr(args, f"mail_{k}") for k in ("street", "city", "state", "zip")}
    return parts if any(parts.values()) else None


def cmd_record(args) -> int:
    from services.enforcement import record_step
    from workflows.event_fields import ENFORCEMENT, EVENT_FIELDS

    check_id(args.case)
    raw: dict = {"type": args.type, "date": _day(args).isoformat()}
    declared = {**EVENT_FIELDS[ENFORCEMENT].get(args.type, {})}
    for item in args.fields:
        name, sep, value = item.partition("=")
        if not sep or not name or name in ("type", "date"):
            raise UsageError(f"field {item!r}: write FIELD=VALUE, e.g. amount=4200 (the date is --date)")
        kind = declared.get(name)
        raw[name] = int(value) if kind in ("int", "position") and value.isdigit() else value
    done = record_step(open_store(args), args.case, raw, by=user(args), today=_today(args))
    return _recorded(args, done)


def cmd_void(args) -> int:
    from services.enforcement import void_step

    check_id(args.case)
    done = void_step(open_store(args), args.case, args.seq, reason=args.reason, day=_day(args), by=user(args), today=_today(args))
    return _recorded(args, done)


def cmd_show(args) -> int:
    from models.read.enforcement import EnforcementRecord

    check_id(args.case)
    record = EnforcementRecord(open_store(args))
    replay = record.replay(args.case, _today(args))
    history = record.history(args.case)
    if args.json:
        print(_dump({**replay.as_dict(), "as_of": _today(args).isoformat(), "history": history}))
        return 0
    where = f" on {replay.filing}" if replay.filing else ""
    print(
        f"{replay.id}  {replay.town} {replay.bylaw}{where}  violator: {replay.violator}  state: {replay.state}  (as of {_today(args)})"
    )
    print("history:")
    for h in history:
        fields = " ".join(f"{k}={v}" for k, v in h["raw"].items() if k not in ("type", "date"))
        mark = f"  [voided by event {h['voided_by']}]" if h["voided_by"] else ""
        print(f"  {h['seq']:>3}  {h['date']}  {h['type']}  {fields}{mark}  (by {h['recorded_by']})")
    print(f"tickets: {len(replay.tickets)}, ${replay.fines} in fines")
    for t in replay.tickets:
        answer = f"  [{t.answered}]" if t.answered else ""
        print(f"  event {t.position}: {t.provision} on {t.offense_day}: {t.label}, ${t.fine}{answer}")
    print("clocks:")
    for c in replay.clocks:
        print(f"  {c.id}  {c.type}  {c.date}  {c.status}  [{c.rule}]")
        print(f"      {c.explanation}")
    return 0


def cmd_list(args) -> int:
    from models.read.enforcement import EnforcementRecord
    from workflows.enforcement import CaseState
    from workflows.towns import registry

    check_choice("town", args.town, registry())
    check_choice("case state", args.state, [s.value for s in CaseState])
    if args.filing:
        check_id(args.filing)
    rows = EnforcementRecord(open_store(args)).cases(
        towns=[args.town] if args.town else None, filing=args.filing, state=args.state
    )
    if args.json:
        keys = (
            "id",
            "town",
            "bylaw",
            "filing_id",
            "violator",
            "address",
            "state",
            "next_deadline_date",
            "next_deadline_clock",
            "fines",
        )
        print(_dump([{k: getattr(r, k) for k in keys} for r in rows]))
        return 0
    for r in rows:
        nxt = f"  next: {r.next_deadline_clock} {r.next_deadline_date}" if r.next_deadline_date else ""
        print(f"{r.id}  {r.town} {r.bylaw}  {r.violator}  {r.state}  ${r.fines}{nxt}")
    print(f"({len(rows)} case(s))")
    return 0


def cmd_docket(args) -> int:
    from models.read.enforcement import EnforcementRecord
    from workflows.towns import registry

    if args.within < 0:
        raise UsageError(f"--within {args.within}: a number of days, 0 or more")
    check_choice("town", args.town, registry())
    day = _today(args)
    items = EnforcementRecord(open_store(args)).docket(as_of=day, within=args.within, towns=[args.town] if args.town else None)
    if args.json:
        print(_dump({"as_of": day.isoformat(), "within": args.within, "items": items}))
        return 0
    print(f"enforcement docket as of {day}: {len(items)} item(s) due by {day + timedelta(days=args.within)} or overdue")
    for i in items:
        print(
            f"  {i['date']}  {i['status']:<9} {i['case']}  {i['town']} ({i['state']})  {i['violator']}  {i['clock']}  [{i['rule']}]"
        )
    return 0


def cmd_fines(args) -> int:
    from notices.enforcement import schedule_lines
    from workflows.towns import town

    profile = town(args.town)
    schedules = [profile.fine_schedule(args.bylaw)] if args.bylaw else list(profile.fines.values())
    if args.json:
        print(_dump({"town": profile.id, "schedules": [s.as_dict() for s in schedules]}))
        return 0
    if not schedules:
        print(f"{profile.name}: no fine schedule in its rule book")
    for s in schedules:
        print(f"{profile.name} {s.id}: {s.bylaw} [{s.citation}]")
        for line in schedule_lines(s):
            print(f"  {line}")
        print(f"  fine allowed: ${s.ceiling} an offense" + (f"; {s.each_day}" if s.each_day else ""))
        if s.lost:
            print(f"  lost from the town's copy: {s.lost}; the town profile must give them (FineSchedule.given)")
        if s.agents:
            print(f"  enforced by: {', '.join(s.agents)}; orders: {s.order_rule}")
    return 0


def cmd_print(args) -> int:
    from models.read.enforcement import EnforcementRecord
    from notices.enforcement import produce_case_notice
    from workflows.enforcement_replay import replay_case

    check_id(args.case)
    writable_folder(args.out)
    from cli.args import now

    case, _ = EnforcementRecord(open_store(args)).load(args.case)
    outputs = produce_case_notice(
        case, replay_case(case, _today(args)), args.kind, fmt=args.format, dated=now(), position=args.event
    )
    for o in outputs:
        print(o.write(args.out))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "enforcement",
        help="enforcement cases: violations, notices, Enforcement Orders, tickets, costs, compliance",
        description="An enforcement case from the violation (on a filing, or on a parcel with no filing) to its "
        "close: the notice of violation, the Enforcement Order, tickets by non-criminal disposition (M.G.L. c.40 "
        "§21D) priced by the town's schedule, the town's costs where its by-law recovers them, compliance.",
    )
    steps = p.add_subparsers(dest="step", required=True, parser_class=type(p), help="the step, or a read: see each one's --help")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    common.add_argument("--as-of", help="the day, YYYY-MM-DD (default: today): a step dated after it is refused")
    writer = argparse.ArgumentParser(add_help=False)
    writer.add_argument("--by", help="who records it (default: $PERMITS_USER, else the login name)")
    writer.add_argument("--date", help="the step's date, YYYY-MM-DD (default: --as-of)")

    def add(name, func, help, parents=(common,)):
        q = steps.add_parser(name, help=help, description=help, parents=list(parents))
        q.set_defaults(func=func)
        return q

    q = add("open", cmd_open, "open a case on a violation seen on --date", (common, writer))
    q.add_argument("--town", required=True, help="town id, e.g. saugus")
    q.add_argument("--bylaw", required=True, help="the by-law with a fine schedule: wetlands, stormwater (see 'fines')")
    q.add_argument("--violator", help="who committed it (default on a filing: its applicant)")
    q.add_argument("--provision", required=True, help="the provision or Order condition violated")
    q.add_argument("--description", required=True, help="what was seen")
    q.add_argument("--filing", help="the filing the violation is on, if any")
    q.add_argument("--address", help="the site's address (default on a filing: its site)")
    q.add_argument("--parcel", help="the site's parcel (default on a filing: its parcel)")

    q = add("notice", cmd_notice, "the notice of violation sent to the violator", (common, writer))
    q.add_argument("case", help="case id, e.g. SAU-ENF-2026-0001")
    q.add_argument("--delivered", choices=("in-hand", "mailed"), help="how it reached the violator")

    q = add("order", cmd_order, "an Enforcement Order: what it requires, by when", (common, writer))
    q.add_argument("case", help="case id")
    q.add_argument("--comply-by", required=True, help="the date to comply by, YYYY-MM-DD")
    q.add_argument("--requires", action="append", required=True, help="one requirement (give it once for each)")

    q = add(
        "ticket", cmd_ticket, "tickets under M.G.L. c.40 §21D: one per provision and day, numbered and priced", (common, writer)
    )
    q.add_argument("case", help="case id")
    q.add_argument("--provision", action="append", required=True, help="a provision violated (once for each)")
    q.add_argument("--day", action="append", required=True, help="a day of the offense, YYYY-MM-DD (once for each)")
    q.add_argument("--through", help="with one --day: every day from it through this one")
    q.add_argument(
        "--amount",
        type=_dollars,
        help="each ticket's fine in dollars, where the by-law sets only a maximum (Canton 15-11: up to $300); "
        "default: the town's usual amount",
    )
    q.add_argument("--delivered", choices=("in-hand", "mailed"), help="handed over at the time and place, or mailed")
    q.add_argument("--mail-street", help="the violator's mailing address, street (required to mail, unless the case has one)")
    q.add_argument("--mail-city", help="... city or town")
    q.add_argument("--mail-state", help="... state, two letters")
    q.add_argument("--mail-zip", help="... ZIP code")

    q = add(
        "record", cmd_record, "another step of the case (a ticket paid, the town's costs, compliance, closing)", (common, writer)
    )
    q.add_argument("case", help="case id")
    q.add_argument(
        "type",
        help="the step: ticket-paid, ticket-contested, town-abated, costs-noticed, costs-protested, "
        "costs-decided, costs-paid, lien-recorded, complied, closed, violation-observed, order-extended",
    )
    q.add_argument(
        "fields", nargs="*", metavar="FIELD=VALUE", help="its fields, e.g. ticket=4, amount=4200, reason=TEXT, to=YYYY-MM-DD"
    )

    q = add("void", cmd_void, "void a mistaken step (both stay in the history)", (common, writer))
    q.add_argument("case", help="case id")
    q.add_argument("seq", type=int, help="the step's sequence number (see 'show')")
    q.add_argument("--reason", required=True, help="why it is void")

    q = add("show", cmd_show, "a case's history, tickets and fines, and clocks with their rules")
    q.add_argument("case", help="case id")
    q.add_argument("--json", action="store_true", help="print JSON")

    q = add("list", cmd_list, "the cases on record, newest first")
    q.add_argument("--town", help="only this town")
    q.add_argument("--filing", help="only the cases on this filing")
    q.add_argument("--state", help="only cases in this state: open, noticed, ordered, complied, closed")
    q.add_argument("--json", action="store_true", help="print JSON")

    q = add("docket", cmd_docket, "what the cases have due: deadlines in the window, overdue ones, violations")
    q.add_argument("--town", help="only this town")
    q.add_argument("--within", type=int, default=14, metavar="DAYS", help="window in days after --as-of (default 14)")
    q.add_argument("--json", action="store_true", help="print JSON")

    q = steps.add_parser(
        "fines",
        help="a town's fine schedules, and what its copy of the by-law lost",
        description="A town's fine schedules for non-criminal disposition, as its rule book holds them.",
    )
    q.set_defaults(func=cmd_fines)
    q.add_argument("--town", required=True, help="town id")
    q.add_argument("--bylaw", help="one by-law's schedule (default: all)")
    q.add_argument("--json", action="store_true", help="print JSON")

    q = add("print", cmd_print, "a notice of the case: violation-notice, enforcement-order, ticket, cost-notice")
    q.add_argument("case", help="case id")
    q.add_argument("kind", help="violation-notice, enforcement-order, ticket or cost-notice")
    q.add_argument("--out", required=True, metavar="DIR", help="folder to write the notice into")
    q.add_argument("--format", choices=("pdf", "html", "txt"), default="pdf", help="pdf (default), html or txt")
    q.add_argument("--event", type=int, help="the step it is for, by sequence number (default: the latest)")
