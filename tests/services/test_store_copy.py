"""``permits db copy --to URL`` (issue 35, item 2): a town moved whole from
SQLite to PostgreSQL and back, compared table by table (filings, events,
clocks, the ledger, users, sessions, uploads' rows, the outbox, meetings,
enforcement, parcels...), the new store taking the next id; a target that
holds records refused in one line with nothing written.  And ``permits
import`` of an exported street opening keeps its ledger lines (item 3)."""

from __future__ import annotations

import json
from datetime import date, datetime

import storekit
from sqlalchemy import create_engine, select
from storekit import snapshot
from webkit import make_store

from cli.main import main
from models.handle import Store
from models.schema.tables import LedgerEntry, UserRow
from services.demo import make_demo_store, seed_demo_logins
from services.meetings import schedule_meetings

SOP = "CAN-SOP-2026-001"


def _demo(tmp_path, monkeypatch):
    """The demonstration's store (filings of every kind and stage, their
    ledger, users, enforcement cases, meetings, parcels, the outbox)."""
    import config

    monkeypatch.setenv("PERMITS_DATA_DIR", str(tmp_path / "data"))
    demo = make_demo_store(config.load(), as_of=date(2026, 12, 3), count=60, seed=7)
    seed_demo_logins(demo.url, date(2026, 12, 3))
    store = Store(demo.url)  # and what the demo lacks: a meeting, a session, an upload and the step's email
    schedule_meetings(
        store, town="canton", first=datetime(2026, 12, 15, 19, 0), every_weeks=2, count=2, by="t", today=date(2026, 12, 3)
    )
    with store.engine.connect() as conn:
        user_id = conn.execute(select(UserRow.__table__.c.id).limit(1)).scalar_one()
    storekit.sessions(store).start(user_id)
    store.engine.dispose()
    return demo.url


def test_a_town_moved_to_postgresql_and_back_holds_every_row_of_every_table(tmp_path, monkeypatch, capsys):
    storekit.postgres_admin_url()  # skipped without the PostgreSQL test server (failed under CI)
    source = _demo(tmp_path, monkeypatch)
    before = snapshot(source)
    held = ("filing", "event", "filing_clock", "ledger_entry", "party", "app_user", "web_session", "invitation", "account_filing")
    held += ("enforcement_case", "enforcement_event", "meeting", "parcel_layer", "parcel", "parcel_owner", "docket_tally")
    assert [t for t in held if not before[t]] == []
    target, drop = storekit.fresh_postgres_database()
    try:
        assert main(["db", "copy", "--db", source, "--to", target]) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        assert "every table of the new database holds the rows read from the old one" in out, out
        moved = snapshot(target)
        assert [t for t in before if moved[t] != before[t]] == []
        assert moved == before

        back = f"sqlite:///{tmp_path / 'back' / 'permits.db'}"
        assert main(["db", "copy", "--db", target, "--to", back]) == 0, capsys.readouterr().err
        assert snapshot(back) == before

        store = Store(target)  # the sequences were set past the ids copied
        storekit.users(store).add("second.agent@canton.example", "correct horse battery", "agent", ["canton"])
        store.engine.dispose()
    finally:
        drop()


def test_a_target_that_holds_records_is_refused_in_one_line_with_nothing_written(db_url, tmp_path, capsys):
    source = f"sqlite:///{tmp_path / 'source.db'}"
    make_store(source).engine.dispose()
    make_store(db_url).engine.dispose()
    storekit.append(Store(db_url), SOP, {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "9"}, by="t")
    before = snapshot(db_url)
    assert main(["db", "copy", "--db", source, "--to", db_url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds records (table" in err and "nothing was written" in err, err
    assert snapshot(db_url) == before


def test_copy_names_its_target_and_not_itself(tmp_path, capsys):
    source = f"sqlite:///{tmp_path / 'source.db'}"
    make_store(source).engine.dispose()
    assert main(["db", "copy", "--db", source]) == 2
    assert "name the database to copy into with --to URL" in capsys.readouterr().err
    assert main(["db", "copy", "--db", source, "--to", source]) == 2
    assert "--to names the database the record is copied from" in capsys.readouterr().err


def _ledger(url: str) -> list[tuple]:
    t = LedgerEntry.__table__
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            cols = (t.c.filing_id, t.c.entry, t.c.item, t.c.quantity, t.c.amount_cents, t.c.date, t.c.rule, t.c.note)
            return [tuple(r) for r in conn.execute(select(*cols).order_by(t.c.filing_id, t.c.seq))]
    finally:
        engine.dispose()


def test_an_exported_street_opening_imported_into_a_new_store_keeps_its_ledger_lines(db_url, tmp_path, capsys):
    """Canton 16-12 §4-5: the permit's fees and deposit are lines of the
    applicant's account; an export imported elsewhere makes the same lines
    from the same events."""
    source = f"sqlite:///{tmp_path / 'source.db'}"
    store = make_store(source)
    for raw in (
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
        {"type": "permit-issued", "date": "2026-12-01"},
    ):
        storekit.append(store, SOP, raw, by="t")
    lines = [line for line in _ledger(source) if line[0] == SOP]
    assert lines, "the street opening's permit calls for ledger lines"
    exported = tmp_path / "sop.json"
    assert main(["export", SOP, "--db", source, "--out", str(exported)]) == 0
    assert main(["init", "--db", db_url]) == 0
    capsys.readouterr()
    assert main(["import", str(exported), "--db", db_url, "--as-written"]) == 0, capsys.readouterr().err
    assert _ledger(db_url) == lines
    assert json.loads(exported.read_text())["id"] == SOP
    store.engine.dispose()
