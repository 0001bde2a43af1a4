"""``permits check``: does what the store keeps beside each filing's history
(its state, next deadline and clocks with their statuses, the columns the
search finds it by, the docket's counts, the deposit ledger) equal what the
history implies?  :func:`services.record_check.check_record`; exit 0 when
it does, 1 when there are differences (each one a line), 2 for bad input."""

from __future__ import annotations

import json

from cli.args import ProgressBar, UsageError, check_choice, open_store, parse_day

__all__ = ["add_commands", "EXIT_DIFFERENCES", "MAX_SAMPLE"]

#: the exit status when the check finds differences
EXIT_DIFFERENCES = 1
#: the largest sample asked for (more is the whole store: leave --sample out)
MAX_SAMPLE = 1_000_000


def _sample(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_SAMPLE:
        raise UsageError(f"--sample {text!r}: a number of filings from 1 to {MAX_SAMPLE:,}")
    return int(text)


def cmd_check(args) -> int:
    from services.record_check import check_record
    from workflows.towns import registry
    from workflows.written import day_written

    check_choice("town", args.town, list(registry()))
    as_of = parse_day(args.as_of, "--as-of date") if args.as_of else None
    sample = _sample(args.sample)
    store = open_store(args)
    try:
        got = check_record(store, as_of=as_of, sample=sample, town=args.town, progress=ProgressBar("check"))
    finally:
        store.engine.dispose()
    if args.json:
        print(json.dumps(got.as_dict(), indent=2))
        return 0 if got.ok else EXIT_DIFFERENCES
    for d in got.differences:
        print(d.line())
    scope = f"{got.filings:,} of {got.total:,} filing(s)" if got.filings != got.total else f"{got.filings:,} filing(s)"
    also = "; the docket's counts and the deposit ledger" if got.whole else ""
    when = f" as of {day_written(as_of)}" if as_of else " as of the day each one's clocks are kept as of"
    found = "no differences" if got.ok else f"{len(got.differences):,} difference(s)"
    print(f"permits: check: {scope}{when}{also}: {found}")
    return 0 if got.ok else EXIT_DIFFERENCES


def add_commands(sub) -> None:
    p = sub.add_parser(
        "check",
        help="check that what the store keeps (clocks, counts, search, ledger) equals what the histories imply",
        description="Replay each filing's history and compare what the store keeps beside it with what the history "
        "implies: its state, next deadline and clocks with their statuses (as of the day the store says they are "
        "as of, or --as-of), the columns the search finds it by; a whole check also sums the docket's counts "
        "against the clocks and reconciles the deposit ledger (Canton 16-12 §4-6). One line per difference, "
        "then a count. Writes nothing; 'permits rederive' repairs. Exit status: 0 no differences, 1 differences, "
        "2 bad input.",
    )
    p.add_argument(
        "--as-of",
        metavar="DATE",
        help="replay each filing as of this day, YYYY-MM-DD (default: the day its clocks are kept as of): "
        "the differences are then what a rederive that day would change",
    )
    p.add_argument("--sample", metavar="N", help="check N filings chosen at random (default: every filing)")
    p.add_argument("--town", help="only this town's filings (default: every town)")
    p.add_argument("--json", action="store_true", help="print what was found as JSON")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.set_defaults(func=cmd_check)
