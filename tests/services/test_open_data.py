"""Open permit data in BLDS 1.2 (workflows/blds.py, services/open_data.py):
every permit and inspection of a generated store, with the standard's
required fields, read back into counts equal to the store's; the status
changes one per change of state; no private field published."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date

import pytest

from demo.generate import generate
from models.handle import Store
from services.imports import import_filings
from services.open_data import dataset, encode
from workflows import blds
from workflows.replay import MACHINES, VARIANTS, live_events, state_trail

AS_OF = date(2026, 12, 3)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from services.database import upgrade_store

    s = Store(f"sqlite:///{tmp_path_factory.mktemp('open') / 'open.db'}")
    upgrade_store(s)
    import_filings(s, generate(240, AS_OF, seed=5), by="test")
    yield s
    s.engine.dispose()


def _filings(store):
    return [store.load(r.id)[0] for r in store.list_filings()]


def test_every_permit_is_published_with_the_required_fields_of_blds(store):
    rows = dataset(store, "permits", towns=None, as_of=AS_OF)
    assert len(rows) == len(store.list_filings())
    for r in rows:
        assert set(blds.PERMIT_REQUIRED) <= set(r)
        # "Either of AppliedDate or IssuedDate is required"; "either of CompletedDate or StatusCurrent"
        assert r["PermitNum"] and r["Description"] and (r["AppliedDate"] or r["IssuedDate"]), r
        assert r["CompletedDate"] or r["StatusCurrent"], r
        assert r["OriginalAddress1"] and r["OriginalCity"] and r["OriginalState"] == "MA", r
        assert r["StatusCurrentMapped"] in blds.STATUS_MAPPED.values(), r
        assert not re.search(r"\d{4}-\d{2}-\d{2}|[a-z]+-[a-z]+", r["StatusCurrent"])  # the state in people's words
    issued = [r for r in rows if r["StatusCurrentMapped"] == "Permit Issued" and r["PermitType"] == "noi"]
    assert issued and all(r["IssuedDate"] for r in issued)


def test_every_state_of_every_machine_has_its_blds_status():
    states = {str(getattr(s, "value", s)) for m in [*MACHINES.values(), *VARIANTS.values()] for s in m.states}
    assert states - set(blds.STATUS_MAPPED) == set()


def test_the_inspections_and_status_changes_read_back_into_the_stores_counts(store):
    filings = _filings(store)
    inspected = sum(1 for f in filings for e in live_events(f) if e.type == "inspected")
    changes = sum(max(len(state_trail(f)) - 1, 0) for f in filings)
    for name, expected, required in (
        ("inspections", inspected, blds.INSPECTION_REQUIRED),
        ("status-changes", changes, ("PermitNum",)),
    ):
        rows = dataset(store, name, towns=None, as_of=AS_OF)
        assert len(rows) == expected > 0
        back = list(csv.DictReader(io.StringIO(encode(name, rows, "csv").decode())))
        assert len(back) == expected and set(required) <= set(back[0])
        assert all(r["PermitNum"] for r in back)
    inspections = dataset(store, "inspections", towns=None, as_of=AS_OF)
    assert all(r["InspectedDate"] and r["ResultMapped"] in ("Passed", "Rejected") for r in inspections)


def test_a_towns_files_hold_its_permits_only_and_no_private_field(store):
    canton = dataset(store, "permits", towns=["canton"], as_of=AS_OF)
    assert canton and all(r["PermitNum"].startswith("CAN-") for r in canton)
    for name in ("permits", "inspections", "status-changes"):
        text = encode(name, dataset(store, name, towns=None, as_of=AS_OF), "json").decode()
        assert "@" not in text and not re.search(r"\(\d{3}\) \d{3}-\d{4}|\d{3}-\d{3}-\d{4}", text)
    geo = json.loads(encode("permits", canton, "geojson"))
    assert geo["type"] == "FeatureCollection" and len(geo["features"]) == len(canton)


def test_a_cell_a_spreadsheet_would_run_is_written_as_text():
    rows = [{"PermitNum": "X-1", "Description": "=HYPERLINK(1)", "ExtraFields": {}}]
    assert "'=HYPERLINK(1)" in encode("permits", rows, "csv").decode()
