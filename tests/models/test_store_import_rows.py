"""What an import stores, row by row, is fixed: every table after importing
a varied set of filings (every town and kind the generator makes, parties
with licences and certificates, abutters, moments, a voided event, events
carrying an export's provenance) equals the rows recorded in
tests/models/golden/import-rows.json, on SQLite and on PostgreSQL.  And on SQLite
the import's fast writer stores the same bytes as SQLAlchemy's own insert.

Regenerate after an intended change to what is stored, then review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/models/test_store_import_rows.py
"""

import copy
import json
import os
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

from sqlalchemy import create_engine, insert, select
from storekit import NOI, STREET

from demo.generate import generate
from models.handle import Store
from models.store import bulk
from services.database import upgrade_store
from services.imports import import_filings

GOLDEN = Path(__file__).parent / "golden" / "import-rows.json"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
NOW = datetime(2026, 11, 30, 17, 45, 12, 345678, tzinfo=UTC)
TABLES = ("party", "insurance_certificate", "filing", "event", "filing_clock", "abutter")


def _filings() -> list[dict]:
    out = list(generate(80, date(2026, 11, 30), seed=13))
    noi = copy.deepcopy(NOI)
    noi["abutters"].append({"name": "Zoë Ångström", "address": "16 Washington St", "parcel": "12-347"})
    noi["events"][1] = {**noi["events"][1], "recorded_at": "2026-12-01T14:02:03Z", "recorded_by": "agent@canton"}
    street = copy.deepcopy(STREET)
    street["events"] += [
        {"type": "work-noticed", "at": "2026-06-04T09:00"},
        {"type": "excavation-started", "date": "2026-06-09"},
        {"type": "event-voided", "date": "2026-06-10", "voids": 5, "reason": "entered on the wrong filing"},
    ]
    return [*out, noi, street]


def _imported(url: str) -> Store:
    store = Store(url, now=lambda: NOW)
    upgrade_store(store)
    import_filings(store, _filings(), by="clerk")
    return store


def _value(v):
    if isinstance(v, dict | list):
        return json.dumps(v, sort_keys=True)
    if isinstance(v, datetime):
        return v.astimezone(UTC).isoformat() if v.tzinfo else v.isoformat()
    if isinstance(v, date):
        return v.isoformat()
    return v


def _rows(url: str) -> dict:
    """Every row of the import's tables, values as text, in key order."""
    from sqlmodel import SQLModel

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            out = {}
            for name in TABLES:
                table = SQLModel.metadata.tables[name]
                rows = conn.execute(select(table).order_by(*table.primary_key.columns)).all()
                out[name] = [[_value(v) for v in r] for r in rows]
            return out
    finally:
        engine.dispose()


def _golden_text(rows: dict) -> str:
    """One row a line, for a readable diff."""
    tables = (
        f" {json.dumps(t)}: [\n" + ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in rows[t]) + "\n ]" for t in rows
    )
    return "{\n" + ",\n".join(tables) + "\n}\n"


def test_an_import_stores_exactly_the_recorded_rows_in_every_table(db_url):
    _imported(db_url).engine.dispose()
    rows = _rows(db_url)
    if UPDATE:
        GOLDEN.write_text(_golden_text(rows))
    expected = json.loads(GOLDEN.read_text())
    assert sorted(rows) == sorted(expected)
    for name in TABLES:
        assert rows[name] == expected[name], f"table {name} differs from {GOLDEN.name}"
    assert len(rows["event"]) > 600 and len(rows["filing_clock"]) > 400 and rows["abutter"] and rows["insurance_certificate"]


def _raw(path: Path) -> dict:
    with sqlite3.connect(path) as raw:
        return {t: raw.execute(f"SELECT rowid, * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def test_on_sqlite_the_fast_writer_stores_the_same_bytes_as_sqlalchemys_insert(tmp_path, monkeypatch):
    fast = tmp_path / "fast.db"
    _imported(f"sqlite:///{fast}").engine.dispose()

    def plain(conn, table, names, columns):
        conn.execute(insert(table), [dict(zip(names, r, strict=True)) for r in zip(*columns, strict=True)])

    monkeypatch.setattr(bulk, "insert_columns", plain)
    slow = tmp_path / "plain.db"
    _imported(f"sqlite:///{slow}").engine.dispose()
    assert _raw(fast) == _raw(slow)
