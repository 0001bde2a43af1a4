"""The ledger lines a street opening's events call for (workflows/deposit_events.py):
Canton 16-12 §4 (fee and deposit with the application), the Fee Schedule's
amounts, §5 (the refund of the unexpended balance, less what was held back),
§6 (after-hours fees; the municipal and gas-company exemptions)."""

import pytest
from _filings import ev, street

from workflows.deposit_events import permit_lines
from workflows.deposits import LedgerRefused, statement
from workflows.errors import TransitionRefused
from workflows.replay import live_events

DONE = [
    ev("excavation-started", "2026-06-08"),
    ev("backfilled", "2026-06-10", material="gravel"),
    ev("permanent-patch-placed", "2026-06-15"),
    ev("inspected", "2026-06-16", stage="permanent-patch", result="pass"),
]


def _lines(*events, category="private", length=40):
    from workflows.filing import parse_filing

    obj = {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-SOP-2026-000001",
        "events": [
            ev("filed", "2026-06-01", applicant="private", **({"length_ft": length} if length else {})),
            ev("dig-safe-obtained", "2026-06-01", ticket="1"),
            ev("permit-issued", "2026-06-01"),
            *events,
        ],
    }
    filing = parse_filing(obj)
    return permit_lines(filing.id, live_events(filing), category)


def test_the_application_brings_the_fee_and_the_trench_deposit_by_the_foot():
    lines = _lines()
    assert [(s.line.entry, s.line.item, s.line.cents) for s in lines] == [
        ("fee", "application", 50_00),
        ("deposit", "trench-paved-way", 40 * 25_00),
    ]
    assert all("Canton 16-12" in s.line.rule for s in lines)


def test_with_no_length_on_record_the_deposit_is_one_opening_to_the_center_of_the_way():
    assert [(s.line.item, s.line.cents) for s in _lines(length=None)][1] == ("center-public-way", 300_00)


def test_a_municipal_department_pays_nothing_and_a_gas_company_only_the_fee():
    assert {s.line.entry for s in _lines(category="municipal")} == {"exempt"}
    gas = _lines(category="gas-company")
    assert [(s.line.entry, s.line.cents) for s in gas] == [("fee", 50_00), ("exempt", 0)]


def test_after_hours_hours_are_billed_at_the_schedules_rate():
    lines = _lines(ev("after-hours-billed", "2026-06-09", hours=3))
    assert (lines[-1].line.entry, lines[-1].line.cents) == ("fee", 150_00)


def test_a_refund_with_nothing_said_releases_the_whole_deposit():
    lines = _lines(*DONE, ev("deposit-refunded", "2026-06-20"))
    assert (lines[-1].line.entry, lines[-1].line.cents) == ("refund", 1_000_00)
    st = statement("A", [s.line for s in lines])
    assert st.balance == 0 and st.fees == 50_00


def test_what_is_held_back_is_a_deduction_with_its_reason_and_the_rest_is_refunded():
    refund = ev("deposit-refunded", "2026-06-20", amount="750.00", held_back="250.00", reason="curb replaced")
    lines = _lines(*DONE, refund)
    assert [(s.line.entry, s.line.cents, s.line.note) for s in lines[-2:]] == [
        ("deduction", 250_00, "curb replaced"),
        ("refund", 750_00, "unexpended balance released after the final inspection"),
    ]
    assert statement("A", [s.line for s in lines]).balance == 0


def test_a_refund_that_does_not_add_up_to_the_deposit_is_refused_naming_5():
    refund = ev("deposit-refunded", "2026-06-20", amount="900.00", held_back="50.00", reason="curb")
    with pytest.raises(LedgerRefused, match=r"add up to \$950.00, not the \$1,000.00 held.*16-12 §5"):
        _lines(*DONE, refund)


def test_what_is_held_back_says_why_and_amounts_are_dollars():
    with pytest.raises(TransitionRefused, match="say why"):
        street(*DONE, ev("deposit-refunded", "2026-06-20", held_back="50.00"))
    with pytest.raises(TransitionRefused, match="not a dollar amount"):
        street(*DONE, ev("deposit-refunded", "2026-06-20", amount="lots"))


def test_each_line_names_its_event_so_a_second_fill_adds_nothing():
    sources = [s.source for s in _lines(*DONE, ev("deposit-refunded", "2026-06-20"))]
    assert len(sources) == len(set(sources)) and sources[0] == "event:1:1"
