"""A board's year: the figures of the Reports page and of the annual report
(``permits report``), counted from the record (:mod:`models.read.reports`)
by the core's arithmetic (:mod:`workflows.reports`), and the tables they
are printed in, the same on the page, in a CSV, an XLSX and the PDF.

A board is a town's department (:data:`workflows.departments.DEPARTMENTS`):
the Conservation Commission (wetlands filings, land disturbance permits,
the enforcement cases) or the Department of Public Works (street openings).
Read only: nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from calendars.errors import PermitsError
from models.handle import Store
from models.read.reports import year_record
from workflows.departments import DEPARTMENTS
from workflows.reports import STAGES, YearReport, year_report
from workflows.towns import registry
from workflows.vocabulary import kind_name
from workflows.written import day_written, short_day

__all__ = [
    "BOARDS",
    "MONTHS",
    "Table",
    "BoardYear",
    "ReportRefused",
    "board_kinds",
    "board_year",
    "tables_of",
    "money",
    "percent",
    "written_cell",
    "table_rows",
]

#: the boards a report is made for, by department
BOARDS = {"conservation": "Conservation Commission", "dpw": "Department of Public Works"}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
FIRST_YEAR, LAST_YEAR = 1990, 2100
_AUTHORITY = {"by-law": "The by-law's period", "state": "The state's period"}


class ReportRefused(PermitsError):
    """A report asked for what is not: a town, a board or a year outside those kept."""


@dataclass(frozen=True)
class Table:
    """One table of a report: its key (the file's name), title, header and
    rows of plain values (text, whole numbers, dates), and the chart drawn
    from it (``chart``: the label column and the series' columns), if any."""

    key: str
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple, ...]
    chart: tuple[int, tuple[int, ...]] | None = None
    note: str = ""


@dataclass(frozen=True)
class BoardYear:
    town: str
    town_name: str
    board: str
    board_name: str
    year: int
    kind: str | None
    as_of: date
    report: YearReport
    tables: tuple[Table, ...]


def board_kinds(town: str, board: str) -> tuple[str, ...]:
    """The permit kinds ``town`` runs that ``board`` keeps."""
    profile = registry().get(town)
    if profile is None:
        raise ReportRefused(f"no town {town!r}: the towns are {', '.join(sorted(registry()))}")
    if board not in BOARDS:
        raise ReportRefused(f"no board {board!r}: the boards are {', '.join(BOARDS)}")
    return tuple(k for k in profile.permits if DEPARTMENTS.get(k) == board)


def board_year(store: Store, *, town: str, board: str, year: int, as_of: date, kind: str | None = None) -> BoardYear:
    """The figures of ``board`` of ``town`` for ``year`` (narrowed to one
    ``kind`` if given), as the record stands on ``as_of``.
    :class:`ReportRefused` for a town, board, kind or year not kept."""
    kinds = board_kinds(town, board)
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise ReportRefused(f"year {year} is outside the years a report is made for ({FIRST_YEAR} to {LAST_YEAR})")
    if kind is not None:
        if kind not in kinds:
            raise ReportRefused(f"the {BOARDS[board]} of {town} keeps no permit kind {kind!r}")
        kinds = (kind,)
    enforcement = board == DEPARTMENTS["enforcement"] and kind is None
    record = year_record(store, town=town, kinds=kinds, enforcement=enforcement)
    report = year_report(year, record.filings, record.ledger, record.cases, kinds=kinds, as_of=as_of)
    profile = registry()[town]
    return BoardYear(
        town,
        profile.name,
        board,
        BOARDS[board],
        year,
        kind,
        as_of,
        report,
        tables_of(report, board=board, enforcement=enforcement, as_of=as_of),
    )


def money(cents: int) -> str:
    """Dollars and cents as people write them: ``$1,250.00``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def percent(share: float | None) -> str:
    return "none timed" if share is None else f"{share * 100:.0f}%"


def tables_of(r: YearReport, *, board: str, enforcement: bool, as_of: date) -> tuple[Table, ...]:
    """The report's tables, in the order the page and the PDF print them."""
    names = [kind_name(k) for k in r.kinds]
    out = [
        Table(
            "received",
            "Filings received by month",
            ("Month", *names, "Total"),
            tuple((MONTHS[m], *(r.received[k][m] for k in r.kinds), sum(r.received[k][m] for k in r.kinds)) for m in range(12)),
            chart=(0, (len(names) + 1,)),
        ),
        Table(
            "timeliness",
            "Decisions made within the period",
            ("Period", "Decisions timed", "On time", "Late", "Share on time"),
            tuple((_AUTHORITY[t.authority], t.timed, t.on_time, len(t.late), percent(t.share)) for t in r.timeliness),
            chart=(0, (2, 3)),
        ),
        Table(
            "late",
            "Decisions made after their period",
            ("Filing", "Permit", "Decision", "Decided", "Period", "Due", "Rule"),
            tuple(
                (d.filing, kind_name(d.kind), _decision_words(d.event), d.date, _AUTHORITY[a], due, rule)
                for d in r.decisions
                for a, _, due, on_time, rule in d.clocks
                if not on_time
            ),
        ),
        Table(
            "decisions",
            "Days from filing to decision",
            ("Filing", "Permit", "Filed", "Decided", "Days"),
            tuple((d.filing, kind_name(d.kind), d.filed, d.date, d.days) for d in r.decisions),
            note=f"Median: {r.median_days:g} days" if r.median_days is not None else "No decision this year",
        ),
        Table(
            "hearings",
            "Hearings, permits and Orders",
            ("What", "Number"),
            (
                ("Hearings continued", r.continued),
                ("Filings whose hearing was continued", r.continued_filings),
                *((f"{n}: issued", r.issued[k]) for k, n in zip(r.kinds, names, strict=True)),
                *((f"{n}: denied", r.denied[k]) for k, n in zip(r.kinds, names, strict=True)),
                ("Orders and permits expired", r.expired),
                ("Orders and permits certified complete", r.certified),
            ),
            chart=(0, (1,)),
        ),
    ]
    if enforcement:
        out.append(
            Table(
                "enforcement",
                "Enforcement",
                ("What", "Number"),
                (
                    ("Cases opened", r.cases_opened),
                    ("Cases closed", r.cases_closed),
                    ("Tickets issued", r.tickets),
                ),
                chart=(0, (1,)),
                note=f"Fines levied {money(r.fines_levied * 100)}; fines paid {money(r.fines_paid * 100)}",
            )
        )
    out.append(
        Table(
            "receipts",
            "Receipts: fees and deposits",
            ("What", "Dollars"),
            (
                *((f"Fees received: {n}", money(r.fees[k])) for k, n in zip(r.kinds, names, strict=True)),
                *((("Fines paid", money(r.fines_paid * 100)),) if enforcement else ()),
                ("Deposits received", money(r.deposits_received)),
                ("Deposits kept for repairs", money(r.deposits_kept)),
                ("Deposits refunded", money(r.deposits_refunded)),
                (f"Deposits held at {short_day(min(date(r.year, 12, 31), as_of))}", money(r.deposits_held)),
            ),
        )
    )
    if board == "dpw":
        passed, failed = r.inspections_total
        out.append(
            Table(
                "inspections",
                "Inspections by stage",
                ("Stage", "Passed", "Failed", "Pass rate"),
                tuple(
                    (_stage(s), p, f, percent(p / (p + f)) if p + f else "none")
                    for s, (p, f) in ((s, r.inspections[s]) for s in STAGES)
                )
                + (("All stages", passed, failed, percent(passed / (passed + failed)) if passed + failed else "none"),),
                chart=(0, (1, 2)),
            )
        )
    return tuple(out)


def _stage(stage: str) -> str:
    return stage.replace("-", " ").capitalize()


def _decision_words(event: str) -> str:
    return {"permit-issued": "Issued", "permit-denied": "Denied", "determination-issued": "Determination"}[event]


def written_cell(value) -> str:
    """A cell as the page and the PDF print it: dates in words."""
    if isinstance(value, date):
        return day_written(value)
    return "" if value is None else str(value)


def table_rows(tables: Sequence[Table], key: str) -> Table:
    """The table ``key`` of a report; :class:`ReportRefused` for no such table."""
    for t in tables:
        if t.key == key:
            return t
    raise ReportRefused(f"no table {key!r}: the tables are {', '.join(t.key for t in tables)}")


def summary(y: BoardYear) -> list[str]:
    """The board's doings in sentences, for the annual report."""
    r = y.report
    by_law, state = r.timeliness
    out = [
        f"In {y.year} the {y.board_name} received {_count(r.received_total, 'filing')} "
        f"and decided {_count(len(r.decisions), 'filing')}"
        + (f", in a median of {r.median_days:g} days from filing." if r.median_days is not None else "."),
    ]
    for t, words in ((by_law, "by-law's"), (state, "state's")):
        if t.timed:
            out.append(f"Of the {_count(t.timed, 'decision')} the {words} period timed, {t.on_time} were made within it.")
    if r.continued:
        out.append(f"Hearings were continued {_count(r.continued, 'time')}.")
    if y.board == DEPARTMENTS["enforcement"] and y.kind is None:
        out.append(
            f"It opened {_count(r.cases_opened, 'enforcement case')}, closed {r.cases_closed} and issued "
            f"{_count(r.tickets, 'ticket')}; fines paid came to {money(r.fines_paid * 100)}."
        )
    out.append(
        f"It received {money(r.fees_total)} in fees and {money(r.deposits_received)} in deposits, "
        f"refunded {money(r.deposits_refunded)} and held {money(r.deposits_held)} at the year's end."
    )
    if y.board == "dpw":
        passed, failed = r.inspections_total
        out.append(f"It made {_count(passed + failed, 'inspection')}, of which {passed} passed.")
    return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def annual_report_pdf(store: Store, *, town: str, board: str, year: int, as_of: date, fmt: str = "pdf") -> bytes | str:
    """The annual report section of ``board`` of ``town`` for ``year`` (PDF, or HTML)."""
    from notices.annual_report import render_annual_report

    y = board_year(store, town=town, board=board, year=year, as_of=as_of)
    office = registry()[town].offices.get(board)
    return render_annual_report(y, summary=summary(y), office=office, written=written_cell, fmt=fmt)


def table_csv(table: Table) -> str:
    from workflows.spreadsheet import csv_text

    return csv_text(table.header, table.rows)


def tables_xlsx(tables: Sequence[Table]) -> bytes:
    from notices.xlsx import xlsx_bytes

    return xlsx_bytes([(t.title, t.header, t.rows) for t in tables])


__all__ += ["summary", "annual_report_pdf", "table_csv", "tables_xlsx"]
