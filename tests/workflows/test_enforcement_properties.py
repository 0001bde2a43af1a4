"""Properties of the numbering and pricing of offenses (workflows/fines.py)
and of the new permit clocks, checked by Hypothesis."""

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from workflows.fines import fine_for, offense_number
from workflows.towns import town

SAUGUS = town("saugus").fine_schedule("wetlands")
days = st.dates(min_value=date(2001, 1, 1), max_value=date(2098, 12, 31))
PROPERTY = settings(max_examples=200, deadline=None)


@PROPERTY
@given(st.lists(days, min_size=1, max_size=12, unique=True))
def test_a_violators_offenses_are_numbered_one_to_n_in_day_order_and_priced_up_the_schedule(offense_days):
    """Each day a separate offense, numbered among the earlier ones (no
    period in Saugus's text): the n offenses are numbered 1..n in day order,
    and their fines never fall: $25, $50, $100, then $200 for each later one."""
    ordered = sorted(offense_days)
    numbers = [offense_number(SAUGUS, ordered[:i], d) for i, d in enumerate(ordered)]
    assert numbers == list(range(1, len(ordered) + 1))
    fines = [fine_for("Saugus", SAUGUS, n).dollars for n in numbers]
    assert fines == sorted(fines) and fines[:4] == [25, 50, 100, 200][: len(fines)] and set(fines[4:]) <= {200}


@PROPERTY
@given(days, st.integers(1, 400))
def test_an_offense_counts_only_earlier_days_whatever_comes_after(day, gap):
    later = [day + timedelta(days=gap)]
    assert offense_number(SAUGUS, later, day) == 1
    assert offense_number(SAUGUS, [day - timedelta(days=gap)], day) == 2


@PROPERTY
@given(st.sampled_from(["wpa", "canton", "saugus", "mansfield", "manchester-by-the-sea"]), days)
def test_a_certificate_is_due_on_a_business_day_21_days_or_a_few_more_after_the_request(town_id, asked):
    """310 CMR 10.05, counted as 10.05(1) counts: day 21, rolled forward off
    a closed day, never earlier."""
    profile = town(town_id)
    due = profile.calendar.when(profile.rules("noi").clock("certificate-decision").measure, asked)[0]
    assert profile.calendar.is_business_day(due)
    assert asked + timedelta(days=21) <= due <= asked + timedelta(days=26)


@PROPERTY
@given(days)
def test_work_may_begin_the_day_after_the_tenth_business_day_never_on_it(issued):
    """310 CMR 10.05(1), (7)(c): the appeal period ends at the close of
    business on its tenth business day."""
    profile = town("wpa")
    first = profile.calendar.when(profile.rules("noi").clock("appeal-before-work").measure, issued)[0]
    tenth = profile.calendar.add_business_days(issued, 10)
    assert first == tenth + timedelta(days=1)
    cal = profile.calendar
    assert sum(cal.is_business_day(issued + timedelta(days=i)) for i in range(1, (first - issued).days)) == 10
