"""The XLSX writer: a workbook of sheets (a title, a header, rows), made
with openpyxl, each text cell formula-safe like a CSV's
(:func:`workflows.spreadsheet.spreadsheet_safe`: a cell starting ``=`` is
text, never a formula).  Numbers stay numbers, dates are dates.  Pure apart
from the library: values in, bytes out.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

from workflows.spreadsheet import spreadsheet_safe

__all__ = ["xlsx_cell", "xlsx_bytes"]


def xlsx_cell(value):
    """A cell as the workbook keeps it; TypeError for what is not text, a number, a date, a truth value or None."""
    if value is None or isinstance(value, bool | int | float | Decimal | date | datetime):
        return float(value) if isinstance(value, Decimal) else value
    if isinstance(value, str):
        return spreadsheet_safe(value)
    raise TypeError(f"an XLSX cell is text, a number, a date or None, not {type(value).__name__}")


def xlsx_bytes(sheets: Sequence[tuple[str, Sequence[str], Sequence[Sequence]]]) -> bytes:
    """The workbook of ``sheets`` (title at most 31 characters, header, rows), in order."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    book.remove(book.active)
    for title, header, rows in sheets:
        sheet = book.create_sheet(re.sub(r"[\\/*?:\[\]]", " ", title)[:31])  # the characters a sheet's name may not hold
        sheet.append([spreadsheet_safe(h) for h in header])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for n, row in enumerate(rows, start=1):
            if len(row) != len(header):
                raise ValueError(f"sheet {title!r} row {n} has {len(row)} cells, the header {len(header)}")
            sheet.append([xlsx_cell(v) for v in row])
        for row in sheet.iter_rows(min_row=2):
            for cell in row:
                if isinstance(cell.value, date):
                    cell.number_format = "yyyy-mm-dd"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
