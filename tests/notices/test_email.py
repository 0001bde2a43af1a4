"""Notices and reminders to applicants and owners by email, through a real
SMTP server the test starts (aiosmtpd on 127.0.0.1): the message, its
recipient and its PDF; a sweep run twice sends once; a crash between
sending and recording sends again (at least once, same Message-ID); with no
PERMITS_SMTP_URL nothing is sent and the outbox waits in the store."""

import copy
import socket
from datetime import date
from email import message_from_bytes
from email.policy import default

import pytest
from aiosmtpd.controller import Controller

from cli.main import main
from models.handle import Store
from models.read.outbox import Outbox
from notices.email import EMAIL_NOTICES
from notices.smtp import smtp_sender
from services.database import upgrade_store
from services.imports import import_filings
from services.mail import deliver
from sweep.dispatch import notice_hook
from sweep.run import run_sweep
from sweep.store_source import StoreSource
from workflows.written import day_written

SMTP_ENV = "PERMITS_SMTP_URL"
AS_OF = date(2026, 12, 21)
ADDR = {"street": "200 Turnpike St", "city": "Canton", "state": "MA", "zip": "02021"}

DECIDED = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-2026-050",
    "site": {"address": "40 Washington St", "parcel": "12-033"},
    "applicant": {"name": "Neponset Builders LLC", "address": ADDR, "email": "Builder@Example.org"},
    "owner": {
        "name": "Margaret Owens",
        "address": {**ADDR, "street": "40 Washington St"},
        "email": "owner@example.org",
    },
    "project": {"description": "a single-family house within the 100-foot buffer zone"},
    "conditions": ["Erosion controls installed before any work."],
    "events": [
        {"type": "filed", "date": "2026-12-01"},
        {"type": "boards-notified", "date": "2026-12-01"},
        {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"},
        {"type": "abutters-notified", "date": "2026-12-03"},
        {"type": "notice-published", "date": "2026-12-07"},
        {"type": "notice-posted", "at": "2026-12-10T09:00"},
        {"type": "hearing-opened", "date": "2026-12-15"},
        {"type": "hearing-closed", "date": "2026-12-15"},
        {"type": "permit-issued", "date": "2026-12-18"},
    ],
}


class Sink:
    def __init__(self):
        self.received = []

    async def handle_DATA(self, server, session, envelope):
        self.received.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content, policy=default)))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp():
    sink = Sink()
    port = _free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    sink.url = f"smtp://127.0.0.1:{port}"
    try:
        yield sink
    finally:
        controller.stop()


def _store(url, *filings):
    store = Store(url)
    upgrade_store(store)
    import_filings(store, list(filings), by="test")
    return store


def _sweep(url, out):
    source = StoreSource(url)
    try:
        from services.sweep_log import StoreOutputLog

        return run_sweep(
            source,
            StoreOutputLog(source.store),
            AS_OF,
            notice_hook=notice_hook(AS_OF, email=True, mail_from="permits@localhost"),
            out_dir=out,
        )
    finally:
        source.store.engine.dispose()


def test_a_permit_goes_to_applicant_and_owner_by_email_with_its_pdf_and_a_second_sweep_sends_nothing(db_url, smtp, tmp_path):
    store = _store(db_url, DECIDED)
    _sweep(db_url, tmp_path / "one")
    report = deliver(store, smtp_sender(smtp.url))
    assert report.sent == 2 and report.failed == 0
    by_rcpt = {tuple(r): m for r, m in smtp.received}
    assert set(by_rcpt) == {("builder@example.org",), ("owner@example.org",)}
    msg = by_rcpt[("builder@example.org",)]
    assert msg["To"] == "builder@example.org"
    assert msg["Subject"] == "Permit / Order of Conditions: CAN-NOI-2026-050"
    assert "as the applicant named on filing CAN-NOI-2026-050" in msg.get_body(("plain",)).get_content()
    [attachment] = list(msg.iter_attachments())
    assert attachment.get_filename() == "CAN-NOI-2026-050-permit.pdf"
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_content().startswith(b"%PDF-")

    _sweep(db_url, tmp_path / "two")
    again = deliver(store, smtp_sender(smtp.url))
    assert again.sent == 0 and len(smtp.received) == 2
    entries = Outbox(store).entries(pending_only=True)
    assert entries == [] and {e.status for e in Outbox(store).entries(pending_only=False)} == {"sent"}
    store.engine.dispose()


def test_paper_only_notices_are_never_emailed(db_url, smtp, tmp_path):
    pending = copy.deepcopy(DECIDED)
    pending["id"] = "CAN-NOI-2026-051"
    pending["events"] = pending["events"][:3]  # hearing scheduled: legal notice and posting due, on paper
    store = _store(db_url, pending)
    result = _sweep(db_url, tmp_path / "out")
    assert result.counts()["notices_made"] >= 1
    assert Outbox(store).entries(pending_only=False) == []
    assert not {"abutter-notice", "legal-notice", "hearing-posting", "board-memo", "affidavit-of-service"} & EMAIL_NOTICES
    store.engine.dispose()


def test_a_crash_after_the_server_took_a_message_sends_it_again_with_the_same_message_id(db_url, smtp, tmp_path):
    store = _store(db_url, DECIDED)
    _sweep(db_url, tmp_path / "out")
    real = smtp_sender(smtp.url)

    def send_then_die(address, message):
        real(address, message)
        raise SystemExit("the process died before recording the send")

    with pytest.raises(SystemExit):
        deliver(store, send_then_die)
    assert len(smtp.received) == 1
    assert len(Outbox(store).entries(pending_only=True)) == 2  # both still waiting: the send was not recorded
    report = deliver(store, real)
    assert report.sent == 2
    first, *rest = smtp.received
    repeat = [m for r, m in rest if r == first[0]]
    assert len(repeat) == 1 and repeat[0]["Message-ID"] == first[1]["Message-ID"]
    assert Outbox(store).entries(pending_only=True) == []
    store.engine.dispose()


def test_a_refusing_server_is_a_recorded_try_and_the_message_waits(db_url, tmp_path):
    store = _store(db_url, DECIDED)
    _sweep(db_url, tmp_path / "out")
    closed = f"smtp://127.0.0.1:{_free_port()}"  # nothing listens there
    report = deliver(store, smtp_sender(closed, timeout=2))
    assert report.sent == 0 and report.failed == 2
    waiting = Outbox(store).entries(pending_only=True)
    assert len(waiting) == 2 and {e.status for e in waiting} == {"retrying"}
    assert all("Connection" in e.last_error or "refused" in e.last_error.lower() for e in waiting)
    store.engine.dispose()


def test_an_applicants_renewal_deadline_seven_days_out_is_emailed_once(db_url, smtp, tmp_path):
    renewing = copy.deepcopy(DECIDED)
    renewing["id"] = "CAN-NOI-2023-007"
    renewing["owner"] = renewing["applicant"]
    renewing["events"] = [
        {"type": "filed", "date": "2023-11-01"},
        {"type": "hearing-opened", "date": "2023-11-14"},
        {"type": "hearing-closed", "date": "2023-11-14"},
        {"type": "permit-issued", "date": "2023-12-28"},
        # in effect in 2024, the Order would run two years longer under St. 2024
        # c.238 §280; the holder declined, so its renewal falls due now
        {"type": "act-not-applied", "date": "2024-01-05", "act": "pea-2024", "reason": "the holder's election"},
    ]
    store = _store(db_url, renewing)
    clock = next(c for c in store.replay("CAN-NOI-2023-007", AS_OF).clocks if c.id == "renewal-request")
    assert 0 <= (clock.date - AS_OF).days <= 7, clock
    _sweep(db_url, tmp_path / "one")
    _sweep(db_url, tmp_path / "two")
    deliver(store, smtp_sender(smtp.url))
    reminders = [m for r, m in smtp.received if m["Subject"].startswith("Reminder:")]
    assert len(reminders) == 1
    assert reminders[0]["To"] == "builder@example.org"
    assert f"by {day_written(clock.date)}" in reminders[0]["Subject"]  # people's words (issue 32)
    body = reminders[0].get_body(("plain",)).get_content()
    assert clock.rule in body
    counted = body.split("How the date was counted: ")[1]  # in words: no event id, no ISO day, no "(event N)"
    assert "(event " not in counted and clock.date.isoformat() not in counted, counted
    assert f"on or before {day_written(clock.date)}" in counted, counted
    store.engine.dispose()


def _sweep_command(url: str, out):
    """The sweep as ``permits sweep --no-prefect`` runs it, with the
    environment's settings (the SMTP server among them)."""
    import config
    from services.sweep import run_sweep

    return run_sweep(AS_OF, url, str(out), config.load(), use_prefect=False)


def test_without_an_smtp_url_nothing_is_sent_and_staff_see_the_outbox(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(SMTP_ENV, raising=False)
    url = f"sqlite:///{tmp_path / 'p.db'}"
    _store(url, DECIDED).engine.dispose()
    res = _sweep_command(url, tmp_path / "out")
    assert res["email"] is None
    assert main(["outbox", "--db", url]) == 0
    out = capsys.readouterr().out
    assert out.count("queued") == 2 and "to builder@example.org" in out and "to owner@example.org" in out
    assert f"{SMTP_ENV} is not set" in out
    assert main(["outbox", "--db", url, "--send"]) == 2
    assert f"{SMTP_ENV} is not set" in capsys.readouterr().err


def test_the_sweep_command_delivers_when_an_smtp_url_is_set(tmp_path, monkeypatch, smtp, capsys):
    monkeypatch.setenv(SMTP_ENV, smtp.url)
    url = f"sqlite:///{tmp_path / 'p.db'}"
    _store(url, DECIDED).engine.dispose()
    res = _sweep_command(url, tmp_path / "out")
    assert res["email"].sent == 2 and len(smtp.received) == 2
    res = _sweep_command(url, tmp_path / "out2")
    assert res["email"].sent == 0 and len(smtp.received) == 2
    assert main(["outbox", "--db", url, "--all"]) == 0
    assert capsys.readouterr().out.count(" sent ") == 2


def test_an_emails_date_header_names_the_towns_offset_not_an_unknown_zone():
    from datetime import datetime

    from notices.email import build_message

    raw = build_message(sender="a@example.org", to="b@example.org", subject="s", body="b", dated=datetime(2026, 12, 1, 11, 54))
    assert b"Date: Tue, 01 Dec 2026 11:54:00 -0500" in raw
    raw = build_message(sender="a@example.org", to="b@example.org", subject="s", body="b", dated=datetime(2026, 7, 1, 11, 54))
    assert b"Date: Wed, 01 Jul 2026 11:54:00 -0400" in raw
