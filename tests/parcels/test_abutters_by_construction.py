"""The abutter search on the generated layout of tests/parcelkit.py, where
the right answer of each rule is known by construction: lots 20 m wide,
Main St 12 m (39 ft), the Boulevard 40 m (131 ft), the pond 50 m (164 ft),
the next town from x = 190.  Each rule's list is written out here by hand
from the drawing in parcelkit's docstring."""

import itertools

import parcelkit as kit
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from parcels.abutters import ABUTTER, FOOT, a2a_ring, abutters_of
from workflows.abutter_rules import AbutterRule, flat_rule
from workflows.towns.canton import ABUTTERS as CANTON
from workflows.towns.saugus import ABUTTERS as SAUGUS
from workflows.towns.wpa import ABUTTERS as STATE

IDX = kit.index()


def listed(subject: str, rule: AbutterRule) -> dict[str, str]:
    """{lot name: ring} of the rule's list for the lot ``subject``."""
    at = IDX.find(kit.TOWN, kit.loc_id(subject))
    return {IDX.parcels[h.position].loc_id.removeprefix("L_"): h.ring for h in abutters_of(IDX, at, rule)}


# -- the state's 100 feet (310 CMR 10.05(4)(a)) ------------------------------------------


def test_within_100_feet_takes_lots_across_a_narrow_street_and_two_lots_along_it_and_no_further():
    assert set(listed("S3", STATE)) == {
        "S2", "S4", "B2", "B3", "B4",  # sharing a line or a corner
        "N2", "N3", "N4",  # across Main St, 39 ft
        "S1", "S5", "B1", "B5",  # the next lots but one, 66 ft
        "N1", "N5",  # diagonally across, 76.5 ft
    }  # fmt: skip
    # S6 and B6 are 131 ft away, N6 137 ft: out


def test_a_lot_directly_across_a_way_wider_than_100_feet_is_still_an_abutter_and_its_neighbours_are_not():
    got = listed("N3", STATE)
    assert "M3" in got  # 131 ft across the Boulevard, but directly opposite
    assert "M2" not in got and "M4" not in got  # diagonally across and over 100 ft


def test_within_100_feet_is_measured_across_the_pond_and_stops_short_of_its_far_shore():
    got = listed("S6", STATE)
    assert set(got) == {"S5", "B5", "B6", "N5", "N6", "S4", "B4", "N4"}
    assert "E1" not in got and "E2" not in got  # 164 ft across the water


def test_a_lot_in_the_next_town_within_100_feet_is_listed():
    got = listed("E1", STATE)
    assert set(got) == {"E2", "T1", "T2", "T3"}  # T1-T3 are across the town line
    assert {IDX.parcels[IDX.find(kit.NEXT_TOWN, kit.loc_id(n))].town for n in ("T1", "T2", "T3")} == {kit.NEXT_TOWN}


def test_the_subject_is_never_its_own_abutter_and_ways_and_water_without_owners_are_never_listed():
    for name, *_ in kit.LOTS:
        if name.startswith("T") or name in ("MAIN", "BLVD", "POND"):
            continue
        got = listed(name, SAUGUS) | listed(name, STATE) | listed(name, CANTON)
        assert name not in got
        assert not {"MAIN", "BLVD", "POND"} & set(got)


# -- Saugus 508.08 §5.4 -------------------------------------------------------------------


def test_saugus_lists_abutters_the_lot_directly_opposite_and_abutters_to_abutters_within_300_feet():
    got = listed("S3", SAUGUS)
    ring = a2a_ring(300)
    assert got == {
        "S2": ABUTTER, "S4": ABUTTER, "B2": ABUTTER, "B3": ABUTTER, "B4": ABUTTER,
        "N3": ABUTTER,  # directly opposite on Main St
        "N2": ring, "N4": ring,  # they abut N3, not S3: diagonally across is not directly opposite
        "S1": ring, "B1": ring, "S5": ring, "B5": ring,  # they abut S2, B2, S4, B4
    }  # fmt: skip


def test_saugus_takes_abutters_to_abutters_across_the_pond():
    got = listed("S6", SAUGUS)
    assert got["E1"] == got["E2"] == a2a_ring(300)  # the pond borders S6; E1 and E2 border the pond, 164 ft off
    assert got["N6"] == ABUTTER  # opposite on Main St


def test_saugus_abutters_to_abutters_reach_into_the_next_town_and_stop_at_300_feet():
    got = listed("E1", SAUGUS)
    assert got["T1"] == got["T2"] == ABUTTER  # in the next town, sharing a line and a corner
    assert got["T3"] == a2a_ring(300)  # abuts T1
    assert got["S6"] == got["B6"] == a2a_ring(300)  # across the pond
    assert "S5" not in got  # abuts S6, an abutter to an abutter: one step too far


def test_saugus_abutters_to_abutters_leave_out_those_beyond_300_feet():
    far = AbutterRule("a trap: 100 ft of abutters to abutters", opposite_on_ways=True, abutters_to_abutters_feet=100)
    got = listed("N3", far)
    assert "M2" not in got and "M4" not in got  # they abut M3, opposite, but lie 131 ft away
    assert got["N1"] == a2a_ring(100)  # 66 ft


# -- Canton 15-5 ----------------------------------------------------------------------------


def test_canton_lists_abutters_those_across_a_traveled_way_and_across_the_water():
    assert set(listed("S3", CANTON)) == {"S2", "S4", "B2", "B3", "B4", "N3"}
    assert set(listed("S6", CANTON)) == {"S5", "B5", "B6", "N6", "E1"}  # E1 across the pond, E2 not opposite
    assert set(listed("E1", CANTON)) == {"E2", "T1", "T2", "S6"}


def test_a_flat_distance_takes_everything_within_it():
    assert set(listed("S3", flat_rule(40))) == {"S2", "S4", "B2", "B3", "B4", "N2", "N3", "N4"}


# -- the search against a brute force --------------------------------------------------------


def _brute(subject: str, feet: float) -> set[str]:
    shape = next(g for n, _, _, g in kit.LOTS if n == subject)
    return {
        n
        for n, _, t, g in kit.LOTS
        if n != subject and n not in ("MAIN", "BLVD", "POND") and shapely.distance(shape, g) <= feet * FOOT
    }


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([n for n, town, t, _ in kit.LOTS if t == "FEE" and town == kit.TOWN]),
    st.integers(min_value=1, max_value=700),
)
def test_within_n_feet_is_every_owned_lot_a_plain_distance_finds(subject, feet):
    rule = AbutterRule("a distance alone", within_feet=feet)
    assert set(listed(subject, rule)) == _brute(subject, feet)


@pytest.mark.parametrize("subject", ["S3", "N3", "S6", "E1"])
def test_a_longer_distance_never_loses_an_abutter(subject):
    lists = [set(listed(subject, AbutterRule("d", within_feet=f, opposite_on_ways=True))) for f in (0, 50, 100, 300)]
    assert all(a <= b for a, b in itertools.pairwise(lists))


def test_hits_say_why_and_how_far_in_feet():
    at = IDX.find(kit.TOWN, kit.loc_id("N3"))
    hits = {IDX.parcels[h.position].loc_id: h for h in abutters_of(IDX, at, STATE)}
    assert hits["L_M3"].why == "directly opposite on a way" and hits["L_M3"].feet == pytest.approx(131.2, abs=0.1)
    assert hits["L_N2"].why == "shares a boundary" and hits["L_N2"].feet == 0
    assert hits["L_S3"].why == "within 100 ft" and hits["L_S3"].feet == pytest.approx(39.4, abs=0.1)
