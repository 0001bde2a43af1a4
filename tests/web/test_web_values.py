"""The one parser of a form's and a query's numbers and dates
(web/values.py): ASCII digits only, bounded, ``YYYY-MM-DD`` and nothing
else; and the four fields where one character (``²``) made a 500 now
answer in words.  No module of the web reads a number or a date any other
way (a test reads the sources)."""

from __future__ import annotations

import ast
import re
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from webkit import login

from web.values import MAX_DIGITS, day, moment, number_or, whole_number

ROOT = Path(__file__).resolve().parents[2]

NOT_NUMBERS = ["²", "٣", "１", "7_0", " 7", "7 ", "+7", "-7", "0x10", "1e3", "7.0", "", "\u0967", "1" * (MAX_DIGITS + 1)]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_a_whole_number_is_ascii_digits_only_and_bounded(text):
    with pytest.raises(ValueError, match="a whole number from 0 to"):
        whole_number(text)


def test_a_whole_number_within_its_bounds_is_read():
    assert whole_number("007") == 7 and whole_number("100000", 1, 100_000) == 100_000
    with pytest.raises(ValueError, match="from 1 to 100000"):
        whole_number("100001", 1, 100_000)
    with pytest.raises(ValueError, match="from 1 to"):
        whole_number("0", 1)


def test_a_querys_number_falls_back_to_its_default_or_is_clamped():
    assert number_or("²", 14, 0, 366) == 14 and number_or(None, 14, 0, 366) == 14
    assert number_or("9999", 14, 0, 366) == 366 and number_or("3", 14, 0, 366) == 3


@pytest.mark.parametrize(
    "text",
    [
        "20261201",
        "2026-W49-2",
        "2026-12-1",
        "２０２６-12-01",
        "2026-02-30",
        "2026-12-01T10:00",
        "1999-12-31",
        "2101-01-01",
        " 2026-12-01",
    ],
)
def test_a_date_is_yyyy_mm_dd_a_real_day_in_the_calendars_years(text):
    with pytest.raises(ValueError, match="a date"):
        day(text)


def test_a_date_and_a_moment_are_read():
    assert day("2026-12-01") == date(2026, 12, 1)
    assert moment("2026-12-15T19:00") == datetime(2026, 12, 15, 19, 0)
    assert moment("2026-12-15T19:00:30") == datetime(2026, 12, 15, 19, 0, 30)


@pytest.mark.parametrize(
    "text", ["2026-12-15T19:00+05:00", "2026-12-15T19:00Z", "2026-12-15 19:00", "2026-12-15T25:00", "2026-12-15"]
)
def test_a_moment_has_no_zone_and_is_a_real_time_of_day(text):
    with pytest.raises(ValueError, match="a date and a time of day"):
        moment(text)


@given(st.text(max_size=20))
def test_any_text_is_a_number_a_date_a_moment_or_a_value_error_never_another_exception(text):
    for parse in (whole_number, day, moment):
        try:
            parse(text)
        except ValueError:
            pass
    assert isinstance(number_or(text, 1, 0, 10), int)


GENEROUS = ("isdigit", "isnumeric", "isdecimal", "fromisoformat", "int", "float", "strptime")


def _generous_reads(source: str) -> list[str]:
    """The calls in ``source`` that read a number or a date Python's
    generous way."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in GENEROUS:
                found.append(f"{node.lineno}: {name}()")
    return found


def test_no_module_of_the_web_reads_a_number_or_a_date_but_through_the_parser():
    # bodies.py reads the Content-Length header: isascii() and isdigit(), together
    allowed = {"web/values.py", "web/bodies.py"}
    modules = sorted((ROOT / "web").rglob("*.py"))  # the shared top and every room
    assert {p.parent.name for p in modules} >= {"web", "staff", "applicant", "account"}
    found = [
        f"{path.relative_to(ROOT)}:{use}"
        for path in modules
        if path.relative_to(ROOT).as_posix() not in allowed
        for use in _generous_reads(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "\n".join(found)


def test_the_source_check_finds_each_generous_read_planted():
    planted = "a = int(x)\nb = x.isdigit()\nc = date.fromisoformat(x)\nd = datetime.strptime(x, f)\n"
    assert len(_generous_reads(planted)) == 4


# -- the four 500s of issue 22, each one character --------------------------------


def _event_form_seq(web, token, seq, **extra):
    data = {"csrf": token, "seq": seq, "type": "withdrawn", "f_date": "2026-12-02", **extra}
    return web.post("/filings/CAN-NOI-2026-001/events", data=data)


def test_a_superscript_two_as_the_sequence_number_is_a_clear_refusal_not_a_500(web, store):
    token = login(web, "canton-agent")
    r = _event_form_seq(web, token, "²")
    assert r.status_code == 400 and "no sequence number" in r.text
    assert store.history("CAN-NOI-2026-001")[-1]["seq"] == 2


def test_a_superscript_two_as_the_event_to_void_is_a_clear_refusal_not_a_500(web, store):
    token = login(web, "canton-agent")
    r = web.post("/filings/CAN-NOI-2026-001/void", data={"csrf": token, "seq": "2", "voids": "²", "reason": "typo"})
    assert r.status_code == 422 and "choose it and say why" in r.text
    assert store.history("CAN-NOI-2026-001")[-1]["seq"] == 2


def test_a_superscript_two_as_the_renewals_sequence_number_is_a_clear_refusal_not_a_500(store):
    from test_web_applicants import apply_noi, filed_id, register
    from webkit import client

    ann = client(store)
    token = register(ann, "ann@example.org")
    fid = filed_id(apply_noi(ann, token))
    r = ann.post(f"/my/filings/{fid}/renewal", data={"csrf": token, "seq": "²"})
    assert r.status_code == 400 and "no sequence number" in r.text
    r = ann.post(f"/my/filings/{fid}/resubmit", data={"csrf": token, "seq": "²"})
    assert r.status_code == 400 and "no sequence number" in r.text


@pytest.mark.parametrize("length", ["²", "٣", "0", "100001"])
def test_a_street_openings_length_that_is_not_a_whole_number_of_feet_is_named_beside_its_field(store, length):
    from test_web_applicants import PDF, register
    from webkit import client

    ann = client(store)
    token = register(ann, "ann@example.org")
    form = {
        "csrf": token,
        "town": "canton",
        "address": "12 Pleasant St",
        "description": "a gas service",
        "applicant_name": "Eversource",
        "applicant_street": "1 Main St",
        "applicant_city": "Canton",
        "applicant_state": "MA",
        "applicant_zip": "02021",
        "owner_is_applicant": "yes",
        "length_ft": length,
        "applicant_type": "utility",
        "contractor_name": "Acme Paving",
        "contractor_license": "PWC-123",
        "contractor_license_expires": "2027-06-30",
        "insurer": "Acme Mutual",
        "insurance_expires": "2027-06-30",
        "dig_safe": "20261234567",
    }
    r = ann.post("/my/apply/street-opening", data=form, files={"plan": ("p.pdf", PDF, "application/pdf")})
    assert r.status_code == 422 and "a whole number of feet, 1 to 100,000" in r.text


def test_a_new_street_opening_by_staff_with_a_superscript_length_is_named_beside_its_field(web, store):
    token = login(web, "canton-dpw")
    form = {"csrf": token, "kind": "street-opening", "town": "canton", "filed": "2026-12-01", "length_ft": "²"}
    r = web.post("/filings/new", data=form)
    assert r.status_code == 422 and re.search(r"a whole number of feet", r.text)


def test_a_notice_id_in_a_path_that_is_not_a_number_is_not_found_in_words_not_json(store):
    from test_web_applicants import apply_noi, filed_id, register
    from webkit import client

    ann = client(store)
    fid = filed_id(apply_noi(ann, register(ann, "ann@example.org")))
    for bad in ("²", "x", "-1", "9" * 30):
        r = ann.get(f"/my/filings/{fid}/emails/{bad}.pdf")
        assert r.status_code == 404 and "text/html" in r.headers["content-type"] and "No such page" in r.text


@pytest.mark.parametrize("text", ["nan", "inf", "1e3", "１２", "181", "-180.5", "", "12,5", "0x10"])
def test_a_coordinate_of_the_maps_view_is_decimal_degrees_only(text):
    from web.values import coordinate

    with pytest.raises(ValueError):
        coordinate(text)


def test_a_coordinate_is_read_with_its_sign_and_decimals():
    from web.values import coordinate

    assert coordinate("-71.1425") == -71.1425 and coordinate("42.16") == 42.16 and coordinate("180") == 180.0
