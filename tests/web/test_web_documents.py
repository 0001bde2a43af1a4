"""Item 1 of issue 19: what was submitted, and the documents, on the staff
page of a filing: the project, the site and parcel, the applicant and the
owner with every contact given, the plans (download), the notices sent,
the certified-mail list and mailing labels of the abutter notice, the
decision; each under the rule of who may see what (404 otherwise)."""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
import storekit
from webkit import PASSWORD, client, csrf_of, login, register

from models.schema.tables import FilingRow, Upload

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
NOI_FORM = {
    "town": "canton",
    "address": "9 Pleasant St",
    "parcel": "C-12-7",
    "description": "a deck within the 100-foot buffer zone of Pequit Brook",
    "applicant_name": "Ann Lee",
    "applicant_street": "9 Pleasant St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
    "applicant_phone": "781-555-0134",
    "owner_name": "Rita Moreno",
    "owner_street": "77 Chapman St",
    "owner_city": "Canton",
    "owner_state": "MA",
    "owner_zip": "02021",
    "owner_email": "rita@example.org",
    "owner_consent": "yes",
}
ABUTTERS = (
    b"parcel,owner,mailing address\n"
    b'12-034,WEI CHEN,"38 Washington St, Canton, MA 02021"\n'
    b'12-035,ANA SOUZA,"44 Washington St, Canton, MA 02021"\n'
)


@pytest.fixture
def online(store, tmp_path, monkeypatch):
    """A store with a Notice of Intent applied for online (its id)."""
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    c = client(store)
    token = register(c, "ann@example.org", store)  # the emailed link followed (issue 21)
    r = c.post("/my/apply/noi", data={"csrf": token, **NOI_FORM}, files={"plan": ("site-plan.pdf", PDF, "application/pdf")})
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_staff_page_shows_the_project_site_parcel_and_every_contact_submitted_online(store, online):
    c = client(store)
    login(c, "canton-agent")
    page = c.get(f"/filings/{online}")
    assert page.status_code == 200
    text = _text(page.text)
    assert "a deck within the 100-foot buffer zone of Pequit Brook" in text
    assert "9 Pleasant St" in text and "C-12-7" in text
    assert "Ann Lee" in text and "781-555-0134" in text and "ann@example.org" in text
    assert "Owner of the property" in text and "Rita Moreno" in text and "77 Chapman St" in text
    assert "Canton, MA 02021" in text and "rita@example.org" in text
    assert "Owner's written permission given" in text
    assert "site-plan.pdf" in text


def test_staff_download_the_plans_of_the_filing_and_no_other(store, online):
    c = client(store)
    login(c, "canton-agent")
    page = c.get(f"/filings/{online}").text
    href = re.search(r'href="(/filings/[^"]+/plans/[^"]+)"', page).group(1)
    r = c.get(href)
    assert r.status_code == 200 and r.content == PDF
    assert r.headers["content-type"] == "application/pdf" and "attachment" in r.headers["content-disposition"]
    token = href.rsplit("/", 1)[1]
    assert c.get(f"/filings/CAN-NOI-2026-001/plans/{token}").status_code == 404  # another filing's id
    assert c.get(f"/filings/{online}/plans/{'0' * 32}").status_code == 404
    assert c.get(f"/filings/{online}/plans/..%2F..%2Fetc").status_code == 404


def test_another_towns_agent_and_a_stranger_do_not_reach_the_filing_or_its_plans(store, online):
    with store.engine.connect() as conn:
        token = conn.execute(Upload.__table__.select().where(Upload.__table__.c.filing_id == online)).first().token
    c = client(store)
    assert c.get(f"/filings/{online}/plans/{token}").status_code == 303  # to the login page
    login(c, "saugus-agent")
    assert c.get(f"/filings/{online}").status_code == 404
    assert c.get(f"/filings/{online}/plans/{token}").status_code == 404
    dpw = client(store)
    login(dpw, "canton-dpw")  # street openings only
    assert dpw.get(f"/filings/{online}/plans/{token}").status_code == 404


def test_the_abutter_notices_certified_mail_list_and_labels_download_from_the_filing_page(store):
    hearing = {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"}
    storekit.append(store, "CAN-NOI-2026-001", hearing, by="test", today=date(2026, 12, 3))
    c = client(store)
    token = login(c, "canton-agent")
    page = c.get("/filings/CAN-NOI-2026-001").text
    assert "certified-mail.csv" not in page  # no abutter list yet: nothing to mail
    # nor is the abutter notice offered: it says what it waits for
    offered = re.search(r'<ul id="notice-list">(.*?)</ul>', page, re.S).group(1)
    assert "Notice to abutters" not in offered and "/notices/abutter-notice" not in page
    waiting = re.search(r'<ul id="notices-waiting">(.*?)</ul>', page, re.S).group(1)
    assert "Notice to abutters: waits for the abutter list" in waiting
    version = re.search(r'name="abutters_version" value="([^"]*)"', page).group(1)
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    r = c.post(
        "/filings/CAN-NOI-2026-001/abutters",
        data={"csrf": token, "seq": seq, "abutters_version": version},
        files={"csv": ("abutters.csv", ABUTTERS, "text/csv")},
    )
    assert r.status_code == 303, r.text
    page = c.get("/filings/CAN-NOI-2026-001").text
    assert "/filings/CAN-NOI-2026-001/notices/abutter-notice/certified-mail.csv" in page
    listing = c.get("/filings/CAN-NOI-2026-001/notices/abutter-notice/certified-mail.csv")
    assert listing.status_code == 200 and listing.headers["content-type"].startswith("text/csv")
    assert "WEI CHEN" in listing.text and "ANA SOUZA" in listing.text
    assert 'filename="CAN-NOI-2026-001-abutter-notice-certified-mail.csv"' in listing.headers["content-disposition"]
    labels = c.get("/filings/CAN-NOI-2026-001/notices/abutter-notice/labels.pdf")
    assert labels.status_code == 200 and labels.content.startswith(b"%PDF-")
    # rendering the mailing is not sending the notice
    page = c.get("/filings/CAN-NOI-2026-001").text
    assert "Nothing recorded as sent yet." in page and 'id="notices-waiting"' not in page
    # a wrong extension, a notice not mailed to abutters: no file
    assert c.get("/filings/CAN-NOI-2026-001/notices/abutter-notice/labels.csv").status_code == 404
    assert c.get("/filings/CAN-NOI-2026-001/notices/legal-notice/labels.pdf").status_code == 422
    other = client(store)
    login(other, "saugus-agent")
    assert other.get("/filings/CAN-NOI-2026-001/notices/abutter-notice/certified-mail.csv").status_code == 404


def test_a_notice_recorded_as_sent_is_listed_with_its_title_day_way_and_who_recorded_it(store):
    hearing = {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"}
    storekit.append(store, "CAN-NOI-2026-001", hearing, by="test", today=date(2026, 12, 3))
    c = client(store)
    token = login(c, "canton-agent")
    r = c.post("/filings/CAN-NOI-2026-001/notices/legal-notice", data={"csrf": token})
    assert r.status_code == 200 and r.content.startswith(b"%PDF-")
    assert "Nothing recorded as sent yet." in c.get("/filings/CAN-NOI-2026-001").text  # downloading is not sending
    sent = {"csrf": token, "on": "12/2/2026", "how": "published"}
    assert c.post("/filings/CAN-NOI-2026-001/notices/legal-notice/sent", data=sent).status_code == 303
    listed = re.search(r'<ul id="sent">(.*?)</ul>', c.get("/filings/CAN-NOI-2026-001").text, re.S).group(1)
    assert "legal-notice" not in listed and "2026-12-0" not in listed
    assert "Wednesday, December 2, 2026: Newspaper legal notice to the public, published" in listed
    assert "published in the newspaper; recorded by Dana Reyes" in listed
    # recorded once: a second time is refused unless it is a second sending
    twice = c.post("/filings/CAN-NOI-2026-001/notices/legal-notice/sent", data=sent)
    assert twice.status_code == 422 and "was recorded as sent on Wednesday, December 2, 2026" in twice.text
    again = c.post("/filings/CAN-NOI-2026-001/notices/legal-notice/sent", data={**sent, "on": "2026-12-03", "again": "1"})
    assert again.status_code == 303
    listed = re.search(r'<ul id="sent">(.*?)</ul>', c.get("/filings/CAN-NOI-2026-001").text, re.S).group(1)
    assert listed.count("<li>") == 2 and "Thursday, December 3, 2026" in listed


@pytest.mark.parametrize(
    ("sent", "says"),
    [
        ({"on": "2026-12-04", "how": "mail"}, "recorded as sent on a day that has come"),
        ({"on": "2026-12-03", "how": "pigeon"}, "Say how the notice went: by certified mail"),
        ({"on": "12/32/2026", "how": "mail"}, "The day it was sent: a date, such as 12/17/2026"),
    ],
)
def test_a_sending_on_a_day_to_come_or_by_no_known_way_is_refused_and_nothing_recorded(store, sent, says):
    hearing = {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"}
    storekit.append(store, "CAN-NOI-2026-001", hearing, by="test", today=date(2026, 12, 3))
    c = client(store)
    token = login(c, "canton-agent")
    r = c.post("/filings/CAN-NOI-2026-001/notices/legal-notice/sent", data={"csrf": token, **sent})
    assert r.status_code == 422 and says in r.text
    assert store.notice_entries("CAN-NOI-2026-001") == []


def test_the_applicant_sees_what_they_submitted_on_their_status_page(store, online):
    c = client(store)
    token = csrf_of(c.get("/login").text)
    c.post("/login", data={"csrf": token, "email": "ann@example.org", "password": PASSWORD, "next": "/my"})
    text = _text(c.get(f"/my/filings/{online}").text)
    assert "a deck within the 100-foot buffer zone of Pequit Brook" in text
    assert "Rita Moreno" in text and "781-555-0134" in text


def test_a_filing_imported_with_bare_names_shows_no_python_value(store):
    c = client(store)
    login(c, "canton-dpw")
    text = _text(c.get("/filings/CAN-SOP-2026-001").text)
    assert "Eversource" in text and "Acme Paving" in text
    for bad in ("None", "True", "False", "{'", "[]"):
        assert bad not in text, bad
    with store.engine.connect() as conn:
        assert conn.execute(FilingRow.__table__.select()).first() is not None
