"""The store's SQLite fast insert (models.store.bulk.insert_rows, what an
import writes through) stores exactly what SQLAlchemy's insert stores: the
same bytes in every column (dates, moments, JSON), read back by sqlite3
itself."""

import sqlite3
from datetime import UTC, date, datetime, timedelta, timezone

from sqlalchemy import insert

from models.schema.db import make_engine
from models.schema.migrate import upgrade
from models.store import bulk
from models.store.filings import CLOCK, EVENT, FILING

NOW = datetime(2026, 11, 30, 17, 45, 12, 345678, tzinfo=UTC)
FILING_ROW = {
    "id": "CAN-NOI-1",
    "town": "canton",
    "kind": "noi",
    "also": ["wpa"],
    "extra": {"address": "1 Elm St", "n": None},
    "last_seq": 2,
    "state": "filed",
    "next_deadline_date": date(2026, 12, 21),
    "next_deadline_clock": "hearing-open",
    "updated_at": NOW,
}
EVENTS = [
    {
        "filing_id": "CAN-NOI-1",
        "seq": 1,
        "type": "filed",
        "date": date(2026, 11, 30),
        "at": None,
        "raw": {"type": "filed", "date": "2026-11-30", "note": 'é, "quoted"'},
        "recorded_at": NOW,
        "recorded_by": "clerk",
    },
    {
        "filing_id": "CAN-NOI-1",
        "seq": 2,
        "type": "notice-posted",
        "date": date(2026, 12, 1),
        "at": datetime(2026, 12, 1, 9, 30),
        "raw": {"type": "notice-posted", "at": "2026-12-01T09:30"},
        "recorded_at": NOW,
        "recorded_by": "clerk",
    },
]
#: values the writer's shortcuts must leave to the column's own processor
#: or keep apart: a JSON value that is not an object, one instant in two
#: time zones in a naive moment column (SQLAlchemy stores each zone's own
#: wall time), a float that is not a number
ODD_EVENTS = [
    {**EVENTS[0], "seq": 3, "raw": "just text", "at": datetime(2026, 12, 1, 14, 30, tzinfo=UTC)},
    {
        **EVENTS[0],
        "seq": 4,
        "raw": {"n": float("nan"), "list": [1, None]},
        "at": datetime(2026, 12, 1, 9, 30, tzinfo=timezone(timedelta(hours=-5))),
    },
    {**EVENTS[0], "seq": 5, "raw": [1, "two"], "at": None},
]
CLOCKS = [
    {
        "filing_id": "CAN-NOI-1",
        "n": 0,
        "clock_id": "hearing-open",
        "type": "deadline",
        "date": date(2026, 12, 21),
        "at": None,
        "status": "due",
        "rule": "Canton 15-5 §2",
        "explanation": "21 calendar days after 2026-11-30; is 2026-12-21",
    },
]


def insert_many(conn, table, rows: list[dict]) -> None:
    """``rows`` (each with the keys of the first) through the fast insert."""
    names = tuple(rows[0])
    bulk.insert_rows(conn, table, names, [tuple(row[n] for n in names) for row in rows])


def _stored(path) -> dict:
    with sqlite3.connect(path) as raw:
        return {t: raw.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("filing", "event", "filing_clock")}


def test_the_fast_insert_stores_the_same_values_as_sqlalchemys_insert(tmp_path):
    stored = []
    for name, write in (("plain", lambda c, t, rows: c.execute(insert(t), rows)), ("fast", insert_many)):
        path = tmp_path / f"{name}.db"
        engine = make_engine(f"sqlite:///{path}")
        with engine.begin() as conn:
            upgrade(conn)
        with engine.begin() as conn:
            for table, rows in ((FILING, [FILING_ROW]), (EVENT, EVENTS + ODD_EVENTS), (CLOCK, CLOCKS)):
                write(conn, table, rows)
        engine.dispose()
        stored.append(_stored(path))
    assert stored[0] == stored[1]
    assert len(stored[1]["event"]) == 5 and stored[1]["event"][1][4] is not None  # the moment was stored
    assert stored[1]["event"][2][4] != stored[1]["event"][3][4]  # one instant, two wall times, as SQLAlchemy stores them
