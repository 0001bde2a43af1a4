"""The Users page and ``permits users`` (issue 19, item 6): enable, change
role and towns, unlock, set a temporary password; through both interfaces,
the same functions (services/users.py).  Only an admin reaches them (404
otherwise), every post carries the CSRF token, and a refusal writes
nothing."""

from __future__ import annotations

import re

import pytest
import storekit
from storekit import snapshot
from webkit import PASSWORD, USERS, client, csrf_of, login

from models.accounts.users import LoginRefused
from models.errors import LoginPaused
from models.types import PAUSE_AFTER

AGENT = USERS["canton-agent"][0]
ACTIONS = (
    "/users/enable",
    "/users/unlock",
    "/users/access",
    "/users/temporary-password",
    "/users/disable",
    "/users",
    "/users/invite",
    "/users/invite-again",
    "/users/person",
)


def _lock(store, email: str) -> None:
    """Pause one place's logins to ``email`` (models/accounts/login_pauses.py)."""
    users = storekit.users(store)
    for _ in range(PAUSE_AFTER):
        with pytest.raises(LoginRefused):
            users.authenticate(email, "wrong password!")


@pytest.mark.parametrize("path", ACTIONS)
def test_only_an_admin_reaches_the_account_actions_and_nothing_is_written_otherwise(store, path):
    agent = client(store)
    token = login(agent, "canton-agent")
    admin = client(store)
    login(admin, "admin")
    before = snapshot(store.url)  # the two sessions
    assert agent.get("/users").status_code == 404
    form = {"email": AGENT, "role": "admin", "full_name": "Kim Ortiz", "password": "a password of ten"}
    assert agent.post(path, data={"csrf": token, **form}).status_code == 404
    assert admin.post(path, data=form).status_code in (400, 403)  # no CSRF token
    assert admin.post(path, data={"csrf": "forged", **form}).status_code in (400, 403)
    assert snapshot(store.url) == before


def test_an_admin_disables_and_enables_an_account_and_its_owner_logs_in_again(store):
    admin = client(store)
    token = login(admin, "admin")
    assert admin.post("/users/disable", data={"csrf": token, "email": AGENT}).status_code == 303
    assert re.search(rf'data-email="{re.escape(AGENT)}">.*?disabled.*?>Enable</button>', admin.get("/users").text, re.S)
    assert admin.post("/users/enable", data={"csrf": token, "email": AGENT}).status_code == 303
    assert storekit.users(store).authenticate(AGENT, PASSWORD).email == AGENT


def test_an_admin_changes_a_role_and_towns_and_the_user_sees_the_new_scope(store):
    agent = client(store)
    login(agent, "canton-agent")
    assert agent.get("/filings/SAU-NOI-2026-001").status_code == 404
    admin = client(store)
    token = login(admin, "admin")
    r = admin.post("/users/access", data={"csrf": token, "email": AGENT, "role": "agent", "town": ["canton", "saugus"]})
    assert r.status_code == 303
    assert agent.get("/filings/SAU-NOI-2026-001").status_code in (303, 307)  # the old session ended: log in again
    login(agent, "canton-agent")
    assert agent.get("/filings/SAU-NOI-2026-001").status_code == 200
    before = snapshot(store.url)
    refused = admin.post("/users/access", data={"csrf": token, "email": AGENT, "role": "dpw"})  # no town
    assert refused.status_code == 422 and "at least one town" in refused.text
    demote = admin.post("/users/access", data={"csrf": token, "email": USERS["admin"][0], "role": "agent", "town": "canton"})
    assert demote.status_code == 422 and "your own account" in demote.text
    assert snapshot(store.url) == before


def test_an_admin_ends_the_pauses_failed_logins_put_on_an_account(store):
    _lock(store, AGENT)
    admin = client(store)
    token = login(admin, "admin")
    page = admin.get("/users").text
    assert "logins from some place paused after failed ones" in page and "/users/unlock" in page
    with pytest.raises(LoginPaused):
        storekit.users(store).authenticate(AGENT, PASSWORD)
    assert admin.post("/users/unlock", data={"csrf": token, "email": AGENT}).status_code == 303
    assert storekit.users(store).authenticate(AGENT, PASSWORD).email == AGENT


def test_a_temporary_password_is_shown_once_and_logs_the_user_in(store):
    admin = client(store)
    token = login(admin, "admin")
    r = admin.post("/users/temporary-password", data={"csrf": token, "email": AGENT})
    assert r.status_code == 200
    password = re.search(r"Temporary password for [^:]+: (\S+) \(give", r.text).group(1)
    assert len(password) >= 10
    assert storekit.users(store).authenticate(AGENT, password).email == AGENT
    with pytest.raises(LoginRefused):
        storekit.users(store).authenticate(AGENT, PASSWORD)
    assert password not in admin.get("/users").text  # shown once


def test_the_users_command_enables_unlocks_changes_access_and_sets_a_temporary_password(store, capsys):
    from cli.main import main

    db = ["--db", store.url]
    assert main(["users", "disable", AGENT, *db]) == 0
    assert main(["users", "enable", AGENT, *db]) == 0
    _lock(store, AGENT)
    assert main(["users", "list", *db]) == 0
    assert f"{AGENT}  agent  canton  active, logins paused from some place" in capsys.readouterr().out
    assert main(["users", "unlock", AGENT, *db]) == 0
    assert main(["users", "access", AGENT, "--role", "dpw", "--town", "mansfield", *db]) == 0
    assert main(["users", "access", AGENT, "--role", "dpw", *db]) == 2  # no town: refused
    assert main(["users", "temp-password", AGENT, *db]) == 0
    out = capsys.readouterr()
    password = re.search(r"temporary password of \S+: (\S+) ", out.out).group(1)
    user = storekit.users(store).authenticate(AGENT, password)
    assert (user.role, user.towns) == ("dpw", ("mansfield",))
    assert "at least one town" in out.err
    assert main(["users", "enable", "nobody@canton.example", *db]) == 2


def test_the_users_page_draws_every_action_with_its_token(store):
    admin = client(store)
    login(admin, "admin")
    page = admin.get("/users").text
    token = csrf_of(page)
    for path in ("/users/disable", "/users/access", "/users/temporary-password"):
        forms = re.findall(rf'<form method="post" action="{path}"[^>]*>\s*<input type="hidden" name="csrf" value="([^"]+)"', page)
        assert forms and set(forms) == {token}, path
