"""``permits payments``: a filing's application fee and the payments
recorded against it.  ``permits payments record`` records one (the same
service as the filing page's payment form, :func:`services.payments.record_payment`);
``permits payments show`` prints the fee in words, the payments and what
is left.  No card is processed: the record is what the town keeps."""

from __future__ import annotations

import json

from cli.args import as_of, check_id, now, open_store, parse_day, settings, user

__all__ = ["add_commands"]


def cmd_record(args) -> int:
    from services.payments import record_payment

    check_id(args.id)
    today = as_of(args)
    day = parse_day(args.date, "--date") if args.date else today
    store = open_store(args)
    try:
        recorded = record_payment(
            store,
            args.id,
            day=day,
            amount=args.amount,
            method=args.method,
            reference=args.reference or "",
            toward=args.toward or "",
            by=user(args),
            today=today,
            now=now(),
            mail_from=settings().mail_from,
        )
    finally:
        store.engine.dispose()
    toward = f" toward the {'refundable deposit' if args.toward == 'deposit' else 'fee'}" if args.toward else ""
    print(f"permits: {args.id}: recorded event {recorded.seq} (payment-received, ${args.amount}{toward}); state {recorded.state}")
    return 0


def cmd_show(args) -> int:
    from services.fees import fee_standing
    from workflows.fees import dollars

    check_id(args.id)
    store = open_store(args)
    try:
        filing, _ = store.load(args.id)
        got = fee_standing(store, filing)
    finally:
        store.engine.dispose()
    words = got.fee.words() if got.fee is not None else "the town charges no application fee for this kind of filing"
    if args.json:
        out = {
            "filing": args.id,
            "fee": words,
            "due": None if got.fee is None or got.fee.due is None else f"{got.fee.due / 100:.2f}",
            "paid": f"{got.paid / 100:.2f}",
            "left": None if got.left is None else f"{got.left / 100:.2f}",
            "payments": [
                {
                    "date": p.date.isoformat(),
                    "amount": f"{p.cents / 100:.2f}",
                    "method": p.method,
                    "reference": p.reference,
                    "toward": p.toward or None,
                }
                for p in got.payments
            ],
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"{args.id}: {words}")
    for p in got.payments:
        toward = f"  toward the {'refundable deposit' if p.toward == 'deposit' else 'fee'}" if p.toward else ""
        print(f"  {p.date}  {dollars(p.cents):>12}  {p.method}{'  ' + p.reference if p.reference else ''}{toward}")
    left = "not known (the town has not entered the fee)" if got.left is None else dollars(got.left)
    print(f"  paid {dollars(got.paid)}; left to pay {left}")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "payments",
        help="a filing's application fee and the payments recorded against it",
        description="Show a filing's application fee (each town's, cited) and the payments on record, or record "
        "one. No card is processed: the payment recorded is the money the town received.",
    )
    if p.sketch:  # another command was asked for: the fee schedule's choices are not needed
        return
    from workflows.fees import METHODS, TOWARD

    cmds = p.add_subparsers(dest="payments_command", required=True, parser_class=type(p), help="record or show")
    r = cmds.add_parser(
        "record",
        help="record a payment the town received (refused when the payments would add up to more than the fee)",
        description="Record that the town received AMOUNT for the filing: a payment-received event, refused "
        "with nothing written when it is malformed or the payments on record would add up to more than the fee due.",
    )
    r.add_argument("id", help="the filing id")
    r.add_argument("--amount", required=True, help="dollars and cents, e.g. 50.00")
    r.add_argument("--method", required=True, choices=METHODS, help="how it was paid")
    r.add_argument("--reference", help="the check's number, the money order's or the transfer's (required but for cash)")
    r.add_argument(
        "--toward",
        choices=TOWARD,
        help="what it pays: the fee, or a street opening's refundable deposit, which the Town then holds "
        "(default: the fees first, then the deposit)",
    )
    r.add_argument("--date", metavar="DAY", help="the day it was received, YYYY-MM-DD (default: today)")
    r.add_argument("--as-of", help="today, YYYY-MM-DD (default: the town's today)")
    r.add_argument("--by", help="who records it (default: $PERMITS_USER, else the login name)")
    r.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    r.set_defaults(func=cmd_record)
    s = cmds.add_parser(
        "show",
        help="the fee, the payments and what is left",
        description="Print the filing's fee in words, its payments and what is left to pay.",
    )
    s.add_argument("id", help="the filing id")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    s.set_defaults(func=cmd_show)
