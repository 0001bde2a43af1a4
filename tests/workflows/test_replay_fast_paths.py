"""The replay's fast paths give what the plain ways give.

- Parsing vouches for the values it converts instead of walking the whole
  filing through ``check_values`` first; whatever a filing holds, the
  answer (the Filing, or the refusal and its message) is the one that
  ``check_values`` followed by the plain parse gives.
- The events that meet a clock are found through an index by type; the
  answer is the one a scan of the whole history gives.
- A machine step with nothing to ask (``Machine.unguarded``) goes where
  ``Machine.step`` goes.
- A history parse_filing saw in date order with nothing voided is marked
  and replayed as it is; any other is sorted and searched for voidings.
- A rule book finds a clock by id from a table, as its first declaration.
"""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_replay_properties import histories

from workflows.clocks import event_order, met_event
from workflows.errors import PermitsError
from workflows.filing import PLAIN_HISTORY, VOID, build_filing, parse_filing
from workflows.ids import check_filing_id
from workflows.inputs import MAX_DEPTH, MAX_FIELD_CHARS, check_values
from workflows.replay import MACHINES, live_events, replay
from workflows.towns import town

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))

#: values check_values refuses, and values the parser refuses for its own reasons
BAD = [
    "a\x00b",
    "\ud800",
    "x" * (MAX_FIELD_CHARS + 1),
    float("nan"),
    float("inf"),
    [[[["deep"]]]],
    {"nested": "\x00"},
    "2026-02-30",
    "1999-12-31",
    "2026-03-01T09:00+01:00",
    "",
    None,
    7,
    True,
    ["a list"],
]
for _ in range(MAX_DEPTH):
    BAD[5] = [BAD[5]]


def _outcome(f, *args):
    try:
        return f(*args)
    except PermitsError as exc:
        return type(exc).__name__, str(exc)


def _plain(obj):
    """The id checked, check_values over the whole filing, then the plain
    parse: the order the parser keeps (its refusal never comes before
    check_values')."""
    filing_id = obj.get("id")
    check_filing_id(filing_id)
    check_values(obj, filing=filing_id)
    return build_filing(obj, filing_id, False)


@st.composite
def spoiled(draw):
    """A drawn history with one value put somewhere it may not be."""
    obj, _ = draw(histories(max_events=8))
    obj = copy.deepcopy(obj)
    bad = draw(st.sampled_from(BAD))
    where = draw(st.sampled_from(["event", "new field", "top", "town", "also"]))
    if where == "event":
        e = draw(st.sampled_from(obj["events"]))
        e[draw(st.sampled_from(sorted(e)))] = bad
    elif where == "new field":
        e = draw(st.sampled_from(obj["events"]))
        e[draw(st.sampled_from(["at", "date", "reason", "unknown"]))] = bad
    elif where == "top":
        obj[draw(st.sampled_from(["notes", "applicant", "kind"]))] = bad
    elif where == "town":
        obj["town"] = bad
    else:
        obj["also"] = ["wpa", bad]
    return obj


@SETTINGS
@given(spoiled())
def test_a_spoiled_filing_is_refused_as_check_values_then_the_parser_would_refuse_it(obj):
    assert _outcome(parse_filing, obj) == _outcome(_plain, obj)


@SETTINGS
@given(histories(max_events=12))
def test_a_drawn_filing_parses_to_what_check_values_then_the_parser_give(drawn):
    obj, _ = drawn
    assert _outcome(parse_filing, obj) == _outcome(_plain, obj)


def _met_by_scan(clock, start, backward, events):
    """The event that meets ``clock`` from ``start``, by scanning the whole
    history in date order (the replay's way before its index by type)."""
    met_by = clock.met_by
    start_order = (start.date, start.position)
    firsts = {}
    for e in events:
        if clock.id == "emergency-notice":
            pass
        elif (not backward or start.type == "permit-renewed") and (e.date, e.position) <= start_order:
            continue
        if e.type in met_by:
            firsts.setdefault(e.type, e)
        if e.type == "certification-answered" and "permanent-patch-placed" in met_by and e.get("granted"):
            firsts.setdefault("permanent-patch-placed", e)
    if not firsts:
        return None
    if clock.met_when == "all":
        if set(clock.met_by) - set(firsts):
            return None
        return max(firsts.values(), key=event_order)
    return min(firsts.values(), key=event_order)


@SETTINGS
@given(histories(max_events=14))
def test_the_event_that_meets_a_clock_is_the_one_a_scan_of_the_history_finds(drawn):
    obj, _ = drawn
    try:
        filing = parse_filing(obj)
        events = live_events(filing)
    except PermitsError:
        return
    by_type = {}
    for e in events:
        by_type.setdefault(e.type, []).append(e)
    for clock in town(filing.town).rules(filing.kind).clocks:
        for start in events:
            for backward in (False, True):
                assert met_event(clock, start, backward, by_type) is _met_by_scan(clock, start, backward, events)


@SETTINGS
@given(histories(max_events=12))
def test_a_step_with_nothing_to_ask_goes_where_the_machine_step_goes(drawn):
    obj, last = drawn
    try:
        replay(parse_filing(obj), last)
    except PermitsError:
        pass
    for machine in MACHINES.values():
        for (state, etype), target in list(machine.unguarded.items()):

            class Bare:  # an event with only a type: a step with no guard reads nothing else
                type, position = etype, 1

            assert machine.step(state, Bare(), ctx=None) == target


def test_a_history_recorded_out_of_date_order_is_replayed_in_date_order():
    obj = {
        "town": "canton",
        "kind": "rda",
        "id": "ORDER-1",
        "events": [
            {"type": "filed", "date": "2026-03-02"},
            {"type": "hearing-scheduled", "date": "2026-03-04", "hearing": "2026-03-20"},
            {"type": "notice-published", "date": "2026-03-03"},  # recorded later, dated earlier
        ],
    }
    assert [e.position for e in live_events(parse_filing(obj))] == [1, 3, 2]


@SETTINGS
@given(histories(max_events=12))
def test_a_filing_marked_plain_holds_no_voiding_and_is_in_date_order_already(drawn):
    obj, _ = drawn
    try:
        filing = parse_filing(obj)
    except PermitsError:
        return
    in_order = list(filing.events) == sorted(filing.events, key=event_order)
    voids = any(e.type == VOID for e in filing.events)
    assert bool(filing.__dict__.get(PLAIN_HISTORY)) == (in_order and not voids)


def test_a_voiding_or_an_appended_event_takes_the_history_off_the_plain_path():
    obj = {
        "town": "canton",
        "kind": "rda",
        "id": "PLAIN-1",
        "events": [{"type": "filed", "date": "2026-03-02"}, {"type": "notice-published", "date": "2026-03-03"}],
    }
    assert parse_filing(obj).__dict__.get(PLAIN_HISTORY) is True
    voided = copy.deepcopy(obj)
    voided["events"].append({"type": "event-voided", "date": "2026-03-04", "voids": 2, "reason": "wrong paper"})
    assert PLAIN_HISTORY not in parse_filing(voided).__dict__
    assert [e.position for e in live_events(parse_filing(voided))] == [1]
    grown = parse_filing(obj).with_event({"type": "notice-posted", "date": "2026-03-01"})
    assert PLAIN_HISTORY not in grown.__dict__
    assert [e.position for e in live_events(grown)] == [3, 1, 2]


def test_a_rule_book_finds_a_clock_by_id_as_the_first_declared_and_names_the_ids_when_it_has_none():
    from calendars import CalendarDays
    from workflows.errors import UnknownChoice
    from workflows.rulebook import Clock, PermitRules

    first = Clock("decision", CalendarDays(21), "hearing-closed", "By-law §1")
    second = Clock("decision", CalendarDays(30), "hearing-closed", "By-law §2")
    rules = PermitRules("noi", "By-law", (first, second))  # unchecked: a town profile refuses the duplicate
    assert rules.clock("decision") is first
    with pytest.raises(UnknownChoice, match="unknown clock for noi 'appeal-period'; choose one of: decision"):
        rules.clock("appeal-period")
