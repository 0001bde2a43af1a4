"""Work seen before any permit (Canton 15-4: "No activities shall commence
without receiving and complying with a permit"; M.G.L. c.131 §40) is a
violation the workbench shows on the filing's page and on Today, and offers
as the start of an enforcement case, the case form filled from the filing."""

from __future__ import annotations

from webkit import PARTIES, client, login

from services.imports import import_filings

FID = "CAN-NOI-2026-002"
#: a new Canton NOI, heard under the Act too (the default of every new filing)
JOINT = {"town": "canton", "kind": "noi", "id": FID, **PARTIES, "events": [{"type": "filed", "date": "2026-12-01"}]}


def _work_seen(web, store) -> str:
    import_filings(store, [JOINT], by="test", act_default=True)
    token = login(web, "canton-agent")
    r = web.post(
        f"/filings/{FID}/events",
        data={"csrf": token, "seq": "1", "type": "work-observed", "f_date": "2026-12-02", "f_what": "grading in the buffer"},
    )
    assert r.status_code == 303, r.text
    return token


def test_work_before_any_permit_is_offered_as_an_enforcement_case_filled_from_the_filing(web, store):
    _work_seen(web, store)
    page = web.get(f"/filings/{FID}").text
    assert 'id="violations-on-record"' in page and "Work with no permit in force" in page
    assert "Canton Wetlands By-Law 15-4; M.G.L. c.131 §40" in page
    link = f"/enforcement/new?filing={FID}&amp;violation=work-without-permit"
    assert link in page
    form = web.get(link.replace("&amp;", "&")).text
    assert 'value="Canton Wetlands By-Law 15-4; M.G.L. c.131 §40"' in form
    assert (
        "Work with no permit in force: Work observed on the site on Wednesday, December 2, 2026 (grading in the buffer)" in form
    )
    assert 'value="2026-12-02"' in form and 'value="wetlands" selected' in form
    assert f'value="{FID}"' in form and 'value="Neponset Builders LLC"' in form


def test_today_counts_the_violation_and_lists_the_filing(web, store):
    _work_seen(web, store)
    today = web.get("/today").text
    assert '<strong data-count="violation">1</strong>' in today and FID in today


def test_a_violation_the_filing_does_not_have_fills_nothing_and_another_town_gets_404(web, store):
    import_filings(store, [JOINT], by="test", act_default=True)
    login(web, "canton-agent")
    form = web.get(f"/enforcement/new?filing={FID}&violation=work-without-permit").text
    assert "15-4" not in form
    other = client(store)
    login(other, "saugus-agent")
    assert other.get(f"/enforcement/new?filing={FID}&violation=work-without-permit").status_code == 404
