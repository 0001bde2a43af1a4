"""The fee's service and the inspection requests' (services/fees.py,
services/inspection_requests.py) on SQLite and PostgreSQL: a payment is an
event with its ledger line in one transaction, a payment that does not add
up writes nothing however it is recorded; a request on a Saturday writes
nothing, one on a Monday is listed for the DPW schedule until the
inspection recorded against it answers it."""

from __future__ import annotations

from datetime import date, datetime

import pytest
import storekit
from storekit import snapshot
from webkit import TODAY, make_store

from services.fees import fee_line, fee_standing
from services.inspection_requests import ask_inspection, requests_for_schedule
from services.inspections import record_inspection
from services.payments import record_payment
from services.record import record_event
from workflows.fees import PaymentRefused
from workflows.inspection_requests import InspectionRequestRefused

FID = "CAN-SOP-2026-001"  # a utility's 40-foot trench (tests/webkit.py)
NOW = datetime(2026, 12, 3, 10, 0)


def _pay(store, amount, **more):
    return record_payment(
        store, FID, day=TODAY, amount=amount, method="cash", by="clerk", today=TODAY, now=NOW, mail_from="t@x", **more
    )


def test_a_payment_is_recorded_with_its_ledger_line_and_one_too_many_writes_nothing(db_url):
    store = make_store(db_url)
    _pay(store, "50.00")
    filing, _ = store.load(FID)
    got = fee_standing(store, filing)
    assert got.paid == 50_00 and got.left == 1_000_00
    from services.deposits import permit_ledger

    assert permit_ledger(store, FID).fees_paid == 50_00  # it did not say: the fee first
    assert permit_ledger(store, FID).received == 0
    assert fee_line(store, filing) == (
        "Fee: application fee $50.00; refundable deposit $1,000.00: $1,050.00 in all "
        "(Canton 16-12 §4 and Fee Schedule; Canton 16-12 Fee Schedule (Nominal Schedule of Refundable Deposits))."
    )
    before = snapshot(store.url)
    with pytest.raises(PaymentRefused, match="more than the"):
        _pay(store, "1000.01")
    with pytest.raises(PaymentRefused, match="more than the"):
        record_event(
            store,
            FID,
            {"type": "payment-received", "date": TODAY.isoformat(), "amount": "2000.00", "method": "cash"},
            by="clerk",
            today=TODAY,
            now=NOW,
            mail_from="t@x",
        )
    assert snapshot(store.url) == before


def test_a_payment_toward_the_deposit_is_the_deposit_received_and_more_than_it_writes_nothing(db_url):
    """Canton 16-12 §4: the deposit comes with the application; §5: the
    Town holds it.  A payment toward the deposit is the deposit received,
    up to the deposit charged."""
    from services.deposits import permit_ledger

    store = make_store(db_url)
    before = snapshot(store.url)
    with pytest.raises(PaymentRefused) as refused:
        _pay(store, "1000.01", toward="deposit")  # within the $1,050.00 due, beyond the deposit
    assert "payments toward the refundable deposit of $1,000.01 add up to more than the $1,000.00 charged" in str(refused.value)
    assert snapshot(store.url) == before
    _pay(store, "1000.00", toward="deposit")
    ledger = permit_ledger(store, FID)
    assert (ledger.charged, ledger.received, ledger.held, ledger.fees_paid) == (1_000_00, 1_000_00, 1_000_00, 0)
    _pay(store, "50.00", toward="fee")
    assert permit_ledger(store, FID).fees_paid == 50_00
    filing, _ = store.load(FID)
    assert [p.toward for p in fee_standing(store, filing).payments] == ["deposit", "fee"]


def test_a_payment_toward_a_deposit_where_none_is_charged_is_refused(db_url):
    store = make_store(db_url)
    with pytest.raises(PaymentRefused, match="no refundable deposit is charged for this filing"):
        record_payment(
            store,
            "CAN-NOI-2026-001",
            day=TODAY,
            amount="10.00",
            method="cash",
            toward="deposit",
            by="clerk",
            today=TODAY,
            now=NOW,
            mail_from="t@x",
        )


def _dug(store):
    for raw in (
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
        {"type": "permit-issued", "date": "2026-12-01"},
        {"type": "work-noticed", "at": "2026-12-01T09:00"},
        {"type": "excavation-started", "date": "2026-12-02"},
    ):
        storekit.append(store, FID, raw, by="t", today=TODAY)


def test_a_request_is_listed_for_the_schedule_until_its_inspection_answers_it(db_url, tmp_path):
    from models.store.uploads import Uploads

    store = make_store(db_url)
    _dug(store)
    before = snapshot(store.url)
    with pytest.raises(InspectionRequestRefused, match="Saturday"):
        ask_inspection(store, FID, stage="pre-backfill", preferred=date(2026, 12, 5), by="ann@example.org", today=TODAY)
    assert snapshot(store.url) == before
    ask_inspection(store, FID, stage="pre-backfill", preferred=date(2026, 12, 7), by="ann@example.org", today=TODAY)
    (listed,) = requests_for_schedule(store, towns=["canton"])
    assert listed.filing == FID and listed.request.preferred == date(2026, 12, 7) and listed.stages == ("pre-backfill",)
    assert requests_for_schedule(store, towns=["saugus"]) == []
    uploads = Uploads(store, tmp_path / "uploads", 1 << 20)
    record_inspection(
        store,
        uploads,
        FID,
        day=TODAY,
        stage="pre-backfill",
        result="pass",
        by="dpw",
        today=TODAY,
        now=NOW,
        mail_from="permits@canton.example",
    )
    assert requests_for_schedule(store, towns=None) == []
