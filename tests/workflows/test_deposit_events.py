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


#: the $1,000.00 deposit of a 40-foot trench, received (Canton 16-12 §4): the Town holds it
RECEIVED = ev("payment-received", "2026-06-01", amount="1000.00", method="check", reference="1001", toward="deposit")


def _figures(lines):
    return statement("A", [s.line for s in lines]).permits["CAN-SOP-2026-000001"]


def test_a_refund_with_nothing_said_releases_all_the_town_holds():
    lines = _lines(RECEIVED, *DONE, ev("deposit-refunded", "2026-06-20"))
    assert (lines[-1].line.entry, lines[-1].line.cents) == ("refund", 1_000_00)
    st = statement("A", [s.line for s in lines])
    assert st.balance == 0 and st.fees == 50_00


def test_a_deposit_charged_and_never_received_is_not_held_and_nothing_is_refunded():
    """§5 releases "the unexpended balance": of money the Town received."""
    lines = _lines(*DONE, ev("deposit-refunded", "2026-06-20"))
    f = _figures(lines)
    assert (f.charged, f.received, f.held, f.refunded) == (1_000_00, 0, 0, 0)
    assert [s.line.entry for s in lines] == ["fee", "deposit"]


def test_what_is_held_back_is_a_deduction_with_its_reason_and_the_rest_is_refunded():
    refund = ev("deposit-refunded", "2026-06-20", amount="750.00", held_back="250.00", reason="curb replaced")
    lines = _lines(RECEIVED, *DONE, refund)
    assert [(s.line.entry, s.line.cents, s.line.note) for s in lines[-2:]] == [
        ("deduction", 250_00, "curb replaced"),
        ("refund", 750_00, "unexpended balance released after the final inspection"),
    ]
    f = _figures(lines)
    assert (f.received, f.kept, f.refunded, f.held) == (1_000_00, 250_00, 750_00, 0)


def test_a_refund_and_what_is_kept_larger_than_what_is_held_are_refused_naming_the_amounts_and_5():
    refund = ev("deposit-refunded", "2026-06-20", amount="900.00", held_back="150.00", reason="curb")
    with pytest.raises(LedgerRefused) as refused:
        _lines(RECEIVED, *DONE, refund)
    assert str(refused.value) == (
        "CAN-SOP-2026-000001: a refund of $900.00 and $150.00 kept, $1,050.00 in all, is more than the $1,000.00 "
        "the Town holds for it ($1,000.00 received, less $0.00 kept or refunded) (Canton 16-12 §5)"
    )
    with pytest.raises(LedgerRefused, match=r"a refund of \$200.00 is more than the \$0.00 the Town holds for it"):
        _lines(*DONE, ev("deposit-refunded", "2026-06-20", amount="200.00"))  # charged, never received
    with pytest.raises(LedgerRefused, match=r"a refund of \$0.00 and \$50.00 kept is more than the \$0.00"):
        _lines(*DONE, ev("deposit-refunded", "2026-06-20", held_back="50.00", reason="curb"))


def test_a_refund_within_what_is_held_is_recorded_and_the_rest_stays_held():
    lines = _lines(RECEIVED, *DONE, ev("deposit-refunded", "2026-06-20", amount="600.00"))
    f = _figures(lines)
    assert (f.refunded, f.held) == (600_00, 400_00)


def test_a_payment_toward_the_deposit_is_received_and_one_toward_the_fee_is_a_fee_paid():
    fee = ev("payment-received", "2026-06-01", amount="50.00", method="cash", toward="fee")
    lines = _lines(fee, RECEIVED)
    assert [(s.line.entry, s.line.cents) for s in lines[2:]] == [("payment", 50_00), ("received", 1_000_00)]
    f = _figures(lines)
    assert (f.fees, f.fees_paid, f.charged, f.received, f.held) == (50_00, 50_00, 1_000_00, 1_000_00, 1_000_00)


def test_a_payment_that_does_not_say_pays_the_fee_first_and_the_rest_is_the_deposit_received():
    one_check = ev("payment-received", "2026-06-01", amount="1050.00", method="check", reference="77")
    lines = _lines(one_check)
    assert [(s.source, s.line.entry, s.line.cents) for s in lines[2:]] == [
        ("event:4:1", "payment", 50_00),
        ("event:4:2", "received", 1_000_00),
    ]
    part = _lines(ev("payment-received", "2026-06-01", amount="30.00", method="cash"))
    assert [(s.line.entry, s.line.cents) for s in part[2:]] == [("payment", 30_00)]  # nothing of the deposit yet


def test_a_deposit_received_beyond_the_deposit_charged_is_refused_naming_the_amounts():
    more = ev("payment-received", "2026-06-02", amount="100.00", method="cash", toward="deposit")
    with pytest.raises(
        LedgerRefused, match=r"a deposit received of \$100.00 is more than the \$1,000.00 charged, less \$1,000.00"
    ):
        _lines(RECEIVED, more)


def test_the_application_decides_the_category_and_a_municipal_permit_is_charged_nothing():
    """§6: "Applicants which are municipal departments are exempt from
    payment of all fees and deposits": the permit's own application says
    who applied, whatever the party's category elsewhere."""
    from workflows.deposit_events import category_of
    from workflows.filing import parse_filing

    municipal = parse_filing(
        {
            "town": "canton",
            "kind": "street-opening",
            "id": "CAN-SOP-2026-000002",
            "events": [ev("filed", "2026-06-01", applicant="municipal", length_ft=20)],
        }
    )
    assert category_of(municipal.events, "private") == "municipal"
    lines = permit_lines(municipal.id, live_events(municipal), category_of(municipal.events, "private"))
    assert {s.line.entry for s in lines} == {"exempt"} and sum(s.line.cents for s in lines) == 0
    assert category_of([ev_of("filed")], "utility") == "utility"  # the application says nothing: the party's
    assert category_of([ev_of("filed")], None) == "private"


def ev_of(etype, **fields):
    """An event as the core reads it (type and get), for category_of."""
    from types import SimpleNamespace

    return SimpleNamespace(type=etype, get=fields.get)


def test_an_after_hours_bill_paid_is_a_fee_paid():
    lines = _lines(ev("after-hours-billed", "2026-06-09", hours=2), ev("after-hours-paid", "2026-06-12"))
    assert [(s.line.entry, s.line.cents) for s in lines[-2:]] == [("fee", 100_00), ("payment", 100_00)]


def test_what_is_held_back_says_why_and_amounts_are_dollars():
    with pytest.raises(TransitionRefused, match="say why"):
        street(*DONE, ev("deposit-refunded", "2026-06-20", held_back="50.00"))
    with pytest.raises(TransitionRefused, match="not a dollar amount"):
        street(*DONE, ev("deposit-refunded", "2026-06-20", amount="lots"))


def test_each_line_names_its_event_so_a_second_fill_adds_nothing():
    sources = [s.source for s in _lines(*DONE, ev("deposit-refunded", "2026-06-20"))]
    assert len(sources) == len(set(sources)) and sources[0] == "event:1:1"
