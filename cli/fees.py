"""``permits fees``: the fees a commission sets by its regulation, set from
a day with why (``set``, :func:`services.town_fees.set_fee`, the rule book
page's form too) and listed with their history (``list``)."""

from __future__ import annotations

from cli.args import UsageError, open_store, parse_day, record_parents, settings, today, user

__all__ = ["add_commands"]


def cmd_set(args) -> int:
    from services.town_fees import set_fee
    from workflows.fees import dollars

    effective = parse_day(args.effective, "--from date")
    store = open_store(args)
    try:
        cents = set_fee(store, args.town, args.kind, args.amount, effective=effective, reason=args.reason, by=user(args))
    finally:
        store.engine.dispose()
    print(f"permits: {args.town} {args.kind} fee set to {dollars(cents)} for filings filed on or after {effective}")
    return 0


def cmd_list(args) -> int:
    from config.clock import town_stamp
    from models.read.town_fees import fee_changes
    from services.fees import fee_for_kind
    from workflows.fees import dollars
    from workflows.towns import registry

    towns = [args.town] if args.town else list(registry())
    if args.town and args.town not in registry():
        raise UsageError(f"--town {args.town!r}: no such town ('permits towns list')")
    on = parse_day(args.as_of, "--as-of date") if args.as_of else today()
    store = open_store(args)
    try:
        for town_id in towns:
            for kind, rule in registry()[town_id].fees.items():
                if rule.setting:
                    print(f"{town_id} {kind}: {fee_for_kind(store, town_id, kind, on=on).words()}")
        for c in fee_changes(store, towns):
            print(
                f"  {town_stamp(c.at, settings().timezone)}  {c.town} {c.kind} {dollars(c.cents)} from {c.effective}"
                f"  by {c.by}: {c.reason}"
            )
    finally:
        store.engine.dispose()
    return 0


def add_commands(sub) -> None:
    common, writer = record_parents()
    p = sub.add_parser(
        "fees",
        help="the fees a commission sets by regulation: set one from a day, list them with their history",
        description="Set the fee a town's commission charges for a kind of filing, in force for filings filed on or "
        "after a day (a filing pays the fee in force on the day it was filed), or list the fees in force and every change.",
    )
    cmds = p.add_subparsers(dest="fees_command", required=True, parser_class=type(p), help="set or list")
    s = cmds.add_parser(
        "set",
        parents=[common, writer],
        help="set a fee from a day, with why",
        description="Set TOWN's fee for KIND filings to AMOUNT for filings filed on or after --from; kept with who, when and why.",
    )
    s.add_argument("town", help="town id, e.g. saugus")
    s.add_argument("kind", help="permit kind whose fee the commission sets, e.g. rda")
    s.add_argument("amount", help="dollars and cents, e.g. 150.00")
    s.add_argument(
        "--from", dest="effective", required=True, metavar="DAY", help="the first filing day it applies to, YYYY-MM-DD"
    )
    s.add_argument("--reason", required=True, help="why: the commission's vote, say")
    s.set_defaults(func=cmd_set)
    q = cmds.add_parser(
        "list",
        parents=[common],
        help="the fees in force and every change",
        description="Print each fee a commission sets, as in force on --as-of, then every change, latest first.",
    )
    q.add_argument("--town", help="one town id (default: every town)")
    q.add_argument("--as-of", help="the filing day whose fees to show, YYYY-MM-DD (default: today)")
    q.set_defaults(func=cmd_list)
