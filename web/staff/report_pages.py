"""The Reports page (``/reports``): a board's year in figures for one of
the user's towns, each figure a chart beside its table (the service's
:mod:`services.reports`), filtered by year and kind; every table as CSV,
the whole report as XLSX, the annual report section as a PDF.  And the
Filings list as CSV or XLSX with the filters in force (``/filings.csv``,
``/filings.xlsx``).  A town outside the user's, or a board outside their
role, is not found (404)."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from models.types import User
from workflows.departments import DEPARTMENTS

from ..deps import StaffUser, StoreDep, Today
from ..render import render
from ..values import number_or

__all__ = ["router", "FILING_COLUMNS"]

router = APIRouter()
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: the columns of the filings list's CSV and XLSX: the page's, in its order
FILING_COLUMNS = ("filing", "town", "kind", "state", "site", "parcel", "applicant", "next deadline", "due")


def _choice(request: Request, user: User, as_of: date):
    """The report asked for, within what the user may see: (town, board, year, kind); 404 outside."""
    from services.reports import BOARDS, LAST_YEAR, board_kinds

    q = request.query_params
    towns = user.visible_towns()
    town = q.get("town") or (towns[0] if towns else "")
    boards = [b for b in BOARDS if {k for k, d in DEPARTMENTS.items() if d == b} & set(user.kinds)]
    board = q.get("board") or (boards[0] if boards else "")
    if town not in towns or board not in boards:
        raise HTTPException(404)
    kinds = [k for k in board_kinds(town, board) if k in user.kinds]
    kind = q.get("kind") or None
    if kind is not None and kind not in kinds:
        raise HTTPException(404)
    year = number_or(q.get("year"), as_of.year, 1990, LAST_YEAR)
    return town, board, year, kind, {"towns": towns, "boards": [(b, BOARDS[b]) for b in boards], "kinds": kinds}


def _query(town: str, board: str, year: int, kind: str | None) -> str:
    from urllib.parse import urlencode

    return urlencode({"town": town, "board": board, "year": year, **({"kind": kind} if kind else {})})


@router.get("/reports")
def reports(request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    from notices.annual_report import chart_of
    from services.reports import board_year, written_cell

    town, board, year, kind, choices = _choice(request, user, as_of)
    y = board_year(store, town=town, board=board, year=year, as_of=as_of, kind=kind)
    ctx = {
        "y": y,
        "tables": [(t, chart_of(t, written=written_cell)) for t in y.tables],
        "cell": written_cell,
        "query": _query(town, board, year, kind),
        "years": list(range(as_of.year, as_of.year - 10, -1)),
        **choices,
    }
    return render(request, "staff/reports.html", ctx, user=user)


@router.get("/reports/{key}.csv")
def report_csv(key: str, request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    from services.reports import ReportRefused, board_year, table_csv, table_rows

    town, board, year, kind, _ = _choice(request, user, as_of)
    y = board_year(store, town=town, board=board, year=year, as_of=as_of, kind=kind)
    try:
        table = table_rows(y.tables, key)
    except ReportRefused:
        raise HTTPException(404) from None
    name = f"{town}-{board}-{year}-{table.key}.csv"
    return Response(table_csv(table), media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/reports/report.xlsx")
def report_xlsx(request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    from services.reports import board_year, tables_xlsx

    town, board, year, kind, _ = _choice(request, user, as_of)
    y = board_year(store, town=town, board=board, year=year, as_of=as_of, kind=kind)
    name = f"{town}-{board}-{year}.xlsx"
    return Response(tables_xlsx(y.tables), media_type=XLSX, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/reports/annual.pdf")
def report_pdf(request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    from services.reports import annual_report_pdf

    town, board, year, _, _ = _choice(request, user, as_of)
    pdf = annual_report_pdf(store, town=town, board=board, year=year, as_of=as_of)
    name = f"{town}-{board}-{year}-annual-report.pdf"
    return Response(pdf, media_type="application/pdf", headers={"Content-Disposition": f'attachment; filename="{name}"'})


def filing_rows(request: Request, user: User, store) -> list[tuple]:
    """Every filing of the Filings list with its filters in force, as the export's rows."""
    from models.read.filing_list import SORTS, filing_list
    from workflows.vocabulary import clock_name, kind_name, state_name

    from .pages import user_scope

    q = request.query_params
    text, state, town, kind = q.get("q", "")[:200], q.get("state") or None, q.get("town") or None, q.get("kind") or None
    sort = q.get("sort") if q.get("sort") in SORTS else "id"
    towns, kinds = user_scope(user, town, kind)
    out, page, pages = [], 1, 1
    while page <= pages:
        listing = filing_list(
            store,
            towns=towns,
            kinds=kinds,
            text=text,
            state=state,
            sort=sort,
            descending=q.get("order") == "desc",
            page=page,
            per_page=500,
        )
        pages = listing.pages
        out += [
            (
                r.id,
                r.town,
                kind_name(r.kind),
                state_name(r.kind, r.state),
                r.address or "",
                r.parcel or "",
                r.applicant or "",
                clock_name(r.next_deadline_clock) if r.next_deadline_clock else "",
                r.next_deadline_date,
            )
            for r in listing.rows
        ]
        page += 1
    return out


@router.get("/filings.csv")
def filings_csv(request: Request, user: StaffUser, store: StoreDep):
    from workflows.spreadsheet import csv_text

    body = csv_text(FILING_COLUMNS, filing_rows(request, user, store))
    return Response(body, media_type="text/csv", headers={"Content-Disposition": 'attachment; filename="filings.csv"'})


@router.get("/filings.xlsx")
def filings_xlsx(request: Request, user: StaffUser, store: StoreDep):
    from notices.xlsx import xlsx_bytes

    body = xlsx_bytes([("Filings", FILING_COLUMNS, filing_rows(request, user, store))])
    return Response(body, media_type=XLSX, headers={"Content-Disposition": 'attachment; filename="filings.xlsx"'})
