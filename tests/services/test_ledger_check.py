"""The deposit ledger reconciled with the record (services/ledger_check.py,
``permits deposits --check``; Canton 16-12 §4-6; docs/reference/readings.md,
"What the Town holds"): every street opening's deposit charged, received,
kept, refunded and held, and its fees, recomputed from its events alone,
equal the ledger's on the demo, after recordings, voids and refunds; a
line the events do not call for, or a ledger an older import left empty,
is named with both amounts and the command exits 1; lines entered by hand
are counted, not differences.  On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

from sqlalchemy import insert, select
from webkit import TODAY, make_store

from cli.main import main
from models.schema.tables import LedgerEntry, Party
from services.ledger_check import check_ledger
from services.record import record_event, void_event

FID = "CAN-SOP-2026-001"  # the web kit's street opening: a utility's 40-foot trench, $50.00 and $1,000.00
RECEIVED = {"type": "payment-received", "date": "2026-12-01", "amount": "1050.00", "method": "check", "reference": "88"}
DONE = [
    {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
    {"type": "permit-issued", "date": "2026-12-01"},
    {"type": "excavation-started", "date": "2026-12-01"},
    {"type": "backfilled", "date": "2026-12-02", "material": "gravel"},
    {"type": "permanent-patch-placed", "date": "2026-12-02"},
    {"type": "inspected", "date": "2026-12-03", "stage": "permanent-patch", "result": "pass"},
]


def _record(store, *events):
    seq = None
    for raw in events:
        seq = record_event(store, FID, raw, by="t", today=TODAY, now=None, mail_from="town@example").seq
    return seq


def test_the_demo_store_reconciles_with_no_difference(tmp_path, capsys):
    """The demo: every generated and staged street opening, paid in full,
    in part or not yet, refunded or still held (demo/generate.py)."""
    from config import load
    from services.demo import make_demo_store

    demo = make_demo_store(load({"PERMITS_DATA_DIR": str(tmp_path)}), as_of=date(2026, 12, 1), count=240, seed=2026)
    assert main(["deposits", "--check", "--json", "--db", demo.url]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["differences"] == [] and got["permits"] > 50 and got["accounts"] > 5
    assert float(got["held"]) > 0  # deposits received and still held
    assert main(["deposits", "--check", "--db", demo.url]) == 0
    assert "no difference" in capsys.readouterr().out


def test_recordings_payments_a_refund_and_a_void_leave_no_difference(db_url):
    store = make_store(db_url)
    assert check_ledger(store).ok  # the import filled the ledger
    _record(store, RECEIVED, *DONE)
    refund = _record(store, {"type": "deposit-refunded", "date": "2026-12-03", "amount": "600.00"})
    got = check_ledger(store)
    assert got.ok and got.held == 400_00  # what is left of the $1,000.00 received stays held
    void_event(store, FID, refund, reason="entered twice", day=TODAY, by="t", today=TODAY)
    got = check_ledger(store)
    assert got.ok and got.held == 1_000_00
    store.engine.dispose()


def test_a_line_the_events_do_not_call_for_is_named_with_both_amounts_and_the_command_exits_1(db_url, capsys):
    store = make_store(db_url)
    _record(store, RECEIVED)
    with store.engine.begin() as conn:  # a line no event of the record calls for (an old release, a bad hand)
        party = conn.execute(select(Party.__table__.c.id).where(Party.__table__.c.name == "Eversource")).scalar_one()
        conn.execute(
            insert(LedgerEntry.__table__).values(
                party_id=party,
                seq=99,
                filing_id=FID,
                entry="received",
                amount_cents=250_00,
                date=TODAY,
                rule="Canton 16-12 §4-5",
                recorded_at=datetime(2026, 12, 3, tzinfo=UTC),
                recorded_by="someone",
                source="event:2:9",
            )
        )
    words = [d.words() for d in check_ledger(store).differences]
    assert f"{FID}: deposit received $1,250.00 in the ledger, $1,000.00 from its events" in words
    assert f"{FID}: held $1,250.00 in the ledger, $1,000.00 from its events" in words
    assert main(["deposits", "--check", "--db", db_url]) == 1
    out = capsys.readouterr().out
    assert "3 difference(s)" in out and f"  {FID}: held $1,250.00 in the ledger, $1,000.00 from its events" in out
    # and the account read again cannot bear it: more received than was charged (§4)
    assert "  Eversource: the account cannot bear its entries: Eversource: a deposit received of $250.00" in out
    store.engine.dispose()


def test_a_store_whose_import_left_the_ledger_empty_is_found_and_rederive_mends_it(db_url, capsys):
    from webkit import FILINGS

    from models.handle import Store
    from models.store.filings import import_filings as write
    from services.database import upgrade_store
    from services.unit_of_work import UnitOfWork

    store = Store(db_url)
    upgrade_store(store)
    with UnitOfWork(store) as uow:  # an earlier release's import: the filings, no ledger line
        write(uow.conn, store, FILINGS, by="test")
    words = {d.words() for d in check_ledger(store).differences}
    assert f"{FID}: deposit charged $0.00 in the ledger, $1,000.00 from its events" in words
    assert f"{FID}: fees charged $0.00 in the ledger, $50.00 from its events" in words
    assert main(["rederive", "--db", db_url]) == 0
    capsys.readouterr()
    assert check_ledger(store).ok
    store.engine.dispose()


def test_lines_entered_by_hand_are_counted_not_differences(db_url, capsys):
    store = make_store(db_url)
    argv = ["deposits", "Eversource", "--charge", "across-public-way", "--filing", FID, "--date", "2026-12-02"]
    assert main([*argv, "--db", db_url]) == 0
    capsys.readouterr()
    got = check_ledger(store)
    assert got.ok and got.by_hand == 1
    assert main(["deposits", "--check", "--town", "canton", "--db", db_url]) == 0
    assert "1 line(s) entered by hand (not from an event)" in capsys.readouterr().out
    store.engine.dispose()


def test_check_takes_no_applicant_or_entry_and_a_known_town_in_one_line(db_url, capsys):
    make_store(db_url).engine.dispose()
    for argv, words in (
        (["deposits", "Eversource", "--check"], "--check reads every permit"),
        (["deposits", "--check", "--town", "springfield"], "springfield"),
        (["deposits"], "name the applicant whose account to show, or give --check"),
    ):
        assert main([*argv, "--db", db_url]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err
