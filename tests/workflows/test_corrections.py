"""An applicant's corrections after an incomplete finding
(workflows/corrections.py): only what changed becomes a line of the
record, the fields are rewritten where the filing keeps them, and what the
application form would refuse is refused, naming the field."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workflows.corrections import CORRECTABLE, BadCorrection, corrected, current_values

ADDR = {"street": "9 Central St", "city": "Saugus", "state": "MA", "zip": "01906"}
EXTRA = {
    "address": "9 Central St",
    "parcel": "C-12-7",
    "site": {"address": "9 Central St", "parcel": "C-12-7"},
    "project": {"description": "a deck"},
    "applicant": {"name": "Ann Lee", "address": dict(ADDR), "email": "ann@example.org"},
    "owner": {"name": "Ann Lee", "address": dict(ADDR), "email": "ann@example.org"},
}


def test_a_changed_site_and_description_are_rewritten_and_each_is_one_line_saying_what_it_was():
    out, lines = corrected(EXTRA, {**current_values(EXTRA), "address": "12 Elm St", "description": "a deck and a shed"})
    assert out["site"]["address"] == out["address"] == "12 Elm St"
    assert out["project"]["description"] == "a deck and a shed"
    assert lines == ["Project description: a deck and a shed (was a deck)", "Site address: 12 Elm St (was 9 Central St)"]
    assert EXTRA["site"]["address"] == "9 Central St"  # the filing's own fields are not touched


def test_values_left_as_they_are_make_no_line():
    out, lines = corrected(EXTRA, current_values(EXTRA))
    assert lines == [] and out == EXTRA


def test_the_applicant_who_owns_the_property_is_corrected_as_the_owner_too():
    out, lines = corrected(EXTRA, {"applicant_street": "12 Elm St", "applicant_state": "ma"})
    assert out["applicant"]["address"]["street"] == out["owner"]["address"]["street"] == "12 Elm St"
    assert lines == ["Applicant's street address: 12 Elm St (was 9 Central St)"]  # "ma" is MA: no change


def test_a_site_given_only_at_the_top_level_is_read_and_corrected_there():
    bare = {"address": "9 Central St", "applicant": {"name": "Ann Lee"}}
    assert current_values(bare)["address"] == "9 Central St"
    out, _ = corrected(bare, {"address": "10 Central St"})
    assert out["address"] == "10 Central St"


@pytest.mark.parametrize(
    "name, value, why",
    [
        ("description", "  ", "Project description: required"),
        ("applicant_zip", "1906", "Applicant's ZIP code: a ZIP code such as 02021"),
        ("applicant_state", "Mass", "Applicant's state: two letters"),
        ("address", "x" * 2001, "Site address: too long"),
    ],
)
def test_a_correction_the_form_would_refuse_names_the_field(name, value, why):
    with pytest.raises(BadCorrection) as refused:
        corrected(EXTRA, {name: value})
    assert str(refused.value).startswith(why) and refused.value.field == name


def test_the_applicants_email_is_not_correctable_it_is_the_account_the_filing_is_followed_with():
    assert "applicant_email" not in {n for n, _, _, _ in CORRECTABLE}
    out, lines = corrected(EXTRA, {"applicant_email": "mallory@example.org"})
    assert lines == [] and out["applicant"]["email"] == "ann@example.org"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80))
def test_any_accepted_site_correction_is_what_the_fields_then_hold(text):
    try:
        out, lines = corrected(EXTRA, {"address": text})
    except BadCorrection:
        assert not " ".join(text.split())
        return
    assert current_values(out)["address"] == " ".join(text.split())
    assert len(lines) == (0 if " ".join(text.split()) == "9 Central St" else 1)
