"""Town settings are town data: the letterhead, the meeting place, the
newspaper, the boards (Canton 15-6; Mansfield Ch. 25 §7.E) and the
after-hours rate (Canton 16-12 §6 and its fee schedule) come from the town's
profile, and a filing may override any of them.  Canton's boards and rate
as its notices print them are in towns/test_canton.py."""

from dataclasses import replace

import pytest
from _filings import _minimal, _text

from notices.errors import MissingField
from workflows.departments import DEPARTMENTS
from workflows.errors import RuleBookError
from workflows.rulebook import Office, TownProfile
from workflows.towns import registry, town


@pytest.mark.parametrize(
    "town_id, kind, notice",
    [
        ("canton", "noi", "legal-notice"),
        ("canton", "noi", "abutter-notice"),
        ("canton", "rda", "hearing-posting"),
        ("canton", "noi", "board-memo"),
        ("saugus", "noi", "legal-notice"),
        ("mansfield", "land-disturbance", "board-memo"),
        ("canton", "street-opening", "after-hours-invoice"),
    ],
)
def test_a_notice_renders_from_a_filing_that_gives_only_the_site_the_applicant_and_the_project(town_id, kind, notice):
    office = town(town_id).office(kind)
    text = _text(_minimal(town_id, kind, notice), kind, notice)
    assert office.name in text and office.address in text
    if notice != "hearing-posting":  # the Town Hall posting is signed by the clerk, not the office
        assert f"{office.signer}\nfor the {office.name}" in text
    if notice in ("legal-notice", "abutter-notice", "hearing-posting"):
        assert office.meeting_place in text
    if notice == "legal-notice":
        assert f"To {office.newspaper}:" in text


def test_a_filing_overrides_the_office_field_by_field():
    filing = _minimal(
        "canton",
        "noi",
        "legal-notice",
        authority={"signer": "Pat Rivera, Conservation Agent"},
        hearing={"place": "Canton Public Library"},
        newspaper="The Patriot Ledger",
    )
    text = _text(filing, "noi", "legal-notice")
    assert "Pat Rivera, Conservation Agent" in text
    assert "Conservation Commission" in text  # the name still comes from the office
    assert "at Canton Public Library" in text and "at Memorial Hall, 801 Washington Street, Canton," not in text
    assert "To The Patriot Ledger:" in text


def test_the_state_defaults_have_no_office_so_the_filing_must_give_the_letterhead():
    with pytest.raises(MissingField, match="filing.authority"):
        _text(_minimal("wpa", "noi", "legal-notice"), "noi", "legal-notice")


def test_every_town_declares_an_office_for_each_department_it_runs():
    for profile in registry().values():
        if profile.id == "wpa":
            assert profile.offices == {}
            continue
        for kind in profile.permits:
            office = profile.office(kind)
            assert office is not None and office.name and office.address and office.signer, (profile.id, kind)
            assert DEPARTMENTS[kind] in profile.offices


def test_the_rule_book_refuses_boards_listed_without_the_section_that_names_them():
    canton = town("canton")
    bad = replace(canton.offices["conservation"], boards_citation="")
    with pytest.raises(RuleBookError, match="boards listed without the section"):
        TownProfile(id="t", name="T", county="Norfolk", permits=canton.permits, offices={**canton.offices, "conservation": bad})


def test_the_rule_book_refuses_a_town_that_bills_after_hours_inspections_with_no_rate():
    canton = town("canton")
    no_rate = replace(canton.offices["dpw"], rates={})
    with pytest.raises(RuleBookError, match="sets no rate"):
        TownProfile(id="t", name="T", county="Norfolk", permits=canton.permits, offices={**canton.offices, "dpw": no_rate})


def test_the_rule_book_refuses_a_town_running_a_kind_with_no_office_for_it():
    canton = town("canton")
    with pytest.raises(RuleBookError, match="no dpw office declared"):
        TownProfile(
            id="t", name="T", county="Norfolk", permits=canton.permits, offices={"conservation": canton.offices["conservation"]}
        )


def test_an_office_needs_a_name_an_address_and_a_signer():
    with pytest.raises(RuleBookError, match="signer is empty"):
        Office(name="Conservation Commission", address="Town Hall", signer=" ").check("t", "conservation")
