"""``permits demo`` adds the workbench's demo users and prints their logins:
the printed passwords work, and the demo applicant sees the filings printed
beside their login and no other."""

from __future__ import annotations

import re
from datetime import date

from fastapi.testclient import TestClient

from cli.main import main


def logins(out: str) -> dict[str, tuple[str, str]]:
    """email -> (password, what the line says in brackets)"""
    return {m[0]: (m[1], m[2]) for m in re.findall(r"^  (\S+@\S+)\s+password (\S+)\s+\((.*)\)$", out, re.M)}


def test_the_printed_demo_applicant_logs_in_and_sees_only_their_own_filings(tmp_path, monkeypatch, capsys):
    from models.handle import Store
    from web.app import create_app

    data = tmp_path / "data"
    monkeypatch.setenv("PERMITS_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--no-prefect", "--no-serve", "--as-of", "2026-11-30", "--count", "80", "--notices", "1"]) == 0
    out = capsys.readouterr().out
    printed = logins(out)
    assert set(printed) >= {"agent@canton.example", "dpw@canton.example", "admin@permits.example", "applicant@demo.example"}
    password, what = printed["applicant@demo.example"]
    assert what.startswith("applicant: ")
    theirs = set(what.removeprefix("applicant: ").split(", "))
    assert len(theirs) == 2 and all(fid.startswith("CAN-") for fid in theirs)
    url = f"sqlite:///{data / 'demo' / 'permits.db'}"
    assert f"permits serve --db {url}" in out

    store = Store(url)
    everyone = {r.id for r in store.list_filings()}
    assert theirs < everyone and {r.kind for r in store.list_filings() if r.id in theirs} == {"noi", "street-opening"}
    c = TestClient(create_app(store, secret="demo-test", today=lambda: date(2026, 11, 30)), follow_redirects=False)
    token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
    r = c.post("/login", data={"csrf": token, "email": "applicant@demo.example", "password": password})
    assert r.status_code == 303 and r.headers["location"] == "/my"
    page = c.get("/my").text
    assert {fid for fid in everyone if fid in page} == theirs
    for fid in theirs:
        assert c.get(f"/my/filings/{fid}").status_code == 200
    stranger = sorted(everyone - theirs)[0]
    assert c.get(f"/my/filings/{stranger}").status_code == 404

    staff = TestClient(create_app(store, secret="demo-test", today=lambda: date(2026, 11, 30)), follow_redirects=False)
    token = re.search(r'name="csrf" value="([^"]+)"', staff.get("/login").text).group(1)
    agent_password = printed["agent@canton.example"][0]
    r = staff.post("/login", data={"csrf": token, "email": "agent@canton.example", "password": agent_password})
    assert r.status_code == 303 and r.headers["location"] == "/today"
    store.engine.dispose()
