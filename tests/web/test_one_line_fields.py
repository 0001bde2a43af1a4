"""Issue 35 item 4: a field of one line (a name, an address, a parcel id)
refuses a line break, a tab or another control character, with a clear
message beside the field, in the online application, the staff's New
filing and an account's name; a description keeps its lines."""

from __future__ import annotations

import pytest
from webkit import TODAY

from models.errors import UserError
from web.applicant.apply import application
from web.forms import FormErrors
from web.staff.forms import new_filing
from web.values import one_line

APPLY = {
    "address": "109 Sherman St",
    "parcel": "44-012",
    "description": "the work\nin two lines",
    "applicant_name": "Ann Lee",
    "applicant_street": "109 Sherman St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
    "owner_is_applicant": "on",
}
NEW = {
    "town": "canton",
    "filed": "2026-12-01",
    "address": "109 Sherman St",
    "parcel": "44-012",
    "description": "the work\r\nin two lines",
    "applicant_name": "Ann Lee",
    "applicant_street": "109 Sherman St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
}
BAD = [
    ("Ann Lee\r\nBcc: all@example.org", "holds a line break: give it on one line"),
    ("Ann\u2028Lee", "holds a line break"),
    ("Ann\tLee", "holds a tab"),
    ("Ann\x1bLee", "holds a control character"),
    ("Ann\x85Lee", "holds a control character"),
]


@pytest.mark.parametrize("text, words", BAD)
def test_one_line_refuses_breaks_tabs_and_control_characters(text, words):
    with pytest.raises(ValueError, match=words):
        one_line(text)


def test_one_line_keeps_letters_accents_and_punctuation():
    assert one_line("  José O'Brien-Ng, Jr. #2 ") == "José O'Brien-Ng, Jr. #2"


@pytest.mark.parametrize("field", ["applicant_name", "address", "applicant_street", "parcel"])
@pytest.mark.parametrize("text, words", BAD[:2])
def test_the_online_application_refuses_a_second_line_in_a_field_of_one(field, text, words):
    with pytest.raises(FormErrors) as caught:
        application("noi", "canton", {**APPLY, field: text}, email="ann@example.org", today=TODAY)
    assert words in caught.value.errors[field]


def test_the_online_application_keeps_a_description_of_many_lines():
    obj = application("noi", "canton", APPLY, email="ann@example.org", today=TODAY)
    assert obj["project"]["description"] == "the work\nin two lines"


@pytest.mark.parametrize("field", ["applicant_name", "owner_name", "address", "applicant_city"])
def test_the_new_filing_form_refuses_a_second_line_in_a_field_of_one(field):
    with pytest.raises(FormErrors) as caught:
        new_filing("noi", {**NEW, field: "Ann Lee\nBcc: x"}, towns=["canton"], today=TODAY)
    assert "holds a line break: give it on one line" in caught.value.errors[field]


def test_the_new_filing_form_keeps_a_description_of_many_lines():
    obj = new_filing("noi", NEW, towns=["canton"], today=TODAY)
    assert obj["project"]["description"] == "the work\r\nin two lines"


@pytest.mark.parametrize("field", ["full_name", "title"])
def test_an_accounts_name_and_title_refuse_a_line_break(field):
    from models.accounts.users import check_person

    given = {"full_name": "Ann Lee", "title": "Conservation Agent", field: "Ann\nLee"}
    with pytest.raises(
        UserError, match=rf"the {field.replace('_', ' ')} holds characters no name has \(a line break\): give it on one line"
    ):
        check_person(given["full_name"], given["title"])
