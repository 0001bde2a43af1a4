"""Addresses made comparable for the search (workflows/sites.py: the
parcels' one table of USPS suffixes) and a filing's numbers
(workflows/numbers.py)."""

from __future__ import annotations

import pytest

from parcels.sites import SUFFIXES as PARCELS_SUFFIXES
from parcels.sites import site_key as parcels_site_key
from workflows.filing import parse_filing
from workflows.numbers import massdep_file, running_id, running_number, running_prefix
from workflows.sites import SUFFIXES, site_key, site_pattern, spaced_key


def found(typed: str, address: str) -> bool:
    pattern, key = site_pattern(typed), spaced_key(address)
    return bool(pattern and key and pattern in key)


def test_the_parcels_and_the_search_read_one_table_of_suffixes():
    assert PARCELS_SUFFIXES is SUFFIXES and parcels_site_key is site_key


@pytest.mark.parametrize(
    "typed, address",
    [
        ("109 Sherman Street", "109 Sherman St"),
        ("109 Sherman St", "109 SHERMAN STREET"),
        ("109 sherman st.", "109 Sherman Street"),
        ("12 Elm Road", "12 Elm Rd"),
        ("Pleasant Avenue", "5 Pleasant Ave"),
        ("Pleasant Av", "5 Pleasant Avenue"),
        ("Quince Lane", "9 Quince Ln"),
        ("Turnpike Drive", "1 Turnpike Dr"),
        ("North Main Street", "14 N Main St"),
        ("N Main St", "14 North Main Street"),
        ("Street", "109 Sherman St"),
    ],
)
def test_an_address_is_found_with_its_suffix_and_direction_spelled_out_or_not(typed, address):
    assert found(typed, address)


@pytest.mark.parametrize(
    "typed, address",
    [
        ("Street", "4 Stone Rd"),  # the word St, not every word starting st
        ("Sherman Street", "4 Shermanside Rd"),
        ("109 Sherman Road", "109 Sherman St"),
        ("North", "14 Northern Ave"),
    ],
)
def test_a_suffix_typed_is_a_whole_word(typed, address):
    assert not found(typed, address)


def test_no_pattern_for_text_without_a_word_or_too_short_for_an_index():
    assert site_pattern("...") is None and site_pattern("%_") is None and site_pattern("a.") is None
    assert spaced_key("") is None and spaced_key(None) is None
    assert spaced_key("109 Sherman Street") == " 109 SHERMAN ST "


def test_running_numbers_of_a_town_kind_and_year():
    prefix = running_prefix("canton", "noi", 2026)
    assert prefix == "CAN-NOI-2026-" and running_prefix("manchester-by-the-sea", "street-opening", 2027) == "MBS-SOP-2027-"
    assert running_id(prefix, 97) == "CAN-NOI-2026-000097"
    assert running_number("CAN-NOI-2026-000096", prefix) == 96
    for other in (
        "CAN-NOI-2026-WC57FC0",
        "CAN-NOI-2026-0096",
        "CAN-NOI-2026-000096-B",
        "CAN-RDA-2026-000096",
        "CAN-NOI-2026-00009A",
    ):
        assert running_number(other, prefix) is None, other


def test_the_massdep_file_number_is_the_latest_assigned_not_voided_else_the_field():
    base = {"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-000096", "massdep_file": "SE 073-1000"}
    events = [{"type": "filed", "date": "2026-11-02"}]
    assert massdep_file(parse_filing({**base, "events": events})) == "SE 073-1000"
    events.append({"type": "file-number-assigned", "date": "2026-11-09", "number": "SE 073-1234"})
    assert massdep_file(parse_filing({**base, "events": events})) == "SE 073-1234"
    events.append({"type": "event-voided", "date": "2026-11-10", "voids": 2, "reason": "another filing's"})
    assert massdep_file(parse_filing({**base, "events": events})) == "SE 073-1000"
    assert massdep_file(parse_filing({**{k: v for k, v in base.items() if k != "massdep_file"}, "events": events[:1]})) is None
