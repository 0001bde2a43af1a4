"""A notice is sent once whoever sends it, and parties are shared safely,
on SQLite and PostgreSQL: concurrent imports naming the same new parties,
two `permits notices` at once for the same notice, a notice made by hand and
then the daily sweep, two sweeps racing.  The concurrent imports leave a
deposit ledger that reconciles with their events (`permits deposits
--check`)."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from kit import assert_ledger_reconciles, report_row, run_inprocess
from notice_fixtures import filing_for
from sqlalchemy import func, select

from models.handle import Store
from models.schema.tables import FilingRow, Notice, Party

#: concurrent writers (``make reliability`` runs 8)
WRITERS = int(os.environ.get("PERMITS_WRITERS", "4"))
FILING_ID = "CAN-NOI-2026-014"
AS_OF = "2026-12-03"
PARTIES = ["Eversource", "National Grid", "Acme Paving", "J. Doe", "Town of Canton DPW"]


def count(url, table, *where) -> int:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(table).where(*where)).scalar_one()
    finally:
        store.engine.dispose()


def _street(n: int, writer: int) -> dict:
    return {
        "town": "canton",
        "kind": "street-opening",
        "id": f"SO-{writer}-{n:03d}",
        "applicant": {"name": PARTIES[n % 3], "category": "utility"},
        "contractor": {"name": PARTIES[2 + n % 3]},
        "events": [{"type": "filed", "date": "2026-06-01", "applicant": "utility", "length_ft": 40}],
    }


def concurrent_imports(url: str, tmp_path, writers: int, per_writer: int) -> list[subprocess.CompletedProcess]:
    """``writers`` processes importing ``per_writer`` filings each, every one
    naming the same five new parties; started together."""
    paths = []
    for w in range(writers):
        path = tmp_path / f"w{w}.json"
        path.write_text(json.dumps([_street(n, w) for n in range(per_writer)]))
        paths.append(path)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "import", str(p), "--db", url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in paths
    ]
    return [subprocess.CompletedProcess(p.args, p.wait(timeout=300), *p.communicate()) for p in procs]


def test_four_imports_at_once_naming_the_same_new_parties_all_succeed_with_one_row_per_party(db_url, tmp_path, capsys):
    assert run_inprocess(capsys, "init", "--db", db_url).code == 0
    done = concurrent_imports(db_url, tmp_path, writers=WRITERS, per_writer=30)
    filings, parties = count(db_url, FilingRow.__table__), count(db_url, Party.__table__)
    backend = db_url.split(":", 1)[0].split("+")[0]
    report_row(
        f"{WRITERS} concurrent imports sharing parties ({backend})",
        WRITERS,
        lost=max(0, WRITERS * 30 - filings),
        duplicated=max(0, parties - len(PARTIES)),
        tracebacks=sum("Traceback" in d.stderr for d in done),
    )
    assert [d.returncode for d in done] == [0] * WRITERS, [d.stderr for d in done]
    assert all("Traceback" not in d.stderr for d in done)
    assert filings == WRITERS * 30
    assert parties == len(PARTIES)
    # each permit's deposit and fee charged once, to the one row of its applicant
    store = Store(db_url)
    try:
        got = assert_ledger_reconciles(store, f"{WRITERS} concurrent imports ({backend})")
        assert got.permits == WRITERS * 30 and got.accounts == 3
    finally:
        store.engine.dispose()


def _stored(url, tmp_path, capsys, notice="legal-notice"):
    path = tmp_path / "filing.json"
    path.write_text(json.dumps(filing_for("canton", "noi", notice).to_json()))
    assert run_inprocess(capsys, "init", "--db", url).code == 0
    assert run_inprocess(capsys, "import", str(path), "--db", url).code == 0


def test_notices_commands_at_once_for_the_same_notice_record_it_once_and_the_others_render_it_again(db_url, tmp_path, capsys):
    _stored(db_url, tmp_path, capsys)
    outs = [tmp_path / f"out{i}" for i in range(max(2, WRITERS - 1))]
    argv = ["notices", FILING_ID, "--kind", "legal-notice", "--format", "html", "--as-of", AS_OF, "--db", db_url]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", *argv, "--out", str(o)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for o in outs
    ]
    ended = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in ended)
    rows = count(db_url, Notice.__table__, Notice.__table__.c.kind == "legal-notice")
    backend = db_url.split(":", 1)[0].split("+")[0]
    report_row(
        f"{len(outs)} concurrent 'permits notices', same notice ({backend})",
        len(outs),
        lost=int(rows == 0),
        duplicated=max(0, rows - 1),
        tracebacks=sum("Traceback" in err for _, _, err in ended),
    )
    assert codes == [0] * len(outs), ended
    notes = [err for _, _, err in ended if err]
    assert len(notes) == len(outs) - 1, ended  # one sent it; every other rendered it again, not sent again
    assert all("rendered again as it was sent, not sent a second time" in e and len(e.strip().splitlines()) == 1 for e in notes)
    assert count(db_url, Notice.__table__, Notice.__table__.c.kind == "legal-notice") == 1
    assert all(len(list(o.iterdir())) == 1 for o in outs)


def test_a_notice_made_by_hand_is_not_made_again_by_the_sweep(db_url, tmp_path, capsys):
    _stored(db_url, tmp_path, capsys)
    argv = ["notices", FILING_ID, "--kind", "legal-notice", "--format", "html", "--as-of", AS_OF]
    assert run_inprocess(capsys, *argv, "--out", str(tmp_path / "hand"), "--db", db_url).code == 0
    swept = run_inprocess(capsys, "sweep", "--as-of", AS_OF, "--db", db_url, "--no-prefect", "--out", str(tmp_path / "sweep"))
    assert swept.code == 0, swept.err
    rows = count(db_url, Notice.__table__, Notice.__table__.c.kind == "legal-notice")
    backend = db_url.split(":", 1)[0].split("+")[0]
    report_row(f"notice by hand, then the sweep ({backend})", 1, lost=int(rows == 0), duplicated=max(0, rows - 1))
    assert rows == 1
    assert not list((tmp_path / "sweep").rglob(f"{FILING_ID}-legal-notice*"))


def test_two_sweeps_racing_make_each_notice_once_and_report_only_what_each_made(db_url, tmp_path, capsys):
    from services.sweep_log import open_log
    from sweep.dispatch import notice_hook
    from sweep.run import run_sweep
    from sweep.store_source import StoreSource

    _stored(db_url, tmp_path, capsys)
    from datetime import date

    def one(i):
        source = StoreSource(db_url)
        log = open_log(db_url, source)
        try:
            return run_sweep(
                source, log, date(2026, 12, 3), notice_hook=notice_hook(date(2026, 12, 3), fmt="html"), out_dir=tmp_path / f"s{i}"
            )
        finally:
            source.store.engine.dispose()

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, range(2)))
    made = [r.counts()["notices_made"] for r in results]
    recorded = count(db_url, Notice.__table__)
    backend = db_url.split(":", 1)[0].split("+")[0]
    report_row(
        f"2 racing sweeps, notices reported vs recorded ({backend})",
        2,
        lost=max(0, recorded - sum(made)),
        duplicated=max(0, sum(made) - recorded),
    )
    assert sum(made) == recorded and recorded > 0, (made, recorded)
