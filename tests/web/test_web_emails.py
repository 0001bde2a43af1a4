"""The admins' Emails page (web/staff/emails.py) and ``permits outbox show
ID``: every email queued, newest first, narrowed to a filing or an
address; each readable, its headers and whether it was sent in words, its
body as text with its links, its attachments named; admins only (404 for
other staff, an applicant sent to their own pages)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from webkit import client, login

from cli.main import main
from models.read.outbox import Outbox
from notices.email import build_message, notice_emails
from notices.outbox_words import body_parts, size_words, status_words
from services.accounts import register
from services.mail import deliver
from workflows.filing import parse_filing

NOW = datetime(2026, 12, 3, 11, 54)
PDF = b"%PDF-1.7\n" + b"0" * 3000 + b"\n%%EOF\n"


def _queue(store, filing_id, emails):
    """Emails queued as a service queues them (one unit of work)."""
    from models.store.outbox import queue_emails
    from services.unit_of_work import UnitOfWork

    with UnitOfWork(store) as uow:
        return queue_emails(uow.conn, filing_id, emails, store.now())


@pytest.fixture
def mailed(store):
    """The web kit's store with a registration's email (no filing), a
    decision's email with its PDF on CAN-NOI-2026-001, sent, and one the
    server refused twice."""
    register(
        store,
        "ann.lee@example.org",
        "correct horse battery",
        base_url="http://127.0.0.1:8123",
        now=NOW,
        mail_from="permits@localhost",
    )
    filing = parse_filing(
        {
            "town": "canton",
            "kind": "noi",
            "id": "CAN-NOI-2026-001",
            "applicant": {"name": "Neponset Builders LLC", "email": "builder@example.org"},
            "events": [{"type": "filed", "date": "2026-12-01"}],
        }
    )
    [decision] = notice_emails(filing, "permit", "Order of Conditions", "order.pdf", PDF, NOW, mail_from="permits@localhost")
    refused = {
        "kind": "reminder",
        "recipient": "owner",
        "address": "owner@example.org",
        "message": build_message(
            sender="permits@localhost", to="owner@example.org", subject="A reminder", body="Soon.", dated=NOW
        ),
    }
    [sent_id, refused_id] = _queue(store, "CAN-NOI-2026-001", [decision, refused])
    deliver(store, lambda address, message: None, ids=[sent_id])

    def refuse(address, message):
        raise ConnectionRefusedError("550 mailbox unavailable")

    for _ in range(2):
        deliver(store, refuse, ids=[refused_id])
    return store, sent_id, refused_id


def _rows(page: str) -> list[str]:
    return re.findall(r'<tr data-email="(\d+)">', page)


def test_only_an_admin_reads_the_emails(mailed, web):
    store, sent_id, _ = mailed
    for who in ("canton-agent", "canton-dpw"):
        c = client(store)
        login(c, who)
        assert c.get("/emails").status_code == 404 and c.get(f"/emails/{sent_id}").status_code == 404
        assert 'href="/emails"' not in c.get("/today").text
    assert web.get("/emails").status_code == 303  # a stranger logs in first
    login(web, "admin")
    assert web.get("/emails").status_code == 200 and 'href="/emails"' in web.get("/today").text


def test_the_list_is_newest_first_and_narrows_to_a_filing_or_an_address(mailed, web):
    store, sent_id, refused_id = mailed
    login(web, "admin")
    page = web.get("/emails").text
    assert _rows(page) == [str(refused_id), str(sent_id), "1"]
    assert "Finish your registration" in page and "an account's own" in page
    assert _rows(web.get("/emails", params={"filing": "CAN-NOI-2026-001"}).text) == [str(refused_id), str(sent_id)]
    assert _rows(web.get("/emails", params={"address": "ANN.LEE"}).text) == ["1"]
    assert _rows(web.get("/emails", params={"address": "%"}).text) == []  # a wildcard is a character
    refused = web.get("/emails", params={"filing": "../etc"})
    assert refused.status_code == 200 and "is not a filing number" in refused.text and len(_rows(refused.text)) == 3


def test_the_list_goes_on_to_older_emails(mailed, web, monkeypatch):
    import models.read.outbox as outbox

    store, sent_id, refused_id = mailed
    login(web, "admin")
    monkeypatch.setattr(outbox, "PAGE", 2)
    first = web.get("/emails").text
    assert _rows(first) == [str(refused_id), str(sent_id)]
    older = re.search(r'href="(/emails\?before=\d+)"', first).group(1)
    assert _rows(web.get(older).text) == ["1"]


def test_an_email_reads_in_words_with_its_links_and_attachments(mailed, web):
    store, sent_id, refused_id = mailed
    login(web, "admin")
    page = web.get("/emails/1").text
    assert "Finish your registration" in page and "Thursday, December 3, 2026, 11:54 a.m." in page
    assert re.search(r'<a href="http://127\.0\.0\.1:8123/confirm/[A-Za-z0-9_-]+">', page)
    assert "Waiting: no mail server is set" in page
    decision = web.get(f"/emails/{sent_id}").text
    assert re.search(r"Sent \w+day, \w+ \d+, \d{4}, \d+:\d\d [ap]\.m\.", decision)
    assert "order.pdf (3 KB)" in decision and 'href="/filings/CAN-NOI-2026-001"' in decision
    refused = web.get(f"/emails/{refused_id}").text
    assert "Not sent yet: 2 tries so far; the mail server answered: 550 mailbox unavailable" in refused
    assert "ConnectionRefusedError" not in refused
    for missing in ("999", "0", "x", "99999999999999999999999"):
        assert web.get(f"/emails/{missing}").status_code == 404


def test_the_words_of_an_emails_state_and_body():
    class Entry:
        status, attempts, last_error, sent_at = "failed", 5, "SMTPRecipientsRefused: 550 no such user", None

    assert status_words(Entry, "America/New_York", mail_server=True) == (
        "Not sent: given up after 5 tries; the mail server answered: 550 no such user"
    )
    assert body_parts("Open https://x.example/confirm/abc.\r\nThen log in.") == [
        ("Open ", False),
        ("https://x.example/confirm/abc", True),
        (".\nThen log in.", False),
    ]
    assert body_parts("no link") == [("no link", False)]
    assert [size_words(n) for n in (10, 3000, 5 * 1024 * 1024)] == ["10 bytes", "3 KB", "5.0 MB"]


def test_permits_outbox_show_prints_one_email_in_words(mailed, capsys):
    store, sent_id, refused_id = mailed
    assert main(["outbox", "show", str(sent_id), "--db", store.url]) == 0
    out = capsys.readouterr().out
    assert "To:       builder@example.org" in out and "Attached: order.pdf (3 KB)" in out and "Filing:   CAN-NOI-2026-001" in out
    assert re.search(r"^Sent\?     Sent \w+day, ", out, re.M)
    assert "the attached order of conditions" in out
    assert main(["outbox", "show", "999", "--db", store.url]) == 2
    assert "no email 999" in capsys.readouterr().err
    assert main(["outbox", "show", "--db", store.url]) == 2
    assert main(["outbox", "show", str(sent_id), "--all", "--db", store.url]) == 2
    assert main(["outbox", "12", "--db", store.url]) == 2  # an email is read with show
    assert "invalid choice: '12'" in capsys.readouterr().err
    assert Outbox(store).readable(10**6) is None
