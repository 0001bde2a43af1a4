"""Fine schedules are cited data, checked when declared, and the rules that
price a ticket are pure (workflows/fines.py).  Each town's own schedule is
in its file under towns/."""

from dataclasses import replace
from datetime import date

import pytest

from workflows.errors import RuleBookError
from workflows.fines import FineSchedule, offense_number
from workflows.towns import registry

YEARLY = FineSchedule(
    id="tobacco",
    bylaw="Testtown Tobacco By-Law",
    citation="Testtown Tobacco By-Law §9 (penalties)",
    amounts=(100, 200, 300),
    ceiling=300,
    window_months=12,
    order_rule="Testtown Tobacco By-Law §8",
)


def test_a_schedule_with_a_year_counts_only_the_offenses_of_the_year_before():
    """As Canton's tobacco by-law does (canton.txt 590-593: "a second
    offense within one year of the date of the first offense"): counted back
    twelve calendar months from the offense's day, both ends included."""
    earlier = [date(2025, 3, 1), date(2025, 9, 1)]
    assert offense_number(YEARLY, earlier, date(2026, 3, 1)) == 3  # 2025-03-01 is a year before, to the day
    assert offense_number(YEARLY, earlier, date(2026, 3, 2)) == 2
    assert offense_number(YEARLY, [], date(2026, 3, 2)) == 1
    assert offense_number(YEARLY, [date(2026, 5, 1)], date(2026, 3, 2)) == 1  # a later offense does not count


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"citation": "Testtown By-Law"}, "no citation with a section"),
        ({"amounts": (100, 400)}, r"\$400 is over the \$300 allowed"),
        ({"amounts": (100, None)}, "does not say what was lost"),
        ({"amounts": ()}, "give the amounts, or"),
        ({"order_rule": ""}, "no section for its enforcement orders"),
        ({"given": {1: (50, "a vote")}}, "only an amount the copy lost may be given"),
        ({"window_months": 0}, "window_months must be positive"),
    ],
)
def test_a_malformed_schedule_fails_naming_the_town_and_the_problem(change, problem):
    with pytest.raises(RuleBookError, match=problem):
        replace(YEARLY, **change).check("testtown")


def test_every_towns_schedule_is_cited_within_its_ceiling_and_names_who_enforces_it():
    schedules = [(p.id, s) for p in registry().values() for s in p.fines.values()]
    assert {t for t, _ in schedules} == {"canton", "saugus", "mansfield", "manchester-by-the-sea"}
    for town_id, s in schedules:
        s.check(town_id)
        assert s.order_rule and (s.amounts or s.no_tickets)
        assert s.agents or s.no_tickets, (town_id, s.id)
