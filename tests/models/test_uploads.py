"""Plans uploaded as PDF: an oversized file, a file that is not a PDF and a
name with ``../`` are refused with a clear message and nothing stored; a
stored plan has a generated name outside any web root and is read back only
through an access check."""

import io

import pytest
from sqlalchemy import func, select
from storekit import NOI

from models.handle import Store
from models.schema.tables import Upload
from models.store.uploads import UnknownUpload, UploadRefused, Uploads, check_name
from services.database import upgrade_store
from services.imports import import_filings

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


@pytest.fixture
def uploads(db_url, tmp_path):
    store = Store(db_url)
    upgrade_store(store)
    import_filings(store, [NOI], by="test")
    yield Uploads(store, tmp_path / "uploads", limit=1024)
    store.engine.dispose()


def _save(uploads: Uploads, name: str, stream, **row):
    """Check and store a plan in a unit of work of its own, as an online
    application stores its plans (services/apply.py)."""
    from services.unit_of_work import UnitOfWork

    data = stream if isinstance(stream, bytes) else stream.read(uploads.limit + 1)
    with uploads.staged(name, data) as staged, UnitOfWork(uploads.store) as uow:
        return uploads.record(uow.conn, staged, **row)


def _nothing_stored(u: Uploads):
    with u.store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(Upload.__table__)).scalar() == 0
    assert not u.folder.exists() or list(u.folder.iterdir()) == []


def test_a_plan_is_stored_under_a_generated_name_and_read_back_by_who_may_see_its_filing(uploads):
    saved = _save(uploads, "Site plan (rev 2).pdf", io.BytesIO(PDF), by="applicant:1", filing_id=NOI["id"])
    [stored] = list(uploads.folder.iterdir())
    assert stored.name != "Site plan (rev 2).pdf" and stored.suffix == ".pdf" and len(stored.stem) == 32
    assert stored.read_bytes() == PDF
    assert saved.original_name == "Site plan (rev 2).pdf" and saved.size == len(PDF)
    row, data = uploads.read(saved.token, filing_id=NOI["id"])
    assert data == PDF and row.original_name == "Site plan (rev 2).pdf"
    assert [u.token for u in uploads.of_filing(NOI["id"])] == [saved.token]


def test_a_plan_of_a_filing_the_viewer_may_not_see_is_not_found_like_a_token_that_does_not_exist(uploads):
    saved = _save(uploads, "plan.pdf", PDF, by="applicant:1", filing_id=NOI["id"])
    with pytest.raises(UnknownUpload) as hidden:
        uploads.read(saved.token, filing_id="CAN-NOI-2026-OTHER")
    with pytest.raises(UnknownUpload) as missing:
        uploads.find("A" * 32)
    assert str(hidden.value) == str(missing.value) == "no such file"
    for bad in ("../../etc/passwd", "1", "", "x" * 200):
        with pytest.raises(UnknownUpload):
            uploads.find(bad)


def test_an_oversized_file_is_refused_naming_the_limit_and_nothing_is_stored(uploads):
    with pytest.raises(UploadRefused) as exc:
        _save(uploads, "big.pdf", io.BytesIO(PDF + b"0" * 2048), by="a", filing_id=NOI["id"])
    assert "larger than the limit" in str(exc.value) and "big.pdf" in str(exc.value)
    _nothing_stored(uploads)


@pytest.mark.parametrize(
    "content", [b"GIF89a....", b"<html><script>alert(1)</script>", b"PK\x03\x04zip", b" %PDF-1.4 leading space"]
)
def test_a_file_that_is_not_a_pdf_is_refused_whatever_its_name_says_and_nothing_is_stored(uploads, content):
    with pytest.raises(UploadRefused) as exc:
        _save(uploads, "plan.pdf", content, by="a", filing_id=NOI["id"])
    assert "is not a PDF" in str(exc.value)
    _nothing_stored(uploads)


def test_an_empty_file_is_refused(uploads):
    with pytest.raises(UploadRefused, match="empty"):
        _save(uploads, "plan.pdf", b"", by="a")
    _nothing_stored(uploads)


@pytest.mark.parametrize("name", ["../plan.pdf", "../../etc/cron.d/x.pdf", "a/b.pdf", "..\\..\\plan.pdf", "/abs/plan.pdf", ".."])
def test_a_name_that_names_a_folder_is_refused_with_a_clear_message_and_nothing_is_stored(uploads, name):
    with pytest.raises(UploadRefused) as exc:
        _save(uploads, name, PDF, by="a", filing_id=NOI["id"])
    assert "names a folder" in str(exc.value) or "no name" in str(exc.value)
    _nothing_stored(uploads)
    assert not (uploads.folder.parent / "plan.pdf").exists()


def test_a_name_with_control_characters_is_refused():
    with pytest.raises(UploadRefused, match="control characters"):
        check_name("plan\x00.pdf")
