"""The fee and the payments against it (workflows/fees.py): a payment's
event checked field by field, the payments adding up to at most the fee,
and the event in every machine's history."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workflows.fees import METHODS, PaymentRefused, check_filing, fee_for, payment_event, payments_of
from workflows.filing import parse_filing
from workflows.replay import replay
from workflows.towns import town

DAY = date(2026, 12, 3)


def _street(*events, length=40):
    return parse_filing(
        {
            "town": "canton",
            "kind": "street-opening",
            "id": "CAN-SOP-2026-900",
            "events": [{"type": "filed", "date": "2026-12-01", "applicant": "private", "length_ft": length}, *events],
        }
    )


def _paid(amount, method="cash", day="2026-12-02", **more):
    return {"type": "payment-received", "date": day, "amount": amount, "method": method, **more}


def test_a_payment_event_keeps_dollars_and_cents_and_its_reference():
    raw = payment_event("F", day=DAY, amount="$1,050", method="check", reference="  No. 1001 ")
    assert raw == {
        "type": "payment-received",
        "date": "2026-12-03",
        "amount": "1050.00",
        "method": "check",
        "reference": "No. 1001",
    }


@pytest.mark.parametrize(
    "amount, method, reference, words",
    [
        ("0", "cash", "", "positive amount"),
        ("12.345", "cash", "", "positive amount"),
        ("fifty", "cash", "", "not a dollar amount"),
        ("50.00", "card", "", "no card is taken here"),
        ("50.00", "check", "", "names its reference"),
        ("50.00", "cash", "x" * 101, "at most 100 characters"),
    ],
)
def test_a_malformed_payment_is_refused_in_words(amount, method, reference, words):
    with pytest.raises(PaymentRefused, match=words):
        payment_event("F", day=DAY, amount=amount, method=method, reference=reference)


def test_payments_adding_up_to_the_fee_are_kept_and_one_cent_more_is_refused_naming_the_rule():
    filing = _street(_paid("50.00"), _paid("1000.00", "check", reference="1"))
    assert check_filing(filing, town("canton"), filing.events) == 1_050_00
    over = _street(_paid("50.00"), _paid("1000.01", "check", reference="1"))
    with pytest.raises(PaymentRefused, match=r"more than the \$1,050.00 due; \$1,000.00 is left to pay") as got:
        check_filing(over, town("canton"), over.events)
    assert "Canton 16-12 §4 and Fee Schedule" in str(got.value)


def test_a_payment_is_an_event_of_every_machine_and_changes_no_state():
    filing = _street(_paid("50.00"))
    assert replay(filing, DAY).state == "applied"
    noi = parse_filing(
        {
            "town": "saugus",
            "kind": "noi",
            "id": "SAU-NOI-2026-900",
            "events": [{"type": "filed", "date": "2026-12-01"}, _paid("100.00")],
        }
    )
    assert replay(noi, DAY).state == "filed"


def test_a_fee_the_town_has_not_entered_bounds_no_payment():
    noi = parse_filing(
        {
            "town": "saugus",
            "kind": "noi",
            "id": "SAU-NOI-2026-900",
            "events": [{"type": "filed", "date": "2026-12-01"}, _paid("9999.00")],
        }
    )
    assert check_filing(noi, town("saugus"), noi.events) == 9_999_00


@given(st.lists(st.integers(min_value=1, max_value=120_000), min_size=1, max_size=6), st.sampled_from(METHODS))
def test_payments_are_refused_exactly_when_they_add_up_to_more_than_the_fee(cents, method):
    events = [_paid(f"{c / 100:.2f}", method, reference="r") for c in cents]
    filing = _street(*events)
    due = fee_for(town("canton"), "street-opening", length_ft=40).due
    if sum(cents) > due:
        with pytest.raises(PaymentRefused):
            check_filing(filing, town("canton"), filing.events)
    else:
        assert check_filing(filing, town("canton"), filing.events) == sum(cents)
    assert sum(p.cents for p in payments_of(filing.events)) == sum(cents)
