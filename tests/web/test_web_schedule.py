"""The DPW schedule's pages and its inspection form (web/staff/schedule_pages.py),
route by route: who may see them (DPW staff of the town and admins; anyone
else a 404), the tabs, the filters and the pages, the form that offers only
the stages that fit, records an inspection with its photos and comes back
to the schedule, and every refusal writing nothing (CSRF, a stage that does
not fit, a fail without its defect, a photo that is not one)."""

import html
import re

import pytest
import storekit
from storekit import snapshot
from webkit import TODAY, client, login, make_store

from services.imports import import_filings
from web.deps import context_of

FID = "CAN-SOP-2026-001"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(200)
JPEG = b"\xff\xd8\xff\xe0" + bytes(200)


def _dig(store):
    for raw in (
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
        {"type": "permit-issued", "date": "2026-12-01"},
        {"type": "work-noticed", "at": "2026-12-01T09:00"},
        {"type": "excavation-started", "date": "2026-12-02"},
    ):
        storekit.append(store, FID, raw, by="t")


def _form(page: str) -> dict:
    form = page.split('action="/schedule/inspections"')[1].split("</form>")[0]
    return dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))


def _fail(fields, **more):
    return {
        **fields,
        "stage": "pre-backfill",
        "result": "fail",
        "time": "10:15",
        "notes": "north end",
        "defect": "bedding not compacted",
        "reinspect": "2026-12-07",
        **more,
    }


def test_the_inspections_tab_lists_the_trench_with_only_the_stage_that_fits(web, store):
    _dig(store)
    login(web, "canton-dpw")
    page = web.get("/schedule").text
    assert "trench inspection, before backfilling" in page and "12 Pleasant St" in page and "Acme Paving" in page
    options = re.findall(r'<option value="([a-z-]+)"', page.split('name="stage"')[1].split("</select>")[0])
    assert options == ["pre-backfill"]
    assert "permit expires" not in page and "permit-expiry" not in page
    other = web.get("/schedule?tab=other").text
    assert "Permit expires" in other and 'action="/schedule/inspections"' not in other


def test_a_failed_inspection_with_a_photo_comes_back_to_the_filtered_schedule_with_its_re_inspection(web, store):
    _dig(store)
    login(web, "canton-dpw")
    fields = _form(web.get("/schedule?street=pleasant&contractor=acme").text)
    r = web.post("/schedule/inspections", data=_fail(fields), files=[("photos", ("trench.png", PNG, "image/png"))])
    assert r.status_code == 303, r.text
    assert r.headers["location"] == "/schedule?tab=inspections&street=pleasant&contractor=acme"
    raw = store.history(FID)[-1]["raw"]
    assert {k: raw[k] for k in ("type", "stage", "result", "at", "notes", "defect", "reinspect")} == {
        "type": "inspected",
        "stage": "pre-backfill",
        "result": "fail",
        "at": f"{TODAY.isoformat()}T10:15",
        "notes": "north end",
        "defect": "bedding not compacted",
        "reinspect": "2026-12-07",
    }
    (token,) = raw["photos"]
    page = web.get(r.headers["location"]).text
    assert "re-inspection after a failed inspection" in page and "Mon, Dec 7, 2026" in page
    photo = web.get(f"/filings/{FID}/photos/{token}")
    assert photo.status_code == 200 and photo.content == PNG and photo.headers["content-type"] == "image/png"
    assert f"/filings/{FID}/photos/{token}" in web.get(f"/filings/{FID}").text


def test_a_photo_is_read_back_only_by_staff_who_may_see_the_filing(web, store):
    _dig(store)
    token = login(web, "canton-dpw")
    fields = _form(web.get("/schedule").text)
    web.post("/schedule/inspections", data=_fail(fields), files=[("photos", ("t.jpg", JPEG, "image/jpeg"))])
    (photo,) = store.history(FID)[-1]["raw"]["photos"]
    assert web.get(f"/filings/CAN-NOI-2026-001/photos/{photo}").status_code == 404  # another filing's path
    assert web.get(f"/filings/{FID}/photos/{'x' * 32}").status_code == 404
    login(web, "canton-agent")
    assert web.get(f"/filings/{FID}/photos/{photo}").status_code == 404
    assert token


@pytest.mark.parametrize("who", ["canton-agent", "saugus-agent"])
def test_the_schedule_and_its_form_are_not_found_for_others(web, store, who):
    _dig(store)
    token = login(web, "canton-dpw")
    fields = _form(web.get("/schedule").text)
    token = login(web, who)
    before = snapshot(store.url)
    assert web.get("/schedule").status_code == 404
    r = web.post("/schedule/inspections", data=_fail({**fields, "csrf": token}))
    assert r.status_code == 404 and snapshot(store.url) == before


def test_a_form_without_its_token_or_for_an_unknown_filing_writes_nothing(web, store):
    _dig(store)
    login(web, "canton-dpw")
    fields = _form(web.get("/schedule").text)
    before = snapshot(store.url)
    assert web.post("/schedule/inspections", data=_fail({**fields, "csrf": "forged"})).status_code == 403
    assert web.post("/schedule/inspections", data=_fail({**fields, "filing": "CAN-SOP-2026-999"})).status_code == 404
    assert web.post("/schedule/inspections", data=_fail({**fields, "filing": "../etc"})).status_code == 404
    assert snapshot(store.url) == before


@pytest.mark.parametrize(
    "change, words",
    [
        ({"stage": "settlement"}, "does not fit a permit that is Excavation under way"),
        ({"defect": ""}, "names the defect and the day of the re-inspection"),
        ({"reinspect": TODAY.isoformat()}, "is not after the inspection"),
        ({"result": "pass", "defect": "x"}, "only when it fails"),
        ({"date": "2026-12-31"}, "has not happened yet (today is Thursday, December 3, 2026)"),
        ({"time": "25:00"}, "time"),
    ],
)
def test_a_refused_inspection_is_shown_on_the_schedule_in_the_rules_words_and_writes_nothing(web, store, change, words):
    _dig(store)
    login(web, "canton-dpw")
    fields = _form(web.get("/schedule").text)
    before = snapshot(store.url)
    r = web.post("/schedule/inspections", data=_fail(fields, **change))
    assert r.status_code == 422 and words in html.unescape(r.text) and 'id="error"' in r.text
    assert snapshot(store.url) == before


def test_a_file_that_is_not_a_photo_is_refused_and_nothing_is_stored(web, store, tmp_path):
    _dig(store)
    login(web, "canton-dpw")
    fields = _form(web.get("/schedule").text)
    before = snapshot(store.url)
    folder = context_of(web.app).uploads.folder
    files_before = sorted(p.name for p in folder.glob("*")) if folder.exists() else []
    r = web.post("/schedule/inspections", data=_fail(fields), files=[("photos", ("t.png", b"%PDF-1.4 not a photo", "image/png"))])
    assert r.status_code == 422 and "not a JPEG or PNG photo" in r.text
    assert snapshot(store.url) == before
    assert (sorted(p.name for p in folder.glob("*")) if folder.exists() else []) == files_before


def test_a_stale_form_is_refused_naming_the_change(web, store):
    _dig(store)
    login(web, "canton-dpw")
    fields = _form(web.get("/schedule").text)
    storekit.append(
        store, FID, {"type": "inspected", "date": TODAY.isoformat(), "stage": "pre-backfill", "result": "pass"}, by="t"
    )
    r = web.post("/schedule/inspections", data=_fail(fields))
    assert r.status_code == 409 and "changed since you opened it" in r.text


def test_the_filters_and_pages_narrow_the_rows(tmp_path):
    from demo.generate import generate

    store = make_store(f"sqlite:///{tmp_path / 'many.db'}")
    import_filings(store, generate(600, TODAY, seed=3), by="test")
    web = client(store)
    login(web, "admin")
    first = web.get("/schedule?tab=other").text
    total = int(re.search(r'id="count">(\d+) date', first).group(1))
    assert total > 50 and 'rel="next"' in first and 'rel="prev"' not in first
    second = web.get("/schedule?tab=other&page=2").text
    assert 'rel="prev"' in second and "page 2 of" in second
    ids = lambda page: re.findall(r'<a href="/filings/(CAN-SOP-[0-9-]+)"', page)  # noqa: E731
    assert not set(ids(first)) & set(ids(second)) or ids(first) != ids(second)
    narrow = web.get("/schedule?tab=other&town=mansfield").text
    assert ids(narrow) == []
    bad = web.get("/schedule?tab=other&from=not-a-day&page=zero")
    assert bad.status_code == 200 and "page 1 of" in bad.text
    store.engine.dispose()


def test_past_the_count_cap_the_page_says_more_than_and_still_offers_the_next_page(tmp_path, monkeypatch):
    import models.read.inspection_schedule as queries
    from demo.generate import generate

    store = make_store(f"sqlite:///{tmp_path / 'capped.db'}")
    import_filings(store, generate(600, TODAY, seed=3), by="test")
    web = client(store)
    login(web, "admin")
    monkeypatch.setattr(queries, "COUNT_CAP", 60)
    first = web.get("/schedule?tab=other").text
    assert 'id="count">More than 60 date(s); page 1.' in first and 'rel="next"' in first
    second = web.get("/schedule?tab=other&page=2").text
    assert 'rel="prev"' in second and '<li class="card' in second
    store.engine.dispose()


def test_a_trench_opened_on_a_saturday_is_listed_on_the_monday_saying_why(web, store):
    """Canton 16-12 §10.2(a): the trench is inspected before backfill, from the
    day it opens (no roll: a Saturday trench is a Saturday's); the DPW
    inspects on business days, so the schedule lists it on the Monday and
    says the day it fell due."""
    opening = {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-SOP-2026-002",
        "address": "3 Bolivar St",
        "applicant": "Eversource",
        "events": [
            {"type": "filed", "date": "2026-11-16", "applicant": "utility", "length_ft": 40},
            {"type": "dig-safe-obtained", "date": "2026-11-20", "ticket": "1"},
            {"type": "permit-issued", "date": "2026-11-23"},
            {"type": "work-noticed", "at": "2026-11-24T09:00"},
            {"type": "excavation-started", "date": "2026-11-28"},  # a Saturday
        ],
    }
    import_filings(store, [opening], by="test")
    login(web, "canton-dpw")
    card = web.get("/schedule").text.split('<li class="card')[1]
    when = re.sub(r"<[^>]+>", "", card.split('<p class="when">')[1].split("</p>")[0])
    assert when.startswith("Mon, Nov 30, 2026 (due Saturday, November 28, 2026; listed on the next business day)")


def test_every_inspection_listed_can_be_recorded_and_falls_on_a_business_day(tmp_path):
    """The schedule lists only inspections an inspection recorded now may
    answer (a form naming a stage), each on a business day of the town."""
    from demo.generate import generate
    from services.schedule import schedule_page
    from workflows.towns import town

    store = make_store(f"sqlite:///{tmp_path / 'many.db'}")
    import_filings(store, generate(600, TODAY, seed=3), by="test")
    rows, page = [], 1
    while True:
        got = schedule_page(store, as_of=TODAY, towns=None, tab="inspections", within=120, page=page, per_page=200)
        rows += got.rows
        if not got.more:
            break
        page += 1
    assert len(rows) >= 10
    for item in rows:
        assert item.stages, (item.row.filing, item.row.state, item.row.clock)
        assert town(item.row.town).calendar.is_business_day(item.listed_on or item.row.date)
    store.engine.dispose()


def test_an_emergency_dug_before_its_permit_is_inspected_once_issued_and_not_listed_before(web, store):
    """Canton 16-12 §10.2(a) and the emergency of §10.7: a trench dug in an
    emergency is inspected before backfill; once the permit issues, the
    schedule's form offers the trench stage (the trench is open, though no
    excavation-started was recorded), and while the application is still
    undecided the inspection is not listed, for none could be recorded."""

    def opening(fid, events):
        return {
            "town": "canton",
            "kind": "street-opening",
            "id": fid,
            "address": "9 Elm St",
            "applicant": "Eversource",
            "events": events,
        }

    dug = [
        {"type": "emergency-work-started", "at": "2026-11-15T06:00"},
        {"type": "filed", "date": "2026-11-16", "applicant": "utility", "length_ft": 20},
        {"type": "dig-safe-obtained", "date": "2026-11-18", "ticket": "2"},
    ]
    import_filings(
        store,
        [
            opening("CAN-SOP-2026-010", [*dug, {"type": "permit-issued", "date": "2026-11-23"}]),
            opening("CAN-SOP-2026-011", dug),
        ],
        by="test",
    )
    login(web, "canton-dpw")
    page = web.get("/schedule").text
    issued = page.split('href="/filings/CAN-SOP-2026-010"')[0].rsplit('<li class="card', 1)[1]
    assert "trench inspection, before backfilling" in issued
    form = next(f for f in re.findall(r'action="/schedule/inspections".*?</form>', page, re.S) if "CAN-SOP-2026-010" in f)
    assert re.findall(r'<option value="([a-z-]+)"', form) == ["pre-backfill"]
    assert "CAN-SOP-2026-011" not in page
    # and the stage offered is recorded
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
    r = web.post("/schedule/inspections", data={**fields, "stage": "pre-backfill", "result": "pass", "date": "2026-12-03"})
    assert r.status_code == 303, r.text
    assert store.history("CAN-SOP-2026-010")[-1]["type"] == "inspected"
