"""Inviting someone to follow a filing is one action (services/invite.py):
``permits invite`` and the filing page's form write the invitation and
queue its email in one transaction, with the same words; an invitation
refused writes neither."""

import re
from email import message_from_bytes
from email.policy import default

from storekit import snapshot
from webkit import client, login

from cli.main import main
from models.read.outbox import Outbox

FID = "CAN-NOI-2026-001"


def _mail(store):
    outbox = Outbox(store)
    [entry] = outbox.entries(filing_id=FID)
    message = message_from_bytes(outbox.message(entry.id), policy=default)
    body = message.get_body(("plain",)).get_content()
    link = re.search(r"(https?://\S+/invitation/)(\S+)", body)
    return entry.kind, entry.address, message["Subject"], body.replace(link.group(2), "TOKEN"), link.group(1)


def test_the_cli_and_the_web_invite_with_the_same_email_and_its_link_works(store, capsys, tmp_path, monkeypatch):
    import shutil

    # both take the link's start from PERMITS_BASE_URL (the web never from the request's host)
    monkeypatch.setenv("PERMITS_BASE_URL", "https://permits.canton.example/")
    from models.handle import Store

    shutil.copy(store.url.removeprefix("sqlite:///"), tmp_path / "cli.db")
    by_cli = Store(f"sqlite:///{tmp_path / 'cli.db'}")
    argv = [
        "invite",
        FID,
        "Owner@Example.org",
        "--db",
        by_cli.url,
        "--by",
        "agent@canton.example",
    ]
    assert main(argv) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    agent = client(store)
    token = login(agent, "canton-agent")
    assert agent.post(f"/filings/{FID}/invite", data={"csrf": token, "email": "Owner@Example.org"}).status_code == 303
    cli_mail, web_mail = _mail(by_cli), _mail(store)
    assert cli_mail == web_mail
    kind, address, subject, _, base = web_mail
    assert (kind, address, subject, base) == (
        "invitation",
        "owner@example.org",
        f"Follow filing {FID} online",
        "https://permits.canton.example/invitation/",
    )
    link = re.search(r"https://permits\.canton\.example(/invitation/\S+)", printed).group(1)
    assert client(by_cli).get(link).status_code == 200
    by_cli.engine.dispose()


def test_an_invitation_refused_writes_no_invitation_and_no_email(store, capsys):
    agent = client(store)
    token = login(agent, "canton-agent")  # logging in writes its session: before the snapshot
    before = snapshot(store.url)
    assert main(["invite", FID, "not-an-address", "--db", store.url]) == 2
    assert main(["invite", "CAN-NOI-1999-404", "ann@example.org", "--db", store.url]) == 2
    r = agent.post(f"/filings/{FID}/invite", data={"csrf": token, "email": "not-an-address"})
    assert r.status_code == 422
    assert snapshot(store.url) == before
