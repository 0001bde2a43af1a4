"""The commands over the rule book and the core: ``holidays``, ``clock``,
``replay``, ``machines``.  They need no store, no Jinja and no Prefect, and
import none of them."""

from __future__ import annotations

import json

from cli.args import UsageError, parse_day, parse_moment, parse_year, read_filing_file, today

__all__ = ["add_commands", "machines_text"]


# -- permits holidays ----------------------------------------------------------


def cmd_holidays(args) -> int:
    from workflows.towns import town

    profile = town(args.town)
    year = parse_year(args.year)
    closed = profile.calendar.closed_days(year)
    if args.json:
        print(json.dumps({"town": profile.id, "year": year, "closed": [c.as_dict() for c in closed]}, indent=2))
        return 0
    print(f"{profile.name}: legal holidays and closures, {year} (M.G.L. c.4 §7 cl.18)")
    for c in closed:
        print(
            f"  {c.date.isoformat()}  {c.date.strftime('%a')}  {c.name}"
            + ("  [town closure]" if c.kind == "town closure" else "")
        )
    return 0


# -- permits clock ---------------------------------------------------------------


def cmd_clock(args) -> int:
    from workflows.rulebook import ANCHORS
    from workflows.towns import town

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
        out = {
            "town": profile.id,
            "kind": args.kind,
            "id": clock.id,
            "type": clock.type,
            "date": reckoning.date.isoformat(),
            "rule": clock.citation,
            "explanation": explanation,
            "reckoning": reckoning.as_dict(),
        }
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


def cmd_replay(args) -> int:
    from workflows.replay import replay

    as_of = parse_day(args.as_of, "--as-of date") if args.as_of else today()  # the edge reads the town's today
    result = replay(read_filing_file(args.file), as_of)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        return 0
    from workflows.stage import stage_name

    print(
        f"{result.id}  {result.town} {result.kind}  state: {result.stage} ({stage_name(result.kind, result.stage)})  (as of {as_of})"
    )
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


def _machines() -> dict:
    """Every machine ``permits machines`` prints, by the name it prints:
    each permit kind's, the variants a town's rule book may pick (Mansfield's
    street excavation permit) after their kind, and the enforcement case's."""
    from workflows.enforcement import MACHINE as CASE
    from workflows.replay import MACHINES, VARIANTS

    out = {}
    for kind, m in MACHINES.items():
        out[kind] = (kind, m)
        for name, v in VARIANTS.items():
            if v.kind == kind:
                out[name] = (f"{kind} ({name}: {_variant_towns(name)})", v)
    out["enforcement"] = ("enforcement (a case: workflows/enforcement.py)", CASE)
    return out


def _variant_towns(name: str) -> str:
    from workflows.towns import registry

    return ", ".join(f"{p.name}, {r.bylaw}" for p in registry().values() for r in p.permits.values() if r.machine == name)


def cmd_machines(args) -> int:
    from workflows.replay import MACHINES

    known = _machines()
    kinds = [args.kind] if args.kind else list(known)
    for kind in kinds:
        if kind not in known:
            from workflows.errors import UnknownChoice

            raise UnknownChoice("permit kind", kind, MACHINES)
    if args.kind in MACHINES:  # a kind's variants come with it
        kinds = [k for k, (title, _) in known.items() if title.split(" ")[0] == args.kind]
    print(machines_text(kinds, args.format))
    return 0


def machines_text(kinds, fmt: str = "text") -> str:
    known = _machines()
    out = []
    for kind in kinds:
        title, m = known[kind]
        rows = m.table()
        if fmt == "md":
            out.append(f"### {title}\n")
            out.append(f"States: {', '.join(s.value for s in m.states)}; final: {', '.join(sorted(m.final))}.\n")
            out.append("| event | from | to | guard / condition |")
            out.append("|---|---|---|---|")
            out += [f"| {e} | {f} | {t} | {g} |" for e, f, t, g in rows]
            out.append("")
            out.append(f"Clocks: {_clocks_of(kind)}.\n")
        else:
            out.append(f"{title}: states {', '.join(s.value for s in m.states)}")
            w = [max(len(r[i]) for r in rows) for i in range(3)]
            out += ["  " + "  ".join(r[i].ljust(w[i]) for i in range(3)) + ("  " + r[3] if r[3] else "") for r in rows]
            out.append("")
    if fmt == "md":
        from workflows.docket import CLOCK_STATUSES

        out.append("### clock statuses\n")
        out.append("| clock type | status | meaning |")
        out.append("|---|---|---|")
        out += [f"| {t} | {s} | {m} |" for t, s, m in CLOCK_STATUSES]
    return "\n".join(out).rstrip("\n")


def _clocks_of(kind: str) -> str:
    """Every clock id a town runs for ``kind`` (or a variant), with its type."""
    from workflows.towns import registry

    if kind == "enforcement":
        from workflows.enforcement_replay import CASE_CLOCK_TYPES

        return ", ".join(f"{cid} ({t})" for cid, t in CASE_CLOCK_TYPES.items())
    seen: dict[str, str] = {}
    for profile in registry().values():
        for rules in profile.permits.values():
            if (rules.machine or rules.kind) == kind or (rules.kind == kind and not rules.machine):
                for c in rules.clocks:
                    seen.setdefault(c.id, c.type)
    return ", ".join(f"{cid} ({t})" for cid, t in seen.items())


def add_commands(sub) -> None:
    p = sub.add_parser(
        "holidays",
        help="a town's legal holidays and closures for a year",
        description="List a town's Massachusetts legal holidays (M.G.L. c.4 §7 cl.18) and its own closures for one year.",
    )
    p.add_argument("--town", required=True, help="town id, e.g. canton")
    p.add_argument("--year", required=True, help="calendar year, e.g. 2027")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_holidays)

    p = sub.add_parser(
        "clock",
        help="one clock's date and how it was counted",
        description="Compute one clock of a town's rule book from a start date, with its explanation.",
    )
    p.add_argument("kind", help="permit kind: noi, rda, land-disturbance, street-opening")
    p.add_argument("clock", help="clock id, e.g. hearing-open (see docs/reference/filing-format.md)")
    p.add_argument("--town", required=True, help="town id, e.g. canton")
    p.add_argument("--from", dest="start", required=True, help="start date YYYY-MM-DD (YYYY-MM-DDTHH:MM for clocks in hours)")
    p.add_argument("--count", type=int, help="length taken from the record, for clocks that allow it (suspension days)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_clock)

    p = sub.add_parser(
        "replay",
        help="a filing's state and clocks, replayed from its events",
        description="Replay a filing JSON file (docs/reference/filing-format.md): its state and every clock it has started, with status and rule.",
    )
    p.add_argument("file", help="filing JSON file")
    p.add_argument("--as-of", help="the day to judge open/overdue by, YYYY-MM-DD (default: today)")
    p.add_argument("--json", action="store_true", help="print the docs/reference/filing-format.md JSON")
    p.add_argument("--explain", action="store_true", help="also print how each date was counted")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "machines",
        help="each permit machine's transition table",
        description="Print the declared state machine of each permit kind: events, states, guards with their rules.",
    )
    p.add_argument("kind", nargs="?", help="one permit kind (default: all)")
    p.add_argument("--format", choices=("text", "md"), default="text", help="text (default) or md (Markdown)")
    p.set_defaults(func=cmd_machines)
