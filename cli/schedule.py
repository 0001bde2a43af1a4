"""``permits schedule``: the DPW's schedule of street-opening inspections,
expiries and windows for the weeks ahead (the workbench's Schedule page):
both tabs from :func:`services.schedule.dpw_schedule`, or one tab's page,
filtered as the page filters it, from :func:`services.schedule.schedule_page`."""

from __future__ import annotations

import json

from cli.args import UsageError, as_of, check_choice, parse_day, store_url

__all__ = ["add_commands"]


def cmd_schedule(args) -> int:
    from models.handle import Store
    from services.schedule import dpw_schedule, schedule_page
    from workflows.towns import registry

    if args.within < 0:
        raise UsageError(f"--within {args.within}: a number of days, 0 or more")
    if args.page < 1:
        raise UsageError(f"--page {args.page}: a page number, 1 or more")
    check_choice("town", args.town, [t for t, p in registry().items() if "street-opening" in p.permits])
    since = parse_day(args.since, "--from") if args.since else None
    until = parse_day(args.until, "--to") if args.until else None
    filtered = args.tab or args.street or args.contractor or since or until
    day = as_of(args)
    towns = [args.town] if args.town else None
    store = Store(store_url(args))
    got = None
    try:
        store.check_schema()
        if filtered:
            got = schedule_page(
                store,
                as_of=day,
                towns=towns,
                tab=args.tab or "inspections",
                within=args.within,
                street=args.street or "",
                contractor=args.contractor or "",
                since=since,
                until=until,
                page=args.page,
            )
            rows = [r.row for r in got.rows]
        else:
            rows = dpw_schedule(store, as_of=day, within=args.within, towns=towns)
    finally:
        store.engine.dispose()
    if args.json:
        out = {"as_of": day.isoformat(), "within": args.within}
        if got is not None:
            out |= {"tab": got.tab, "page": got.page, "pages": got.pages, "total": got.total, "more": got.more}
            out["items"] = [r.as_dict() for r in got.rows]
        else:
            out["items"] = [r.as_dict() for r in rows]
        print(json.dumps(out, indent=2))
        return 0
    head = f"DPW schedule as of {day}, the next {args.within} days: "
    if got is not None:
        counted = f"more than {got.total - 1:,}" if got.capped else f"{got.total}"
        head += f"{got.tab}, {counted} item(s), page {got.page}" + ("" if got.capped else f" of {got.pages}")
    else:
        head += f"{len(rows)} item(s)"
    print(head + (f", {args.town}" if args.town else ""))
    for r in rows:
        where = f" at {r.address}" if r.address else ""
        print(f"  {r.date}  {r.status:<7}  {r.filing}{where}  {r.clock}: {r.action}  [{r.rule}]")
    return 0


#: the schedule's window, as services.schedule.SCHEDULE_WITHIN (a test holds
#: them equal): the parser is built for every command, the service only here
DEFAULT_WITHIN = 42


def add_commands(sub) -> None:
    p = sub.add_parser(
        "schedule",
        help="the DPW schedule: street-opening inspections, expiries and windows ahead",
        description="List the DPW's schedule on a day: each street opening's inspections, permit and "
        "ticket expiries, patch windows and the inspection after a temporary patch, overdue ones first "
        "(the workbench's Schedule page).",
    )
    p.add_argument("--town", help="only this town (default: every town that runs street openings)")
    p.add_argument("--within", type=int, default=DEFAULT_WITHIN, help=f"days ahead (default: {DEFAULT_WITHIN})")
    p.add_argument(
        "--tab", choices=("inspections", "other"), help="one tab, a page at a time: the inspections, or the other dates"
    )
    p.add_argument("--street", help="only sites whose address holds this (implies --tab inspections unless given)")
    p.add_argument("--contractor", help="only permits whose contractor's name holds this")
    p.add_argument("--from", dest="since", metavar="DAY", help="only rows from this day, YYYY-MM-DD (no overdue ones)")
    p.add_argument("--to", dest="until", metavar="DAY", help="only rows through this day, YYYY-MM-DD (default: --within)")
    p.add_argument("--page", type=int, default=1, help="the page of a tab, 50 rows each (default: 1)")
    p.add_argument("--as-of", help="the day, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.set_defaults(func=cmd_schedule)
