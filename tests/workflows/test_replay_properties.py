"""Hypothesis properties of replay over random histories.

Histories are drawn from each kind's event vocabulary (docs/reference/filing-format.md),
mostly following the kind's usual order so that many are accepted, with
plausible fields and dates that never go backward.

1. Nothing but the project's own errors (PermitsError) ever comes out.
2. An accepted history replays to the same result twice.
3. Appending an event to an accepted history never changes the date of a
   clock that had already started, compared by (clock id, start event).
   Excluded, because moving a started clock is their purpose: an appended
   clock-extended (moves the clock it names), permit-renewed (moves
   permit-expiry), hearing-scheduled before the hearing opened (reschedules
   the hearing the notice clocks count back from), and an event-voided
   that voids one of those or a renewal-requested.
"""

from datetime import date, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workflows.errors import PermitsError
from workflows.filing import EVENT_FIELDS, parse_filing
from workflows.replay import replay
from workflows.towns import town

COMBOS = [
    ("canton", "noi"),
    ("canton", "rda"),
    ("canton", "street-opening"),
    ("saugus", "noi"),
    ("saugus", "rda"),
    ("mansfield", "noi"),
    ("mansfield", "rda"),
    ("mansfield", "land-disturbance"),
    ("wpa", "noi"),
    ("wpa", "rda"),
]

_WETLANDS_ORDER = [
    "filed",
    "boards-notified",
    "board-reported",
    "hearing-scheduled",
    "notice-published",
    "notice-posted",
    "abutters-notified",
    "hearing-opened",
    "hearing-continued",
    "hearing-closed",
    "permit-issued",
    "permit-recorded",
    "construction-noticed",
    "renewal-requested",
    "permit-renewed",
    "completion-certified",
]
USUAL_ORDER = {
    "noi": _WETLANDS_ORDER,
    "land-disturbance": _WETLANDS_ORDER,
    "rda": [
        "filed",
        "hearing-scheduled",
        "notice-published",
        "notice-posted",
        "hearing-opened",
        "hearing-closed",
        "determination-issued",
    ],
    "street-opening": [
        "filed",
        "dig-safe-obtained",
        "permit-issued",
        "work-noticed",
        "excavation-started",
        ("inspected", "pre-backfill"),
        "backfilled",
        "temporary-patch-placed",
        ("inspected", "temporary-patch"),
        ("inspected", "settlement"),
        "settlement-answered",
        "certification-requested",
        "certification-answered",
        "permanent-patch-placed",
        ("inspected", "permanent-patch"),
        "deposit-refunded",
    ],
}
BOARDS = ["planning", "dpw", "health", "engineering", "building"]
START = date(2025, 1, 2)

MOVERS = {"clock-extended", "permit-renewed", "hearing-scheduled", "renewal-requested"}


@st.composite
def field_value(draw, name, spec, day, kind, town_id, position):
    if isinstance(spec, tuple):
        return draw(st.sampled_from(spec))
    if spec == "date":
        return (day + timedelta(days=draw(st.integers(0, 45)))).isoformat()
    if spec == "day-or-moment":  # a hearing's day, with its time or without
        ahead = day + timedelta(days=draw(st.integers(0, 45)))
        return ahead.isoformat() + draw(st.sampled_from(["", "T19:00"]))
    if spec == "moment":
        return datetime.combine(day, datetime.min.time()).replace(hour=draw(st.integers(0, 23))).isoformat(timespec="minutes")
    if spec == "bool":
        return draw(st.booleans())
    if spec == "int":
        return draw(st.integers(0, 25)) if name == "days" else draw(st.integers(0, 60))
    if spec == "str":
        return draw(st.sampled_from(BOARDS)) if name == "board" else draw(st.sampled_from(["2026", "x"]))
    if spec == "clock":
        ids = [c.id for c in town(town_id).rules(kind).clocks]
        return draw(st.sampled_from(ids + ["wpa:decision"]))
    if spec == "position":
        return draw(st.integers(1, max(1, position - 1)))
    if spec == "lines":  # a denial's reasons, an Order's conditions
        return draw(st.lists(st.sampled_from(["A reason.", "x"]), min_size=1, max_size=3))
    raise AssertionError(spec)


@st.composite
def an_event(draw, kind, town_id, day, position, usual=None):
    vocab = EVENT_FIELDS[kind]
    stage = None
    if usual is not None and draw(st.integers(0, 9)) < 9:
        etype = usual
        if isinstance(etype, tuple):
            etype, stage = etype
    else:
        etype = draw(st.sampled_from(sorted(vocab)))
    out = {"type": etype}
    for name, spec in vocab[etype].items():
        out[name] = draw(field_value(name, spec, day, kind, town_id, position))
    if "date" in out:
        out["date"] = day.isoformat()
    if "at" in out:
        out["at"] = (
            datetime.fromisoformat(out["at"]).replace(year=day.year, month=day.month, day=day.day).isoformat(timespec="minutes")
        )
    if stage is not None:
        out["stage"], out["result"] = stage, "pass"
    if etype == "filed" and kind == "street-opening":
        out["length_ft"] = draw(st.integers(5, 60))
    if etype == "filed" and draw(st.integers(0, 9)) == 0:
        out["complete"] = False
    if etype == "event-voided" and position == 1:
        out = {"type": "withdrawn", "date": day.isoformat()}
    return out


@st.composite
def histories(draw, max_events=12):
    town_id, kind = draw(st.sampled_from(COMBOS))
    also = ["wpa"] if town_id in ("canton", "saugus") and kind != "street-opening" and draw(st.booleans()) else []
    order = USUAL_ORDER[kind]
    n = draw(st.integers(1, max_events))
    day, events, step = START, [], 0
    for position in range(1, n + 1):
        big = draw(st.integers(0, 7)) == 0  # now and then a long wait: a year's patch, a 3-year permit
        day += timedelta(days=draw(st.integers(0, 500 if big else 20)))
        usual = order[step] if step < len(order) else None
        events.append(draw(an_event(kind, town_id, day, position, usual)))
        step += 1
    obj = {"town": town_id, "kind": kind, "id": "HYP-1", "events": events}
    if also:
        obj["also"] = also
    return obj, day


def attempt(obj, as_of):
    """The replay, or None when the engine refuses the history with its own error."""
    try:
        return replay(parse_filing(obj), as_of)
    except PermitsError:
        return None


FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(histories())
def test_random_histories_raise_only_the_projects_own_errors(drawn):
    obj, last = drawn
    attempt(obj, last + timedelta(days=10))  # anything but PermitsError propagates and fails


@FAST
@given(histories())
def test_an_accepted_history_replays_to_the_same_result_twice(drawn):
    obj, last = drawn
    first = attempt(obj, last)
    if first is not None:
        assert replay(parse_filing(obj), last).as_dict() == first.as_dict()


def _dates(result):
    return {(c.id, c.start_position): (c.date, c.at) for c in result.clocks}


@FAST
@given(histories(max_events=10), st.data())
def test_appending_an_event_never_moves_a_clock_that_had_started(drawn, data):
    obj, last = drawn
    before = attempt(obj, last)
    if before is None:
        return
    kind, town_id, events = obj["kind"], obj["town"], obj["events"]
    day = last + timedelta(days=data.draw(st.integers(0, 60)))
    order = USUAL_ORDER[kind]
    usual = order[len(events)] if len(events) < len(order) else None
    extra = data.draw(an_event(kind, town_id, day, len(events) + 1, usual))
    if extra["type"] in ("clock-extended", "permit-renewed"):
        return  # moves a started clock by design
    if extra["type"] == "event-voided" and events[extra["voids"] - 1]["type"] in MOVERS:
        return  # un-moves it
    if extra["type"] == "hearing-scheduled" and before.state in ("filed", "incomplete", "hearing-scheduled"):
        return  # a hearing rescheduled before it opened
    after = attempt({**obj, "events": events + [extra]}, day)
    if after is None:
        return
    # both judged on the same day: a rolling clock (the monthly report, a
    # maintenance year) is the one of the day it is asked on, whatever is appended
    before = attempt(obj, day)
    assert before is not None  # a history accepted on one day is accepted on a later one
    old, new = _dates(before), _dates(after)
    for key in old.keys() & new.keys():
        assert old[key] == new[key], (key, extra)
