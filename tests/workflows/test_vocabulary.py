"""The one table of human names (workflows/vocabulary.py) names every event,
clock, state, field and status of every machine: an event or a clock added
without a name fails here; and the dates are written as people write them."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from workflows import vocabulary as v
from workflows.docket import CLOCK_STATUSES, docket_status
from workflows.event_fields import EVENT_FIELDS, OPTIONAL_FIELDS
from workflows.replay import MACHINES
from workflows.rulebook import CLOCK_TYPES, KINDS
from workflows.towns import registry
from workflows.written import day_written, moment_written, short_day, time_written


def _has(table, kind, key) -> bool:
    return (kind, key) in table or (v.ANY, key) in table


@pytest.mark.parametrize("kind", KINDS)
def test_every_event_of_every_machine_and_of_the_event_vocabulary_has_a_name(kind):
    events = set(EVENT_FIELDS[kind]) | set(MACHINES[kind].events)
    missing = sorted(e for e in events if not _has(v.EVENT_NAMES, kind, e))
    assert not missing, f"name these {kind} events in workflows/vocabulary.py EVENT_NAMES: {missing}"


@pytest.mark.parametrize("kind", KINDS)
def test_every_state_of_every_machine_has_a_name(kind):
    missing = sorted(s.value for s in MACHINES[kind].states if not _has(v.STATE_NAMES, kind, s.value))
    assert not missing, f"name these {kind} states in STATE_NAMES: {missing}"


def test_every_clock_of_the_rule_book_and_of_every_town_has_a_name():
    declared = set(CLOCK_TYPES)
    for profile in registry().values():
        for rules in profile.permits.values():
            declared |= {c.id for c in rules.clocks}
    missing = sorted(c for c in declared if c not in v.CLOCK_NAMES)
    assert not missing, f"name these clocks in CLOCK_NAMES: {missing}"


def test_every_field_of_every_event_has_a_label():
    fields = {f for table in EVENT_FIELDS.values() for kinds in table.values() for f in kinds}
    fields |= {f for kinds in OPTIONAL_FIELDS.values() for f in kinds}
    missing = sorted(f for f in fields if f not in v.FIELD_NAMES)
    assert not missing, f"label these fields in FIELD_NAMES: {missing}"


def test_every_status_a_clock_or_a_docket_row_can_have_has_a_name():
    statuses = {s for _, s, _ in CLOCK_STATUSES}
    statuses |= {docket_status(date(2026, 1, 2), date(2026, 1, 1), s) for s in (None, "violated", "unknown")}
    statuses.add(docket_status(date(2026, 1, 1), date(2026, 1, 2)))
    missing = sorted(s for s in statuses if s not in v.STATUS_NAMES)
    assert not missing, f"name these statuses in STATUS_NAMES: {missing}"


def test_every_choice_of_every_field_has_words():
    choices = {
        c
        for table in EVENT_FIELDS.values()
        for kinds in table.values()
        for k in kinds.values()
        if isinstance(k, tuple)
        for c in k
    }
    choices |= {c for kinds in OPTIONAL_FIELDS.values() for k in kinds.values() if isinstance(k, tuple) for c in k}
    missing = sorted(c for c in choices if c not in v.VALUE_NAMES)
    assert not missing, f"give words to these choices in VALUE_NAMES: {missing}"


def test_the_permit_is_named_by_the_kind_an_noi_issues_an_order_of_conditions():
    assert v.event_name("noi", "permit-issued") == "Order of Conditions issued"
    assert v.event_name("street-opening", "permit-issued") == "Street Opening Permit issued"
    assert v.event_name("rda", "permit-issued") == "Permit issued"  # the common name when the kind has none of its own


def test_a_clock_under_the_act_is_named_as_the_bylaws_with_the_act_after_it():
    assert v.clock_name("decision") == "Decision to issue"
    assert v.clock_name("wpa:decision") == "Decision to issue (Wetlands Protection Act)"


def test_no_name_is_an_id_or_a_python_value():
    names = [*v.EVENT_NAMES.values(), *v.CLOCK_NAMES.values(), *v.STATE_NAMES.values(), *v.FIELD_NAMES.values()]
    for name in names:
        assert name[:1].isupper(), name
        assert not any(bad in name for bad in ("None", "True", "_", "{")), name
    assert v.value_name(True) == "yes" and v.value_name(False) == "no"


def test_a_day_is_written_with_its_weekday_and_its_month_in_words():
    assert day_written(date(2026, 4, 21)) == "Tuesday, April 21, 2026"
    assert day_written("2026-04-20") == "Monday, April 20, 2026"  # Patriots' Day, as written
    assert short_day(date(2026, 4, 21)) == "Tue, Apr 21, 2026"
    assert day_written(None) == ""


def test_times_are_written_with_a_m_and_p_m_and_noon_and_midnight_in_words():
    assert time_written(time(19, 0)) == "7:00 p.m."
    assert time_written(time(9, 5)) == "9:05 a.m."
    assert time_written(time(12, 0)) == "12:00 noon"
    assert time_written(time(0, 0)) == "12:00 midnight"
    assert time_written(time(12, 30)) == "12:30 p.m."
    assert moment_written(datetime(2026, 4, 21, 19, 0)) == "Tuesday, April 21, 2026, 7:00 p.m."
    assert moment_written("2026-12-03T11:54:00") == "Thursday, December 3, 2026, 11:54 a.m."
    assert moment_written("2026-12-03") == "Thursday, December 3, 2026"
