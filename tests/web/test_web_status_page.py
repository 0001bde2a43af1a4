"""The applicant's status page in words (web/applicant/status_view.py) and the
corrected resubmission (services.apply.resubmit): right after applying the
town is checking completeness (no by-law gives it a day) and the receipt is
listed among the emails sent, in town time; after an incomplete finding
the page names what the town asked and offers the fields to correct; a
correction is recorded as the ``submitted`` event's lines and the fields
rewritten; a refused one, a post without its CSRF token or another
applicant's post writes nothing; an invited filing shows its site."""

from __future__ import annotations

import re

import storekit
import webkit
from test_web_applicants import NOI_FORM, PDF, apply_noi, filed_id, store, template_db  # noqa: F401  (fixtures)
from webkit import PASSWORD, client, csrf_of, login

from models.read.outbox import Outbox
from services.imports import import_filings


def _sent_back(store, reasons="Describe the deck's distance from the wetland."):
    ann = client(store)
    fid = filed_id(apply_noi(ann, webkit.register(ann, "ann@example.org")))
    agent = client(store)
    token = login(agent, "saugus-agent")
    seq = re.search(r'name="seq" value="(\d+)"', agent.get(f"/filings/{fid}").text).group(1)
    r = agent.post(f"/filings/{fid}/incomplete", data={"csrf": token, "seq": seq, "date": "2026-12-03", "reasons": reasons})
    assert r.status_code == 303, r.text
    return ann, fid


def _form(page: str) -> dict:
    """The correction form's fields as the page fills them."""
    form = re.search(r'<form[^>]*id="resubmit".*?</form>', page, re.S).group(0)
    values = dict(re.findall(r'<input type="(?:hidden|text)" name="([^"]+)" value="([^"]*)"', form))
    values.update(re.findall(r'<textarea name="([^"]+)"[^>]*>([^<]*)</textarea>', form))
    return values


def _written(store, fid):
    filing, row = store.load(fid)
    return row.last_seq, dict(filing.extra), len(Outbox(store).entries(filing_id=fid))


def test_just_after_applying_the_town_is_checking_completeness_and_the_receipt_is_listed_in_town_time(store):
    ann = client(store)
    fid = filed_id(apply_noi(ann, webkit.register(ann, "ann@example.org")))
    page = ann.get(f"/my/filings/{fid}").text
    town = re.search(r'<section id="town".*?</section>', page, re.S).group(0)
    assert "Check that the application is complete" in town and "no by-law sets a day for this check" in town
    assert "Nothing is due from the town now" not in page
    yours = re.search(r'<section id="yours".*?</section>', page, re.S).group(0)
    assert "Nothing is due from you now" in yours and 'id="resubmit"' not in yours
    assert 'id="site">Site: 9 Central St<' in page
    emails = re.search(r'<ul id="emailed">(.*?)</ul>', page, re.S).group(1)
    assert "Receipt of your application" in emails and re.search(
        r"[A-Z][a-z]+day, [A-Z][a-z]+ \d+, 2026, \d+:\d\d [ap]\.m\.", emails
    )
    assert not re.search(r"\d{4}-\d\d-\d\d|\bE[SD]T\b", emails)  # people's words, no ISO day, no zone (issue 32)
    [receipt] = Outbox(store).entries(filing_id=fid)
    assert receipt.kind == "receipt" and receipt.address == "ann@example.org"
    assert f"Its filing number is {fid}" in Outbox(store).message(receipt.id).decode()


def test_after_an_incomplete_finding_the_page_names_what_the_town_asked_and_offers_the_fields(store):
    ann, fid = _sent_back(store)
    page = ann.get(f"/my/filings/{fid}").text
    yours = re.search(r'<section id="yours".*?</section>', page, re.S).group(0)
    assert "Correct what the town named and submit the application again" in yours
    assert "Describe the deck&#39;s distance from the wetland." in yours
    assert "Nothing is due from you now" not in yours
    fields = _form(page)
    assert fields["c_description"] == NOI_FORM["description"] and fields["c_address"] == "9 Central St"
    assert "c_applicant_email" not in fields


def test_a_corrected_description_and_site_are_recorded_as_lines_and_the_fields_rewritten(store):
    ann, fid = _sent_back(store)
    page = ann.get(f"/my/filings/{fid}").text
    data = {**_form(page), "c_description": "a deck 60 feet from the bordering vegetated wetland", "c_address": "11 Central St"}
    r = ann.post(f"/my/filings/{fid}/resubmit", data=data, files={"plan": ("stamped.pdf", PDF, "application/pdf")})
    assert r.status_code == 303, r.text
    filing, row = store.load(fid)
    last = filing.events[-1]
    assert last.type == "submitted" and list(last.get("corrected")) == [
        f"Project description: a deck 60 feet from the bordering vegetated wetland (was {NOI_FORM['description']})",
        "Site address: 11 Central St (was 9 Central St)",
    ]
    assert filing.extra["site"]["address"] == filing.extra["address"] == row.address == "11 Central St"
    page = ann.get(f"/my/filings/{fid}").text
    assert 'id="site">Site: 11 Central St<' in page and "a deck 60 feet from the bordering vegetated wetland" in page
    assert "Check that the application is complete" in page and 'id="resubmit"' not in page
    agent = client(store)
    login(agent, "saugus-agent")
    staff = agent.get(f"/filings/{fid}").text
    assert "Corrected by the applicant" in staff and "Site address: 11 Central St (was 9 Central St)" in staff
    kinds = [e.kind for e in Outbox(store).entries(filing_id=fid)]
    assert kinds == ["receipt", "found-incomplete", "receipt"]


def test_a_refused_correction_names_the_field_keeps_what_was_typed_and_writes_nothing(store):
    ann, fid = _sent_back(store)
    page = ann.get(f"/my/filings/{fid}").text
    before = _written(store, fid)
    plans = len(store_plans(store, fid))
    data = {**_form(page), "c_applicant_zip": "019", "c_description": "typed again"}
    r = ann.post(f"/my/filings/{fid}/resubmit", data=data, files={"plan": ("new.pdf", PDF, "application/pdf")})
    assert r.status_code == 422
    assert "Applicant&#39;s ZIP code: a ZIP code such as 02021" in r.text and "typed again" in r.text
    assert _written(store, fid) == before and len(store_plans(store, fid)) == plans


def store_plans(store, fid):
    from sqlalchemy import select

    from models.schema.tables import Upload

    with store.engine.connect() as conn:
        return conn.execute(select(Upload.__table__.c.id).where(Upload.__table__.c.filing_id == fid)).all()


def test_a_resubmission_without_its_csrf_token_or_from_another_applicant_writes_nothing(store):
    ann, fid = _sent_back(store)
    page = ann.get(f"/my/filings/{fid}").text
    before = _written(store, fid)
    data = {k: v for k, v in _form(page).items() if k != "csrf"}
    assert ann.post(f"/my/filings/{fid}/resubmit", data={**data, "c_address": "1 Main St"}).status_code == 403
    bob = client(store)
    bob_token = webkit.register(bob, "bob@example.org")
    r = bob.post(f"/my/filings/{fid}/resubmit", data={**data, "csrf": bob_token, "c_address": "1 Main St"})
    assert r.status_code == 404
    assert bob.get(f"/my/filings/{fid}").status_code == 404
    assert _written(store, fid) == before


def test_an_invited_filing_whose_site_is_kept_under_site_shows_its_address(store):
    import_filings(
        store,
        [
            {
                "town": "canton",
                "kind": "noi",
                "id": "CAN-NOI-2026-088",
                "site": {"address": "77 Pleasant St", "parcel": "9-001"},
                "applicant": {"name": "Ann Lee", "email": "ann@example.org"},
                "events": [{"type": "filed", "date": "2026-12-01"}],
            }
        ],
        by="test",
    )
    c = client(store)
    page = c.get("/invitation/" + storekit.applicants(store).invite("CAN-NOI-2026-088", "ann@example.org", by="agent")).text
    c.post(re.search(r'action="(/invitation/[^"]+)"', page).group(1), data={"csrf": csrf_of(page), "password": PASSWORD})
    status = c.get("/my/filings/CAN-NOI-2026-088").text
    assert 'id="site">Site: 77 Pleasant St<' in status and "not given" not in status.split('id="site"')[1][:40]


def test_the_hearing_shows_its_meetings_day_time_and_place_and_the_decision_its_conditions(store):
    from datetime import date, datetime

    from services.meetings import hear_at_meeting, schedule_meeting

    fid = "CAN-NOI-2026-089"
    import_filings(
        store,
        [
            {
                "town": "canton",
                "kind": "noi",
                "id": fid,
                "site": {"address": "77 Pleasant St", "parcel": "9-001"},
                "applicant": {"name": "Ann Lee", "email": "ann@example.org"},
                "events": [{"type": "filed", "date": "2026-12-01"}],
            }
        ],
        by="test",
    )
    c = client(store)
    page = c.get("/invitation/" + storekit.applicants(store).invite(fid, "ann@example.org", by="agent")).text
    c.post(re.search(r'action="(/invitation/[^"]+)"', page).group(1), data={"csrf": csrf_of(page), "password": PASSWORD})
    meeting = schedule_meeting(
        store,
        town="canton",
        starts_at=datetime(2026, 12, 15, 19, 30),
        place="Canton Public Library, 786 Washington Street",
        by="clerk",
        today=date(2026, 12, 2),
    )
    hear_at_meeting(store, meeting, fid, by="clerk", today=date(2026, 12, 2))
    status = c.get(f"/my/filings/{fid}").text
    hearing = re.search(r'<p id="hearing">(.*?)</p>', status).group(1)
    assert hearing == "Public hearing: Tuesday, December 15, 2026, at 7:30 p.m., Canton Public Library, 786 Washington Street."
    for raw in (
        {"type": "hearing-opened", "date": "2026-12-15"},
        {"type": "hearing-closed", "date": "2026-12-15"},
        {"type": "permit-issued", "date": "2026-12-17", "conditions": ["Silt fence before any work.", "No fill."]},
    ):
        storekit.append(store, fid, raw, by="agent")
    status = c.get(f"/my/filings/{fid}").text
    decision = re.search(r'<div class="decision" id="decision-1">(.*?)</div>', status, re.S).group(1)
    assert "Order of Conditions issued</strong> on Thursday, December 17, 2026." in decision
    assert re.findall(r"<li>(.*?)</li>", decision) == ["Silt fence before any work.", "No fill."]
