"""``permits parcels`` (import, list, find) and ``permits abutters``: the
assessors' parcels and the abutter list computed from them, over
:mod:`services.parcels` and :mod:`services.parcel_abutters`."""

from __future__ import annotations

import json

from cli.args import UsageError, open_store, user, writable_file

__all__ = ["add_commands"]

_DB_HELP = "database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)"


def _say_on_a_terminal(text: str) -> None:
    """A stage of the import, told on a terminal; off one (a log, a pipe)
    the parcels' count says when writing starts and ends, and a refusal
    stays the one line it is."""
    import sys

    if sys.stderr.isatty():
        print(f"permits: {text}", file=sys.stderr, flush=True)


def cmd_import(args) -> int:
    from cli.progress import ProgressBar
    from services.parcels import import_parcels

    bar = ProgressBar("parcels", unit="parcels", then="writing the owners and committing the whole in one transaction")
    store = open_store(args)
    try:
        result = import_parcels(
            store,
            args.path,
            town=args.town,
            by=user(args),
            now=store.now(),
            parcels_layer=args.parcels_layer,
            assess_layer=args.assess_layer,
            fields=args.field or (),
            fiscal_year=args.fiscal_year,
            say=_say_on_a_terminal,
            progress=bar,
        )
    finally:
        store.engine.dispose()
    print(f"permits: {result.summary()}")
    return 0


def cmd_list(args) -> int:
    from services.parcels import parcel_layers, town_time

    store = open_store(args)
    try:
        layers = parcel_layers(store, town=args.town, replaced=args.all)
    finally:
        store.engine.dispose()
    if args.json:
        print(json.dumps([{**layer.__dict__} for layer in layers], indent=2, default=str))
        return 0
    if not layers:
        print("permits: no parcels imported" + (f" for {args.town}" if args.town else ""))
        return 0
    for layer in layers:
        state = f"replaced {town_time(layer.replaced_at)}" if layer.replaced_at else "current"
        print(
            f"{layer.town:<10} FY{layer.fiscal_year}  {layer.parcels:>7,} parcels  {layer.owners:>7,} owners  "
            f"{layer.source}  imported {town_time(layer.imported_at)} by {layer.imported_by}  ({state})"
        )
    return 0


def cmd_find(args) -> int:
    from services.parcels import find_parcels

    store = open_store(args)
    try:
        found = find_parcels(store, args.town, args.text, limit=args.limit)
    finally:
        store.engine.dispose()
    if args.json:
        print(json.dumps([{**p.__dict__, "owners": [list(o) for o in p.owners]} for p in found], indent=2))
        return 0
    if not found:
        print(f"permits: no parcel of {args.town} matches {args.text!r}")
        return 0
    for p in found:
        owner = p.owners[0] if p.owners else None
        who = f"{owner[0]}, {owner[1]}, {owner[2]}, {owner[3]} {owner[4]}" if owner else "(no owner record)"
        more = f" (+{len(p.owners) - 1} more)" if len(p.owners) > 1 else ""
        print(f"{p.map_par_id or '-':<12} {p.loc_id:<20} {p.site_addr or '(no site address)':<28} {who}{more}  FY{p.fiscal_year}")
    return 0


def cmd_abutters(args) -> int:
    import sys

    from services.parcel_abutters import abutters_csv, compute_abutters

    if args.csv:
        writable_file(args.csv, "--csv")
    store = open_store(args)
    try:
        result = compute_abutters(store, args.town, args.parcel, kind=args.kind, feet=args.feet)
    finally:
        store.engine.dispose()
    for parcel, owner in result.incomplete:
        print(f"permits: warning: parcel {parcel}: {owner} has no complete mailing address; left out", file=sys.stderr)
    subject = result.subject
    print(
        f"Abutters of {subject.label} ({subject.site_addr or subject.loc_id}), {args.town}, "
        f"from the FY{result.fiscal_year} parcels: {len(result.parties)} letter(s) for {len(result.listed)} parcel(s)"
    )
    print(f"  rule: {result.rule_text}")
    for p in result.parties:
        print(
            f"  {p.name}, {p.street}, {p.city}, {p.state} {p.zip}  [{'; '.join(p.parcels)}]  {p.ring}  ({' and '.join(result.rules_for(p))})"
        )
    if args.csv:
        try:
            with open(args.csv, "w", encoding="utf-8", newline="") as fh:
                fh.write(abutters_csv(result))
        except OSError as exc:
            raise UsageError(f"cannot write --csv {args.csv}: {exc.strerror}") from None
        print(f"permits: wrote {args.csv} (read it with permits notices --abutters {args.csv})")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "parcels",
        help="the assessors' parcels (MassGIS Level 3): import, list, find",
        description="Import a town's assessors' parcels (MassGIS Level 3: the tax parcels and the assessing table), "
        "list the imports, find a parcel by address or map-lot id.",
    )
    actions = p.add_subparsers(dest="action", required=True, parser_class=type(p), metavar="ACTION", help="import, list or find")
    i = actions.add_parser(
        "import",
        help="import a town's L3 parcels and assessing table",
        description="Read a town's MassGIS Level 3 parcels (a folder of shapefiles or one .shp of it, its .zip, a "
        "GeoPackage or a file geodatabase) and make them the town's parcels, in one transaction. A later (or the same) "
        "fiscal year replaces the town's parcels; an earlier one is refused. Bad input is one line and exit status 2, "
        "nothing written.",
    )
    i.add_argument("path", help="the folder, .shp, .zip, .gpkg or .gdb")
    i.add_argument("--town", required=True, help="the town the parcels are of (canton, saugus, mansfield, wpa)")
    i.add_argument("--parcels-layer", metavar="NAME", help="the tax-parcel polygon layer (default: the one named *TaxPar)")
    i.add_argument("--assess-layer", metavar="NAME", help="the assessing table (default: the one named *Assess)")
    i.add_argument(
        "--field",
        action="append",
        metavar="L3NAME=THEIRS",
        help="a field named otherwise than the L3 standard, e.g. OWN_ZIP=ZIPCODE (repeat for each)",
    )
    i.add_argument("--fiscal-year", type=int, metavar="YYYY", help="the fiscal year, when the table has no FY field")
    i.add_argument("--by", help="who imports (default: $PERMITS_USER, else the login name)")
    i.add_argument("--db", metavar="URL", help=_DB_HELP)
    i.set_defaults(func=cmd_import)
    ls = actions.add_parser(
        "list", help="each town's imported parcels", description="Each town's current parcels: fiscal year, counts, source."
    )
    ls.add_argument("--town", help="only this town")
    ls.add_argument("--all", action="store_true", help="the replaced imports too")
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.add_argument("--db", metavar="URL", help=_DB_HELP)
    ls.set_defaults(func=cmd_list)
    f = actions.add_parser(
        "find",
        help="find a parcel by address or map-lot id",
        description="The town's parcels whose LOC_ID or map-lot id is TEXT, then those whose site address contains it.",
    )
    f.add_argument("text", help="an address (40 Washington St), a map-lot id (12-033) or a LOC_ID")
    f.add_argument("--town", required=True, help="the town")
    f.add_argument("--limit", type=int, default=10, help="at most this many (default: 10)")
    f.add_argument("--json", action="store_true", help="print JSON")
    f.add_argument("--db", metavar="URL", help=_DB_HELP)
    f.set_defaults(func=cmd_find)

    a = sub.add_parser(
        "abutters",
        help="the abutter list of a parcel, computed from the town's parcels",
        description="Compute a parcel's abutter list from the imported parcels by the town's rule (the state's 100 ft, "
        "310 CMR 10.05(4)(a); Saugus 508.08 §5.4; Canton 15-5...), one letter per owner and mailing address, and "
        "write it as the CSV the notices read.",
    )
    if a.sketch:  # another command was asked for: the rule book's kinds are not needed
        return
    from workflows.rulebook import KINDS

    a.add_argument("--town", required=True, help="the town of the parcel")
    a.add_argument("--parcel", required=True, metavar="LOC_ID", help="the parcel: its LOC_ID or map-lot id")
    a.add_argument(
        "--kind",
        default="noi",
        choices=[k for k in KINDS if k != "street-opening"],
        help="the permit kind whose rule applies (default: noi)",
    )
    a.add_argument(
        "--feet", type=int, metavar="N", help="instead of the town's rule: owners within N feet, and those opposite on a way"
    )
    a.add_argument("--csv", metavar="FILE", help="write the list as CSV (permits notices --abutters FILE reads it)")
    a.add_argument("--db", metavar="URL", help=_DB_HELP)
    a.set_defaults(func=cmd_abutters)
