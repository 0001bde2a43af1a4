"""``permits open-data``: the town's permits, inspections and status
changes in BLDS's field names (:mod:`services.open_data`), as CSV, JSON or
GeoJSON, for a town's GIS, a regional planning agency or a state dashboard.
Read only."""

from __future__ import annotations

import sys

from cli.args import UsageError, open_store, parse_day, today, writable_file

__all__ = ["add_commands"]


def cmd_open_data(args) -> int:
    from pathlib import Path

    from services.open_data import dataset, encode
    from workflows.towns import registry

    if args.town is not None and args.town not in registry():
        raise UsageError(f"--town {args.town!r}: no such town ('permits towns list')")
    if args.format == "geojson" and args.dataset != "permits":
        raise UsageError("--format geojson: only the permits have a place (their parcel's point)")
    out = writable_file(args.out) if args.out else None
    as_of = parse_day(args.as_of, "--as-of date") if args.as_of else today()
    store = open_store(args)
    try:
        rows = dataset(store, args.dataset, towns=[args.town] if args.town else None, as_of=as_of)
    finally:
        store.engine.dispose()
    body = encode(args.dataset, rows, args.format)
    if out is None:
        sys.stdout.buffer.write(body)
        return 0
    Path(out).write_bytes(body)
    print(f"permits: {out}: {len(rows)} {args.dataset} rows (BLDS), {args.format}")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "open-data",
        help="the permits, inspections and status changes as open data in BLDS's field names",
        description="Write a town's (or every town's) permits, inspections or status changes as open data in the "
        "field names of BLDS 1.2 (docs/reference/open-data.md): CSV, JSON, or GeoJSON for the permits.",
    )
    p.add_argument("dataset", choices=("permits", "inspections", "status-changes"), help="the dataset")
    p.add_argument("--town", help="one town id (default: every town)")
    p.add_argument("--format", choices=("csv", "json", "geojson"), default="csv", help="the file's format (default csv)")
    p.add_argument("--out", help="the file to write (default: standard output)")
    p.add_argument("--as-of", help="the day the permits' status is judged on, YYYY-MM-DD (default: today)")
    p.add_argument("--db", metavar="URL", help="database URL (default: $PERMITS_DATABASE_URL, else DATA_DIR/permits.db)")
    p.set_defaults(func=cmd_open_data)
