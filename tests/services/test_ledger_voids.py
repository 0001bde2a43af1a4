"""Voiding an event reverses its deposit ledger lines (Canton 16-12 §4-6;
docs/reference/readings.md, "A voided event's ledger lines"): the ledger
is append-only, so a voided fee or refund leaves its line and gains the
reversing one, the same entry with the opposite amount, dated the voiding;
the command line and the workbench void alike; a store voided before this
gets the reversing lines from ``permits rederive``."""

import html

import pytest
import storekit
from storekit import snapshot
from webkit import TODAY, client, csrf_of, login, make_store

from cli.main import main
from services.deposits import DepositFilter, deposit_list, permit_ledger
from services.record import record_event
from services.rederive import rederive
from workflows.deposits import LedgerRefused, Line, statement

FID = "CAN-SOP-2026-001"  # the web kit's street opening: a utility's, 40 ft: $50.00 fee, $1,000.00 deposit
STEPS = [
    {
        "type": "payment-received",
        "date": "2026-12-01",
        "amount": "1000.00",
        "method": "check",
        "reference": "7",
        "toward": "deposit",
    },
    {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
    {"type": "permit-issued", "date": "2026-12-01"},
    {"type": "excavation-started", "date": "2026-12-01"},
    {"type": "backfilled", "date": "2026-12-02", "material": "gravel"},
    {"type": "permanent-patch-placed", "date": "2026-12-02"},
    {"type": "inspected", "date": "2026-12-03", "stage": "permanent-patch", "result": "pass"},
]
BILLED = {"type": "after-hours-billed", "date": "2026-12-02", "hours": 2}
REFUND = {"type": "deposit-refunded", "date": "2026-12-03", "amount": "750.00", "held_back": "250.00", "reason": "curb replaced"}


def _record(store, events):
    seq = None
    for raw in events:
        seq = record_event(store, FID, raw, by="t", today=TODAY, now=None, mail_from="town@example").seq
    return seq


def _entries(store):
    return [(e.entry, e.cents, e.note) for e in permit_ledger(store, FID).entries]


def _void_by_web(store, seq):
    web = client(store)
    login(web, "canton-dpw")
    page = web.get(f"/filings/{FID}").text
    last = store.load(FID)[1].last_seq
    r = web.post(
        f"/filings/{FID}/void", data={"csrf": csrf_of(page), "seq": str(last), "voids": str(seq), "reason": "entered twice"}
    )
    assert r.status_code == 303, r.text[-2000:]


def _void_by_cli(url, seq, capsys):
    argv = ["void", FID, str(seq), "--reason", "entered twice", "--date", "2026-12-03", "--as-of", TODAY.isoformat()]
    assert main([*argv, "--db", url]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("how", ["cli", "web"])
def test_a_voided_after_hours_fee_gains_its_reversing_line_and_leaves_the_fees_charged(how, db_url, capsys):
    store = make_store(db_url)
    billed = _record(store, [*STEPS[:4], BILLED])
    assert permit_ledger(store, FID).fees == 50_00 + 2 * 50_00
    _void_by_cli(db_url, billed, capsys) if how == "cli" else _void_by_web(store, billed)
    ledger = permit_ledger(store, FID)
    assert _entries(store)[-2:] == [
        ("fee", 100_00, "2 hour x $50.00: inspection after normal working hours"),
        ("fee", -100_00, f"reversed: event {billed} voided (entered twice)"),
    ]
    assert ledger.entries[-1].date.isoformat() == "2026-12-03"  # the voiding's day
    assert (ledger.fees, ledger.charged, ledger.received, ledger.held) == (50_00, 1_000_00, 1_000_00, 1_000_00)
    web = client(store)
    login(web, "canton-dpw")
    page = html.unescape(web.get(f"/filings/{FID}").text)
    assert "-$100.00" in page and f"reversed: event {billed} voided (entered twice)" in page
    assert "Fees charged $50.00" in page
    before = snapshot(db_url)
    assert rederive(store, by="t").ledger_lines == 0  # reversed once
    assert snapshot(db_url) == before
    store.engine.dispose()


@pytest.mark.parametrize("how", ["cli", "web"])
def test_a_voided_refund_returns_the_deposit_to_held_and_a_corrected_refund_then_adds_up(how, db_url, capsys):
    store = make_store(db_url)
    refund = _record(store, [*STEPS, REFUND])
    assert permit_ledger(store, FID).held == 0
    assert deposit_list(store, DepositFilter(towns=None))[1].held == 0
    _void_by_cli(db_url, refund, capsys) if how == "cli" else _void_by_web(store, refund)
    ledger = permit_ledger(store, FID)
    assert [(e, c) for e, c, _ in _entries(store)] == [
        ("fee", 50_00),
        ("deposit", 1_000_00),
        ("received", 1_000_00),
        ("deduction", 250_00),
        ("refund", 750_00),
        ("refund", -750_00),
        ("deduction", -250_00),
    ]
    assert (ledger.kept, ledger.refunded, ledger.held) == (0, 0, 1_000_00)
    deposits, totals = deposit_list(store, DepositFilter(towns=["canton"]))
    assert totals.permits == 1 and (deposits[0].filing, deposits[0].held) == (FID, 1_000_00)

    _record(store, [{"type": "deposit-refunded", "date": "2026-12-03", "amount": "1000.00"}])
    assert permit_ledger(store, FID).held == 0 and permit_ledger(store, FID).refunded == 1_000_00
    store.engine.dispose()


def test_a_store_that_voided_a_refund_before_voids_reversed_gets_the_reversal_from_rederive(db_url):
    store = make_store(db_url)
    refund = _record(store, [*STEPS, REFUND])
    storekit.void(store, FID, refund, reason="entered twice", day=TODAY, by="t", today=TODAY)  # the store's own void: no ledger
    assert permit_ledger(store, FID).held == 0
    got = rederive(store, by="upgrade")
    assert got.ledger_lines == 2 and permit_ledger(store, FID).held == 1_000_00
    assert rederive(store, by="upgrade").ledger_lines == 0
    store.engine.dispose()


def test_a_reversing_line_takes_back_and_a_plain_negative_line_is_still_refused():
    day = TODAY
    fee = Line("fee", 50_00, day, FID, "application", 1, "Canton 16-12 §4")
    back = Line("fee", -50_00, day, FID, "application", 1, "Canton 16-12 §4", "reversed", reverses=True)
    assert statement("Eversource", [fee, back]).fees == 0
    with pytest.raises(LedgerRefused, match="never negative"):
        statement("Eversource", [fee, Line("fee", -50_00, day, FID)])
    with pytest.raises(LedgerRefused, match="its amount is negative"):
        statement("Eversource", [fee, Line("fee", 50_00, day, FID, reverses=True)])
