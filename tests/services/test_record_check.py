"""The record checks itself (issue 35, item 3): every writer of a filing's
derived rows (an import, recording an event, the daily sweep, ``permits
rederive``) stores its clocks as of one day chosen by one function
(:func:`models.store.filings.derivation_day`) and records that day, so
``permits check`` (services/record_check.py) recomputes exactly what the
store should hold and finds nothing on a store they wrote; a difference
planted by SQL is named in people's words; and rederive no longer rewinds
what the sweep set (the boards' comment period stored ``passed`` by the
sweep came back as ``waiting``)."""

from datetime import date, timedelta

from sqlalchemy import insert, select, update
from webkit import TODAY, make_store

from cli.main import main
from config import load
from models.schema.tables import DocketTally, FilingClock, FilingRow
from models.store.filings import derivation_day
from services.record import record_event
from services.record_check import check_record
from services.rederive import rederive
from services.sweep import run_sweep
from workflows.filing import parse_filing

CLOCK, FILING, TALLY = FilingClock.__table__, FilingRow.__table__, DocketTally.__table__
NOI = "CAN-NOI-2026-001"  # the web kit's NOI: filed and boards notified 2026-12-01
LATER = date(2027, 1, 15)  # after the boards' comment period (Dec 16) and the hearing's deadline (Dec 22)


def _sweep(url: str, as_of: date, tmp_path, sample: int = 0):
    settings = load({"PERMITS_DATA_DIR": str(tmp_path / "data"), "PERMITS_SWEEP_CHECK_SAMPLE": str(sample)})
    return run_sweep(as_of, url, str(tmp_path / f"out-{as_of}"), settings, use_prefect=False, make_notices=False)


def _status(store, fid: str, clock_id: str) -> str:
    with store.engine.connect() as conn:
        return conn.execute(select(CLOCK.c.status).where(CLOCK.c.filing_id == fid, CLOCK.c.clock_id == clock_id)).scalar_one()


def test_derivation_day_is_the_writers_day_never_before_the_last_event_nor_the_day_stored():
    filing = parse_filing({"town": "canton", "kind": "noi", "id": "X", "events": [{"type": "filed", "date": "2026-12-01"}]})
    assert derivation_day(filing, date(2026, 12, 3)) == date(2026, 12, 3)
    assert derivation_day(filing, date(2026, 11, 1)) == date(2026, 12, 1)  # not before its last event
    assert derivation_day(filing, None) == date(2026, 12, 1)
    assert derivation_day(filing, date(2026, 12, 3), date(2027, 1, 15)) == date(2027, 1, 15)  # never back in time


def test_what_the_sweep_set_rederive_keeps_and_recording_keeps(db_url, tmp_path):
    store = make_store(db_url)
    assert _status(store, NOI, "board-comment") == "waiting"
    _sweep(db_url, LATER, tmp_path)
    assert _status(store, NOI, "board-comment") == "passed"  # the sweep's day is after Dec 16
    assert check_record(store).ok

    dry = rederive(store, by="t", dry_run=True, today=TODAY)  # a rederive on an earlier day rewinds nothing
    assert dry.clocks_changed == 0
    rederive(store, by="t", today=TODAY)
    assert _status(store, NOI, "board-comment") == "passed"

    record_event(store, NOI, {"type": "abutters-notified", "date": "2026-12-02"}, by="t", today=TODAY, now=None, mail_from="t@x")
    assert _status(store, NOI, "board-comment") == "passed"  # recording a backdated event keeps the later day
    got = check_record(store)
    assert got.ok, [d.line() for d in got.differences]
    store.engine.dispose()


def test_generated_filings_imported_swept_and_rederived_check_clean(tmp_path):
    from demo.generate import generate
    from models.handle import Store
    from services.database import upgrade_store
    from services.imports import import_filings

    url = f"sqlite:///{tmp_path / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    day = date(2026, 12, 4)
    import_filings(store, list(generate(80, day, seed=7)), by="t", today=day)
    after_import = check_record(store)
    assert (after_import.filings, after_import.whole) == (80, True) and after_import.ok, [
        d.line() for d in after_import.differences
    ]

    _sweep(url, day + timedelta(days=1), tmp_path)
    after_sweep = check_record(store)
    assert after_sweep.ok, [d.line() for d in after_sweep.differences]
    assert rederive(store, by="t", dry_run=True, today=day + timedelta(days=1)).clocks_changed == 0

    rederive(store, by="t", today=day + timedelta(days=40))
    after_rederive = check_record(store)
    assert after_rederive.ok, [d.line() for d in after_rederive.differences]
    # the day asked: as of the day the rows are kept as of, nothing; a year on, time has moved clocks
    assert check_record(store, as_of=day + timedelta(days=40)).ok
    assert not check_record(store, as_of=day + timedelta(days=400)).ok
    store.engine.dispose()


def test_a_clock_status_altered_by_sql_is_named_in_words(db_url, capsys):
    store = make_store(db_url)
    with store.engine.begin() as conn:
        conn.execute(update(CLOCK).where(CLOCK.c.filing_id == NOI, CLOCK.c.clock_id == "board-comment").values(status="passed"))
    got = check_record(store)
    lines = [d.line() for d in got.differences]
    assert lines == [
        "CAN-NOI-2026-001: as of Tuesday, December 1, 2026, Boards' time to comment (Wednesday, December 16, 2026) "
        "is kept as allowed; the record says not yet allowed"
    ]
    assert main(["check", "--db", db_url]) == 1
    out = capsys.readouterr().out
    assert lines[0] in out and "1 difference(s)" in out
    assert "board-comment" not in out and "2026-12" not in out  # people's words: no clock id, no ISO date
    store.engine.dispose()


def test_a_drifted_tally_next_deadline_and_search_column_are_each_reported(db_url):
    store = make_store(db_url)
    with store.engine.begin() as conn:
        conn.execute(
            update(FILING).where(FILING.c.id == NOI).values(next_deadline_date=None, next_deadline_clock=None, address="1 Elm St")
        )
        conn.execute(insert(TALLY), [{"status": "due", "date": date(2026, 12, 22), "town": "canton", "kind": "noi", "n": 1}])
    words: dict = {}
    for d in check_record(store).differences:
        words.setdefault(d.subject, []).append(d.words)
    assert set(words) == {NOI, "the docket's counts"}
    noi = " | ".join(words[NOI])
    assert "its next deadline is kept as none; the record says Public hearing to open, Tuesday, December 22, 2026" in noi
    assert "the site's address the search finds it by is kept as 1 Elm St; the record says 40 Washington St" in noi
    assert words["the docket's counts"] == [
        "Canton's Notice of Intent deadlines still to be done on Tuesday, December 22, 2026 are counted 2; the clocks hold 1"
    ]
    store.engine.dispose()


def test_check_exit_codes_and_bad_input(db_url, capsys):
    store = make_store(db_url)
    assert main(["check", "--db", db_url]) == 0
    assert "no differences" in capsys.readouterr().out
    assert main(["check", "--db", db_url, "--sample", "2"]) == 0
    assert "2 of 3 filing(s)" in capsys.readouterr().out
    for bad in (["--sample", "0"], ["--sample", "many"], ["--as-of", "2026-02-30"], ["--town", "atlantis"]):
        assert main(["check", "--db", db_url, *bad]) == 2, bad
        assert capsys.readouterr().err.startswith("permits: error:")
    store.engine.dispose()


def test_the_sweep_checks_a_sample_and_reports_drift(db_url, tmp_path):
    store = make_store(db_url)
    clean = _sweep(db_url, LATER, tmp_path, sample=10)
    assert clean["check"].ok and clean["check"].filings == 3
    with store.engine.begin() as conn:  # what the sweep does not rewrite: the search's column
        conn.execute(update(FILING).where(FILING.c.id == NOI).values(parcel="99-999"))
    drift = _sweep(db_url, LATER, tmp_path / "again", sample=10)
    lines = [d.line() for d in drift["check"].differences]
    assert lines == [
        f"{NOI}: as of Friday, January 15, 2027, the parcel the search finds it by is kept as 99-999; the record says 12-033"
    ]
    report = (tmp_path / "again" / f"out-{LATER}" / "record-check.json").read_text()
    assert NOI in report
    store.engine.dispose()


def test_a_filing_the_sweep_would_take_up_too_late_is_a_difference(db_url, tmp_path):
    """permits check holds each open filing's next_change_on to the day its
    clocks may next change (sweep/next_change.py): a day kept later means
    the incremental sweep would leave a deadline stale.  The web kit's
    NOI, swept on its day, next changes on December 15: the applicant's
    reminder of the hearing's deadline (December 22) is due 7 days before
    it; kept as changing only by an event, the check says so."""
    store = make_store(db_url)
    _sweep(db_url, TODAY, tmp_path)
    assert check_record(store).ok
    with store.engine.begin() as conn:
        conn.execute(update(FILING).where(FILING.c.id == NOI).values(next_change_on=date.max))
    lines = [d.line() for d in check_record(store).differences]
    assert lines == [
        f"{NOI}: as of Thursday, December 3, 2026, the daily sweep is to take it up only when an event is recorded, "
        "but its deadlines, reminders or notices may change on Tuesday, December 15, 2026 ('permits sweep --all' takes it up)"
    ], lines
    settings = load({"PERMITS_DATA_DIR": str(tmp_path / "data"), "PERMITS_SWEEP_CHECK_SAMPLE": "0"})
    run_sweep(TODAY, db_url, str(tmp_path / "again"), settings, use_prefect=False, make_notices=False, everything=True)
    assert check_record(store).ok  # the whole sweep put it right
    store.engine.dispose()
