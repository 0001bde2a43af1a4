"""One stage per act, everywhere (issue 32, item 1): after every event of
every machine (tests/machinewalk.py: each of workflows/noi.py, rda.py,
land_disturbance.py, street_opening.py and street_excavation.py walked from
each first event), the filing's stage (workflows/stage.py) is named alike in
the filing's header, the Filings list (its row, and its filter by that
stage, which finds it), Today (the docket's State column, the lists of
applications to check and sent back), the applicant's list and status page,
and the command line (``permits show``, ``permits list --state``).  An
incomplete finding is "Incomplete, sent back to the applicant" everywhere,
a resubmission "Submitted online, to check", a withdrawal "Withdrawn", a
complete Certificate of Compliance "Certificate of Compliance issued, to be
recorded" until its recording closes the Order."""

from __future__ import annotations

import re
from datetime import date
from html import unescape

import machinewalk
import pytest
from webkit import PASSWORD, csrf_of, register

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from workflows.stage import stage_name

AS_OF = date(2026, 12, 3)
APPLICANT = "ann@example.org"
_CODES = {"canton": "CAN", "mansfield": "MAN"}
_KINDS = {"noi": "NOI", "rda": "RDA", "land-disturbance": "LDP", "street-opening": "SOP"}
_MACHINE_CODES = {"street-excavation": "X"}


def _histories():
    """For each machine, a history ending with each event type in each
    stage the walk met it in: (filing id, town, kind, stage, filing JSON)."""
    out = []
    for machine_name, (town_id, kind) in machinewalk.MACHINE_TOWNS.items():
        chosen = {}
        for w in machinewalk.walk(machine_name):
            chosen.setdefault((w.stage, w.last_event), w)
        for n, w in enumerate(chosen.values(), start=1):
            fid = f"{_CODES[town_id]}-{_KINDS[kind]}-2026-{_MACHINE_CODES.get(machine_name, '')}E{n:04d}"
            out.append((fid, town_id, kind, w.stage, {**w.raw, "id": fid}))
    return out


HISTORIES = _histories()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Every history in one store; an administrator and the applicant whose
    address every history names, each logged in."""
    from fastapi.testclient import TestClient

    from services.users import add_user
    from web.app import create_app

    url = f"sqlite:///{tmp_path_factory.mktemp('stages') / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, [raw for *_, raw in HISTORIES], by="test")
    add_user(store, "admin@stage.example", PASSWORD, "admin", [])
    app = create_app(store, secret="stages", today=lambda: AS_OF)
    staff = TestClient(app, follow_redirects=False)
    token = csrf_of(staff.get("/login").text)
    r = staff.post("/login", data={"csrf": token, "email": "admin@stage.example", "password": PASSWORD, "next": "/today"})
    assert r.status_code == 303
    applicant = TestClient(app, follow_redirects=False)
    register(applicant, APPLICANT, store)
    yield url, store, staff, applicant
    store.engine.dispose()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def _header(html: str) -> str:
    return _text(re.search(r'<strong id="state"[^>]*>(.*?)</strong>', html, re.S).group(1))


def _rows(html: str, href: str) -> dict[str, list[str]]:
    """The table rows of a page by the filing each links to (``href`` + id): their cells' text."""
    out = {}
    for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", html, re.S):
        found = re.search(re.escape(href) + r'([A-Za-z0-9_.-]+)"', row)
        if found:
            out[found.group(1)] = [_text(c) for c in re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)]
    return out


def test_the_walk_holds_every_stage_and_every_event():
    stages = {(kind, stage) for _, _, kind, stage, _ in HISTORIES}
    assert ("noi", "incomplete") in stages and ("street-opening", "incomplete") in stages  # online, sent back
    assert ("noi", "certified") in stages and ("noi", "completed") in stages and ("noi", "withdrawn") in stages
    assert len(HISTORIES) > 150


@pytest.mark.parametrize("fid,town_id,kind,stage,raw", HISTORIES, ids=[h[0] for h in HISTORIES])
def test_the_filings_header_and_the_applicants_status_page_name_its_stage(world, fid, town_id, kind, stage, raw):
    _, _, staff, applicant = world
    name = stage_name(kind, stage)
    assert _header(staff.get(f"/filings/{fid}").text) == name
    assert _header(applicant.get(f"/my/filings/{fid}").text) == name


def test_the_filings_list_its_filter_and_the_applicants_list_name_every_stage_alike(world):
    _, _, staff, applicant = world
    mine = _rows(applicant.get("/my").text, "/my/filings/")
    found = {}
    for fid, town_id, kind, stage, _ in HISTORIES:
        name = stage_name(kind, stage)
        assert mine[fid][4] == name, fid  # My filings: "Where it stands"
        if (kind, town_id, stage) not in found:
            page = staff.get("/filings", params={"kind": kind, "town": town_id, "state": stage})
            found[(kind, town_id, stage)] = _rows(page.text, "/filings/")
        listed = found[(kind, town_id, stage)]
        assert fid in listed, f"the filter {name!r} does not find {fid}"
        assert listed[fid][3] == name  # the State column
    for (kind, _, stage), rows in found.items():  # the filter finds only that stage
        assert {cells[3] for cells in rows.values()} == {stage_name(kind, stage)}


def test_today_names_every_stage_alike_and_lists_the_applications_to_check_and_sent_back(world):
    _, _, staff, _ = world
    stage_of = {fid: (kind, stage) for fid, _, kind, stage, _ in HISTORIES}
    seen = 0
    for kind in _KINDS:
        for town_id in _CODES:
            page = staff.get("/today", params={"within": "366", "kind": kind, "town": town_id}).text
            for fid, cells in _rows(page, "/filings/").items():
                if fid in stage_of and len(cells) == 8:  # a docket row: its State column
                    assert cells[7] == stage_name(*stage_of[fid]), fid
                    seen += 1
    assert seen > 50
    page = staff.get("/today").text
    to_check = re.search(r'<section id="submitted">(.*?)</section>', page, re.S).group(1)
    sent_back = re.search(r'<details id="sent-back">(.*?)</details>', page, re.S).group(1)
    assert "Incomplete, sent back to the applicant: " in _text(sent_back)
    for fid, (_kind, stage) in stage_of.items():
        assert (f'/filings/{fid}"' in to_check) == (stage == "submitted"), fid
        assert (f'/filings/{fid}"' in sent_back) == (stage == "incomplete"), fid


def test_the_command_line_names_every_stage_alike(world, capsys):
    from cli.main import main

    url, *_ = world
    by_stage: dict[tuple, set] = {}
    for fid, _town, kind, stage, _ in HISTORIES:
        assert main(["show", fid, "--db", url, "--as-of", AS_OF.isoformat()]) == 0
        out = capsys.readouterr().out
        assert f"  state: {stage} ({stage_name(kind, stage)})  " in out.splitlines()[0], fid
        by_stage.setdefault((kind, stage), set()).add(fid)
    for (kind, stage), fids in by_stage.items():
        assert main(["list", "--db", url, "--kind", kind, "--state", stage]) == 0
        listed = {line.split()[0] for line in capsys.readouterr().out.splitlines() if "  " in line}
        assert fids <= listed
