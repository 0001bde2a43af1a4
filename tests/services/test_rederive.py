"""``permits rederive`` (services/rederive.py): a store built before the
DPW's inspection clocks (Canton 16-12 §10.2) and the deposit ledger
(Canton 16-12 §4-6) were derived gets, from each filing's history, exactly
what recording the events would have stored; a second run changes nothing;
a dry run writes nothing."""

import json

import storekit
from sqlalchemy import delete, select, update
from storekit import snapshot
from webkit import TODAY, make_store

from cli.main import main
from models.schema.tables import FilingClock, FilingRow, LedgerEntry
from services.record import record_event
from services.rederive import rederive
from workflows.inspections import INSPECTION_CLOCKS

FID = "CAN-SOP-2026-001"  # the web kit's street opening: a utility's, 40 ft
STEPS = [
    {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
    {"type": "permit-issued", "date": "2026-12-01"},
    {"type": "excavation-started", "date": "2026-12-02"},
]
CLOCK, FILING, LEDGER = FilingClock.__table__, FilingRow.__table__, LedgerEntry.__table__


def _recorded(store):
    """The steps recorded the way a user records them (the ledger filled,
    the inspection clocks stored)."""
    for raw in STEPS:
        record_event(store, FID, raw, by="t", today=TODAY, now=None, mail_from="town@example")


def _old_store(url: str):
    """The web kit's filings as a store of an earlier release imported them:
    the import wrote no ledger line (it fills the ledger since issue 31)."""
    from webkit import FILINGS

    from models.handle import Store
    from models.store.filings import import_filings as write
    from services.database import upgrade_store
    from services.unit_of_work import UnitOfWork

    store = Store(url)
    upgrade_store(store)
    with UnitOfWork(store) as uow:
        write(uow.conn, store, FILINGS, by="test")
    return store


def _the_old_way(store):
    """The steps as a store of the last release kept them: the events and
    their clocks without the inspection clocks, no ledger line."""
    for raw in STEPS:
        storekit.append(store, FID, raw, by="t", today=TODAY)
    with store.engine.begin() as conn:
        conn.execute(delete(CLOCK).where(CLOCK.c.filing_id == FID, CLOCK.c.clock_id.in_(INSPECTION_CLOCKS)))
        conn.execute(update(FILING).where(FILING.c.id == FID).values(next_deadline_date=None, next_deadline_clock=None))


def _derived(store):
    with store.engine.connect() as conn:
        row = conn.execute(
            select(FILING.c.state, FILING.c.next_deadline_date, FILING.c.next_deadline_clock).where(FILING.c.id == FID)
        ).one()
        clocks = conn.execute(
            select(CLOCK.c.n, CLOCK.c.clock_id, CLOCK.c.date, CLOCK.c.status, CLOCK.c.rule, CLOCK.c.explanation)
            .where(CLOCK.c.filing_id == FID)
            .order_by(CLOCK.c.n)
        ).all()
        ledger = conn.execute(
            select(LEDGER.c.entry, LEDGER.c.amount_cents, LEDGER.c.date, LEDGER.c.item, LEDGER.c.rule, LEDGER.c.source)
            .where(LEDGER.c.filing_id == FID)
            .order_by(LEDGER.c.seq)
        ).all()
    return tuple(row), [tuple(c) for c in clocks], [tuple(e) for e in ledger]


def test_rederive_gives_an_old_store_exactly_what_recording_would_have_stored(db_url, second_url):
    recorded, old = make_store(db_url), _old_store(second_url)
    _recorded(recorded)
    _the_old_way(old)
    want, before = _derived(recorded), _derived(old)
    assert {c[1] for c in want[1]} & set(INSPECTION_CLOCKS), "the steps must open an inspection clock"
    assert before != want and before[2] == []  # the old way: no inspection clock, no ledger line

    got = rederive(old, by="upgrade")
    assert (got.filings, got.clocks_changed, got.ledger_lines) == (3, 1, 2)
    assert _derived(old) == want

    again = snapshot(second_url)
    second = rederive(old, by="upgrade")
    assert (second.clocks_changed, second.ledger_lines) == (0, 0)
    assert snapshot(second_url) == again  # nothing changed, not even a stamp
    recorded.engine.dispose()
    old.engine.dispose()


def test_rederive_of_a_store_recorded_this_way_changes_nothing(db_url):
    store = make_store(db_url)
    _recorded(store)
    before = snapshot(db_url)
    got = rederive(store, by="upgrade")
    assert (got.filings, got.clocks_changed, got.ledger_lines) == (3, 0, 0)
    assert snapshot(db_url) == before
    store.engine.dispose()


def test_the_command_counts_a_dry_run_writes_nothing_and_a_second_run_finds_nothing(db_url, capsys):
    store = _old_store(db_url)
    _the_old_way(store)
    before = snapshot(db_url)
    assert main(["rederive", "--dry-run", "--json", "--db", db_url]) == 0
    assert json.loads(capsys.readouterr().out) == {"filings": 3, "clocks_changed": 1, "ledger_lines": 2, "dry_run": True}
    assert snapshot(db_url) == before

    assert main(["rederive", "--town", "canton", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "2 filing(s) replayed; 1 given their clocks again" in out and "2 deposit ledger line(s) added" in out
    assert main(["rederive", "--db", db_url]) == 0
    assert "3 filing(s) replayed; 0 given their clocks again" in capsys.readouterr().out
    store.engine.dispose()


def test_the_command_refuses_an_unknown_town_in_one_line_with_nothing_written(db_url, capsys):
    store = make_store(db_url)
    _the_old_way(store)
    before = snapshot(db_url)
    assert main(["rederive", "--town", "atlantis", "--db", db_url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("permits: error:") and "atlantis" in err and err.count("\n") == 1
    assert snapshot(db_url) == before
    store.engine.dispose()
