"""Benchmark: the Meetings page against its own store query.

Builds a store of ``--filings N`` (default 10,000; ``--db PATH`` uses a
store built by ``bench_store.py --keep PATH``, 100,000 filings there), then
gives Canton's conservation commission ``--meetings`` (default 12) weekly
meetings, each with ``--items`` (default 10) hearings and a line of other
business.  Reports the page's app time (its ``Server-Timing`` header:
routing, the session, the user, the meetings, their agendas and postings'
clocks, and the template; served through Starlette's in-process test
client) against the store query alone (:func:`services.meetings.meetings_view`:
the meetings, their agenda items, each filing on an agenda, and each
posting's 48-hour clock), both wall time in this process, interleaved in
rounds with the first side rotating: the median of the per-round ratios
with min and max (goal <= 2x).

Run: ``.venv/bin/python benchmarks/bench_meetings.py [--db PATH] [--filings N]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from services.database import upgrade_store
from services.imports import import_filings
from services.users import add_user

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_store import AS_OF, BATCH, generate  # noqa: E402
from load import PASSWORD, server_ms  # noqa: E402
from paired import from_ratios  # noqa: E402

from models.accounts.users import UserError  # noqa: E402
from models.handle import Store  # noqa: E402

ROUNDS = 15


EMAIL = "admin@permits.bench"


def login(client) -> None:
    import load

    load.login(client, EMAIL)


def _store(args, folder: Path) -> Store:
    if args.db:
        store = Store(f"sqlite:///{args.db}")
        upgrade_store(store)
        return store
    store = Store(f"sqlite:///{folder / 'bench.db'}")
    upgrade_store(store)
    filings = list(generate(args.filings))
    for i in range(0, len(filings), BATCH):
        import_filings(store, filings[i : i + BATCH], by="bench")
    return store


def _meetings(store: Store, count: int, items: int) -> int:
    """``count`` weekly Canton meetings with ``items`` hearings each (the
    bench's set-up writes the agenda rows directly); the hearings on them."""
    from sqlalchemy import select

    from models.schema.meeting_tables import MEETING
    from models.schema.tables import FilingRow
    from models.store.meetings import add_item, add_meeting

    filing = FilingRow.__table__
    with store.engine.begin() as conn:
        if conn.execute(select(MEETING.c.id).where(MEETING.c.town == "canton").limit(1)).first() is not None:
            return 0
        ids = [
            r[0]
            for r in conn.execute(
                select(filing.c.id).where(filing.c.town == "canton", filing.c.kind.in_(("noi", "rda"))).limit(count * items)
            )
        ]
        first = datetime.combine(AS_OF + timedelta(days=1), datetime.min.time()).replace(hour=19)
        for n in range(count):
            mid = add_meeting(
                conn,
                town="canton",
                board="Conservation Commission",
                starts_at=first + timedelta(weeks=n),
                place="Memorial Hall",
                by="bench",
                now=datetime.now(),
            )
            add_item(conn, mid, "business", title="Minutes")
            for fid in ids[n * items : (n + 1) * items]:
                add_item(conn, mid, "hearing", filing_id=fid)
    return len(ids)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a store built by bench_store.py --keep PATH")
    parser.add_argument("--filings", type=int, default=10_000)
    parser.add_argument("--meetings", type=int, default=12)
    parser.add_argument("--items", type=int, default=10)
    args, _ = parser.parse_known_args()
    from fastapi.testclient import TestClient

    from services.meetings import meetings_view
    from web.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        store = _store(args, Path(tmp))
        heard = _meetings(store, args.meetings, args.items)
        try:
            add_user(store, EMAIL, PASSWORD, "admin")
        except UserError:
            pass
        client = TestClient(create_app(store, settings=_timed(), secret="bench", today=lambda: AS_OF), follow_redirects=False)
        login(client)

        def page():
            r = client.get("/meetings?town=canton")
            assert r.status_code == 200
            return server_ms(r) / 1000

        def query():
            t = time.perf_counter()
            meetings_view(store, "canton", since=AS_OF)
            return time.perf_counter() - t

        page(), query()  # warm-up
        ratios, page_t, query_t = [], [], []
        for n in range(ROUNDS):
            took = {}
            for name, fn in (("page", page), ("query", query)) if n % 2 == 0 else (("query", query), ("page", page)):
                took[name] = fn()
            ratios.append(took["page"] / took["query"])
            page_t.append(took["page"])
            query_t.append(took["query"])
        rows = len(re.findall(r'id="meeting-\d+"', client.get("/meetings?town=canton").text))
        count = store.engine.connect().exec_driver_sql("SELECT count(*) FROM filing").scalar()
        print(
            f"meetings page: {rows} meetings, {heard} hearings, on {count:,} filings: "
            f"page {statistics.median(page_t) * 1000:.1f} ms (app time), query {statistics.median(query_t) * 1000:.1f} ms"
        )
        note = f"{count:,} filings, {rows} meetings, {heard} hearings; page {statistics.median(page_t) * 1000:.1f} ms"
        from_ratios("meetings page / its store query", 2.0, ratios, note=note).report()
        store.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())


def _timed():
    """The environment's settings with the app time sent (``Server-Timing``, read here)."""
    import os

    import config

    return config.load({**os.environ, "PERMITS_SERVER_TIMING": "yes"})
