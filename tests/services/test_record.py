"""Recording an event is one action, whichever interface asks
(services/record.py): ``permits record ... found-incomplete`` and the
workbench's "incomplete" form record the same event and queue the same
email to the applicant, in the transaction that records it; "mark complete"
is held to today on the web as on the command line; a street opening's
online application gives its ``filed`` event the applicant's type and the
length of the opening however it is found complete.  On SQLite and
PostgreSQL."""

from email import message_from_bytes
from email.policy import default

from storekit import snapshot
from webkit import TODAY, client, login, make_store

from cli.main import main
from models.read.outbox import Outbox
from services.imports import import_filings

AS_OF = TODAY.isoformat()
APPLICATION = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-2026-A0C0FE",
    "address": "12 Elm St",
    "parcel": "12-034",
    "site": {"address": "12 Elm St", "parcel": "12-034"},
    "project": {"description": "a deck within the buffer zone"},
    "applicant": {
        "name": "Ann Lee",
        "address": {"street": "12 Elm St", "city": "Canton", "state": "MA", "zip": "02021"},
        "email": "ann@example.org",
    },
    "owner": {"name": "Ann Lee", "address": {"street": "12 Elm St", "city": "Canton", "state": "MA", "zip": "02021"}},
    "application": {"online": True, "owner_consent": True, "submitted_by": "ann@example.org"},
    "events": [{"type": "submitted", "date": "2026-12-01"}],
}
STREET_APPLICATION = {
    "town": "canton",
    "kind": "street-opening",
    "id": "CAN-SOP-2026-A0BEEF",
    "address": "40 Pleasant St",
    "applicant": {
        "name": "Eversource",
        "address": {"street": "1 NStar Way", "city": "Westwood", "state": "MA", "zip": "02090"},
        "email": "permits@eversource.example",
    },
    "contractor": {"name": "Acme Paving"},
    "application": {"online": True, "owner_consent": True, "applicant": "utility", "length_ft": 45},
    "events": [
        {"type": "submitted", "date": "2026-12-01"},
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "20264812345"},
    ],
}
REASONS = "The plan is not stamped by a registered engineer."


def _store_with(url, filing):
    store = make_store(url)
    import_filings(store, [filing], by="applicant:ann@example.org")
    return store


def _events(store, fid):
    return [(h["seq"], h["type"], h["date"], h["raw"]) for h in store.history(fid)]


def _emails(store, fid):
    """Each queued email as what the applicant reads: who, which notice,
    the subject and the body (the Date and Message-ID differ by nature)."""
    outbox = Outbox(store)
    out = []
    for e in outbox.entries(filing_id=fid):
        message = message_from_bytes(outbox.message(e.id), policy=default)
        out.append((e.kind, e.address, e.status, message["To"], message["Subject"], message.get_body(("plain",)).get_content()))
    return out


def _seq(page: str) -> str:
    import re

    return re.search(r'name="seq" value="(\d+)"', page).group(1)


def test_found_incomplete_through_the_cli_and_the_web_records_the_same_event_and_queues_the_same_email(
    db_url, second_url, capsys
):
    by_cli, by_web = _store_with(db_url, APPLICATION), _store_with(second_url, APPLICATION)
    fid = APPLICATION["id"]
    argv = ["record", fid, "found-incomplete", "--date", AS_OF, f"reasons={REASONS}", "--as-of", AS_OF, "--db", db_url]
    assert main(argv) == 0, capsys.readouterr().err
    agent = client(by_web)
    token = login(agent, "canton-agent")
    r = agent.post(
        f"/filings/{fid}/incomplete",
        data={"csrf": token, "seq": _seq(agent.get(f"/filings/{fid}").text), "date": AS_OF, "reasons": REASONS},
    )
    assert r.status_code == 303, r.text
    assert _events(by_cli, fid) == _events(by_web, fid)
    assert _events(by_cli, fid)[-1][1:] == (
        "found-incomplete",
        TODAY,
        {"type": "found-incomplete", "date": AS_OF, "reasons": REASONS},
    )
    [cli_mail] = _emails(by_cli, fid)
    assert _emails(by_web, fid) == [cli_mail]
    kind, address, status, to, subject, body = cli_mail
    assert (kind, address, status, to) == ("found-incomplete", "ann@example.org", "queued", "ann@example.org")
    assert subject == f"Application {fid} is incomplete" and REASONS in body
    by_cli.engine.dispose()
    by_web.engine.dispose()


def test_a_refused_found_incomplete_writes_neither_the_event_nor_the_email(db_url, capsys):
    store = _store_with(db_url, APPLICATION)
    before = snapshot(db_url)
    argv = ["record", APPLICATION["id"], "found-incomplete", "--date", AS_OF, "--as-of", AS_OF, "--db", db_url]
    assert main(argv) == 2  # no reasons: the applicant would not know what to put right
    assert snapshot(db_url) == before
    store.engine.dispose()


def test_mark_complete_on_a_day_after_today_is_refused_on_the_web_as_on_the_command_line(db_url, capsys):
    store = _store_with(db_url, APPLICATION)
    fid = APPLICATION["id"]
    agent = client(store)
    token = login(agent, "canton-agent")  # logging in writes its session: before the snapshot
    before = snapshot(db_url)
    r = agent.post(f"/filings/{fid}/complete", data={"csrf": token, "seq": "1", "date": "2099-01-05"})
    assert r.status_code == 422  # the same refusal, in people's words on the page (issue 32)
    assert "dated Monday, January 5, 2099 has not happened yet (today is Thursday, December 3, 2026)" in r.text
    assert main(["record", fid, "filed", "--date", "2099-01-05", "--as-of", AS_OF, "--db", db_url]) == 2
    assert "dated 2099-01-05 is after 2026-12-03" in capsys.readouterr().err
    assert snapshot(db_url) == before
    r = agent.post(f"/filings/{fid}/complete", data={"csrf": token, "seq": "1", "date": AS_OF})
    assert r.status_code == 303
    assert _events(store, fid)[-1][1:3] == ("filed", TODAY)
    store.engine.dispose()


def test_a_street_opening_found_complete_gets_its_applicant_type_and_length_by_either_interface(db_url, second_url, capsys):
    web_store = _store_with(second_url, STREET_APPLICATION)
    cli_store = _store_with(db_url, STREET_APPLICATION)
    fid = STREET_APPLICATION["id"]
    assert main(["record", fid, "filed", "--date", AS_OF, "--as-of", AS_OF, "--db", db_url]) == 0, capsys.readouterr().err
    dpw = client(web_store)
    token = login(dpw, "canton-dpw")
    assert dpw.post(f"/filings/{fid}/complete", data={"csrf": token, "seq": "2", "date": AS_OF}).status_code == 303
    filed = {"type": "filed", "date": AS_OF, "applicant": "utility", "length_ft": 45}
    assert _events(cli_store, fid)[-1][3] == filed == _events(web_store, fid)[-1][3]
    web_store.engine.dispose()
    cli_store.engine.dispose()


def test_complete_or_incomplete_of_a_filing_not_waiting_to_be_checked_is_refused_naming_its_state(db_url):
    store = _store_with(db_url, APPLICATION)
    agent = client(store)
    token = login(agent, "canton-agent")
    assert agent.post("/filings/CAN-NOI-2026-001/complete", data={"csrf": token, "seq": "2"}).status_code == 422
    r = agent.post("/filings/CAN-NOI-2026-001/incomplete", data={"csrf": token, "seq": "2", "reasons": "x"})
    assert r.status_code == 422 and "CAN-NOI-2026-001 is not an application waiting to be checked: it is Filed" in r.text
    store.engine.dispose()
