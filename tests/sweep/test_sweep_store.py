"""The sweep recording its outputs on the filings in the store
(services.sweep_log.StoreOutputLog), on SQLite and on PostgreSQL: idempotence,
a crash and a rerun, two sweeps racing, each output and its notice rows in
one transaction, and the derived state brought up to date."""

import threading

import pytest
from sqlalchemy import select
from test_sweep import AS_OF, Crash, NoticeRecorder, files

from demo.generate import generate
from models.handle import Store
from models.schema.tables import FilingClock, FilingRow, Notice, SweepOutput
from models.store.filings import derived_from
from services.database import upgrade_store
from services.imports import import_filings
from services.sweep_log import StoreOutputLog, open_log
from sweep.report import write_outputs
from sweep.run import run_sweep
from sweep.store_source import StoreSource


class RecipientRecorder(NoticeRecorder):
    """The stand-in notice hook, naming its recipients as the real one does."""

    def __call__(self, filing, replay, due, out_dir):
        from sweep.dispatch import MadeNotice

        return MadeNotice(super().__call__(filing, replay, due, out_dir), ["public"])


class CrashingStoreLog(StoreOutputLog):
    def __init__(self, store, after):
        super().__init__(store)
        self.left = after

    def mark_done(self, filing_id, output_key, payload):
        done = super().mark_done(filing_id, output_key, payload)
        self.left -= 1
        if self.left == 0:
            raise Crash()
        return done


def filled(url):
    store = Store(url)
    upgrade_store(store)
    import_filings(store, generate(150, AS_OF, seed=11), by="test")
    return url


def sweep(url, out, hook, log_class=StoreOutputLog, **kw):
    source = StoreSource(url)
    log = log_class(source.store, **kw)
    try:
        result = run_sweep(source, log, AS_OF, chunk_size=40, notice_hook=hook, out_dir=out)
        write_outputs(result, out)
        return result
    finally:
        source.store.engine.dispose()


def rows(url, table, *drop):
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            out = [{k: v for k, v in r._mapping.items() if k not in drop} for r in conn.execute(select(table))]
    finally:
        store.engine.dispose()
    return sorted(out, key=repr)


def test_sweeping_the_store_twice_records_each_output_once_on_its_filing(db_url, tmp_path):
    filled(db_url)
    hook = RecipientRecorder()
    first = sweep(db_url, tmp_path / "out1", hook)
    again = sweep(db_url, tmp_path / "out2", hook)
    assert first.counts()["notices_made"] > 0 and first.counts()["reminders_new"] > 0
    assert again.counts()["notices_made"] == 0 and again.counts()["reminders_new"] == 0
    assert set(hook.made.values()) == {1}
    one = {k: v for k, v in files(tmp_path / "out1").items() if not k.startswith("notices/")}
    assert one == files(tmp_path / "out2")
    outputs = rows(db_url, SweepOutput.__table__)
    assert len(outputs) == first.counts()["notices_made"] + first.counts()["reminders_new"]
    assert {o["kind"] for o in outputs} == {"notice", "reminder"}
    assert {o["as_of"] for o in outputs} == {AS_OF}
    notices = rows(db_url, Notice.__table__)
    assert len(notices) == first.counts()["notices_made"]
    assert {(n["filing_id"], n["output_key"]) for n in notices} == {
        (o["filing_id"], o["output_key"]) for o in outputs if o["kind"] == "notice"
    }
    assert all(n["recipient"] == "public" and n["files"] == [n["path"]] for n in notices)


def test_a_crash_halfway_then_a_rerun_on_the_store_ends_as_one_clean_run(db_url, tmp_path):
    clean_url = filled(f"sqlite:///{tmp_path / 'clean.db'}")
    clean_hook = RecipientRecorder()
    sweep(clean_url, tmp_path / "clean", clean_hook)
    total = len(rows(clean_url, SweepOutput.__table__))

    filled(db_url)
    hook = RecipientRecorder()
    with pytest.raises(Crash):
        sweep(db_url, tmp_path / "crashed", hook, log_class=CrashingStoreLog, after=total // 2)
    partial = rows(db_url, SweepOutput.__table__)
    assert 0 < len(partial) < total
    # every notice row belongs to an output recorded in the same transaction
    assert {n["output_key"] for n in rows(db_url, Notice.__table__)} <= {o["output_key"] for o in partial}
    sweep(db_url, tmp_path / "crashed", hook)

    volatile = ("recorded_at", "produced_at", "id", "updated_at")
    for table in (SweepOutput.__table__, Notice.__table__, FilingRow.__table__, FilingClock.__table__):
        assert rows(db_url, table, *volatile) == rows(clean_url, table, *volatile), table.name
    assert hook.made == clean_hook.made  # every notice made exactly once
    assert files(tmp_path / "crashed") == files(tmp_path / "clean")


def test_an_output_and_its_notice_rows_are_written_together_or_not_at_all(db_url, monkeypatch):
    filled(db_url)
    log = StoreOutputLog.at(db_url)
    filing_id = log.store.list_filings()[0].id
    payload = {"kind": "legal-notice", "files": ["notices/x.pdf"], "recipients": ["public"]}

    def broken(*args):
        raise RuntimeError("disk full")

    monkeypatch.setattr("models.store.outputs.notice_rows", broken)
    with pytest.raises(RuntimeError):
        log.mark_done(filing_id, "notice:legal-notice:2026-12-08", payload)
    assert not log.already_done(filing_id, "notice:legal-notice:2026-12-08")
    monkeypatch.undo()
    assert log.mark_done(filing_id, "notice:legal-notice:2026-12-08", payload) is True
    assert log.already_done(filing_id, "notice:legal-notice:2026-12-08")
    log.close()


def test_two_sweeps_racing_for_one_output_record_it_once_and_neither_fails(db_url):
    filled(db_url)
    logs = [StoreOutputLog.at(db_url) for _ in range(2)]
    filing_id = logs[0].store.list_filings()[0].id
    payload = {"kind": "legal-notice", "files": ["notices/x.pdf"], "recipients": ["public"], "as_of": "2026-11-30"}
    start, results, errors = threading.Barrier(2), [], []

    def mark(log):
        start.wait()
        try:
            results.append(log.mark_done(filing_id, "notice:legal-notice:2026-12-08", payload))
        except Exception as exc:  # noqa: BLE001 - the test reports it
            errors.append(exc)

    threads = [threading.Thread(target=mark, args=(log,)) for log in logs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and sorted(results) == [False, True]
    assert len(rows(db_url, SweepOutput.__table__)) == 1 and len(rows(db_url, Notice.__table__)) == 1
    for log in logs:
        log.close()


def test_save_derived_stores_the_sweeps_replay_by_the_stores_rules_unless_an_event_came_since(db_url):
    filled(db_url)
    store = Store(db_url)
    f = store.list_filings()[0]
    filing, _ = store.load(f.id)
    result = store.replayer(filing, AS_OF)
    clocks = [c.as_dict() for c in result.clocks]
    row = {
        "id": f.id,
        "town": filing.town,
        "kind": filing.kind,
        "state": "stale-state-for-the-test",
        "clocks": clocks,
        "as_of": AS_OF.isoformat(),
        "events": len(filing.events) - 1,
    }
    log = StoreOutputLog(store)
    log.save_derived([row])  # the filing has an event the sweep did not see: left alone
    assert store.list_filings()[0].state == f.state
    log.save_derived([{**row, "events": len(filing.events)}])
    after = store.list_filings()[0]
    expected = derived_from(filing.town, filing.kind, "stale-state-for-the-test", clocks)
    assert after.state == "stale-state-for-the-test"
    assert (after.next_deadline_date, after.next_deadline_clock) == (expected.next_date, expected.next_clock)
    stored = [r for r in rows(db_url, FilingClock.__table__) if r["filing_id"] == f.id]
    assert sorted(r["status"] for r in stored) == sorted(c["status"] for c in expected.clocks)
    store.engine.dispose()


def test_open_log_shares_the_stores_engine_and_still_opens_a_ledger_file(tmp_path):
    from sweep.ledger import SqliteLedger

    url = filled(f"sqlite:///{tmp_path / 'p.db'}")
    source = StoreSource(url)
    log = open_log(url, source)
    assert isinstance(log, StoreOutputLog) and log.store is source.store
    ledger = open_log(str(tmp_path / "l.sqlite"), source)
    assert isinstance(ledger, SqliteLedger)
    ledger.close()
    source.store.engine.dispose()


def test_permits_sweep_of_the_store_records_its_outputs_there_by_default(tmp_path, capsys):
    from cli.main import main

    url = filled(f"sqlite:///{tmp_path / 'p.db'}")
    args = ["sweep", "--no-prefect", "--as-of", AS_OF.isoformat(), "--db", url, "--out", str(tmp_path / "out")]
    assert main(args) == 0
    made = rows(url, SweepOutput.__table__)
    assert made and {o["kind"] for o in made} >= {"reminder"}
    assert main(args) == 0
    assert "\n0 new reminders, 0 notices made" in capsys.readouterr().out
    assert rows(url, SweepOutput.__table__) == made


def test_the_sweep_puts_the_stores_enforcement_cases_in_its_digest(db_url, tmp_path):
    """An Enforcement Order's compliance date passed (Mansfield Ch. 25 Part B
    §14.B) and a ticket's 21 days running (M.G.L. c.40 §21D) are lines of
    the digest, beside the filings' dockets."""
    import json
    from datetime import date

    from services.enforcement import issue_order, issue_tickets, open_case
    from sweep.report import build_digest

    url = filled(db_url)
    store = Store(url)
    case = open_case(
        store,
        town_id="mansfield",
        bylaw="stormwater",
        violator="Rumford Devco LLC",
        provision="§14.B.1",
        description="silt fence down along the brook",
        day=date(2026, 11, 2),
        by="agent",
        today=AS_OF,
        address="200 Rumford Avenue",
    ).case
    issue_order(
        store, case, day=date(2026, 11, 3), comply_by=date(2026, 11, 20), requires=["Repair the silt fence."], by="a", today=AS_OF
    )
    issue_tickets(store, case, day=date(2026, 11, 20), provisions=["§14.B.1"], days=[date(2026, 11, 18)], by="a", today=AS_OF)
    store.engine.dispose()
    result = sweep(url, tmp_path / "out", None)
    lines = build_digest(result)["enforcement"]
    assert {(e["filing"], e["what"], e["category"]) for e in lines} == {
        (case, "compliance", "overdue"),
        (case, "ticket-appearance", "due"),
    }
    written = json.loads((tmp_path / "out" / "digest.json").read_text())
    assert [e["what"] for e in written["enforcement"]] == ["compliance", "ticket-appearance"]
    assert "Enforcement cases (2)" in (tmp_path / "out" / "digest.html").read_text()
