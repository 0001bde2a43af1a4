"""The workbench's enforcement pages (web/staff/enforcement_pages.py): who may see
and record (the town's conservation agents and admins; everyone else the
same 404), CSRF and the form's sequence number on every post, refusals in
the rule's words with nothing written, hostile text escaped, and the same
case through the command line and the web."""

from __future__ import annotations

import pytest
from webkit import client, login, make_store

from cli.main import main
from models.read.enforcement import EnforcementRecord

CASE = "SAU-ENF-2026-0001"
NEW = {
    "town": "saugus",
    "bylaw": "wetlands",
    "violator": "Neponset Builders LLC",
    "provision": "508.08 §2",
    "description": "fill placed in the buffer zone",
    "date": "2026-12-01",
    "filing": "SAU-NOI-2026-001",
    "address": "",
    "parcel": "",
}


def _opened(web, who="saugus-agent") -> str:
    token = login(web, who)
    r = web.post("/enforcement/new", data={"csrf": token, **NEW})
    assert r.status_code == 303 and r.headers["location"] == f"/enforcement/{CASE}", r.text
    return token


def _steps(store) -> int:
    return len(EnforcementRecord(store).history(CASE))


PAGES = ["/enforcement", "/enforcement/new", f"/enforcement/{CASE}", f"/enforcement/{CASE}/notices/violation-notice"]
POSTS = [
    "/enforcement/new",
    *(f"/enforcement/{CASE}/{p}" for p in ("notice", "order", "tickets", "steps", "void")),
    f"/enforcement/{CASE}/notices/ticket",
]


@pytest.mark.parametrize("path", PAGES)
def test_every_enforcement_page_sends_a_stranger_to_the_login_page(web, path):
    r = web.get(path)
    assert r.status_code == 303 and r.headers["location"].startswith("/login?next=")


@pytest.mark.parametrize("path", POSTS)
def test_every_enforcement_post_sends_a_stranger_to_the_login_page(web, path):
    r = web.post(path, data={"date": "2026-12-02", "seq": "1"})
    assert r.status_code == 303 and r.headers["location"].startswith("/login")


@pytest.mark.parametrize("path", [*PAGES, *POSTS])
def test_dpw_staff_find_no_enforcement_page_at_all(web, store, path):
    _opened(web)
    other = client(store)
    token = login(other, "canton-dpw")
    r = other.post(path, data={"csrf": token, "seq": "1"}) if path in POSTS else other.get(path)
    assert r.status_code == 404
    assert _steps(store) == 1


@pytest.mark.parametrize("path", [p for p in [*PAGES, *POSTS] if CASE in p])
def test_another_towns_agent_finds_the_case_not_found_and_writes_nothing(web, store, path):
    _opened(web)
    other = client(store)
    token = login(other, "canton-agent")
    r = other.post(path, data={"csrf": token, "seq": "1", "date": "2026-12-02"}) if path in POSTS else other.get(path)
    assert r.status_code == 404 and "not one of yours" in r.text
    assert _steps(store) == 1


@pytest.mark.parametrize("case", ["SAU-ENF-2026-0999", "..%2Fetc", "x" * 80])
def test_an_unknown_or_malformed_case_id_is_the_same_404(web, case):
    login(web, "saugus-agent")
    assert web.get(f"/enforcement/{case}").status_code == 404


def test_the_case_list_shows_only_the_users_towns(web, store):
    _opened(web)
    assert CASE in web.get("/enforcement").text
    other = client(store)
    login(other, "canton-agent")
    page = other.get("/enforcement")
    assert page.status_code == 200 and CASE not in page.text
    admin = client(store)
    login(admin, "admin")
    assert CASE in admin.get("/enforcement").text


def test_the_filing_page_links_to_its_cases_and_the_nav_to_enforcement(web):
    _opened(web)
    page = web.get("/filings/SAU-NOI-2026-001").text
    assert "/enforcement?filing=SAU-NOI-2026-001" in page and "/enforcement/new?filing=SAU-NOI-2026-001" in page
    assert 'href="/enforcement"' in page
    assert CASE in web.get("/enforcement?filing=SAU-NOI-2026-001").text


def test_a_post_without_its_csrf_token_is_refused_and_writes_nothing(web, store):
    _opened(web)
    r = web.post(f"/enforcement/{CASE}/notice", data={"seq": "1", "date": "2026-12-02"})
    assert r.status_code == 403 and _steps(store) == 1


def test_tickets_are_numbered_and_priced_and_shown_with_the_fines(web, store):
    token = _opened(web)
    r = web.post(
        f"/enforcement/{CASE}/tickets",
        data={
            "csrf": token,
            "seq": "1",
            "date": "2026-12-03",
            "provisions": "508.08 §2",
            "first_day": "2026-12-01",
            "last_day": "2026-12-02",
            "delivered": "in-hand",
        },
    )
    assert r.status_code == 303
    page = web.get(f"/enforcement/{CASE}").text
    assert "$75" in page and "first offense" in page and "second offense" in page
    assert "Appearance before the clerk, or payment (21 days)" in page
    notice = web.get(f"/enforcement/{CASE}/notices/ticket")
    assert notice.status_code == 200 and "Notice of Non-Criminal Disposition" in notice.text
    assert notice.headers["content-security-policy"].startswith("default-src 'none'")


def test_a_form_opened_before_another_step_was_recorded_is_refused_as_changed(web, store):
    token = _opened(web)
    assert web.post(f"/enforcement/{CASE}/notice", data={"csrf": token, "seq": "1", "date": "2026-12-02"}).status_code == 303
    r = web.post(f"/enforcement/{CASE}/notice", data={"csrf": token, "seq": "1", "date": "2026-12-02"})
    assert r.status_code == 409 and "changed since you opened it" in r.text
    assert _steps(store) == 2


def test_a_refused_step_is_shown_in_the_rules_words_and_nothing_is_written(web, store):
    token = _opened(web)
    r = web.post(f"/enforcement/{CASE}/steps", data={"csrf": token, "seq": "1", "type": "town-abated", "f_date": "2026-12-02"})
    assert r.status_code == 422 and "sets no recovery of the town&#39;s costs" in r.text
    r = web.post(
        f"/enforcement/{CASE}/order",
        data={"csrf": token, "seq": "1", "date": "2026-12-02", "comply_by": "2026-11-01", "requires": "Remove the fill."},
    )
    assert r.status_code == 422 and "sets a date to comply by after it issues" in r.text
    r = web.post(
        f"/enforcement/{CASE}/order",
        data={"csrf": token, "seq": "1", "date": "2026-12-02", "comply_by": "2026-12-20", "requires": ""},
    )
    assert r.status_code == 422 and "say what the Order requires" in r.text
    assert _steps(store) == 1


def test_hostile_text_in_a_case_comes_back_escaped(web, store):
    token = login(web, "saugus-agent")
    hostile = '<script>alert("x")</script>'
    r = web.post("/enforcement/new", data={"csrf": token, **NEW, "violator": hostile, "description": hostile})
    assert r.status_code == 303
    page = web.get(r.headers["location"]).text
    assert hostile not in page and "&lt;script&gt;" in page


def test_opening_a_case_with_missing_fields_names_them_and_writes_nothing(web, store):
    token = login(web, "saugus-agent")
    r = web.post("/enforcement/new", data={"csrf": token, **NEW, "violator": "", "date": "tomorrow"})
    assert r.status_code == 422 and "Nothing was saved" in r.text
    assert EnforcementRecord(store).cases() == []


def test_the_same_case_through_the_command_line_and_the_web_is_the_same_record(store, tmp_path):
    """One home for each step (services/enforcement.py): opened, noticed,
    ordered and ticketed by ``permits enforcement`` in one store and by the
    workbench in another, the two histories are the same events."""
    web_store = store
    cli_store = make_store(f"sqlite:///{tmp_path / 'cli.db'}")
    db = ["--db", cli_store.url, "--as-of", "2026-12-03", "--by", "agent@saugus.example"]
    assert (
        main(
            [
                "enforcement",
                "open",
                *db,
                "--town",
                "saugus",
                "--bylaw",
                "wetlands",
                "--violator",
                NEW["violator"],
                "--provision",
                NEW["provision"],
                "--description",
                NEW["description"],
                "--date",
                "2026-12-01",
                "--filing",
                "SAU-NOI-2026-001",
            ]
        )
        == 0
    )
    assert main(["enforcement", "notice", CASE, *db, "--date", "2026-12-02", "--delivered", "mailed"]) == 0
    assert (
        main(
            [
                "enforcement",
                "order",
                CASE,
                *db,
                "--date",
                "2026-12-02",
                "--comply-by",
                "2026-12-20",
                "--requires",
                "Remove the fill.",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "enforcement",
                "ticket",
                CASE,
                *db,
                "--date",
                "2026-12-03",
                "--provision",
                "508.08 §2",
                "--day",
                "2026-12-01",
                "--through",
                "2026-12-02",
                "--delivered",
                "in-hand",
            ]
        )
        == 0
    )
    web = client(web_store)
    token = _opened(web)
    web.post(f"/enforcement/{CASE}/notice", data={"csrf": token, "seq": "1", "date": "2026-12-02", "delivered": "mailed"})
    web.post(
        f"/enforcement/{CASE}/order",
        data={"csrf": token, "seq": "2", "date": "2026-12-02", "comply_by": "2026-12-20", "requires": "Remove the fill."},
    )
    web.post(
        f"/enforcement/{CASE}/tickets",
        data={
            "csrf": token,
            "seq": "3",
            "date": "2026-12-03",
            "provisions": "508.08 §2",
            "first_day": "2026-12-01",
            "last_day": "2026-12-02",
            "delivered": "in-hand",
        },
    )
    raws = [[h["raw"] for h in EnforcementRecord(s).history(CASE)] for s in (cli_store, web_store)]
    assert raws[0] == raws[1] and len(raws[0]) == 5
    cli_store.engine.dispose()


def test_today_lists_the_enforcement_cases_deadlines_beside_the_filings(web, store):
    token = _opened(web)
    web.post(
        f"/enforcement/{CASE}/order",
        data={"csrf": token, "seq": "1", "date": "2026-12-02", "comply_by": "2026-12-10", "requires": "Remove the fill."},
    )
    page = web.get("/today").text
    assert 'id="enforcement-due"' in page and f"/enforcement/{CASE}" in page and "Compliance with the Enforcement Order" in page
    other = client(store)
    login(other, "canton-dpw")
    assert 'id="enforcement-due"' not in other.get("/today").text


def test_a_notice_that_does_not_fit_the_case_is_refused_on_its_page(web, store):
    token = _opened(web)
    r = web.get(f"/enforcement/{CASE}/notices/cost-notice")
    assert r.status_code == 422 and "sets no recovery of the town&#39;s costs" in r.text
    r = web.post(f"/enforcement/{CASE}/notices/ticket", data={"csrf": token})
    assert r.status_code == 422 and "no ticket-issued on record" in r.text
    r = web.get(f"/enforcement/{CASE}/notices/no-such-notice")
    assert r.status_code == 422 and "Unknown enforcement notice" in r.text


def test_a_case_on_a_filing_of_another_town_is_not_found_and_nothing_is_written(web, store):
    """The filing's id cannot be probed through the form: a Saugus agent
    naming a Canton filing gets the same 404 as its page gives."""
    token = login(web, "saugus-agent")
    r = web.post("/enforcement/new", data={"csrf": token, **NEW, "filing": "CAN-NOI-2026-001"})
    assert r.status_code == 404 and "CAN-NOI-2026-001" not in r.text
    assert EnforcementRecord(store).cases() == []
