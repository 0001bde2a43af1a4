"""Per-account limits of a day (issue 21, item 2): applications
(``PERMITS_APPLICATIONS_PER_DAY``) and plan bytes
(``PERMITS_UPLOAD_MB_PER_DAY``), the day being Canton's; a refusal says
why and writes nothing (no filing, no upload row, no file).  And a plan's
file name shown without its bidi and control characters."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from test_web_front_door import (  # noqa: F401 - the front door's fixtures
    NY,
    app_client,
    clock,
    post,
    smtp,
    store,
)
from webkit import register

from models.schema.tables import FilingRow, Upload

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
NOI_FORM = {
    "town": "saugus",
    "address": "9 Central St",
    "parcel": "C-12-7",
    "description": "a deck within the 100-foot buffer zone",
    "applicant_name": "Ann Lee",
    "applicant_street": "9 Central St",
    "applicant_city": "Saugus",
    "applicant_state": "MA",
    "applicant_zip": "01906",
    "owner_is_applicant": "yes",
}


@pytest.fixture
def extra_env():
    return {"PERMITS_APPLICATIONS_PER_DAY": "2", "PERMITS_UPLOAD_MB_PER_DAY": "1"}


def apply(c, token, plan=PDF, name="site-plan.pdf"):
    return c.post("/my/apply/noi", data={"csrf": token, **NOI_FORM}, files={"plan": (name, plan, "application/pdf")})


def counts(store, tmp_path) -> tuple[int, int, int]:
    with store.engine.connect() as conn:
        filings = conn.execute(select(func.count()).select_from(FilingRow)).scalar()
        uploads = conn.execute(select(func.count()).select_from(Upload)).scalar()
    folder = tmp_path / "uploads"
    return filings, uploads, len(list(folder.iterdir())) if folder.is_dir() else 0


def test_the_third_application_of_a_day_is_refused_nothing_written_and_the_next_day_it_is_taken(
    app_client, store, clock, tmp_path
):
    ann = app_client()
    token = register(ann, "ann@example.org", store)
    assert apply(ann, token).status_code == 303 and apply(ann, token).status_code == 303
    before = counts(store, tmp_path)
    r = apply(ann, token)
    assert r.status_code == 422
    assert "This account has submitted 2 applications today, the most one account may submit online in a day (2)" in r.text
    assert counts(store, tmp_path) == before
    other = app_client()  # the limit is the account's, not the town's
    assert apply(other, register(other, "bob@example.org", store)).status_code == 303
    clock.advance(days=1)
    assert apply(ann, token).status_code == 303


def test_the_day_is_cantons_an_application_after_midnight_there_counts_on_the_new_day(app_client, store, clock, tmp_path):
    from datetime import UTC, datetime

    clock.now = datetime(2026, 12, 4, 4, 30, tzinfo=UTC)  # 23:30 on December 3 in Canton, already the 4th in UTC
    assert clock.now.astimezone(NY).day == 3
    ann = app_client()
    token = register(ann, "ann@example.org", store)
    assert apply(ann, token).status_code == 303 and apply(ann, token).status_code == 303
    clock.now = datetime(2026, 12, 4, 4, 59, tzinfo=UTC)  # 23:59 in Canton: the same day
    assert apply(ann, token).status_code == 422
    clock.now = datetime(2026, 12, 4, 5, 1, tzinfo=UTC)  # 00:01 on the 4th in Canton
    assert apply(ann, token).status_code == 303


def test_plans_past_the_days_megabytes_are_refused_with_what_is_left_and_nothing_written(app_client, store, tmp_path):
    ann = app_client()
    token = register(ann, "ann@example.org", store)
    big = PDF + b"0" * (700 * 1024)
    assert apply(ann, token, big).status_code == 303
    before = counts(store, tmp_path)
    r = apply(ann, token, big)
    assert r.status_code == 422 and "over the 1.0 MB one account may upload in a day (0.3 MB left today)" in r.text
    assert counts(store, tmp_path) == before
    assert apply(ann, token, PDF).status_code == 303  # a small plan still fits


def test_a_file_name_with_a_right_to_left_override_is_shown_without_it(app_client, store):
    ann = app_client()
    token = register(ann, "ann@example.org", store)
    r = apply(ann, token, name="invoice\u202efdp.exe\u2066\u200b.pdf")
    assert r.status_code == 303
    with store.engine.connect() as conn:
        [shown] = conn.execute(select(Upload.original_name)).scalars().all()
    assert shown == "invoicefdp.exe.pdf"
    page = ann.get(r.headers["location"]).text
    assert "invoicefdp.exe.pdf" in page and "\u202e" not in page and "\u2066" not in page


def test_a_name_made_only_of_hidden_characters_is_refused():
    from models.store.uploads import UploadRefused, check_name, display_name

    assert display_name("plan\u202e\u2067\u200f\u0085  rev\u20282.pdf") == "plan rev2.pdf"
    with pytest.raises(UploadRefused, match="no name one can read"):
        check_name("\u202e\u202c")
    with pytest.raises(UploadRefused, match="control characters"):  # a C0 control stays refused outright
        check_name("plan\x00.pdf")
