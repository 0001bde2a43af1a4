"""The handle on the record: where it lives (its URL, an engine and a
read-only engine beside it), its clock and its replayer, and the reads every
layer asks of a filing (its history, its JSON, the docket).

A handle never writes.  The writes are the store's functions
(:mod:`models.store`), each on the connection of the service layer's unit of
work (``services/unit_of_work.py``); the interfaces hold a handle to pass
to the services and to the read models (:mod:`models.read`).
"""

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Date, bindparam, select, text
from sqlalchemy.engine import Connection, Engine

from models.errors import StoreError, UnknownFiling
from models.read.queries import (
    EVENT_RAWS,
    FILING_EXISTS,
    HISTORY,
    NOTICE_LOG,
    DocketRow,
    as_json,
    docket_items,
    docket_sql,
    filing_json,
    history_of,
    notice_entry,
)
from models.schema.db import describe_url, make_engine, sqlite_path, unreachable_as_store_error
from models.schema.migrate import HEAD, current_revision
from models.schema.tables import EventRow, FilingRow
from workflows.filing import Filing, parse_filing

__all__ = ["Store", "DocketRow"]

FILING, EVENT = FilingRow.__table__, EventRow.__table__


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _default_replayer():
    from workflows.replay import replay

    return replay


def by_id(sql: str):
    return text(sql).bindparams(bindparam("id"))


class Store:
    """The record at one database URL: its engines, its clock (``now``,
    UTC) and its replayer, and the reads of one filing and of the docket."""

    def __init__(
        self, url: str, *, replayer: Callable | None = None, now: Callable[[], datetime] = _utcnow, engine: Engine | None = None
    ):
        self.url = url
        self.engine = engine or make_engine(url)
        self.reader = self.engine.execution_options(read_only=True)
        self._replayer = replayer
        self.now = now

    @property
    def replayer(self):
        if self._replayer is None:
            self._replayer = _default_replayer()
        return self._replayer

    def describe(self) -> str:
        """The store's URL as people may read it (no password)."""
        return describe_url(self.url)

    def check_schema(self) -> None:
        """StoreError unless the store exists at the schema this program needs."""
        path = sqlite_path(self.url)
        with unreachable_as_store_error(self.url):
            rev = None if path is not None and not path.exists() else current_revision(self.engine)
        if rev is None:
            raise StoreError(f"no permits database at {describe_url(self.url)}: run 'permits init' first")
        if rev != HEAD:
            raise StoreError(
                f"database at {describe_url(self.url)} is at schema {rev}, this program needs {HEAD}: run 'permits db upgrade'"
            )

    # -- one filing -----------------------------------------------------------

    def load(self, filing_id: str, conn: Connection | None = None, *, lock: bool = False) -> tuple[Filing, Any]:
        """The filing's history as the core's :class:`Filing`, and its row;
        on ``conn`` (a unit of work's) with its row locked when ``lock``."""
        if conn is None:
            with self.reader.connect() as c:
                return self.load(filing_id, c)
        query = select(FILING).where(FILING.c.id == filing_id)
        row = conn.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise UnknownFiling(filing_id)
        raws = [as_json(raw) for raw in conn.execute(by_id(EVENT_RAWS), {"id": filing_id}).scalars()]
        return parse_filing(filing_json(row.town, row.kind, row.id, row.also, row.extra, raws)), row

    def export(self, filing_id: str) -> dict:
        """The filing's JSON (docs/reference/filing-format.md), voids and voided events
        included, each event with who recorded it and when (``recorded_by``,
        ``recorded_at`` in UTC), which an import restores."""
        with self.reader.connect() as conn:
            row = conn.execute(select(FILING).where(FILING.c.id == filing_id)).first()
            if row is None:
                raise UnknownFiling(filing_id)
            rows = conn.execute(
                select(EVENT.c.raw, EVENT.c.recorded_at, EVENT.c.recorded_by)
                .where(EVENT.c.filing_id == filing_id)
                .order_by(EVENT.c.seq)
            )
            events = [{**raw, "recorded_at": utc_text(at), "recorded_by": by} for raw, at, by in rows]
            return filing_json(row.town, row.kind, row.id, row.also, row.extra, events)

    def history(self, filing_id: str) -> list[dict]:
        """Every event with who recorded it and when, and what voided it
        (:func:`models.read.queries.history_of`)."""
        with self.reader.connect() as conn:
            if conn.execute(by_id(FILING_EXISTS), {"id": filing_id}).first() is None:
                raise UnknownFiling(filing_id)
            rows = conn.execute(by_id(HISTORY), {"id": filing_id}).all()
        return history_of(rows)

    def notice_entries(self, filing_id: str) -> list[tuple]:
        """Every notice recorded on the filing, oldest first, as the fields
        of :class:`notices.log.SentNotice` (:func:`models.read.queries.notice_entry`)."""
        with self.reader.connect() as conn:
            return [notice_entry(row) for row in conn.execute(by_id(NOTICE_LOG), {"id": filing_id})]

    def replay(self, filing_id: str, as_of: date):
        filing, _ = self.load(filing_id)
        return self.replayer(filing, as_of)

    # -- many filings ---------------------------------------------------------

    def list_filings(self, *, town: str | None = None, kind: str | None = None, state: str | None = None) -> list:
        query = select(
            FILING.c.id,
            FILING.c.town,
            FILING.c.kind,
            FILING.c.state,
            FILING.c.last_seq,
            FILING.c.next_deadline_date,
            FILING.c.next_deadline_clock,
            FILING.c.address,
        )
        for col, value in ((FILING.c.town, town), (FILING.c.kind, kind), (FILING.c.state, state)):
            if value is not None:
                query = query.where(col == value)
        with self.reader.connect() as conn:
            return conn.execute(query.order_by(FILING.c.id)).all()

    def docket(self, *, as_of: date, within: int = 7, town: str | None = None, overdue_only: bool = False) -> list[DocketRow]:
        """Every deadline still to act on, due by ``as_of + within`` days
        (overdue ones included), and every period running out in the window,
        soonest first: two range scans of ``ix_filing_clock_status_date``
        joined to the filing by key."""
        query = text(docket_sql(overdue_only=overdue_only, town=town is not None)).bindparams(
            bindparam("as_of", as_of, type_=Date)
        )
        if not overdue_only:
            query = query.bindparams(bindparam("until", as_of + timedelta(days=within), type_=Date))
        if town is not None:
            query = query.bindparams(bindparam("town", town))
        # values come back as the driver gives them (SQLite: ISO text) and are
        # converted by models.read.queries, far cheaper per row than the generic
        # result processing
        with self.reader.connect() as conn:
            rows = conn.execute(query).all()
        return docket_items(rows, as_of)


def utc_text(moment: datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"
