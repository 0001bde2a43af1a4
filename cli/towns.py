"""``permits towns``: the towns in force and their rule books (``list``,
``show``), a town file checked as the registry will read it (``check``),
a town's notice templates checked as they are installed
(``check-templates``, Jinja imported there alone) and a new town started
from the state's rules (``new``).  No store, no Prefect."""

from __future__ import annotations

import sys
from pathlib import Path

from cli.args import UsageError

__all__ = ["add_commands"]


def cmd_list(args) -> int:
    from workflows.towns import registry

    for profile in sorted(registry().values(), key=lambda p: p.id):
        kinds = ", ".join(sorted(profile.permits))
        print(f"{profile.id:24}  {profile.code:4}  {profile.name} ({profile.county or 'the state'}): {kinds}")
    return 0


def cmd_show(args) -> int:
    from workflows.towns import town

    profile = town(args.town)
    print(f"{profile.name}  (id {profile.id}, record ids {profile.code}-..., {profile.county or 'the state'} County)")
    if profile.saturday_closure:
        print(f"  Saturdays closed: {profile.saturday_closure}")
    for kind, rules in sorted(profile.permits.items()):
        print(f"\n{kind}: heard under {rules.bylaw}")
        for clock in rules.clocks:
            print(f"  {clock.id:28} {clock.type:9} {clock.citation}")
    for department, office in sorted(profile.offices.items()):
        demo = f"  (demonstration values: {', '.join(office.demonstration)})" if office.demonstration else ""
        print(f"\noffice {department}: {office.name}, {office.address}{demo}")
        print(f"  signed by {office.signed_by.line if office.signer_name else office.signer}")
        if office.newspaper:
            print(f"  legal notices in {office.newspaper}")
    for bylaw, schedule in sorted(profile.fines.items()):
        amounts = ", ".join("lost" if a is None else f"${a}" for a in schedule.amounts) or "no tickets"
        print(f"\nfines {bylaw}: {amounts}, at most ${schedule.ceiling} ({schedule.citation})")
    for day, reason in sorted(profile.closures.items()):
        print(f"closed {day.isoformat()}: {reason}")
    return 0


def _read(path: str) -> str:
    from workflows.town_file import MAX_BYTES

    file = Path(path)
    if not file.is_file():
        raise UsageError(f"{path}: no such town file")
    if file.stat().st_size > MAX_BYTES:
        raise UsageError(f"{path}: over {MAX_BYTES // 1024} KB: a town file is a page of facts")
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None


def cmd_check(args) -> int:
    from workflows.town_file import town_problems

    bad = 0
    for path in args.files:
        text = _read(path)
        problems = town_problems(text, path)
        if problems:
            bad += 1
            for p in problems:
                print(f"{path}: {p}", file=sys.stderr)
        else:
            from workflows.town_file import read_town

            profile = read_town(text, path)
            print(f"{path}: {profile.name} ({profile.id}) reads: runs {', '.join(sorted(profile.permits))}")
    return 2 if bad else 0


def cmd_check_templates(args) -> int:
    from notices.checked import mark_checked
    from notices.template_check import check_folder

    bad = 0
    for folder in args.folders:
        problems = check_folder(Path(folder))
        if problems:
            bad += 1
            for p in problems:
                print(f"permits: {p}", file=sys.stderr)
            continue
        mark_checked(Path(folder))
        print(f"{folder}: checked; the web and the sweep use these templates as they are now")
    return 2 if bad else 0


def cmd_new(args) -> int:
    from workflows.town_file import new_town, read_town, town_id_of
    from workflows.towns import registry

    name = args.name.strip()
    if not name or len(name) > 60 or not town_id_of(name):
        raise UsageError("NAME: the town's name, such as 'West Springfield' (at most 60 characters)")
    if town_id_of(name) in registry():
        raise UsageError(f"{name}: the town {town_id_of(name)!r} is declared already ('permits towns show {town_id_of(name)}')")
    text = new_town(name, args.county.strip(), args.code.strip() if args.code else "")
    read_town(text, "the new town file")  # a new town reads as it is written
    if args.out is None:
        sys.stdout.write(text)
        return 0
    out = Path(args.out)
    if out.exists():
        raise UsageError(f"{args.out}: exists already; a new town file is not written over another")
    out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {name}, the state's rules; answer its questions, then 'permits towns check {args.out}'")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "towns",
        help="the towns and their rule books; check or start a town file",
        description="The towns in force (list, show), a town file checked (check) and a new town started from the state's rules (new).",
    )
    towns = p.add_subparsers(
        dest="towns_command",
        required=True,
        parser_class=type(p),
        metavar="ACTION",
        help="list, show, check, check-templates or new",
    )
    q = towns.add_parser(
        "list",
        help="every town: id, record-id letters, name, county, permit kinds",
        description="Every town: id, record-id letters, name, county, permit kinds.",
    )
    q.set_defaults(func=cmd_list, needs_calendar=False)
    q = towns.add_parser(
        "show",
        help="one town's rule book in force: clocks with their citations, offices, fines",
        description="One town's rule book in force: clocks with their citations, offices, fines.",
    )
    q.add_argument("town", help="town id, e.g. canton")
    q.set_defaults(func=cmd_show, needs_calendar=False)
    q = towns.add_parser(
        "check",
        help="read town files as the registry will: one line per problem, exit 2 on any",
        description="Read town files as the registry will: one line per problem, exit 2 on any.",
    )
    q.add_argument("files", nargs="+", metavar="FILE", help="town file (TOML)")
    q.set_defaults(func=cmd_check, needs_calendar=False)
    q = towns.add_parser(
        "check-templates",
        help="check a town's notice templates as they are installed; only checked ones are used",
        description="Check each town template folder (notices/templates/<town>/) as the renderer reads it: names, "
        "size, UTF-8, Jinja that compiles in the bounded sandbox. One line per problem and exit 2 on any; a folder "
        "without problems is marked checked, and the web, the sweep and 'permits notices' use its templates only as "
        "they were when checked.",
    )
    q.add_argument("folders", nargs="+", metavar="FOLDER", help="a town's template folder, named by its id")
    q.set_defaults(func=cmd_check_templates, needs_calendar=False)
    q = towns.add_parser(
        "new",
        help="write a new town file: the state's rules, each by-law choice asked as a question",
        description="Write a new town file: the state's rules, each by-law choice asked as a question.",
    )
    q.add_argument("name", help="the town's name, e.g. 'West Springfield'")
    q.add_argument("--county", required=True, help="the town's county, e.g. Hampden")
    q.add_argument("--code", help="the letters of its record ids (default: its first three letters)")
    q.add_argument("--out", help="the file to write (default: print it)")
    q.set_defaults(func=cmd_new, needs_calendar=False)
