"""Migration 0003 brings a 0002 store up: notices already recorded twice
keep their history (every copy after the first gets its own occasion),
NULL recipients become '', and from then on the database refuses a second
copy of a notice; on SQLite and PostgreSQL."""

from datetime import UTC, datetime

import pytest
import storekit
from sqlalchemy import insert, select, text
from sqlalchemy.exc import IntegrityError
from storekit import NOI, import_at_old_schema

from cli.main import main
from models.handle import Store
from models.schema.db import make_engine
from models.schema.migrate import HEAD, current_revision


def test_db_upgrade_from_0002_keeps_duplicate_notices_and_then_refuses_a_second_copy(db_url, capsys, tmp_path):
    engine = make_engine(db_url)
    storekit.migrate(engine, "0002")
    engine.dispose()
    import_at_old_schema(db_url, [NOI], tmp_path)  # the rows a 0002 store held (its tables, not today's)
    store = Store(db_url)
    now = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)
    with store.engine.begin() as conn:
        for recipient, key in (("public", "notice:legal-notice:2026-12-07"),) * 2 + ((None, None),) * 2:
            conn.execute(
                text(
                    "INSERT INTO notice (filing_id, kind, produced_at, recipient, files, output_key) "
                    "VALUES (:f, 'legal-notice', :now, :r, '[]', :k)"
                ),
                {"f": NOI["id"], "now": now, "r": recipient, "k": key},
            )
    store.engine.dispose()
    assert main(["db", "upgrade", "--db", db_url]) == 0
    store = Store(db_url)
    assert current_revision(store.engine) == HEAD
    from models.schema.tables import Notice

    table = Notice.__table__
    with store.engine.connect() as conn:
        rows = conn.execute(select(table.c.recipient, table.c.occasion).order_by(table.c.id)).all()
    assert len(rows) == 4
    assert rows[0] == ("public", "2026-12-07") and rows[2] == ("", "")
    assert rows[1][1].startswith("legacy-") and rows[3][1].startswith("legacy-")
    with pytest.raises(IntegrityError):
        with store.engine.begin() as conn:
            conn.execute(
                insert(table),
                [
                    {
                        "filing_id": NOI["id"],
                        "kind": "legal-notice",
                        "produced_at": now,
                        "recipient": "public",
                        "occasion": "2026-12-07",
                        "files": [],
                    }
                ],
            )
    store.engine.dispose()
