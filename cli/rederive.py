"""``permits rederive``: store again what each filing's history implies
(state, next deadline, clocks, a street opening's deposit ledger), for a
store built before a release that derives more: :func:`services.rederive.rederive`."""

from __future__ import annotations

import json

from cli.args import ProgressBar, as_of, check_choice, open_store, user

__all__ = ["add_commands"]


def cmd_rederive(args) -> int:
    from services.rederive import rederive
    from workflows.towns import registry

    check_choice("town", args.town, list(registry()))
    store = open_store(args)
    try:
        got = rederive(
            store, by=user(args), town=args.town, dry_run=args.dry_run, progress=ProgressBar("rederive"), today=as_of(args)
        )
    finally:
        store.engine.dispose()
    if args.json:
        print(json.dumps(got.as_dict(), indent=2))
        return 0
    would = "would be " if got.dry_run else ""
    print(
        f"permits: rederive{' (dry run: nothing written)' if got.dry_run else ''}"
        f"{f', {args.town}' if args.town else ''}: {got.filings:,} filing(s) replayed; "
        f"{got.clocks_changed:,} {would}given their clocks again (state, next deadline, clocks); "
        f"{got.ledger_lines:,} deposit ledger line(s) {would}added"
    )
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "rederive",
        help="store again each filing's clocks and deposit ledger from its history (after an upgrade)",
        description="Replay every filing's history as of today and store what recording an event today would store: its state, "
        "next deadline and clocks (the DPW's inspection clocks, Canton 16-12 §10.2, among them) where they differ, and "
        "a street opening's missing deposit ledger lines (Canton 16-12 §4-6). One transaction per filing; a second "
        "run changes nothing. Run it once after upgrading to a release that derives more (docs/operations/upgrading.md).",
    )
    p.add_argument("--town", help="only this town's filings (default: every town)")
    p.add_argument("--dry-run", action="store_true", help="count what would change, write nothing")
    p.add_argument(
        "--as-of",
        metavar="DATE",
        help="the day the clocks are replayed as of (default: today; never before a filing's last event "
        "or the day its clocks already are as of)",
    )
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    p.add_argument("--by", help="who the ledger lines are recorded by (default: $PERMITS_USER, else the login name)")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.set_defaults(func=cmd_rederive)
