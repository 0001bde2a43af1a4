"""Canton 16-12 §10.2, the DPW's inspections (workflows/inspections.py and
the rule book's inspection clocks): which stages an inspection recorded
now may name, per state, read from the machine; what a failed inspection
carries (the defect, the re-inspection day) and the clock it starts; the
schedule's inspection clocks, day by day, with their traps (a patch placed
on a Saturday, on Patriots' Day)."""

from datetime import date

import pytest
from _filings import ev, replayed, street

from sweep.agenda import patch_inspection_entry
from workflows.errors import TransitionRefused
from workflows.inspections import INSPECTION_CLOCKS, STAGES, fitting_stages
from workflows.rulebook import CLOCK_TYPES
from workflows.street_opening import StreetOpeningState as S
from workflows.towns import town


@pytest.mark.parametrize(
    "state, stages",
    [
        (S.SUBMITTED, ()),
        (S.EMERGENCY, ()),
        (S.APPLIED, ()),
        (S.ISSUED, ()),
        (S.EXCAVATING, ("pre-backfill",)),
        (S.BACKFILLED, ()),
        (S.TEMPORARY_PATCH, ("temporary-patch", "settlement")),
        (S.PERMANENT_PATCH, ("permanent-patch",)),
        (S.FINAL_INSPECTED, ()),
        (S.CLOSED, ()),
        (S.DENIED, ()),
        (S.REVOKED, ()),
        (S.WITHDRAWN, ()),
    ],
)
def test_each_state_offers_only_the_stages_its_machine_takes(state, stages):
    assert fitting_stages(state.value) == stages


def test_every_state_is_covered_by_the_table_above():
    assert len(S) == 13


def test_an_issued_permit_dug_in_an_emergency_takes_a_trench_inspection():
    assert fitting_stages("issued", excavated=True) == ("pre-backfill",)


@pytest.mark.parametrize("state", [s.value for s in S])
def test_every_stage_offered_is_one_the_replay_accepts_and_no_other_is(state):
    """The offer is the machine's: each stage offered replays, each one not
    offered is refused (a state reached by a real history)."""
    histories = {
        "excavating": [ev("excavation-started", "2026-06-08")],
        "temporary-patch": [
            ev("excavation-started", "2026-06-08"),
            ev("backfilled", "2026-06-10", material="gravel"),
            ev("temporary-patch-placed", "2026-06-15"),
        ],
        "permanent-patch": [
            ev("excavation-started", "2026-06-08"),
            ev("backfilled", "2026-06-10", material="gravel"),
            ev("permanent-patch-placed", "2026-06-15"),
        ],
    }
    if state not in histories:
        return
    offered = fitting_stages(state)
    for stage in STAGES:
        events = [*histories[state], ev("inspected", "2026-06-20", stage=stage, result="fail")]
        if stage in offered:
            assert street(*events).state == state
        else:
            with pytest.raises(TransitionRefused):
                street(*events)


def _failed_trench(**fields):
    return street(
        ev("excavation-started", "2026-06-08"),
        ev("inspected", "2026-06-09", stage="pre-backfill", result="fail", **fields),
        as_of="2026-06-10",
    )


def test_a_failed_trench_inspection_sets_the_re_inspection_clock_on_its_day():
    r = _failed_trench(at="2026-06-09T10:15", notes="north end", defect="bedding not compacted", reinspect="2026-06-12")
    c = r.clock("re-inspection")
    assert (c.type, c.date, c.status, c.rule) == (
        "deadline",
        date(2026, 6, 12),
        "open",
        "Canton Street Opening By-Law 16-12 §10.2",
    )
    assert r.clock("trench-inspection").status == "met"


def test_the_re_inspection_is_met_by_the_next_inspection():
    r = street(
        ev("excavation-started", "2026-06-08"),
        ev("inspected", "2026-06-09", stage="pre-backfill", result="fail", defect="voids", reinspect="2026-06-12"),
        ev("inspected", "2026-06-12", stage="pre-backfill", result="pass"),
        as_of="2026-06-20",
    )
    assert r.clock("re-inspection").status == "met"


def test_an_unmet_re_inspection_is_overdue_the_day_after():
    r = street(
        ev("excavation-started", "2026-06-08"),
        ev("inspected", "2026-06-09", stage="pre-backfill", result="fail", defect="voids", reinspect="2026-06-12"),
        as_of="2026-06-13",
    )
    assert r.clock("re-inspection").status == "overdue"


def test_a_re_inspection_on_or_before_the_inspection_is_refused():
    with pytest.raises(TransitionRefused, match=r"re-inspection on 2026-06-09 is not after the inspection.*§10\.2"):
        _failed_trench(defect="voids", reinspect="2026-06-09")


def test_a_passed_inspection_carries_no_defect_and_no_re_inspection():
    with pytest.raises(TransitionRefused, match="only when the inspection fails"):
        street(
            ev("excavation-started", "2026-06-08"),
            ev("inspected", "2026-06-09", stage="pre-backfill", result="pass", reinspect="2026-06-12"),
        )


def test_an_inspections_time_is_on_its_day():
    with pytest.raises(TransitionRefused, match="is not on its day"):
        _failed_trench(at="2026-06-10T09:00", defect="voids", reinspect="2026-06-12")


def test_an_inspection_after_its_day_is_on_time_a_call_not_a_time_limit():
    r = street(ev("excavation-started", "2026-06-08"), ev("inspected", "2026-06-11", stage="pre-backfill", result="pass"))
    assert r.clock("trench-inspection").status == "met"


def test_the_trench_inspection_is_listed_from_the_excavation_until_the_backfill():
    dug = street(ev("excavation-started", "2026-06-08"), as_of="2026-06-09")
    assert (dug.clock("trench-inspection").date, dug.clock("trench-inspection").status) == (date(2026, 6, 8), "overdue")
    filled = street(ev("excavation-started", "2026-06-08"), ev("backfilled", "2026-06-10", material="gravel"))
    assert filled.clock("trench-inspection").status == "met"


def _patched_on(day: str):
    return replayed(
        "canton",
        "street-opening",
        ev("filed", "2027-03-29", applicant="private", length_ft=20),
        ev("dig-safe-obtained", "2027-03-29", ticket="20272201234"),
        ev("permit-issued", "2027-03-29"),
        ev("excavation-started", "2027-04-05"),
        ev("inspected", "2027-04-06", stage="pre-backfill", result="pass"),
        ev("backfilled", "2027-04-07", material="gravel"),
        ev("temporary-patch-placed", day),
        as_of=day,
    )


@pytest.mark.parametrize(
    "placed, inspect_on",
    [
        ("2027-04-14", "2027-04-14"),  # a Wednesday: that day
        ("2027-04-17", "2027-04-20"),  # a Saturday: past Sunday and Patriots' Day (Monday, April 19, 2027)
        ("2027-04-19", "2027-04-20"),  # Patriots' Day itself
    ],
)
def test_the_patch_inspection_clock_falls_on_the_sweeps_day(placed, inspect_on):
    """The rule book's patch-inspection clock is the sweep's patch-inspection
    rule (sweep.agenda.patch_inspection_entry): the same day, or the page and
    the sweep would disagree."""
    r = _patched_on(placed)
    assert r.clock("patch-inspection").date.isoformat() == inspect_on
    from workflows.filing import parse_filing

    filing = parse_filing(
        {
            "town": "canton",
            "kind": "street-opening",
            "id": "TEST-1",
            "events": [ev("temporary-patch-placed", placed)],
        }
    )
    entry = patch_inspection_entry("canton", "TEST-1", "temporary-patch", filing.events, date.fromisoformat(placed))
    assert entry.date == inspect_on


def test_the_final_inspection_follows_the_permanent_patch_and_a_pass_meets_it():
    events = [
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("permanent-patch-placed", "2026-06-13"),  # a Saturday
    ]
    r = street(*events, as_of="2026-06-14")
    assert (r.clock("final-inspection").date, r.clock("final-inspection").status) == (date(2026, 6, 15), "open")
    done = street(*events, ev("inspected", "2026-06-15", stage="permanent-patch", result="pass"))
    assert done.clock("final-inspection").status == "met" and done.state == "final-inspected"


def test_the_inspection_clocks_are_canton_deadlines_citing_10_2():
    rules = town("canton").rules("street-opening")
    for cid in INSPECTION_CLOCKS:
        assert CLOCK_TYPES[cid] == "deadline"
        assert "16-12 §10.2" in rules.clock(cid).citation


def test_an_emergency_opening_lists_its_trench_inspection_from_the_first_day():
    r = replayed(
        "canton",
        "street-opening",
        ev("emergency-work-started", at="2026-06-08T02:00"),
        ev("filed", "2026-06-09", applicant="private", length_ft=20),
        as_of="2026-06-09",
    )
    assert r.clock("trench-inspection").date == date(2026, 6, 8)
