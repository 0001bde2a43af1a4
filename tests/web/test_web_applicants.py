"""The applicant's pages through Starlette's TestClient: register, apply
online with a plan, staff mark the application complete or incomplete, the
status page, invitations; and the boundaries: another applicant's filing,
plan or notice is a 404, staff pages send an applicant home."""

from __future__ import annotations

import re
import shutil

import pytest
import storekit
import webkit
from webkit import PASSWORD, client, csrf_of, login, make_store

from models.read.outbox import Outbox
from models.schema.tables import FilingRow, Upload
from services.imports import import_filings

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


@pytest.fixture(scope="module")
def template_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("web") / "template.db"
    make_store(f"sqlite:///{path}").engine.dispose()
    return path


@pytest.fixture
def store(template_db, tmp_path, monkeypatch):
    from models.handle import Store

    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    shutil.copy(template_db, tmp_path / "permits.db")
    s = Store(f"sqlite:///{tmp_path / 'permits.db'}")
    yield s
    s.engine.dispose()


def register(c, email: str) -> str:
    """Register and follow the emailed link (webkit.register)."""
    return webkit.register(c, email)


def apply_noi(c, token: str, form=NOI_FORM, plan=("site-plan.pdf", PDF, "application/pdf")):
    return c.post("/my/apply/noi", data={"csrf": token, **form}, files={"plan": plan})


def filed_id(r) -> str:
    assert r.status_code == 303, r.text
    return re.fullmatch(r"/my/filings/([A-Za-z0-9-]+)", r.headers["location"]).group(1)


def count(store, table) -> int:
    from sqlalchemy import func, select

    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table.__table__)).scalar()


def test_an_applicant_files_online_staff_mark_it_complete_and_the_hearing_deadline_appears(store):
    ann = client(store)
    token = register(ann, "ann@example.org")
    fid = filed_id(apply_noi(ann, token))
    page = ann.get(f"/my/filings/{fid}").text
    assert "Submitted online on Thursday, December 3, 2026" in page and "No deadline runs" in page
    assert "site-plan.pdf" in page

    agent = client(store)
    staff_token = login(agent, "saugus-agent")
    today = agent.get("/today").text
    assert "Applications submitted online: 1 to check" in today and fid in today
    filing_page = agent.get(f"/filings/{fid}").text
    seq = re.search(r'action="/filings/[^"]+/complete".*?name="seq" value="(\d+)"', filing_page, re.S).group(1)
    r = agent.post(f"/filings/{fid}/complete", data={"csrf": staff_token, "seq": seq, "date": "2026-12-03"})
    assert r.status_code == 303
    assert store.replay(fid, store.now().date()).state == "filed"

    page = ann.get(f"/my/filings/{fid}").text
    assert "The town received the complete application on Thursday, December 3, 2026" in page
    # Saugus 508.08 §5.2: the hearing within 21 days of receipt of the complete NOI
    assert re.search(r"Open the public hearing by <strong>Thursday, December 24, 2026</strong>", page), page
    assert "Saugus" in page


def test_staff_mark_an_application_incomplete_and_the_reasons_reach_the_applicant(store):
    ann = client(store)
    fid = filed_id(apply_noi(ann, register(ann, "ann@example.org")))
    agent = client(store)
    staff_token = login(agent, "saugus-agent")
    seq = re.search(r'name="seq" value="(\d+)"', agent.get(f"/filings/{fid}").text).group(1)
    r = agent.post(
        f"/filings/{fid}/incomplete",
        data={"csrf": staff_token, "seq": seq, "date": "2026-12-03", "reasons": "The plan is not stamped."},
    )
    assert r.status_code == 303
    page = ann.get(f"/my/filings/{fid}").text
    assert "found the application incomplete on Thursday, December 3, 2026: The plan is not stamped." in page
    receipt, mail = Outbox(store).entries(filing_id=fid)  # the receipt of the application, then the town's reasons
    assert receipt.kind == "receipt" and receipt.address == "ann@example.org"
    assert mail.kind == "found-incomplete" and mail.address == "ann@example.org"
    assert b"The plan is not stamped." in Outbox(store).message(mail.id)


def test_another_applicants_filing_plan_and_notice_are_not_found(store):
    ann = client(store)
    fid = filed_id(apply_noi(ann, register(ann, "ann@example.org")))
    plan = re.search(r'href="/my/files/([A-Za-z0-9_-]+)"', ann.get(f"/my/filings/{fid}").text).group(1)
    assert ann.get(f"/my/files/{plan}").content == PDF

    bob = client(store)
    register(bob, "bob@example.org")
    for path in (
        f"/my/filings/{fid}",
        f"/my/files/{plan}",
        f"/my/filings/{fid}/notices/permit.pdf",
        f"/my/filings/{fid}/notices/legal-notice.pdf",
        "/my/filings/CAN-NOI-2026-001",  # a filing staff recorded, naming no one's address
        "/my/filings/..%2F..%2Fetc",
        "/my/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ):
        assert bob.get(path).status_code == 404, path
    assert fid not in bob.get("/my").text
    token = csrf_of(bob.get("/my").text)
    assert bob.post(f"/my/filings/{fid}/renewal", data={"csrf": token, "seq": "1"}).status_code == 404


def test_a_plan_that_is_not_a_pdf_or_names_a_folder_is_refused_and_no_filing_is_made(store):
    ann = client(store)
    token = register(ann, "ann@example.org")
    before = count(store, FilingRow), count(store, Upload)
    r = apply_noi(ann, token, plan=("plan.pdf", b"<html>not a pdf</html>", "application/pdf"))
    assert r.status_code == 422 and "is not a PDF" in r.text
    r = apply_noi(ann, token, plan=("../../plan.pdf", PDF, "application/pdf"))
    assert r.status_code == 422
    assert "names a folder" in r.text or "plan.pdf" in r.text
    assert (count(store, FilingRow), count(store, Upload)) == before


def test_an_application_missing_the_owners_permission_is_refused_beside_the_field(store):
    ann = client(store)
    token = register(ann, "ann@example.org")
    form = {k: v for k, v in NOI_FORM.items() if k != "owner_is_applicant"}
    form.update(owner_name="Carl Owner", owner_street="1 Main St", owner_city="Saugus", owner_state="MA", owner_zip="01906")
    r = apply_noi(ann, token, form=form)
    assert r.status_code == 422 and "the owner&#39;s written permission is required" in r.text
    r = apply_noi(ann, token, form={**form, "owner_consent": "yes"})
    assert filed_id(r)


def test_a_form_without_its_csrf_token_is_refused(store):
    ann = client(store)
    register(ann, "ann@example.org")
    r = ann.post("/my/apply/noi", data=NOI_FORM, files={"plan": ("p.pdf", PDF, "application/pdf")})
    assert r.status_code == 403
    assert count(store, FilingRow) == 3


def test_an_applicant_is_sent_home_from_staff_pages_and_staff_do_not_see_applicant_pages(store):
    ann = client(store)
    register(ann, "ann@example.org")
    for path in ("/today", "/filings", "/filings/CAN-NOI-2026-001", "/rules"):
        r = ann.get(path)
        assert r.status_code == 303 and r.headers["location"] == "/my", path
    agent = client(store)
    login(agent, "canton-agent")
    assert agent.get("/my").status_code == 404


def test_an_invitation_shows_the_filing_and_a_used_or_expired_one_is_refused(store):
    from datetime import timedelta

    applicants = storekit.applicants(store)
    token = applicants.invite("CAN-NOI-2026-001", "builder@example.org", by="agent")
    c = client(store)
    page = c.get(f"/invitation/{token}").text
    assert "builder@example.org" in page and "CAN-NOI-2026-001" in page
    r = c.post(f"/invitation/{token}", data={"csrf": csrf_of(page), "password": PASSWORD})
    assert r.status_code == 303 and r.headers["location"] == "/my"
    assert "CAN-NOI-2026-001" in c.get("/my").text
    assert c.get("/my/filings/CAN-NOI-2026-001").status_code == 200
    assert c.get("/my/filings/SAU-NOI-2026-001").status_code == 404  # same parties' names, not invited, no address
    used = client(store).get(f"/invitation/{token}")
    assert used.status_code == 410 and "used already" in used.text

    old = storekit.applicants(store.__class__(store.url, now=lambda: store.now() - timedelta(days=30)))
    stale = old.invite("CAN-NOI-2026-001", "late@example.org", by="agent", days=14)
    r = client(store).get(f"/invitation/{stale}")
    assert r.status_code == 410 and "expired" in r.text
    assert client(store).get("/invitation/not-a-token").status_code == 404


def test_an_applicant_asks_for_renewal_inside_the_window_and_it_is_recorded(store):

    import_filings(
        store,
        [
            {
                "town": "canton",
                "kind": "noi",
                "id": "CAN-NOI-2023-090",
                "address": "5 Elm St",
                "applicant": {"name": "Ann Lee", "email": "ann@example.org"},
                "events": [
                    {"type": "filed", "date": "2023-11-01"},
                    {"type": "hearing-opened", "date": "2023-11-14"},
                    {"type": "hearing-closed", "date": "2023-11-14"},
                    {"type": "permit-issued", "date": "2023-12-28"},
                ],
            }
        ],
        by="test",
    )
    c = client(store)
    page = c.get("/invitation/" + storekit.applicants(store).invite("CAN-NOI-2023-090", "ann@example.org", by="agent")).text
    c.post(re.search(r'action="(/invitation/[^"]+)"', page).group(1), data={"csrf": csrf_of(page), "password": PASSWORD})
    status = c.get("/my/filings/CAN-NOI-2023-090").text
    assert "Ask the town in writing to renew the permit by" in status and 'id="ask-renewal"' in status
    seq = re.search(r'name="seq" value="(\d+)"', status).group(1)
    r = c.post("/my/filings/CAN-NOI-2023-090/renewal", data={"csrf": csrf_of(status), "seq": seq})
    assert r.status_code == 303
    history = store.history("CAN-NOI-2023-090")
    assert history[-1]["type"] == "renewal-requested" and history[-1]["recorded_by"] == "applicant:ann@example.org"
    assert 'id="ask-renewal"' not in c.get("/my/filings/CAN-NOI-2023-090").text


STREET_FORM = {
    "town": "canton",
    "address": "12 Pleasant St",
    "description": "a 40-foot water service trench",
    "applicant_name": "Ann Lee",
    "applicant_street": "12 Pleasant St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
    "owner_is_applicant": "yes",
    "length_ft": "40",
    "applicant_type": "private",
    "contractor_name": "Acme Paving",
    "contractor_license": "PWC-19",
    "contractor_license_expires": "2027-06-30",
    "insurer": "Mass Mutual",
    "insurance_expires": "2027-01-01",
    "dig_safe": "20261234567",
}


def test_a_street_opening_applied_online_carries_its_contractor_insurance_and_dig_safe_into_the_record(store):
    ann = client(store)
    token = register(ann, "ann@example.org")
    r = ann.post(
        "/my/apply/street-opening",
        data={"csrf": token, **{**STREET_FORM, "insurance_expires": "2026-01-01"}},
        files={"plan": ("p.pdf", PDF, "application/pdf")},
    )
    assert r.status_code == 422 and "expired on 2026-01-01" in r.text
    r = ann.post(
        "/my/apply/street-opening", data={"csrf": token, **STREET_FORM}, files={"plan": ("p.pdf", PDF, "application/pdf")}
    )
    fid = filed_id(r)
    dpw = client(store)
    staff_token = login(dpw, "canton-dpw")
    seq = re.search(r'name="seq" value="(\d+)"', dpw.get(f"/filings/{fid}").text).group(1)
    assert dpw.post(f"/filings/{fid}/complete", data={"csrf": staff_token, "seq": seq, "date": "2026-12-03"}).status_code == 303
    filing, _ = store.load(fid)
    filed = next(e for e in filing.events if e.type == "filed")
    assert filed.get("length_ft") == 40 and filed.get("applicant") == "private"
    assert next(e for e in filing.events if e.type == "dig-safe-obtained").get("ticket") == "20261234567"
    assert filing.extra["contractor"]["insurance"][0]["insurer"] == "Mass Mutual"
    assert store.replay(fid, store.now().date()).state == "applied"


def test_an_applicant_logs_in_on_the_one_login_page_and_lands_on_their_filings(store):
    c = client(store)
    register(c, "ann@example.org")
    c.post("/logout", data={"csrf": csrf_of(c.get("/my").text)})
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "email": "ann@example.org", "password": PASSWORD, "next": "/today"})
    assert r.status_code == 303 and r.headers["location"] == "/my"
    r = c.post("/login", data={"csrf": csrf_of(c.get("/login").text), "email": "ann@example.org", "password": "wrong password!"})
    assert r.status_code == 401


def test_an_application_sent_back_is_submitted_again_with_a_corrected_plan_and_waits_for_the_town(store):
    ann = client(store)
    fid = filed_id(apply_noi(ann, register(ann, "ann@example.org")))
    agent = client(store)
    staff_token = login(agent, "saugus-agent")
    seq = re.search(r'name="seq" value="(\d+)"', agent.get(f"/filings/{fid}").text).group(1)
    agent.post(
        f"/filings/{fid}/incomplete", data={"csrf": staff_token, "seq": seq, "date": "2026-12-03", "reasons": "Stamp the plan."}
    )
    page = ann.get(f"/my/filings/{fid}").text
    assert 'id="resubmit"' in page
    seq = re.search(r'id="resubmit".*?name="seq" value="(\d+)"', page, re.S).group(1)
    r = ann.post(
        f"/my/filings/{fid}/resubmit",
        data={"csrf": csrf_of(page), "seq": seq},
        files={"plan": ("stamped.pdf", PDF, "application/pdf")},
    )
    assert r.status_code == 303
    page = ann.get(f"/my/filings/{fid}").text
    assert "the town is checking that it is complete" in page and "stamped.pdf" in page and 'id="resubmit"' not in page
    assert [e.type for e in store.load(fid)[0].events] == ["submitted", "found-incomplete", "submitted"]
    assert fid in agent.get("/today").text


def test_a_decision_emailed_to_the_applicant_stays_downloadable_and_only_to_them(store, tmp_path):
    from datetime import date

    from services.sweep_log import StoreOutputLog
    from sweep.dispatch import notice_hook
    from sweep.run import run_sweep
    from sweep.store_source import StoreSource

    import_filings(
        store,
        [
            {
                "town": "canton",
                "kind": "noi",
                "id": "CAN-NOI-2026-077",
                "address": "5 Elm St",
                "site": {"address": "5 Elm St", "parcel": "1-2"},
                "project": {"description": "a shed"},
                "conditions": ["Erosion controls first."],
                "applicant": {
                    "name": "Ann Lee",
                    "email": "ann@example.org",
                    "address": {"street": "5 Elm St", "city": "Canton", "state": "MA", "zip": "02021"},
                },
                "events": [
                    {"type": "filed", "date": "2026-11-02"},
                    {"type": "hearing-opened", "date": "2026-11-16"},
                    {"type": "hearing-closed", "date": "2026-11-16"},
                    {"type": "permit-issued", "date": "2026-12-01"},
                ],
            }
        ],
        by="test",
    )
    run_sweep(
        StoreSource(store.url),
        StoreOutputLog(store),
        date(2026, 12, 3),
        notice_hook=notice_hook(date(2026, 12, 3), email=True, mail_from="permits@localhost"),
    )

    c = client(store)
    page = c.get("/invitation/" + storekit.applicants(store).invite("CAN-NOI-2026-077", "ann@example.org", by="agent")).text
    c.post(re.search(r'action="(/invitation/[^"]+)"', page).group(1), data={"csrf": csrf_of(page), "password": PASSWORD})
    status = c.get("/my/filings/CAN-NOI-2026-077").text
    link = re.search(r'href="(/my/filings/CAN-NOI-2026-077/emails/\d+\.pdf)"', status).group(1)
    r = c.get(link)
    assert r.status_code == 200 and r.content.startswith(b"%PDF-")
    bob = client(store)
    register(bob, "bob@example.org")
    assert bob.get(link).status_code == 404
    assert c.get("/my/filings/CAN-NOI-2026-077/emails/999999.pdf").status_code == 404


def test_staff_invite_from_the_filing_page_and_the_emailed_link_works_once(store):
    agent = client(store)
    token = login(agent, "canton-agent")
    r = agent.post("/filings/CAN-NOI-2026-001/invite", data={"csrf": token, "email": "Builder@Example.org"})
    assert r.status_code == 303
    [mail] = Outbox(store).entries(filing_id="CAN-NOI-2026-001")
    assert mail.kind == "invitation" and mail.address == "builder@example.org"
    # the link starts with PERMITS_BASE_URL (its default here), never the request's host (testserver)
    assert webkit.emailed_link(store, "builder@example.org", "/invitation/")
    body = Outbox(store).message(mail.id).decode()
    assert "testserver" not in body
    link = re.search(r"http://127\.0\.0\.1:8000(/invitation/[A-Za-z0-9_-]+)", body).group(1)
    c = client(store)
    page = c.get(link).text
    assert c.post(link, data={"csrf": csrf_of(page), "password": PASSWORD}).status_code == 303
    assert "CAN-NOI-2026-001" in c.get("/my").text
    assert client(store).get(link).status_code == 410
    saugus = client(store)
    t = login(saugus, "saugus-agent")
    assert saugus.post("/filings/CAN-NOI-2026-001/invite", data={"csrf": t, "email": "x@example.org"}).status_code == 404
