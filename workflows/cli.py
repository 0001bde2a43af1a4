"""The ``permits`` command line: the edge where "today" is read, files are
opened and errors become one line on standard error with exit status 2.

Each sub-command lives in its own small function; the core does the work.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date, datetime

from .errors import PermitsError

__all__ = ["main", "build_parser"]

EXIT_BAD_INPUT = 2


class UsageError(PermitsError):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit status 2."""

    def error(self, message):  # noqa: D401 - argparse's hook
        raise UsageError(f"{message} (see '{self.prog} --help')")


def parse_day(text: str, what: str = "date") -> date:
    try:
        if not (len(text) == 10 and text[4] == "-" and text[7] == "-"):
            raise ValueError("not in the form YYYY-MM-DD")
        return date.fromisoformat(text)
    except ValueError as exc:
        raise UsageError(f"invalid {what} {text!r}: {exc} (use YYYY-MM-DD)") from None


def parse_moment(text: str, what: str = "date") -> date | datetime:
    """A date, or a date and time (YYYY-MM-DDTHH:MM) for clocks in hours."""
    if "T" in text or " " in text.strip():
        try:
            return datetime.fromisoformat(text)
        except ValueError as exc:
            raise UsageError(f"invalid {what} {text!r}: {exc} (use YYYY-MM-DD or YYYY-MM-DDTHH:MM)") from None
    return parse_day(text, what)


def parse_year(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"invalid year {text!r}: a whole number such as 2027") from None


# -- permits holidays ----------------------------------------------------------

def cmd_holidays(args) -> int:
    from .towns import town

    profile = town(args.town)
    year = parse_year(args.year)
    closed = profile.calendar.closed_days(year)
    if args.json:
        print(json.dumps({"town": profile.id, "year": year, "closed": [c.as_dict() for c in closed]}, indent=2))
        return 0
    print(f"{profile.name}: legal holidays and closures, {year} (M.G.L. c.4 §7 cl.18)")
    for c in closed:
        print(f"  {c.date.isoformat()}  {c.date.strftime('%a')}  {c.name}" + ("  [town closure]" if c.kind == "town closure" else ""))
    return 0


# -- permits clock ---------------------------------------------------------------

def cmd_clock(args) -> int:
    from .towns import town
    from .rulebook import ANCHORS

    profile = town(args.town)
    clock = profile.rules(args.kind).clock(args.clock)
    start = parse_moment(args.start, "--from date")
    count = None
    if args.count is not None:
        if clock.max_count is None:
            raise UsageError(f"--count: the {clock.id} clock has a fixed length ({clock.citation})")
        if not 0 <= args.count <= clock.max_count:
            raise UsageError(f"--count {args.count}: {clock.id} is at most {clock.max_count} days ({clock.citation})")
        count = args.count
    reckoning = clock.measure.reckon(profile.calendar, start, count)
    explanation = reckoning.describe(ANCHORS[clock.start])
    if args.json:
        out = {"town": profile.id, "kind": args.kind, "id": clock.id, "type": clock.type,
               "date": reckoning.date.isoformat(), "rule": clock.citation,
               "explanation": explanation, "reckoning": reckoning.as_dict()}
        if reckoning.at is not None:
            out["at"] = reckoning.at.isoformat(timespec="minutes")
        print(json.dumps(out, indent=2))
        return 0
    when = reckoning.at.isoformat(timespec="minutes") if reckoning.at else reckoning.date.isoformat()
    print(f"{profile.name} {args.kind} {clock.id} ({clock.type}): {when} {reckoning.date.strftime('%A')}")
    print(f"  rule: {clock.citation}")
    print(f"  how:  {explanation}")
    if clock.note:
        print(f"  note: {clock.note}")
    return 0


# -- permits replay / machines -------------------------------------------------

def read_filing_file(path: str):
    """Read and parse a filing JSON file; a bad file is a UsageError."""
    from .filing import parse_filing

    try:
        with open(path, encoding="utf-8") as fh:
            obj = json.load(fh)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return parse_filing(obj)


def cmd_replay(args) -> int:
    from .replay import replay

    as_of = parse_day(args.as_of, "--as-of date") if args.as_of else date.today()  # the edge reads today
    result = replay(read_filing_file(args.file), as_of)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        return 0
    print(f"{result.id}  {result.town} {result.kind}  state: {result.state}  (as of {as_of})")
    rows = [("clock", "date", "status", "rule")]
    for c in result.clocks:
        when = c.at.isoformat(timespec="minutes") if c.at else c.date.isoformat()
        mark = " *" if c.binding else ""
        rows.append((c.id + mark, when, c.status, c.rule))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
    if any(c.binding for c in result.clocks):
        print("* binds: the earlier of the town's and the state's deadline")
    if args.explain:
        print()
        for c in result.clocks:
            print(f"{c.id}: {c.explanation}")
    return 0


def cmd_machines(args) -> int:
    from .replay import MACHINES

    kinds = [args.kind] if args.kind else list(MACHINES)
    for kind in kinds:
        if kind not in MACHINES:
            from .errors import UnknownChoice
            raise UnknownChoice("permit kind", kind, MACHINES)
    print(machines_text(kinds, args.format))
    return 0


def machines_text(kinds, fmt: str = "text") -> str:
    from .replay import MACHINES

    out = []
    for kind in kinds:
        m = MACHINES[kind]
        rows = m.table()
        if fmt == "md":
            out.append(f"### {kind}\n")
            out.append(f"States: {', '.join(s.value for s in m.states)}; final: {', '.join(sorted(m.final))}.\n")
            out.append("| event | from | to | guard / condition |")
            out.append("|---|---|---|---|")
            out += [f"| {e} | {f} | {t} | {g} |" for e, f, t, g in rows]
            out.append("")
        else:
            out.append(f"{kind}: states {', '.join(s.value for s in m.states)}")
            w = [max(len(r[i]) for r in rows) for i in range(3)]
            out += ["  " + "  ".join(r[i].ljust(w[i]) for i in range(3)) + ("  " + r[3] if r[3] else "") for r in rows]
            out.append("")
    return "\n".join(out).rstrip("\n")


# -- permits demo ----------------------------------------------------------------

def cmd_demo(args) -> int:
    if args.clocks:
        from .demo import run_demo

        return run_demo(sys.stdout)
    from .cli_sweep import cmd_demo_sweep

    return cmd_demo_sweep(args)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="permits", description="Permit workflow engine for Massachusetts towns.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("holidays", help="a town's legal holidays and closures for a year",
                       description="List a town's Massachusetts legal holidays (M.G.L. c.4 §7 cl.18) and its own closures for one year.")
    p.add_argument("--town", required=True, help="town id, e.g. canton")
    p.add_argument("--year", required=True, help="calendar year, e.g. 2027")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_holidays)

    p = sub.add_parser("clock", help="one clock's date and how it was counted",
                       description="Compute one clock of a town's rule book from a start date, with its explanation.")
    p.add_argument("kind", help="permit kind: noi, rda, land-disturbance, street-opening")
    p.add_argument("clock", help="clock id, e.g. hearing-open (see ../shared/FILING-FORMAT.md)")
    p.add_argument("--town", required=True, help="town id, e.g. canton")
    p.add_argument("--from", dest="start", required=True, help="start date YYYY-MM-DD (YYYY-MM-DDTHH:MM for clocks in hours)")
    p.add_argument("--count", type=int, help="length taken from the record, for clocks that allow it (suspension days)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_clock)

    p = sub.add_parser("replay", help="a filing's state and clocks, replayed from its events",
                       description="Replay a filing JSON file (FILING-FORMAT.md): its state and every clock it has started, with status and rule.")
    p.add_argument("file", help="filing JSON file")
    p.add_argument("--as-of", help="the day to judge open/overdue by, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print the FILING-FORMAT.md JSON")
    p.add_argument("--explain", action="store_true", help="also print how each date was counted")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("machines", help="each permit machine's transition table",
                       description="Print the declared state machine of each permit kind: events, states, guards with their rules.")
    p.add_argument("kind", nargs="?", help="one permit kind (default: all)")
    p.add_argument("--format", choices=("text", "md"), default="text", help="text (default) or md (Markdown)")
    p.set_defaults(func=cmd_machines)

    from .cli_store import add_store_commands

    add_store_commands(sub, _Parser)

    from notices.cli import add_parser as add_notices_parser  # an edge; loads no Jinja until used

    add_notices_parser(sub)
    from .cli_store import install_notice_hooks  # a filing id is one in the store; its notices are recorded there

    install_notice_hooks()

    p = sub.add_parser("demo", help="the main job on generated filings: the daily sweep and its outputs",
                       description="Fill a demonstration store with generated filings for Canton, Saugus and "
                                   "Mansfield (every permit kind, some overdue, street openings at every stage), "
                                   "run the daily sweep on it, print the docket and leave the digest, the "
                                   "inspection schedule, the ICS feeds and sample notices in an output folder.")
    p.add_argument("--clocks", action="store_true", help="instead, show a few clocks of each town and how they are counted")
    p.add_argument("--as-of", help="the day to generate and sweep for, YYYY-MM-DD (default: today)")
    p.add_argument("--count", type=int, default=400, help="how many filings to generate (default: 400)")
    p.add_argument("--seed", type=int, default=2026, help="generator seed (default: 2026)")
    p.add_argument("--out", help="output folder (default: out/demo-DATE, replaced each run)")
    p.add_argument("--notices", type=int, default=12, help="make at most this many notices, a sample (default: 12)")
    p.add_argument("--no-prefect", action="store_true", help="run the sweep as a plain call, without Prefect")
    p.set_defaults(func=cmd_demo)

    from .cli_sweep import add_commands

    add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "needs_calendar", True):
            from .holiday_cache import install_holiday_cache

            install_holiday_cache()
        return args.func(args)
    except PermitsError as exc:
        print(f"permits: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `permits ... | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
