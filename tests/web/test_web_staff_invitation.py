"""Staff accounts by invitation (issue 32, item 6): an admin invites a
member of staff by email with their name, title, role and towns (the Users
page, ``permits users invite``); the account opens nothing until the
person follows the single-use link and chooses their own password; a
temporary password an admin sets, or types when adding a user, is changed
at the next login before any other page opens.  Names and titles are shown
on the Users page and in the page's header (the letters' signers are the
town's declared offices, not these columns)."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
import storekit
from storekit import snapshot
from webkit import PASSWORD, USERS, client, csrf_of, emailed_link, login

from cli.main import main
from models.accounts.account_links import AccountLinks
from models.errors import LinkRefused, LoginRefused

NEW = "kim.ortiz@canton.example"
THEIRS = "a passphrase of kims own"
INVITE = {"email": NEW, "full_name": "Kim Ortiz", "title": "Conservation Agent", "role": "agent", "town": "canton"}


def _invite(admin, token, **changes):
    return admin.post("/users/invite", data={"csrf": token, **INVITE, **changes})


def _row(page: str, email: str) -> str:
    return re.search(rf'<tr data-email="{re.escape(email)}">(.*?)</tr>', page, re.S).group(1)


def _log_in(c, email: str, password: str):
    return c.post("/login", data={"csrf": csrf_of(c.get("/login").text), "email": email, "password": password, "next": "/today"})


def test_an_invited_member_of_staff_chooses_a_password_from_the_link_and_logs_in(store):
    admin = client(store)
    token = login(admin, "admin")
    r = _invite(admin, token)
    assert r.status_code == 200 and f"An invitation was emailed to {NEW}" in r.text and "Emails page" in r.text
    row = _row(admin.get("/users").text, NEW)
    assert "Kim Ortiz" in row and "Conservation Agent" in row and "invited, not joined yet" in row
    assert "Send the invitation again" in row
    with pytest.raises(LoginRefused):  # nobody's password yet
        storekit.users(store).authenticate(NEW, PASSWORD)

    link = emailed_link(store, NEW, "/welcome/")
    kim = client(store)
    page = kim.get(link)
    assert page.status_code == 200 and NEW in page.text
    short = kim.post(link, data={"csrf": csrf_of(page.text), "new": "short", "new2": "short"})
    assert short.status_code == 422 and "too short" in short.text
    differ = kim.post(link, data={"csrf": csrf_of(page.text), "new": THEIRS, "new2": THEIRS + "!"})
    assert differ.status_code == 422
    joined = kim.post(link, data={"csrf": csrf_of(page.text), "new": THEIRS, "new2": THEIRS})
    assert joined.status_code == 303 and joined.headers["location"] == "/today"
    today = kim.get("/today")
    assert today.status_code == 200 and "Kim Ortiz (agent: canton)" in today.text
    assert kim.get(link).status_code == 410  # single use
    assert (
        kim.post(link, data={"csrf": csrf_of(today.text), "new": "another passphrase", "new2": "another passphrase"}).status_code
        == 410
    )

    other = client(store)
    assert _log_in(other, NEW, THEIRS).headers["location"] == "/today"
    row = _row(admin.get("/users").text, NEW)
    assert "active" in row and "invited" not in row


def test_an_invitation_is_refused_in_words_and_writes_nothing(store):
    admin = client(store)
    token = login(admin, "admin")
    before = snapshot(store.url)
    for changes, words in (
        ({"email": USERS["canton-agent"][0]}, "already exists"),
        ({"full_name": ""}, "give the person's full name"),
        ({"email": "not an address"}, "invalid email"),
        ({"town": ""}, "at least one town"),
        ({"town": "boston"}, "unknown town"),
        ({"full_name": "x" * 101}, "at most 100 characters"),
        ({"title": "a\x07b"}, "characters no name has"),
    ):
        r = _invite(admin, token, **changes)
        assert r.status_code == 422 and words in html.unescape(r.text), changes
    assert snapshot(store.url) == before


@pytest.mark.parametrize("who", ["canton-agent", "canton-dpw", "applicant", "anonymous"])
def test_only_an_admin_invites_staff(store, who):
    from webkit import register

    c = client(store)
    if who == "applicant":
        token = register(c, "ann@example.org", store)
    elif who == "anonymous":
        token = csrf_of(c.get("/login").text)
    else:
        token = login(c, who)
    before = snapshot(store.url)
    r = _invite(c, token, role="admin", town="")
    if who == "anonymous":
        assert r.status_code == 303 and r.headers["location"].startswith("/login")
    elif who == "applicant":  # an applicant on a staff page is sent to their own (web/auth.py)
        assert r.status_code == 303 and r.headers["location"] == "/my"
    else:
        assert r.status_code == 404
        assert c.get("/users").status_code == 404
    assert snapshot(store.url) == before
    refused = client(store).get("/welcome/" + "x" * 43)
    assert refused.status_code == 410 and "not valid. Ask whoever invited you to send it again" in html.unescape(refused.text)


def test_an_invitation_sent_again_makes_a_new_link_and_the_first_one_used_spends_both(store):
    admin = client(store)
    token = login(admin, "admin")
    _invite(admin, token)
    first = emailed_link(store, NEW, "/welcome/")
    again = admin.post("/users/invite-again", data={"csrf": token, "email": NEW})
    assert again.status_code == 200 and "An invitation was emailed" in again.text
    second = emailed_link(store, NEW, "/welcome/")
    assert second != first
    kim = client(store)
    page = kim.get(second)
    assert kim.post(second, data={"csrf": csrf_of(page.text), "new": THEIRS, "new2": THEIRS}).status_code == 303
    assert client(store).get(first).status_code == 410
    refused = admin.post("/users/invite-again", data={"csrf": token, "email": NEW})
    assert refused.status_code == 422 and "joined already" in refused.text
    assert _invite(admin, token).status_code == 422  # an account by now


def test_an_invitations_link_expires_after_a_week(store):
    from services.users import invite_staff

    invite_staff(
        store,
        NEW,
        "Kim Ortiz",
        "",
        "agent",
        ["canton"],
        by="Jordan Lee",
        base_url="http://x",
        now=datetime(2026, 12, 3),
        mail_from="p@x.example",
    )
    token = emailed_link(store, NEW, "/welcome/").rsplit("/", 1)[1]
    later = AccountLinks(store.engine, now=lambda: datetime.now(UTC) + timedelta(days=7, minutes=1))
    with pytest.raises(LinkRefused, match="expired"):
        later.live(token, "invite")
    assert AccountLinks(store.engine).live(token, "invite").email == NEW


def test_the_invitations_email_names_the_person_who_invites_and_the_work(store):
    from email import message_from_bytes
    from email.policy import default

    from models.read.outbox import Outbox

    admin = client(store)
    token = login(admin, "admin")
    admin.post(
        "/users/person",
        data={"csrf": token, "email": USERS["admin"][0], "full_name": "Jordan Lee", "title": "Permits Administrator"},
    )
    _invite(admin, token)
    [entry] = [e for e in Outbox(store).entries() if e.address == NEW]
    body = message_from_bytes(Outbox(store).message(entry.id), policy=default).get_body().get_content()
    assert body.startswith("Dear Kim Ortiz,") and "Jordan Lee, Permits Administrator has invited you" in body
    assert "the wetlands and stormwater filings of Canton" in body


@pytest.mark.parametrize("who", ["canton-agent", "applicant"])
def test_a_temporary_password_must_be_changed_at_the_next_login_before_anything_else(store, who):
    from webkit import register

    admin = client(store)
    token = login(admin, "admin")
    if who == "applicant":
        register(client(store), "ann@example.org", store)
        email, home = "ann@example.org", "/my"
    else:
        email, home = USERS[who][0], "/today"
    r = admin.post("/users/temporary-password", data={"csrf": token, "email": email})
    temporary = re.search(r"Temporary password for [^:]+: (\S+) \(give", r.text).group(1)
    assert "choose their own password at their next login" in _row(admin.get("/users").text, email)

    c = client(store)
    r = _log_in(c, email, temporary)
    assert r.status_code == 303 and r.headers["location"] == "/password"
    page = c.get("/password")
    assert page.status_code == 200 and "set by an admin" in page.text
    own = ("/my/apply",) if who == "applicant" else ()  # staff get 404 there, as before
    for elsewhere in (home, "/filings", "/filings/CAN-NOI-2026-001", "/users", *own):
        assert c.get(elsewhere, follow_redirects=True).url.path == "/password", elsewhere
    same = c.post("/password", data={"csrf": csrf_of(page.text), "current": temporary, "new": temporary, "new2": temporary})
    assert same.status_code == 422  # their own: another one
    changed = c.post("/password", data={"csrf": csrf_of(page.text), "current": temporary, "new": THEIRS, "new2": THEIRS})
    assert changed.status_code == 303
    assert c.get(home).status_code == 200 and "set by an admin" not in c.get("/password").text
    assert "next login" not in _row(admin.get("/users").text, email)


def test_a_user_an_admin_adds_with_a_password_chooses_their_own_at_the_first_login(store):
    admin = client(store)
    token = login(admin, "admin")
    r = admin.post("/users", data={"csrf": token, **INVITE, "password": "given by the admin"})
    assert r.status_code == 303
    c = client(store)
    assert _log_in(c, NEW, "given by the admin").headers["location"] == "/password"
    assert c.get("/today").headers["location"] == "/password"


def test_a_name_and_title_show_on_the_users_page_and_in_the_header(store):
    admin = client(store)
    token = login(admin, "admin")
    agent = USERS["canton-agent"][0]
    r = admin.post(
        "/users/person", data={"csrf": token, "email": agent, "full_name": "  Pat   Rivera ", "title": "Conservation Agent"}
    )
    assert r.status_code == 303
    row = _row(admin.get("/users").text, agent)
    assert "Pat Rivera<br><small>Conservation Agent</small>" in row
    c = client(store)
    agent_token = login(c, "canton-agent")
    assert "Pat Rivera (agent: canton)" in c.get("/today").text
    assert c.post("/users/person", data={"csrf": agent_token, "email": agent, "full_name": "X"}).status_code == 404
    assert "Pat Rivera" in _row(admin.get("/users").text, agent)


def test_the_users_command_invites_names_and_lists_people(store, capsys):
    db = ["--db", store.url]
    assert (
        main(
            [
                "users",
                "invite",
                NEW,
                "--name",
                "Kim Ortiz",
                "--title",
                "Conservation Agent",
                "--town",
                "canton",
                "--by",
                "Jordan Lee",
                *db,
            ]
        )
        == 0
    )
    assert f"{NEW} invited" in capsys.readouterr().out
    assert emailed_link(store, NEW, "/welcome/")
    assert main(["users", "invite", NEW, *db]) == 2  # no name
    assert main(["users", "name", USERS["canton-dpw"][0], "--name", "Sam O'Neil", "--title", "DPW Permit Clerk", *db]) == 0
    assert main(["users", "list", *db]) == 0
    out = capsys.readouterr().out
    assert f"{NEW}  agent  canton  invited, not joined yet  (Kim Ortiz, Conservation Agent)" in out
    assert "dpw@canton.example  dpw  canton  active  (Sam O'Neil, DPW Permit Clerk)" in out
    assert main(["users", "temp-password", USERS["canton-agent"][0], *db]) == 0
    assert main(["users", "list", *db]) == 0
    assert "canton  active, to choose a password at the next login" in capsys.readouterr().out


def test_a_password_the_command_sets_with_temporary_is_changed_at_the_next_login(store, tmp_path, capsys):
    agent = USERS["canton-agent"][0]
    given = tmp_path / "given"
    given.write_text("given at the counter\n")
    db = ["--db", store.url, "--password-file", str(given)]
    assert main(["users", "passwd", agent, "--temporary", *db]) == 0
    assert "they choose their own at their next login" in capsys.readouterr().out
    c = client(store)
    assert _log_in(c, agent, "given at the counter").headers["location"] == "/password"
    assert main(["users", "passwd", agent, *db]) == 0  # the user's own, typed at the server: nothing to change
    assert _log_in(client(store), agent, "given at the counter").headers["location"] == "/today"
    assert main(["users", "add", NEW, "--town", "canton", "--temporary", *db]) == 0
    assert _log_in(client(store), NEW, "given at the counter").headers["location"] == "/password"
