"""``permits schedule``: the DPW's schedule of street-opening inspections,
expiries and windows for the weeks ahead (the workbench's Schedule page),
from :func:`services.schedule.dpw_schedule`."""

from __future__ import annotations

import json

from cli.args import UsageError, as_of, check_choice, store_url

__all__ = ["add_commands"]


def cmd_schedule(args) -> int:
    from models.service import Store
    from services.schedule import dpw_schedule
    from workflows.towns import registry

    if args.within < 0:
        raise UsageError(f"--within {args.within}: a number of days, 0 or more")
    check_choice("town", args.town, [t for t, p in registry().items() if "street-opening" in p.permits])
    day = as_of(args)
    store = Store(store_url(args))
    try:
        store.check_schema()
        rows = dpw_schedule(store, as_of=day, within=args.within, towns=[args.town] if args.town else None)
    finally:
        store.engine.dispose()
    if args.json:
        print(json.dumps({"as_of": day.isoformat(), "within": args.within, "items": [r.as_dict() for r in rows]}, indent=2))
        return 0
    print(f"DPW schedule as of {day}, the next {args.within} days: {len(rows)} item(s)" + (f", {args.town}" if args.town else ""))
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
    p.add_argument("--as-of", help="the day, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.set_defaults(func=cmd_schedule)
