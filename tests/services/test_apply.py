"""An online application is one transaction (services/apply.py): the
filing, its plan's upload row and the applicant's link to it are written
together or not at all, and the plan's file is removed when the transaction
fails.  Shown by a failure injected at each step and by killing the process
(SIGKILL) between the steps, on SQLite and PostgreSQL: no filing, no upload
row, no link; a killed process's file is a stray that no row names, which
the next start's tidy removes."""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import storekit
from sqlalchemy import func, select

from models.accounts.applicants import Applicants
from models.errors import DuplicateFiling
from models.handle import Store
from models.schema.tables import AccountFiling, FilingRow, Upload
from models.store import filings
from models.store.uploads import UploadRefused, Uploads
from services.apply import apply_online
from services.database import upgrade_store
from services.imports import import_filings

HERE = Path(__file__).resolve().parent
PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
sys.path.insert(0, str(HERE))
from apply_and_hang import _application  # noqa: E402 - the script's own application


def _count(store: Store, table) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table.__table__)).scalar_one()


def _nothing_written(store: Store, folder: Path) -> None:
    assert (_count(store, FilingRow), _count(store, Upload), _count(store, AccountFiling)) == (0, 0, 0)
    assert not folder.exists() or list(folder.iterdir()) == []


@pytest.fixture
def setup(db_url, tmp_path):
    store = Store(db_url)
    upgrade_store(store)
    account = storekit.applicants(store).register("ann@example.org", "correct horse battery")
    yield store, Uploads(store, tmp_path / "plans", 1024 * 1024), account
    store.engine.dispose()


def test_an_application_writes_its_filing_upload_and_link_together(setup):
    store, uploads, account = setup
    fid = apply_online(store, uploads, account, _application("CAN-NOI-2026-AOK001"), "site-plan.pdf", PDF)
    assert (_count(store, FilingRow), _count(store, Upload), _count(store, AccountFiling)) == (1, 1, 1)
    [plan] = uploads.of_filing(fid)
    assert plan.original_name == "site-plan.pdf" and len(list(uploads.folder.iterdir())) == 1
    assert storekit.applicants(store).may_see(account, fid)


@pytest.mark.parametrize("step", ["import", "upload row", "link"])
def test_a_failure_at_any_step_leaves_no_filing_no_upload_row_and_no_file(setup, monkeypatch, step):
    store, uploads, account = setup

    def fail(*args, **kwargs):
        raise RuntimeError(f"injected failure at the {step}")

    target = {"import": (filings, "import_filings"), "upload row": (Uploads, "record"), "link": (Applicants, "link")}[step]
    monkeypatch.setattr(*target, fail)
    with pytest.raises(RuntimeError, match="injected"):
        apply_online(store, uploads, account, _application("CAN-NOI-2026-AFAIL1"), "site-plan.pdf", PDF)
    _nothing_written(store, uploads.folder)


def test_a_filing_id_taken_meanwhile_leaves_no_upload_row_and_no_file(setup):
    store, uploads, account = setup
    import_filings(store, [_application("CAN-NOI-2026-ATAKEN")], by="staff")
    with pytest.raises(DuplicateFiling):
        apply_online(store, uploads, account, _application("CAN-NOI-2026-ATAKEN"), "site-plan.pdf", PDF)
    assert (_count(store, FilingRow), _count(store, Upload), _count(store, AccountFiling)) == (1, 0, 0)
    assert not uploads.folder.exists() or list(uploads.folder.iterdir()) == []


def test_plans_that_are_not_a_pdf_are_refused_before_anything_is_written(setup):
    store, uploads, account = setup
    with pytest.raises(UploadRefused, match="not a PDF"):
        apply_online(store, uploads, account, _application("CAN-NOI-2026-ANOPDF"), "site-plan.pdf", b"<html>")
    _nothing_written(store, uploads.folder)


@pytest.mark.parametrize("step", ["after-file", "after-filing", "after-upload", "after-link"])
def test_killed_between_the_steps_an_application_leaves_nothing_and_its_stray_file_is_tidied(db_url, tmp_path, step):
    store = Store(db_url)
    upgrade_store(store)
    folder, marker = tmp_path / "plans", tmp_path / "marker"
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "apply_and_hang.py"), db_url, str(folder), str(marker), step],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the application never reached the step"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert (_count(store, FilingRow), _count(store, Upload), _count(store, AccountFiling)) == (0, 0, 0)
    strays = list(folder.iterdir())
    assert len(strays) == 1  # the plan was written (fsynced) before the commit that never came
    uploads = Uploads(store, folder, 1024 * 1024)
    assert uploads.tidy(older_than=timedelta(hours=1)) == []  # a young file may be an upload in flight
    assert uploads.tidy(older_than=timedelta(0)) == [strays[0].name]
    assert list(folder.iterdir()) == []
    store.engine.dispose()


def test_tidy_keeps_every_plan_a_row_names(setup):
    store, uploads, account = setup
    fid = apply_online(store, uploads, account, _application("CAN-NOI-2026-AKEEP1"), "site-plan.pdf", PDF)
    stray = uploads.folder / ("ab" * 16 + ".pdf")
    stray.write_bytes(PDF)
    other = uploads.folder / "README.txt"  # not a name the store gives: not ours to remove
    other.write_text("kept")
    assert uploads.tidy(older_than=timedelta(0)) == [stray.name]
    assert other.exists() and len(uploads.of_filing(fid)) == 1
    [plan] = uploads.of_filing(fid)
    assert uploads.read(plan.token, filing_id=fid)[1] == PDF
