"""The workbench's routes through Starlette's TestClient: every page needs
a login, the role and town boundaries (404, never 403), CSRF on the forms
that change a filing, guard refusals and stale forms that write nothing,
and hostile text that comes back escaped.  Accounts and sessions:
test_web_auth.py."""

from __future__ import annotations

import re

import pytest
import storekit
from webkit import TODAY, USERS, client, login, make_store

from services.imports import import_filings

PAGES = [
    "/",
    "/today",
    "/today.csv",
    "/today.ics",
    "/filings",
    "/filings/new",
    "/filings/CAN-NOI-2026-001",
    "/filings/CAN-NOI-2026-001/notices/abutter-notice",
    "/schedule",
    "/deposits",
    "/rules",
    "/calendar",
    "/password",
]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_sends_a_stranger_to_the_login_page(web, path):
    r = web.get(path)
    assert r.status_code == 303
    assert r.headers["location"].startswith("/login?next=")


@pytest.mark.parametrize(
    "path",
    [
        "/filings/CAN-NOI-2026-001/events",
        "/filings/new",
        "/calendar/reset",
        "/filings/CAN-NOI-2026-001/void",
        "/filings/CAN-NOI-2026-001/abutters",
        "/password",
    ],
)
def test_every_form_post_sends_a_stranger_to_the_login_page_and_writes_nothing(web, store, path):
    r = web.post(path, data={"type": "withdrawn", "f_date": "2026-12-02", "seq": "2"})
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert store.history("CAN-NOI-2026-001")[-1]["seq"] == 2


@pytest.mark.parametrize(
    "who, filing",
    [
        ("saugus-agent", "CAN-NOI-2026-001"),  # another town
        ("canton-dpw", "CAN-NOI-2026-001"),  # a wetlands filing for DPW staff
        ("canton-agent", "CAN-SOP-2026-001"),  # a street opening for a conservation agent
        ("canton-agent", "CAN-NOI-2026-999"),  # no such filing: the same answer
        ("canton-agent", "..%2Fetc"),  # not an id at all
    ],
)
def test_a_filing_outside_the_users_role_or_towns_is_not_found_not_forbidden(web, who, filing):
    login(web, who)
    r = web.get(f"/filings/{filing}")
    assert r.status_code == 404
    assert "not one of yours" in r.text


def test_a_dpw_user_cannot_record_on_a_wetlands_filing(web, store):
    token = login(web, "canton-dpw")
    r = web.post(
        "/filings/CAN-NOI-2026-001/events", data={"csrf": token, "seq": "2", "type": "withdrawn", "f_date": "2026-12-02"}
    )
    assert r.status_code == 404
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_lists_show_only_the_users_towns_and_kinds(web):
    login(web, "saugus-agent")
    page = web.get("/filings").text
    assert "SAU-NOI-2026-001" in page and "CAN-NOI-2026-001" not in page and "CAN-SOP-2026-001" not in page
    login(web, "canton-dpw")
    page = web.get("/filings").text
    assert "CAN-SOP-2026-001" in page and "NOI" not in page


def test_an_admin_sees_every_filing(web):
    login(web, "admin")
    page = web.get("/filings").text
    assert all(f in page for f in ("CAN-NOI-2026-001", "SAU-NOI-2026-001", "CAN-SOP-2026-001"))


def test_an_event_form_without_its_csrf_token_is_refused_and_writes_nothing(web, store):
    login(web, "canton-agent")
    r = web.post("/filings/CAN-NOI-2026-001/events", data={"seq": "2", "type": "withdrawn", "f_date": "2026-12-02"})
    assert r.status_code == 403
    r = web.post(
        "/filings/CAN-NOI-2026-001/events", data={"csrf": "forged", "seq": "2", "type": "withdrawn", "f_date": "2026-12-02"}
    )
    assert r.status_code == 403
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_recording_an_event_appends_it_and_moves_the_state(web, store):
    token = login(web, "canton-agent")
    r = web.post(
        "/filings/CAN-NOI-2026-001/events",
        data={
            "csrf": token,
            "seq": "2",
            "type": "hearing-scheduled",
            "f_date": "2026-12-02",
            "f_hearing": "2026-12-15",
            "f_at": "2026-12-15T19:00",
        },
    )
    assert r.status_code == 303, r.text
    last = store.history("CAN-NOI-2026-001")[-1]
    assert last["raw"] == {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"}
    assert last["recorded_by"] == USERS["canton-agent"][0]
    page = web.get("/filings/CAN-NOI-2026-001").text
    assert "hearing-scheduled" in page and "hearing-posting" in page  # the 48-business-hour posting clock from the time


def test_the_event_form_offers_only_what_the_machine_accepts_now(web):
    login(web, "canton-agent")
    page = web.get("/filings/CAN-NOI-2026-001").text
    offered = set(re.findall(r'<option value="([a-z-]+)"', page.split('id="event-type"')[1].split("</select>")[0]))
    assert "hearing-scheduled" in offered
    assert "permit-issued" not in offered  # no Order of Conditions before a hearing (issue 32): it would be refused
    assert "hearing-continued" not in offered and "permit-recorded" not in offered and "event-voided" not in offered
    fields = web.get("/filings/CAN-NOI-2026-001?event=hearing-scheduled").text
    assert 'name="f_hearing"' in fields and 'type="datetime-local" name="f_at"' in fields


def test_a_guard_refusal_is_shown_in_its_own_words_and_nothing_is_written(web, store):
    token = login(web, "canton-dpw")
    r = web.post(
        "/filings/CAN-SOP-2026-001/events", data={"csrf": token, "seq": "1", "type": "permit-issued", "f_date": "2026-12-02"}
    )
    assert r.status_code == 422
    assert "Dig Safe" in r.text and "16-12" in r.text
    assert len(store.history("CAN-SOP-2026-001")) == 1


def test_a_missing_field_is_named_beside_it_and_nothing_is_written(web, store):
    token = login(web, "canton-agent")
    r = web.post(
        "/filings/CAN-NOI-2026-001/events",
        data={"csrf": token, "seq": "2", "type": "hearing-scheduled", "f_date": "2026-12-02", "f_hearing": ""},
    )
    assert r.status_code == 422 and 'class="field-error">required' in r.text
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_a_form_opened_before_someone_else_recorded_is_refused_as_changed_since_you_opened_it(web, store):
    token = login(web, "canton-agent")
    storekit.append(store, "CAN-NOI-2026-001", {"type": "abutters-notified", "date": "2026-12-02"}, by="someone else")
    r = web.post(
        "/filings/CAN-NOI-2026-001/events", data={"csrf": token, "seq": "2", "type": "withdrawn", "f_date": "2026-12-02"}
    )
    assert r.status_code == 409 and "changed since you opened it" in r.text
    assert [h["type"] for h in store.history("CAN-NOI-2026-001")][-1] == "abutters-notified"


def test_a_voided_event_is_struck_through_with_its_reason(web, store):
    token = login(web, "canton-agent")
    r = web.post("/filings/CAN-NOI-2026-001/void", data={"csrf": token, "seq": "2", "voids": "2", "reason": "wrong day"})
    assert r.status_code == 303, r.text
    page = web.get("/filings/CAN-NOI-2026-001").text
    assert re.search(r"<del>\s*<strong>Copies sent to the town boards</strong>", page)
    assert "voided by entry 3: wrong day" in page


HOSTILE = "<script>alert(1)</script>{{7*7}}"


def test_hostile_text_in_every_field_of_a_new_filing_comes_back_escaped(web, store):
    token = login(web, "canton-agent")
    data = {
        "csrf": token,
        "kind": "noi",
        "town": "canton",
        "filed": "2026-12-02",
        "address": HOSTILE,
        "parcel": HOSTILE,
        "description": HOSTILE,
        "applicant_name": HOSTILE,
        "applicant_street": HOSTILE,
        "applicant_city": HOSTILE,
        "applicant_state": "MA",
        "applicant_zip": "02021",
        "hearing_place": HOSTILE,
    }
    r = web.post("/filings/new", data=data)
    assert r.status_code == 303, r.text
    fid = r.headers["location"].rsplit("/", 1)[1]
    for path in (f"/filings/{fid}", "/filings", f"/filings?q={fid}"):
        page = web.get(path).text
        assert "<script>alert" not in page, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;{{7*7}}" in page, path
    # and in the form itself when it comes back with an error
    r = web.post("/filings/new", data={**data, "applicant_zip": HOSTILE})
    assert r.status_code == 422 and "<script>alert" not in r.text and "&lt;script&gt;" in r.text


def test_a_new_filing_shows_errors_beside_their_fields_and_writes_nothing(web, store):
    token = login(web, "canton-agent")
    before = len(store.list_filings())
    r = web.post(
        "/filings/new",
        data={"csrf": token, "kind": "noi", "town": "saugus", "filed": "2027-01-01", "applicant_zip": "abc", "address": ""},
    )
    assert r.status_code == 422
    assert r.text.count('class="field-error"') >= 5
    assert "choose one of: canton" in r.text and "is after today" in r.text and "a ZIP code" in r.text
    assert len(store.list_filings()) == before


def test_a_new_street_opening_with_its_dig_safe_ticket_can_then_be_issued(web, store):
    token = login(web, "canton-dpw")
    data = {
        "csrf": token,
        "kind": "street-opening",
        "id": "CAN-SOP-2026-777",
        "town": "canton",
        "filed": "2026-12-01",
        "address": "5 Elm St",
        "description": "a gas service",
        "applicant_name": "Columbia Gas",
        "applicant_street": "1 Main St",
        "applicant_city": "Canton",
        "applicant_state": "MA",
        "applicant_zip": "02021",
        "length_ft": "30",
        "applicant_type": "utility",
        "contractor": "Acme Paving",
        "dig_safe": "20264801234",
    }
    assert web.post("/filings/new", data=data).status_code == 303
    assert [h["type"] for h in store.history("CAN-SOP-2026-777")] == ["filed", "dig-safe-obtained"]
    r = web.post(
        "/filings/CAN-SOP-2026-777/events", data={"csrf": token, "seq": "2", "type": "permit-issued", "f_date": "2026-12-02"}
    )
    assert r.status_code == 303
    assert "issued" in web.get("/filings/CAN-SOP-2026-777").text


def test_a_new_filing_with_a_taken_id_is_refused_and_writes_nothing(web, store):
    token = login(web, "canton-agent")
    r = web.post(
        "/filings/new",
        data={
            "csrf": token,
            "kind": "noi",
            "id": "CAN-NOI-2026-001",
            "town": "canton",
            "filed": "2026-12-02",
            "address": "1 A St",
            "parcel": "1-1",
            "description": "x",
            "applicant_name": "A",
            "applicant_street": "1 A St",
            "applicant_city": "Canton",
            "applicant_state": "MA",
            "applicant_zip": "02021",
        },
    )
    assert r.status_code == 422
    assert (
        "A filing numbered CAN-NOI-2026-001 is already recorded, so nothing was written: give this one another number." in r.text
    )
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_today_lists_overdue_first_and_exports_csv_and_ics(web, store):
    login(web, "admin")
    page = web.get("/today?within=30").text
    assert "CAN-NOI-2026-001" in page
    csv_text = web.get("/today.csv?within=30").text
    assert csv_text.splitlines()[0].startswith("due,weekday,status,filing")
    statuses = [line.split(",")[2] for line in csv_text.splitlines()[1:]]
    assert statuses == sorted(statuses, key=lambda s: s != "overdue")
    ics = web.get("/today.ics?within=30")
    assert ics.headers["content-type"].startswith("text/calendar") and b"BEGIN:VEVENT" in ics.content


def test_the_abutter_list_uploads_and_the_abutter_notice_previews_and_downloads_as_pdf(web, store):
    token = login(web, "canton-agent")
    web.post(
        "/filings/CAN-NOI-2026-001/events",
        data={
            "csrf": token,
            "seq": "2",
            "type": "hearing-scheduled",
            "f_date": "2026-12-02",
            "f_hearing": "2026-12-15",
            "f_at": "2026-12-15T19:00",
        },
    )
    csv_text = 'Map/Lot,Owner Name,Mailing Address\n12-034,<b>O\'Brien</b>,"12 Elm St, Canton, MA 02021"\n'
    form = abutter_form(web.get("/filings/CAN-NOI-2026-001").text)
    assert form == {"csrf": token, "seq": "3", "abutters_version": ""}
    r = web.post("/filings/CAN-NOI-2026-001/abutters", data=form, files={"csv": ("abutters.csv", csv_text, "text/csv")})
    assert r.status_code == 303, r.text
    page = web.get("/filings/CAN-NOI-2026-001").text
    assert "&lt;b&gt;O&#39;Brien&lt;/b&gt;" in page
    preview = web.get("/filings/CAN-NOI-2026-001/notices/abutter-notice")
    assert preview.status_code == 200 and "O&#39;Brien" in preview.text and "<b>" not in preview.text
    assert "default-src 'none'" in preview.headers["content-security-policy"]
    pdf = web.post("/filings/CAN-NOI-2026-001/notices/abutter-notice", data={"csrf": token})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert web.get("/filings/CAN-NOI-2026-001").text.count("Notice to abutters to") == 0  # downloaded, not sent
    sent = {"csrf": token, "on": "2026-12-03", "how": "certified-mail"}
    assert web.post("/filings/CAN-NOI-2026-001/notices/abutter-notice/sent", data=sent).status_code == 303
    page = web.get("/filings/CAN-NOI-2026-001").text
    sent_line = re.search(r'<ul id="sent"><li>(.*?)</li>', page).group(1)
    assert sent_line.startswith("Thursday, December 3, 2026: Notice to abutters to &lt;B&gt;O&#39;BRIEN&lt;/B&gt;")
    assert sent_line.endswith(", by certified mail; recorded by Dana Reyes")
    again = web.post("/filings/CAN-NOI-2026-001/notices/abutter-notice", data={"csrf": token})
    assert again.status_code == 200 and again.content.startswith(b"%PDF")  # the letter again, to print: not a second sending
    assert web.get("/filings/CAN-NOI-2026-001").text.count("Notice to abutters to") == 1
    twice = web.post("/filings/CAN-NOI-2026-001/notices/abutter-notice/sent", data={**sent, "again": "1"})
    assert twice.status_code == 303 and web.get("/filings/CAN-NOI-2026-001").text.count("Notice to abutters to") == 2


def abutter_form(page: str) -> dict:
    """The hidden fields of a filing page's abutter upload form."""
    form = re.search(r'<form method="post" action="/filings/[^"]+/abutters".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form))


ABUTTERS_A = 'Map/Lot,Owner Name,Mailing Address\n12-034,Amelie Cote,"14 Elm St, Canton, MA 02021"\n'
ABUTTERS_B = 'Map/Lot,Owner Name,Mailing Address\n12-040,Wei Chen,"9 Oak Rd, Stoughton, MA 02072"\n'


def test_an_abutter_list_from_a_form_opened_before_an_event_was_recorded_is_refused_and_nothing_written(web, store):
    from models.read.workbench import abutters

    login(web, "canton-agent")
    form = abutter_form(web.get("/filings/CAN-NOI-2026-001").text)
    other = client(store)  # a colleague records an event meanwhile
    token = login(other, "canton-agent")
    assert (
        other.post(
            "/filings/CAN-NOI-2026-001/events",
            data={
                "csrf": token,
                "seq": "2",
                "type": "hearing-scheduled",
                "f_date": "2026-12-02",
                "f_hearing": "2026-12-15",
                "f_at": "2026-12-15T19:00",
            },
        ).status_code
        == 303
    )
    r = web.post("/filings/CAN-NOI-2026-001/abutters", data=form, files={"csv": ("a.csv", ABUTTERS_A, "text/csv")})
    assert r.status_code == 409 and "changed since you opened it" in r.text and "nothing was written" in r.text
    assert abutters(store, "CAN-NOI-2026-001") == []


def test_an_abutter_list_over_one_someone_else_uploaded_since_is_refused_and_theirs_is_kept(web, store):
    from models.read.workbench import abutters

    login(web, "canton-agent")
    form = abutter_form(web.get("/filings/CAN-NOI-2026-001").text)
    other = client(store)
    login(other, "admin")
    theirs = abutter_form(other.get("/filings/CAN-NOI-2026-001").text)
    r = other.post("/filings/CAN-NOI-2026-001/abutters", data=theirs, files={"csv": ("b.csv", ABUTTERS_B, "text/csv")})
    assert r.status_code == 303
    r = web.post("/filings/CAN-NOI-2026-001/abutters", data=form, files={"csv": ("a.csv", ABUTTERS_A, "text/csv")})
    assert r.status_code == 409 and "abutter list was replaced since you opened the page" in r.text
    assert [a["name"] for a in abutters(store, "CAN-NOI-2026-001")] == ["Wei Chen"]
    fresh = abutter_form(r.text)  # the refusal's page carries the list as it is now: upload again
    assert fresh["abutters_version"] and fresh["abutters_version"] != form["abutters_version"]
    r = web.post("/filings/CAN-NOI-2026-001/abutters", data=fresh, files={"csv": ("a.csv", ABUTTERS_A, "text/csv")})
    assert r.status_code == 303
    assert [a["name"] for a in abutters(store, "CAN-NOI-2026-001")] == ["Amelie Cote"]


def test_an_abutter_upload_without_the_forms_sequence_number_or_list_version_writes_nothing(web, store):
    from models.read.workbench import abutters

    token = login(web, "canton-agent")
    for data in ({"csrf": token, "abutters_version": ""}, {"csrf": token, "seq": "2"}):
        r = web.post("/filings/CAN-NOI-2026-001/abutters", data=data, files={"csv": ("a.csv", ABUTTERS_A, "text/csv")})
        assert r.status_code == 400 and "reload the page" in r.text
    assert abutters(store, "CAN-NOI-2026-001") == []


def test_the_rule_book_shows_clocks_and_guards_with_citations(web):
    login(web, "canton-agent")
    page = web.get("/rules").text
    assert "<h2>Town of Canton</h2>" in page or "<h2>Canton</h2>" in page
    assert "c.30A" in page  # the Open Meeting Law's 48 hours, cited
    assert "dig safe number given" in page and "Canton 16-12 §10.4" in page


def test_the_dpw_schedule_and_deposits_are_not_found_for_a_conservation_agent(web):
    login(web, "canton-agent")
    assert web.get("/schedule").status_code == 404 and web.get("/deposits").status_code == 404
    assert "DPW schedule" not in web.get("/today").text  # nor offered in the menu
    login(web, "canton-dpw")
    assert web.get("/schedule").status_code == 200 and "DPW schedule" in web.get("/today").text


def test_dpw_staff_record_an_inspection_result_from_a_schedule_row(web, store):
    storekit.append(store, "CAN-SOP-2026-001", {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"}, by="t")
    storekit.append(store, "CAN-SOP-2026-001", {"type": "permit-issued", "date": "2026-12-01"}, by="t")
    storekit.append(store, "CAN-SOP-2026-001", {"type": "work-noticed", "at": "2026-12-01T09:00"}, by="t")
    storekit.append(store, "CAN-SOP-2026-001", {"type": "excavation-started", "date": "2026-12-02"}, by="t")
    login(web, "canton-dpw")
    page = web.get("/schedule").text
    assert "CAN-SOP-2026-001" in page and "12 Pleasant St" in page and "Acme Paving" in page
    form = page.split('action="/schedule/inspections"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="(csrf|seq|filing|date)" value="([^"]*)"', form))
    r = web.post("/schedule/inspections", data={**fields, "stage": "pre-backfill", "result": "pass"})
    assert r.status_code == 303 and r.headers["location"].startswith("/schedule"), r.text
    assert store.history("CAN-SOP-2026-001")[-1]["raw"] == {
        "type": "inspected",
        "date": TODAY.isoformat(),
        "stage": "pre-backfill",
        "result": "pass",
    }


def test_on_postgresql_too_a_stale_form_and_a_guard_refusal_write_nothing_and_a_good_form_writes(db_url):
    """The write paths on both databases (the rest of this module runs on SQLite)."""
    from storekit import snapshot

    store = make_store(db_url)
    try:
        web = client(store)
        token = login(web, "canton-dpw")
        before = snapshot(db_url)
        refused = web.post(
            "/filings/CAN-SOP-2026-001/events", data={"csrf": token, "seq": "1", "type": "permit-issued", "f_date": "2026-12-02"}
        )
        stale = web.post(
            "/filings/CAN-SOP-2026-001/events",
            data={"csrf": token, "seq": "0", "type": "dig-safe-obtained", "f_date": "2026-12-02", "f_ticket": "9"},
        )
        assert (refused.status_code, stale.status_code) == (422, 409)
        assert "changed since you opened it" in stale.text
        assert snapshot(db_url) == before
        ok = web.post(
            "/filings/CAN-SOP-2026-001/events",
            data={"csrf": token, "seq": "1", "type": "dig-safe-obtained", "f_date": "2026-12-02", "f_ticket": "9"},
        )
        assert ok.status_code == 303 and store.history("CAN-SOP-2026-001")[-1]["raw"]["ticket"] == "9"
    finally:
        store.engine.dispose()


def test_hostile_text_in_an_events_fields_and_a_void_reason_comes_back_escaped(web, store):
    token = login(web, "canton-agent")
    r = web.post(
        "/filings/CAN-NOI-2026-001/events",
        data={"csrf": token, "seq": "2", "type": "board-reported", "f_date": "2026-12-02", "f_board": HOSTILE},
    )
    assert r.status_code == 303, r.text
    r = web.post("/filings/CAN-NOI-2026-001/void", data={"csrf": token, "seq": "3", "voids": "3", "reason": HOSTILE})
    assert r.status_code == 303, r.text
    page = web.get("/filings/CAN-NOI-2026-001").text
    assert "<script>alert" not in page
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;{{7*7}}") == 3  # the board, the void's field, its reason


def test_today_lists_the_violations_on_record_as_permits_docket_does(web, store):
    """One rule for both interfaces (models.read.workbench.docket_condition): work
    without a work notice (Canton 16-12 §10.3) is on the docket whatever its date."""
    import_filings(
        store,
        [
            {
                "town": "canton",
                "kind": "street-opening",
                "id": "CAN-SOP-2026-009",
                "address": "9 Elm St",
                "events": [
                    {"type": "filed", "date": "2026-11-02", "applicant": "utility", "length_ft": 20},
                    {"type": "dig-safe-obtained", "date": "2026-11-03", "ticket": "20264401234"},
                    {"type": "permit-issued", "date": "2026-11-05"},
                    {"type": "excavation-started", "date": "2026-11-06"},
                ],
            }
        ],
        by="test",
    )
    cli_side = {(i.filing, i.clock) for i in store.docket(as_of=TODAY, within=14) if i.status == "violation"}
    assert ("CAN-SOP-2026-009", "work-notice") in cli_side
    login(web, "admin")
    rows = [line.split(",") for line in web.get("/today.csv?within=14").text.splitlines()[1:]]
    web_side = {(r[3], r[9]) for r in rows if r[2] == "violation"}
    assert web_side == cli_side
