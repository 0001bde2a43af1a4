"""``permits report``: a board's year for the Town report, as the annual
report's PDF, or its tables as CSV (one table) or XLSX (every table): the
Reports page's figures (:mod:`services.reports`), the same numbers."""

from __future__ import annotations

from cli.args import UsageError, open_store, record_parents, today

__all__ = ["add_commands"]

FORMATS = ("pdf", "csv", "xlsx")


def cmd_report(args) -> int:
    from pathlib import Path

    from services.reports import annual_report_pdf, board_year, table_csv, table_rows, tables_xlsx

    if not 1990 <= args.year <= 2100:
        raise UsageError(f"--year {args.year}: a report is made for a year from 1990 to 2100")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise UsageError(f"--out {args.out}: no such folder {str(out.parent)!r}")
    store = open_store(args)
    try:
        as_of = today()
        if args.format == "pdf":
            body: bytes | str = annual_report_pdf(store, town=args.town, board=args.board, year=args.year, as_of=as_of)
        else:
            y = board_year(store, town=args.town, board=args.board, year=args.year, as_of=as_of, kind=args.kind)
            body = table_csv(table_rows(y.tables, args.table)) if args.format == "csv" else tables_xlsx(y.tables)
    finally:
        store.engine.dispose()
    if isinstance(body, str):
        out.write_text(body, encoding="utf-8")
    else:
        out.write_bytes(body)
    print(f"permits: the {args.board} report of {args.town} for {args.year} written to {out}")
    return 0


def add_commands(sub) -> None:
    common, _ = record_parents()
    p = sub.add_parser(
        "report",
        parents=[common],
        help="a board's year for the Town report: the annual report (PDF) or its tables (CSV, XLSX)",
        description="Write the year's report of a town's board: filings received, decisions on time, hearings continued, "
        "Orders issued, expired and certified, enforcement, fees and deposits, inspections. As the annual report's PDF, "
        "every table as XLSX, or one table (--table) as CSV.",
    )
    p.add_argument("--town", required=True, help="town id, e.g. canton")
    p.add_argument("--year", required=True, type=int, help="the calendar year, e.g. 2026")
    p.add_argument("--board", default="conservation", choices=("conservation", "dpw"), help="the board (default: conservation)")
    p.add_argument("--kind", default=None, help="one permit kind of the board's (CSV and XLSX)")
    p.add_argument("--format", default="pdf", choices=FORMATS, help="pdf (default), csv or xlsx")
    p.add_argument("--table", default="received", help="the table a CSV holds (default: received)")
    p.add_argument("--out", required=True, help="the file to write")
    p.set_defaults(func=cmd_report)
