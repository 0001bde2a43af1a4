"""The fee and the inspections asked for online, route by route (web/staff/fee_pages.py,
web/applicant/inspection_request_pages.py): the fee shown on the apply form and the
status page, staff record a payment from the filing page, an applicant asks
for the trench inspection, it appears on the DPW schedule, the inspector
records it and the status page shows the result; and the boundaries: 404 for
another applicant's filing or another town's applicant, CSRF, nothing written
on a refusal."""

from __future__ import annotations

import re

import storekit
from storekit import snapshot
from webkit import TODAY, client, csrf_of, login, register

PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
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
SAUGUS_NOI = {
    "town": "saugus",
    "address": "9 Central St",
    "parcel": "C-12-7",
    "description": "a deck within the 100-foot buffer zone",
    "applicant_name": "Bo Diaz",
    "applicant_street": "9 Central St",
    "applicant_city": "Saugus",
    "applicant_state": "MA",
    "applicant_zip": "01906",
    "owner_is_applicant": "yes",
}


def _apply(c, token, form, kind):
    r = c.post(f"/my/apply/{kind}", data={"csrf": token, **form}, files={"plan": ("p.pdf", PDF, "application/pdf")})
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def _seq(page: str) -> str:
    return re.search(r'name="seq" value="(\d+)"', page).group(1)


def _applied_and_complete(store):
    """Ann applies for a 40-foot Canton trench; the DPW finds it complete."""
    ann = client(store)
    token = register(ann, "ann@example.org")
    fid = _apply(ann, token, STREET_FORM, "street-opening")
    dpw = client(store)
    staff = login(dpw, "canton-dpw")
    page = dpw.get(f"/filings/{fid}").text
    assert (
        dpw.post(f"/filings/{fid}/complete", data={"csrf": staff, "seq": _seq(page), "date": TODAY.isoformat()}).status_code
        == 303
    )
    return ann, token, dpw, staff, fid


def _dig(store, fid):
    for raw in (
        {"type": "permit-issued", "date": TODAY.isoformat()},
        {"type": "work-noticed", "at": f"{TODAY.isoformat()}T09:00"},
        {"type": "excavation-started", "date": TODAY.isoformat()},
    ):
        storekit.append(store, fid, raw, by="t", today=TODAY)


def _pay(dpw, staff, fid, **fields):
    page = dpw.get(f"/filings/{fid}").text
    data = {
        "csrf": staff,
        "seq": _seq(page),
        "amount": "1050.00",
        "method": "check",
        "reference": "1234",
        "date": TODAY.isoformat(),
    }
    return dpw.post(f"/filings/{fid}/payments", data={**data, **fields})


def test_the_apply_form_shows_each_towns_fee_for_the_kind_chosen_before_submitting(store):
    ann = client(store)
    register(ann, "ann@example.org")
    street = ann.get("/my/apply?kind=street-opening").text
    assert "application fee $50.00" in street and "Canton 16-12 §4 and Fee Schedule" in street
    assert "$25.00 a linear ft" in street  # the deposit counted from the trench's length
    assert "Mansfield" in street and "no application fee" in street  # Ch. 5 §IV names none
    noi = ann.get("/my/apply?kind=noi").text
    assert "amount not yet entered by the town" in noi and "310 CMR 4.10" in noi


def test_staff_record_a_payment_and_the_status_page_shows_the_fee_and_what_was_paid(store):
    ann, _, dpw, staff, fid = _applied_and_complete(store)
    page = ann.get(f"/my/filings/{fid}").text
    assert "application fee $50.00; refundable deposit $1,000.00: $1,050.00 in all" in page
    assert "Left to pay: <strong>$1,050.00</strong>" in page
    assert _pay(dpw, staff, fid, amount="50.00", reference="1001").status_code == 303
    page = ann.get(f"/my/filings/{fid}").text
    assert "Paid: $50.00." in page and "Left to pay: <strong>$1,000.00</strong>" in page and "1001" in page
    staff_page = dpw.get(f"/filings/{fid}").text
    assert "Fees charged $50.00; fees paid $50.00" in staff_page  # the deposit ledger shows it (Canton 16-12 §4-6)
    assert '<td id="deposit-received">$0.00</td>' in staff_page  # a fee paid is no deposit held
    assert 'id="payment-form"' in staff_page and 'id="payment-form"' not in page
    assert '<select name="toward">' in staff_page  # a street opening's payment says what it is for
    # offered first: the fee left to pay first, then the deposit, as `permits payments` without --toward
    assert '<select name="toward"><option value="">the fee first, then the deposit</option>' in staff_page
    assert _pay(dpw, staff, fid, amount="1000.00", reference="1002", toward="deposit").status_code == 303
    staff_page = dpw.get(f"/filings/{fid}").text
    assert (
        '<td id="deposit-received">$1,000.00</td>' in staff_page
        and '<td id="deposit-held"><strong>$1,000.00</strong>' in staff_page
    )
    assert "Left to pay: <strong>$0.00</strong>" in ann.get(f"/my/filings/{fid}").text


def test_a_payment_that_does_not_add_up_is_refused_naming_the_rule_and_writes_nothing(store):
    _, _, dpw, staff, fid = _applied_and_complete(store)
    before = snapshot(store.url)
    r = _pay(dpw, staff, fid, amount="1050.01")
    assert r.status_code == 422
    assert "add up to more than the $1,050.00 due" in r.text and "Canton 16-12 §4" in r.text
    r = _pay(dpw, staff, fid, reference="")
    assert r.status_code == 422 and "names its reference" in r.text
    r = _pay(dpw, staff, fid, method="card")
    assert r.status_code == 422 and "no card is taken here" in r.text
    r = _pay(dpw, staff, fid, amount="-5")
    assert r.status_code == 422 and "positive amount" in r.text
    assert snapshot(store.url) == before


def test_a_payment_form_without_its_token_or_from_another_town_is_refused(store):
    _, _, dpw, staff, fid = _applied_and_complete(store)
    saugus = client(store)
    token = login(saugus, "saugus-agent")
    before = snapshot(store.url)
    assert _pay(dpw, staff, fid, csrf="forged").status_code == 403
    r = saugus.post(f"/filings/{fid}/payments", data={"csrf": token, "seq": "1", "amount": "50.00", "method": "cash"})
    assert r.status_code == 404
    assert snapshot(store.url) == before


def test_the_applicant_asks_for_the_trench_inspection_the_inspector_records_it_and_the_page_shows_the_result(store):
    ann, token, dpw, _, fid = _applied_and_complete(store)
    page = ann.get(f"/my/filings/{fid}").text
    assert "No inspection can be asked for at this stage" in page  # not dug yet
    _dig(store, fid)
    page = ann.get(f"/my/filings/{fid}").text
    assert re.findall(r'<option value="([a-z-]+)"', page.split('name="stage"')[1].split("</select>")[0]) == ["pre-backfill"]
    r = ann.post(
        f"/my/filings/{fid}/inspection-request",
        data={"csrf": token, "seq": _seq(page), "stage": "pre-backfill", "preferred": "2026-12-07", "notes": "east side"},
    )
    assert r.status_code == 303
    assert "waiting for the inspector" in ann.get(f"/my/filings/{fid}").text
    schedule = dpw.get("/schedule").text
    asked = schedule.split('id="inspection-requests"')[1].split("</section>")[0]
    assert fid in asked and "trench, before backfilling" in asked and "ann@example.org" in asked and "Dec 7" in asked
    assert "12 Pleasant St" in asked and "site not given" not in asked  # the permit's site (issue 32)
    form = asked.split('action="/schedule/inspections"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
    assert fields["stage"] == "pre-backfill"
    r = dpw.post("/schedule/inspections", data={**fields, "result": "pass", "date": TODAY.isoformat()})
    assert r.status_code == 303, r.text
    page = ann.get(f"/my/filings/{fid}").text
    asked = page.split('id="requests"')[1].split("</ul>")[0]
    assert "for Monday, December 7, 2026: inspected Thursday, December 3, 2026, passed" in asked
    results = page.split('id="inspection-results"')[1].split("</ul>")[0]
    assert "Trench, before backfilling, Thursday, December 3, 2026: <strong>passed</strong>" in results
    assert "No inspection asked for online." in dpw.get("/schedule").text


def test_a_preferred_day_that_is_not_a_business_day_is_refused_in_words_and_writes_nothing(store):
    ann, token, _, _, fid = _applied_and_complete(store)
    _dig(store, fid)
    seq = _seq(ann.get(f"/my/filings/{fid}").text)
    before = snapshot(store.url)
    for preferred, words in (("2026-12-05", "Saturday"), ("2027-04-19", "Patriots' Day"), ("2026-12-01", "has passed")):
        r = ann.post(
            f"/my/filings/{fid}/inspection-request",
            data={"csrf": token, "seq": seq, "stage": "pre-backfill", "preferred": preferred},
        )
        assert r.status_code == 422 and words in r.text.replace("&#39;", "'"), preferred
    assert snapshot(store.url) == before


def test_another_applicants_or_another_towns_applicant_gets_404_and_a_forged_form_403(store):
    ann, token, _, _, fid = _applied_and_complete(store)
    _dig(store, fid)
    seq = _seq(ann.get(f"/my/filings/{fid}").text)
    before = snapshot(store.url)
    data = {"seq": seq, "stage": "pre-backfill", "preferred": "2026-12-07"}
    assert ann.post(f"/my/filings/{fid}/inspection-request", data={**data, "csrf": "forged"}).status_code == 403
    bo = client(store)
    bo_token = register(bo, "bo@example.org")
    _apply(bo, bo_token, SAUGUS_NOI, "noi")  # a Saugus applicant
    before = snapshot(store.url)
    assert bo.get(f"/my/filings/{fid}").status_code == 404
    assert bo.post(f"/my/filings/{fid}/inspection-request", data={**data, "csrf": bo_token}).status_code == 404
    assert bo.post("/my/filings/CAN-SOP-9999-999/inspection-request", data={**data, "csrf": bo_token}).status_code == 404
    assert bo.post("/my/filings/..%2Fx/inspection-request", data={**data, "csrf": bo_token}).status_code == 404
    assert snapshot(store.url) == before


def test_a_wetlands_filing_offers_no_inspection_request_and_shows_its_commission_fee(store):
    bo = client(store)
    token = register(bo, "bo@example.org")
    fid = _apply(bo, token, SAUGUS_NOI, "noi")
    page = bo.get(f"/my/filings/{fid}").text
    assert 'id="inspections"' not in page
    assert "Saugus Wetlands By-Law 508.08 §5.1" in page and "310 CMR 4.10" in page
    r = bo.post(
        f"/my/filings/{fid}/inspection-request",
        data={"csrf": token, "seq": "1", "stage": "pre-backfill", "preferred": "2026-12-07"},
    )
    assert r.status_code == 422 and "only a street opening" in r.text
    assert csrf_of(page)
