"""Word at every step (services/word.py): each step of a filing the
applicant hears of queues its email in the transaction that records it,
whichever way it is recorded, and a real SMTP server (aiosmtpd) receives
it: the receipt with the filing's number, complete, incomplete, the
hearing scheduled and continued (day, time, the meeting's place), the
decision with its PDF, the Certificate of Compliance, an inspection's
result, the deposit refunded; each says why the reader got it.  The
sweep's own email of the decision's notice is not sent again to an address
already told.  On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, datetime

import pytest
import storekit
from mailkit import body, smtp_server
from webkit import make_store

from cli.main import main
from models.read.outbox import Outbox
from notices.smtp import smtp_sender
from services.imports import import_filings
from services.mail import deliver
from services.record import mark_complete, mark_incomplete, record_event

NOW = datetime(2026, 12, 3, 10, 0)
FROM = "permits@canton.example"
ANN = "ann@example.org"
ADDR = {"street": "12 Elm St", "city": "Canton", "state": "MA", "zip": "02021"}


def _application(fid: str, kind: str = "noi", *events) -> dict:
    obj = {
        "town": "canton",
        "kind": kind,
        "id": fid,
        "address": "12 Elm St",
        "site": {"address": "12 Elm St", "parcel": "12-034"},
        "project": {"description": "a deck within the buffer zone"},
        "applicant": {"name": "Ann Lee", "address": ADDR, "email": ANN},
        "owner": {"name": "Ann Lee", "address": ADDR},
        "application": {"online": True, "owner_consent": True, "submitted_by": ANN},
        "events": [{"type": "submitted", "date": "2026-12-01"}, *events],
    }
    if kind == "street-opening":
        obj["contractor"] = {"name": "Acme Paving"}
        obj["application"].update({"applicant": "private", "length_ft": 20})
    return obj


def _record(store, fid, raw, today=date(2026, 12, 31)):
    return record_event(store, fid, raw, by="agent@canton.example", today=today, now=NOW, mail_from=FROM)


def _delivered(store, smtp, fid):
    """Deliver the outbox to the real server; what it received for Ann, by Subject."""
    report = deliver(store, smtp_sender(smtp.url))
    assert report.failed == 0, report.errors
    return smtp.to(ANN)


@pytest.fixture
def smtp():
    with smtp_server() as sink:
        yield sink


def test_found_complete_and_found_incomplete_each_reach_the_applicant_with_why_they_got_it(db_url, smtp):
    store = make_store(db_url)
    import_filings(store, [_application("CAN-NOI-2026-A00001")], by="test")
    fid = "CAN-NOI-2026-A00001"
    common = dict(by="agent@canton.example", today=date(2026, 12, 3), now=NOW, mail_from=FROM)
    mark_incomplete(store, fid, day=date(2026, 12, 2), reasons="The plan is not stamped.", **common)
    storekit.append(store, fid, {"type": "submitted", "date": "2026-12-03"}, by="applicant:" + ANN)
    mark_complete(store, fid, day=date(2026, 12, 3), **common)
    incomplete, complete = _delivered(store, smtp, fid)
    assert incomplete["Subject"] == f"Application {fid} is incomplete" and "The plan is not stamped." in body(incomplete)
    assert complete["Subject"] == f"Application {fid} is complete"
    assert "found application CAN-NOI-2026-A00001 complete on Thursday, December 3, 2026" in body(complete)
    for message in (incomplete, complete):
        assert f"Why you got this: you are the applicant named on filing {fid}" in body(message)
    assert [e.kind for e in Outbox(store).entries(filing_id=fid)] == ["found-incomplete", "found-complete"]


def test_a_hearing_put_on_a_meeting_is_emailed_with_its_day_time_and_the_meetings_place_and_so_is_its_continuance(db_url, smtp):
    from services.meetings import continue_hearing, hear_at_meeting, schedule_meeting

    store = make_store(db_url)
    fid = "CAN-NOI-2026-A00002"
    import_filings(store, [_application(fid, "noi", {"type": "filed", "date": "2026-12-01"})], by="test")
    first = schedule_meeting(
        store,
        town="canton",
        starts_at=datetime(2026, 12, 15, 19, 0),
        place="Memorial Hall, 801 Washington Street",
        by="clerk",
        today=date(2026, 12, 1),
    )
    later = schedule_meeting(
        store,
        town="canton",
        starts_at=datetime(2026, 12, 22, 19, 0),
        place="Canton Public Library, 786 Washington Street",
        by="clerk",
        today=date(2026, 12, 1),
    )
    hear_at_meeting(store, first, fid, by="clerk", today=date(2026, 12, 2), now=NOW, mail_from=FROM)
    storekit.append(store, fid, {"type": "hearing-opened", "date": "2026-12-15"}, by="clerk")
    continue_hearing(store, fid, later, day=date(2026, 12, 15), by="clerk", today=date(2026, 12, 15), now=NOW, mail_from=FROM)
    scheduled, continued = _delivered(store, smtp, fid)
    assert scheduled["Subject"] == f"Hearing scheduled: {fid}, Tuesday, December 15, 2026, at 7:00 p.m."
    assert "at Memorial Hall, 801 Washington Street." in body(scheduled)
    assert "was continued to Tuesday, December 22, 2026, at 7:00 p.m., at Canton Public Library" in body(continued)
    assert "Why you got this" in body(continued)


def test_the_decision_goes_with_its_pdf_its_conditions_and_the_sweep_does_not_email_its_notice_again(db_url, smtp, tmp_path):
    from services.sweep_log import StoreOutputLog
    from sweep.dispatch import notice_hook
    from sweep.run import run_sweep
    from sweep.store_source import StoreSource

    store = make_store(db_url)
    fid = "CAN-NOI-2026-A00003"
    heard = [
        {"type": "filed", "date": "2026-12-01"},
        {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"},
        {"type": "hearing-opened", "date": "2026-12-15"},
        {"type": "hearing-closed", "date": "2026-12-15"},
    ]
    import_filings(store, [_application(fid, "noi", *heard)], by="test")
    _record(store, fid, {"type": "permit-issued", "date": "2026-12-18", "conditions": ["Silt fence before any work."]})
    [decision] = _delivered(store, smtp, fid)
    assert decision["Subject"] == f"Order of Conditions issued: {fid}"
    assert "The decision is attached as a PDF" in body(decision) and "1. Silt fence before any work." in body(decision)
    [pdf] = [a for a in decision.iter_attachments() if a.get_content_type() == "application/pdf"]
    assert pdf.get_content().startswith(b"%PDF")

    source = StoreSource(db_url)
    try:  # the sweep makes the permit notice and emails it to those not told yet: Ann was
        as_of = date(2026, 12, 21)
        run_sweep(
            source,
            StoreOutputLog(source.store),
            as_of,
            notice_hook=notice_hook(as_of, email=True, mail_from=FROM),
            out_dir=tmp_path,
        )
    finally:
        source.store.engine.dispose()
    kinds = [(e.kind, e.address) for e in Outbox(store).entries(filing_id=fid)]
    assert kinds == [("decision-issued", ANN)]


def test_a_certificate_of_compliance_is_emailed_with_the_certificate(db_url, smtp):
    store = make_store(db_url)
    fid = "CAN-NOI-2026-A00004"
    heard = [
        {"type": "filed", "date": "2026-12-01"},
        {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"},
        {"type": "hearing-opened", "date": "2026-12-15"},
        {"type": "hearing-closed", "date": "2026-12-15"},
        {"type": "permit-issued", "date": "2026-12-16"},
        {"type": "certificate-requested", "date": "2026-12-21", "requested_by": "Ann Lee", "scope": "complete"},
    ]
    import_filings(store, [_application(fid, "noi", *heard)], by="test")
    _record(store, fid, {"type": "certificate-issued", "date": "2026-12-28", "scope": "complete"})
    [message] = _delivered(store, smtp, fid)
    assert message["Subject"].endswith(fid) and "Certificate" in message["Subject"]
    assert "on Monday, December 28, 2026" in body(message) and "Why you got this" in body(message)


def test_a_street_openings_applicant_hears_of_the_permit_an_inspection_and_the_deposit_refunded(db_url, smtp):
    store = make_store(db_url)
    fid = "CAN-SOP-2026-A00005"
    import_filings(
        store,
        [_application(fid, "street-opening", {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "20264812345"})],
        by="test",
    )
    steps = [
        {"type": "filed", "date": "2026-12-01"},
        # the $500.00 deposit of a private 20-foot trench, received: the Town holds what it refunds
        {
            "type": "payment-received",
            "date": "2026-12-01",
            "amount": "500.00",
            "method": "check",
            "reference": "5",
            "toward": "deposit",
        },
        {"type": "permit-issued", "date": "2026-12-01"},
        {"type": "excavation-started", "date": "2026-12-01"},
        {"type": "backfilled", "date": "2026-12-02", "material": "gravel"},
        {"type": "permanent-patch-placed", "date": "2026-12-02"},
        {
            "type": "inspected",
            "date": "2026-12-03",
            "stage": "permanent-patch",
            "result": "fail",
            "defect": "Patch below grade.",
            "reinspect": "2026-12-07",
        },
        {"type": "inspected", "date": "2026-12-07", "stage": "permanent-patch", "result": "pass"},
        {"type": "deposit-refunded", "date": "2026-12-08", "amount": "450.00", "held_back": "50.00", "reason": "curb chipped"},
    ]
    for raw in steps:
        _record(store, fid, raw)
    got = {m["Subject"]: body(m) for m in _delivered(store, smtp, fid)}
    assert set(got) == {
        f"Application {fid} is complete",
        f"Street Opening Permit issued: {fid}",
        f"Inspection failed: {fid}",
        f"Inspection passed: {fid}",
        f"Deposit refunded: {fid}",
    }, sorted(got)
    assert "What must be put right: Patch below grade." in got[f"Inspection failed: {fid}"]
    assert "Reinspection: Monday, December 7, 2026." in got[f"Inspection failed: {fid}"]
    refund = got[f"Deposit refunded: {fid}"]
    assert "refunded the deposit $450.00" in refund and "Held back: $50.00 (curb chipped)." in refund
    assert all(f"Why you got this: you are the applicant named on filing {fid}" in text for text in got.values())


def test_permits_record_on_the_command_line_sends_the_same_word(db_url, smtp, capsys, monkeypatch):
    store = make_store(db_url)
    fid = "CAN-NOI-2026-A00006"
    import_filings(store, [_application(fid)], by="test")
    monkeypatch.setenv("PERMITS_MAIL_FROM", FROM)
    argv = ["record", fid, "filed", "--date", "2026-12-03", "--as-of", "2026-12-03", "--db", db_url]
    assert main(argv) == 0, capsys.readouterr().err
    [message] = _delivered(store, smtp, fid)
    assert message["Subject"] == f"Application {fid} is complete" and "Why you got this" in body(message)


def test_a_paper_filings_filed_event_sends_no_found_complete(db_url, smtp):
    store = make_store(db_url)
    fid = "CAN-NOI-2026-A00007"
    paper = _application(fid)
    paper["events"] = [{"type": "filed", "date": "2026-12-01", "complete": False}]
    del paper["application"]
    import_filings(store, [paper], by="test")
    _record(store, fid, {"type": "deemed-complete", "date": "2026-12-02"})
    assert Outbox(store).entries(filing_id=fid) == []
