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


def _canton_case(web) -> tuple[str, str]:
    token = login(web, "canton-agent")
    r = web.post(
        "/enforcement/new",
        data={
            "csrf": token,
            "town": "canton",
            "bylaw": "wetlands",
            "violator": "Neponset Builders LLC",
            "provision": "Canton Wetlands By-Law 15-4",
            "description": "grading with no permit",
            "date": "2026-12-01",
            "filing": "",
            "address": "40 Washington St",
            "parcel": "",
        },
    )
    assert r.status_code == 303, r.text
    return r.headers["location"], token


def test_a_canton_ticket_form_shows_the_maximum_and_the_usual_amount_and_refuses_above_it(web, store):
    """Canton 15-11: "a fine of not more that $300.00": the board's choice up to it."""
    from models.read.enforcement import EnforcementRecord

    where, token = _canton_case(web)
    page = web.get(where).text
    assert "at most $300; the town's usual amount is $300" in page and 'name="amount"' in page
    ticket = {
        "csrf": token,
        "seq": "1",
        "date": "2026-12-02",
        "provisions": "15-4",
        "first_day": "2026-12-01",
        "delivered": "in-hand",
    }
    r = web.post(f"{where}/tickets", data={**ticket, "amount": "400"})
    assert r.status_code == 422 and "A fine is at most $300, not $400" in r.text
    r = web.post(f"{where}/tickets", data={**ticket, "amount": "150"})
    assert r.status_code == 303
    cid = where.rsplit("/", 1)[-1]
    assert [h["raw"].get("fine") for h in EnforcementRecord(store).history(cid)] == [None, 150]


def test_the_board_extends_an_orders_date_from_the_case_page(web, store):
    where, token = _canton_case(web)
    order = {"csrf": token, "seq": "1", "date": "2026-12-02", "comply_by": "2026-12-20", "requires": "Restore the bank."}
    assert web.post(f"{where}/order", data=order).status_code == 303
    page = web.get(f"{where}?step=order-extended").text
    assert "Order extended by the board" in page
    r = web.post(
        f"{where}/steps",
        data={
            "csrf": token,
            "seq": "2",
            "type": "order-extended",
            "f_date": "2026-12-03",
            "f_to": "2027-01-15",
            "f_reason": "frozen ground",
        },
    )
    assert r.status_code == 303, r.text
    page = web.get(where).text
    assert "extended by the board on Thursday, December 3, 2026 (step 3) to Friday, January 15, 2027: frozen ground" in page
    # who recorded it, by the name they gave; no entry's engine number, no email
    assert "recorded by Dana Reyes" in page and "(event " not in page and "agent@canton.example" not in page
