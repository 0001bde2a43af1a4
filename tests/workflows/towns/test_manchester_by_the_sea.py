"""Manchester-by-the-Sea (workflows/towns/manchester-by-the-sea.toml, a town file).

Its copy of the General By-laws (revised through April 2015) keeps only
the fine schedule of the General Wetlands By-law (Art. XVII), in Art. I §4B
item 1 (manchester-by-the-sea.txt line 11):

    "1. General Wetlands By-law Fine allowed: $300 Enforcement agent:
    Conservation Administrator and Police Officers Fine schedule: Wetlands
    Non-compliance with an Order of Resource Conditions, Enforcement Order or
    Buffer Zone Area Violation Notice First offense Warning ($0) $ $ Second
    offense $ $ $ Third and subsequent offenses $ $ $"

So its NOI and RDA follow the state's clocks (310 CMR 10.05), and a ticket
for a second or later offense needs the amount the copy lost, from the
town's profile.
"""

from dataclasses import replace
from datetime import date

import pytest
from _filings import ev, replayed

from workflows.fines import FineAmountLost, fine_for
from workflows.towns import town, wpa

MBTS = "manchester-by-the-sea"


def test_manchester_is_a_town_with_the_states_noi_and_rda_clocks():
    profile = town(MBTS)
    assert profile.name == "Manchester-by-the-Sea" and profile.county == "Essex" and profile.code == "MBS"
    for kind in ("noi", "rda"):
        assert profile.rules(kind).clocks == getattr(wpa, kind.upper()).clocks
        assert "310 CMR 10.05" in profile.rules(kind).bylaw and "fine schedule" in profile.rules(kind).bylaw


def test_a_manchester_noi_hearing_due_on_patriots_day_is_due_the_tuesday_after():
    """310 CMR 10.05(5)(b), counted by 10.05(1): the hearing within 21 days
    of the complete NOI.  Filed Monday 2026-03-30: day 21 is Monday
    2026-04-20, Patriots' Day (M.G.L. c.4 §7 cl.18), so Tuesday 04-21."""
    r = replayed(MBTS, "noi", ev("filed", "2026-03-30"), as_of="2026-04-01")
    c = r.clock("hearing-open")
    assert (c.date, c.status) == (date(2026, 4, 21), "open")
    assert "lands on 2026-04-20, Patriots' Day: rolled forward to 2026-04-21" in c.explanation
    assert c.rule == "310 CMR 10.05(5)(b); M.G.L. c.131 §40"


def test_a_manchester_rda_is_determined_within_21_days_of_receipt():
    r = replayed(
        MBTS, "rda", ev("filed", "2026-06-01"), ev("determination-issued", "2026-06-19", positive=False), as_of="2026-06-30"
    )
    assert r.state == "negative-determination" and r.clock("decision").status == "met"


def test_the_first_offense_is_a_warning_and_the_second_is_refused_until_the_profile_gives_its_amount():
    schedule = town(MBTS).fine_schedule("wetlands")
    assert (schedule.ceiling, schedule.agents) == (300, ("Conservation Administrator", "Police Officers"))
    first = fine_for("Manchester-by-the-Sea", schedule, 1)
    assert (first.dollars, first.warning, first.label) == (0, True, "first offense")
    with pytest.raises(FineAmountLost, match="no fine for a second offense") as lost:
        fine_for("Manchester-by-the-Sea", schedule, 2)
    assert "the town profile must give it" in str(lost.value) and "the fine allowed is $300" in str(lost.value)
    with pytest.raises(FineAmountLost, match=r"seventh offense \(third and each later offense\)"):
        fine_for("Manchester-by-the-Sea", schedule, 7)  # "third and subsequent": the third's amount, also lost


def test_amounts_the_profile_gives_are_used_and_say_where_they_come_from():
    given = replace(
        town(MBTS).fine_schedule("wetlands"),
        given={2: (100, "voted by the Select Board, 2016"), 3: (300, "voted by the Select Board, 2016")},
    )
    given.check(MBTS)
    second = fine_for("Manchester-by-the-Sea", given, 2)
    assert second.dollars == 100 and "given by the town profile: voted by the Select Board, 2016" in second.source
    assert fine_for("Manchester-by-the-Sea", given, 9).dollars == 300


def test_a_manchester_town_closure_or_office_is_its_own_data():
    office = town(MBTS).office("noi")
    assert office.name == "Conservation Commission" and "Manchester-by-the-Sea, MA 01944" in office.address
