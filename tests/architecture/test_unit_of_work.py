"""One unit of work for every write (services/unit_of_work.py): no other
module of the project begins, commits or rolls back a transaction; the
record below the service layer imports nothing from it and calls no
closure handed down; an event's effects are a table; what leaves the
building waits for the commit, so a service that raises after queueing an
email leaves the outbox as it was (on SQLite and PostgreSQL)."""

from __future__ import annotations

import ast
import shutil
from datetime import date, datetime
from pathlib import Path

import grimp
import pytest
from webkit import make_store

from models.read.outbox import Outbox
from services import effects
from services.imports import import_filings
from services.record import record_event
from services.unit_of_work import NestedUnitOfWork, UnitOfWork

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("cli", "web", "services", "sweep", "demo", "config", "notices", "models", "parcels", "workflows", "calendars")
#: where a transaction may begin or end, and why
TRANSACTION_HOMES = {
    "services/unit_of_work.py": "the unit of work itself",
    "models/schema/db.py": "SQLite's BEGIN IMMEDIATE, issued when the unit of work begins (the engine's begin event)",
    "models/read/sqlite_reader.py": "a read snapshot of the standard library's driver: it writes nothing",
    "sweep/ledger.py": "the sweep's own SQLite ledger file for a folder of filing JSON, not the record",
}
#: parameters the record may call, and why they are no call back up
CALLABLE_PARAMETERS = {
    "progress": "the command line's progress bar, told a count; nothing comes back",
    "replayer": "the core's replay (workflows/replay.py), below the record",
    "make": "the module's own line makers (models/store/deposit_ledger.py), never a caller's",
}


def transaction_calls(tree: Path) -> list[str]:
    """Each ``.begin(``, ``.commit(``, ``.rollback(`` and each BEGIN,
    COMMIT or ROLLBACK statement executed in the project's packages under
    ``tree``, outside :data:`TRANSACTION_HOMES`."""
    found = []
    for package in PACKAGES:
        for path in sorted((tree / package).rglob("*.py")):
            rel = path.relative_to(tree).as_posix()
            if rel in TRANSACTION_HOMES or "/migrations/versions/" in rel:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                    continue
                if node.func.attr in ("begin", "commit", "rollback"):
                    found.append(f"{rel}:{node.lineno} .{node.func.attr}()")
                elif node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    word = node.args[0].value.strip().split(" ")[0].upper()
                    if node.func.attr in ("execute", "exec_driver_sql") and word in ("BEGIN", "COMMIT", "ROLLBACK", "END"):
                        found.append(f"{rel}:{node.lineno} {word}")
    return found


def test_no_module_begins_commits_or_rolls_back_a_transaction_but_the_unit_of_work():
    assert transaction_calls(ROOT) == []


def test_the_search_finds_a_transaction_begun_beside_the_unit_of_work(tmp_path):
    tree = tmp_path / "tree"
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "templates", "static"))
    planted = tree / "models" / "store" / "outbox.py"
    planted.write_text(
        planted.read_text() + "\n\ndef planted(engine):\n    with engine.begin() as conn:\n        conn.commit()\n"
    )
    found = transaction_calls(tree)
    assert [f.split(" ")[1] for f in found] == [".begin()", ".commit()"]
    assert all(f.startswith("models/store/outbox.py:") for f in found)


def test_the_record_imports_nothing_from_the_service_layer():
    graph = grimp.build_graph(*PACKAGES)
    upward = [(a, b) for a in graph.find_descendants("models") | {"models"} for b in graph.find_modules_directly_imported_by(a)]
    assert [(a, b) for a, b in upward if b == "services" or b.startswith("services.")] == []
    assert not graph.chain_exists(importer="models", imported="services", as_packages=True)


def closures_called(tree: Path) -> list[str]:
    """Each call, in ``models/`` under ``tree``, of a function's own
    parameter (a closure handed down), but :data:`CALLABLE_PARAMETERS`."""
    found = []
    for path in sorted((tree / "models").rglob("*.py")):
        if "versions" in path.parts:
            continue
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs} - set(CALLABLE_PARAMETERS)
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in params:
                    found.append(f"{path.relative_to(tree).as_posix()}:{node.lineno} {fn.name} calls {node.func.id}")
    return found


def test_the_record_calls_no_closure_handed_down():
    assert closures_called(ROOT) == []


def test_the_closure_search_finds_a_planted_then(tmp_path):
    shutil.copytree(ROOT / "models", tmp_path / "models", ignore=shutil.ignore_patterns("__pycache__"))
    planted = tmp_path / "models" / "store" / "filings.py"
    planted.write_text(planted.read_text() + "\n\ndef record(conn, raw, then=None):\n    then(conn, raw)\n")
    assert [f.split(" ", 1)[1] for f in closures_called(tmp_path)] == ["record calls then"]


# -- the effects of an event, a table ------------------------------------------------


def test_an_events_effects_are_read_from_the_table_in_order_by_type_then_kind_then_every_event():
    assert effects.effects_of("street-opening", "payment-received") == (
        effects.payments_add_up,
        effects.deposit_ledger_filled,
        effects.applicant_told,
    )
    assert effects.effects_of("noi", "hearing-opened") == (effects.session_noticed, effects.applicant_told)
    assert effects.effects_of("noi", "notice-posted") == (effects.applicant_told,)


# -- what leaves the building waits for the commit ------------------------------------------------

NOW = datetime(2026, 12, 3, 10, 0)
FID = "CAN-NOI-2026-U00001"


def _application() -> dict:
    party = {"name": "Ann Lee", "address": {"street": "12 Elm St", "city": "Canton", "state": "MA", "zip": "02021"}}
    return {
        "town": "canton",
        "kind": "noi",
        "id": FID,
        "address": "12 Elm St",
        "applicant": {**party, "email": "ann@example.org"},
        "owner": party,
        "application": {"online": True, "owner_consent": True, "submitted_by": "ann@example.org"},
        "events": [{"type": "submitted", "date": "2026-12-01"}],
    }


def _incomplete(store):
    raw = {"type": "found-incomplete", "date": "2026-12-02", "reasons": "The plan is not stamped."}
    return record_event(store, FID, raw, by="agent", today=date(2026, 12, 3), now=NOW, mail_from="permits@canton.example")


class Planted(Exception):
    pass


def _boom(occasion) -> None:
    raise Planted("an effect after the email, failing")


def test_a_service_that_raises_after_queueing_an_email_leaves_the_outbox_empty_and_the_record_as_it_was(db_url, monkeypatch):
    store = make_store(db_url)
    import_filings(store, [_application()], by="test")
    before = store.history(FID)
    monkeypatch.setattr(effects, "EVERY_EVENT", (*effects.EVERY_EVENT, _boom))
    with pytest.raises(Planted):
        _incomplete(store)  # the incomplete finding's email was queued first
    assert Outbox(store).entries() == []
    assert store.history(FID) == before
    monkeypatch.undo()
    _incomplete(store)  # the same action without the planted failure: its email is queued
    assert [e.kind for e in Outbox(store).entries(filing_id=FID)] == ["found-incomplete"]


def test_on_commit_runs_only_after_a_commit_and_on_rollback_only_after_a_rollback(db_url):
    store = make_store(db_url)
    seen = []
    with UnitOfWork(store) as uow:
        uow.on_commit(lambda: seen.append("committed"))
        uow.on_rollback(lambda: seen.append("rolled back"))
        assert seen == []  # nothing leaves before the commit
    assert seen == ["committed"]
    with pytest.raises(Planted), UnitOfWork(store) as uow:
        uow.on_commit(lambda: seen.append("committed again"))
        uow.on_rollback(lambda: seen.append("rolled back"))
        raise Planted()
    assert seen == ["committed", "rolled back"]


def test_a_discarded_unit_of_work_keeps_nothing_and_a_nested_one_is_refused(db_url):
    store = make_store(db_url)
    with UnitOfWork(store) as uow:
        from models.store.filings import import_filings as write

        write(uow.conn, store, [_application()], by="test")
        uow.discard()  # a dry run
    assert [r.id for r in store.list_filings() if r.id == FID] == []
    with UnitOfWork(store), pytest.raises(NestedUnitOfWork), UnitOfWork(store):
        pass
