"""The workbench's reads and the few writes the web makes beyond the
store's own: a user's docket (their towns and kinds), filing search with
keyset pagination, a filing's summary row, and its abutter list.

The web renders these; the rules of who sees what live in
:mod:`models.accounts.users`, the rules of what may be recorded in the core.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import Date, String, and_, bindparam, func, or_, select, text, type_coerce
from sqlalchemy.orm import aliased

from models.errors import UnknownFiling
from models.handle import Store
from models.read.docket_counts import indexed_docket, open_filings
from models.read.queries import DOCKET_CONDITION, DOCKET_OVERDUE_CONDITION, DocketRow, as_date, as_datetime
from models.read.search import Scope, page_ids, text_condition
from models.schema.tables import Abutter, EventRow, FilingClock, FilingRow, Party
from workflows.docket import action_for, docket_status

__all__ = [
    "DocketRow",
    "FilingSummary",
    "RecordedEvent",
    "docket",
    "docket_query",
    "search",
    "matching",
    "summary",
    "summary_query",
    "abutters",
    "abutters_version",
    "abutter_rows",
    "ABUTTER_FIELDS",
    "events_in_state",
    "PAGE_SIZE",
]

FILING, CLOCK, PARTY, ABUTTER = FilingRow.__table__, FilingClock.__table__, Party.__table__, Abutter.__table__
EVENT = EventRow.__table__
PAGE_SIZE = 50
#: stored clock statuses the DPW schedule shows when they fall in its window
SCHEDULE_STATUSES = ("runs", "active", "waiting")


@dataclass(frozen=True)
class FilingSummary:
    id: str
    town: str
    kind: str
    state: str
    last_seq: int
    address: str | None
    parcel: str | None
    applicant: str | None
    contractor: str | None
    next_deadline_date: date | None
    next_deadline_clock: str | None


def docket_condition(as_of: date, until: date, *, overdue_only: bool = False):
    """Which stored clocks are on the docket (the CLI's and the web's alike):
    :data:`models.read.queries.DOCKET_CONDITION` (``--overdue``:
    :data:`~models.read.queries.DOCKET_OVERDUE_CONDITION`), the text the SQLite
    reader runs too, with its days bound."""
    if overdue_only:
        return text(DOCKET_OVERDUE_CONDITION).bindparams(bindparam("as_of", as_of, type_=Date))
    return text(DOCKET_CONDITION).bindparams(bindparam("as_of", as_of, type_=Date), bindparam("until", until, type_=Date))


def _scope(query, towns: Sequence[str] | None, kinds: Sequence[str]):
    query = query.where(FILING.c.kind.in_(list(kinds)))
    if towns is not None:
        query = query.where(FILING.c.town.in_(list(towns)))
    return query


def docket_query(
    *,
    as_of: date,
    within: int,
    towns: Sequence[str] | None,
    kinds: Sequence[str],
    status: str | None = None,
    limit: int | None = None,
    schedule: bool = False,
    open_only: bool = False,
):
    """The SELECT of the deadlines to act on for these towns (None: all) and kinds:
    overdue ones first (oldest first), then those due within ``within``
    days, with each filing's site address and applicant.  ``status``
    ``overdue`` or ``open`` keeps only those.  A page (``limit``) is read
    from ``ix_filing_clock_docket`` in date order (:func:`models.read.docket_counts.indexed_docket`),
    or for one town from ``ix_filing_clock_docket_town``, testing the kind
    and openness each clock carries from the index, so it reads about as
    many clocks as it shows, looking up only their filings; the whole view (no ``limit``) reads
    the ranges of ``ix_filing_clock_status_date`` and sorts them.  ``schedule``:
    also the periods running and the windows waiting to open in the window
    (a permit's expiry, a patch window opening), for the DPW schedule.
    ``open_only``: only filings not in a final state, as the sweep's docket
    (the Today page: a page tests each clock's ``filing_open``, the whole
    view :func:`models.read.docket_counts.open_filings`)."""
    until = as_of + timedelta(days=within)
    if limit is not None and not schedule:
        return _docket_page(as_of, until, towns, kinds, status, limit, open_only)
    if schedule:
        wanted = or_(
            and_(CLOCK.c.status == "due", CLOCK.c.date <= until),
            and_(CLOCK.c.status.in_(SCHEDULE_STATUSES), CLOCK.c.date >= as_of, CLOCK.c.date <= until),
        )
    elif status == "open":  # the whole view (the exports): the status index's ranges, then one sort
        wanted = and_(CLOCK.c.status == "due", CLOCK.c.date >= as_of, CLOCK.c.date <= until)
    else:  # the same clocks as `permits docket` (violations included)
        wanted = docket_condition(as_of, until, overdue_only=status == "overdue")
    query = _docket_rows_of(CLOCK).where(wanted).order_by(CLOCK.c.date, CLOCK.c.filing_id, CLOCK.c.clock_id)
    query = _scope(query, towns, kinds)
    if open_only and kinds:
        query = query.where(open_filings(kinds))
    if limit is not None:
        query = query.limit(limit)
    return query


def _docket_rows_of(clocks):
    """The docket's row (:func:`docket_rows`) of each of ``clocks`` (the
    clock table, or a page of it) with its filing and their names."""
    applicant, contractor = aliased(PARTY), aliased(PARTY)
    return (
        select(
            type_coerce(clocks.c.date, String),
            clocks.c.filing_id,
            FILING.c.town,
            FILING.c.kind,
            FILING.c.state,
            clocks.c.clock_id,
            clocks.c.rule,
            clocks.c.explanation,
            type_coerce(clocks.c.at, String),
            FILING.c.address,
            applicant.c.name,
            contractor.c.name,
            FILING.c.last_seq,
            clocks.c.status,
        )
        .select_from(clocks)
        .join(FILING, FILING.c.id == clocks.c.filing_id)
        .outerjoin(applicant, applicant.c.id == FILING.c.applicant_id)
        .outerjoin(contractor, contractor.c.id == FILING.c.contractor_id)
    )


def _docket_page(as_of: date, until: date, towns, kinds, status, limit: int, open_only: bool):
    """A page of the docket: its clocks first, from the clocks alone (each
    carries its filing's town, kind and openness, so nothing else is read
    to choose them), in date order from ``ix_filing_clock_docket`` (every
    town's, or several's) or ``ix_filing_clock_docket_town`` (one town's),
    stopping at the page's last row; then only those clocks joined to
    their filings and names."""
    wanted = [
        indexed_docket(as_of, until, open_only=status == "open", overdue_only=status == "overdue"),
        CLOCK.c.filing_kind.in_(list(kinds)),
    ]
    if towns is not None and len(towns) == 1:  # one town's clocks in date order
        wanted.append(CLOCK.c.filing_town == towns[0])
    elif towns is not None:  # several: every town's in date order, on lower() so no town's range drives the page
        wanted.append(func.lower(CLOCK.c.filing_town).in_(list(towns)))
    if open_only:
        wanted.append(CLOCK.c.filing_open.is_(True))
    order = (CLOCK.c.date, CLOCK.c.filing_id, CLOCK.c.clock_id)
    page = select(CLOCK).where(*wanted).order_by(*order).limit(limit).subquery("page")
    return _docket_rows_of(page).order_by(page.c.date, page.c.filing_id, page.c.clock_id)


def docket(
    store: Store,
    *,
    as_of: date,
    within: int,
    towns: Sequence[str] | None,
    kinds: Sequence[str],
    status: str | None = None,
    limit: int | None = None,
    schedule: bool = False,
    open_only: bool = False,
) -> list[DocketRow]:
    """The deadlines to act on (:func:`docket_query`, the same arguments)."""
    query = docket_query(
        as_of=as_of, within=within, towns=towns, kinds=kinds, status=status, limit=limit, schedule=schedule, open_only=open_only
    )
    with store.reader.connect() as conn:
        rows = conn.execute(query).all()
    return docket_rows(rows, as_of)


def docket_rows(rows, as_of: date) -> list[DocketRow]:
    """The docket's rows (day, filing, town, kind, state, clock, rule,
    explanation, at, address, applicant, contractor, seq, stored status) as
    :class:`DocketRow`, each with its status as of ``as_of`` and its action:
    the docket's and the DPW schedule's pages alike."""
    out = []
    for day, filing, town, kind, state, clock, rule, explanation, at, address, name, contractor_name, seq, stored in rows:
        day = as_date(day)
        out.append(
            DocketRow(
                day,
                docket_status(day, as_of, stored),
                filing,
                town,
                kind,
                state,
                clock,
                rule,
                explanation,
                action_for(clock, stored),
                as_datetime(at),
                address,
                name,
                contractor_name,
                seq,
            )
        )
    return out


def _summary_query():
    applicant, contractor = aliased(PARTY), aliased(PARTY)
    return (
        select(
            FILING.c.id,
            FILING.c.town,
            FILING.c.kind,
            FILING.c.state,
            FILING.c.last_seq,
            FILING.c.address,
            FILING.c.parcel,
            applicant.c.name.label("applicant"),
            contractor.c.name.label("contractor"),
            FILING.c.next_deadline_date,
            FILING.c.next_deadline_clock,
        )
        .outerjoin(applicant, applicant.c.id == FILING.c.applicant_id)
        .outerjoin(contractor, contractor.c.id == FILING.c.contractor_id)
    ), applicant


def summary_query():
    """The SELECT of :class:`FilingSummary` rows (each filing with its
    applicant's and contractor's names), for a caller to filter and order."""
    return _summary_query()[0]


def matching(text: str):
    """Filings whose number, address, parcel, MassDEP file number,
    applicant or owner contains ``text`` (case-insensitive), or whose site
    key its site pattern: the search box's condition
    (:func:`models.read.search.text_condition`), for text too short for the
    index."""
    return text_condition(text.strip())


def search(
    store: Store,
    *,
    towns: Sequence[str] | None,
    kinds: Sequence[str],
    text: str = "",
    state: str | None = None,
    after: str | None = None,
    limit: int = PAGE_SIZE,
) -> tuple[list[FilingSummary], str | None]:
    """Filings of these towns (None: all) and kinds that ``text`` finds
    (:func:`models.read.search.text_condition`: any part of the number,
    address, parcel, MassDEP file number, applicant or owner), ordered by id: one page after the id ``after``
    (keyset pagination), and the id to continue after, or None on the last
    page.  The page is found through indexes, however deep it is and
    however big the store (:func:`page_ids`), then read with its names."""
    text = text.strip()
    query, _ = _summary_query()
    with store.reader.connect() as conn:
        ids = page_ids(conn, Scope(towns, kinds, state, after), text, limit + 1)
        rows = [FilingSummary(*r) for r in conn.execute(query.where(FILING.c.id.in_(ids)).order_by(FILING.c.id))]
    more = len(rows) > limit
    rows = rows[:limit]
    return rows, (rows[-1].id if more else None)


def summary(store: Store, filing_id: str) -> FilingSummary:
    query, _ = _summary_query()
    with store.reader.connect() as conn:
        row = conn.execute(query.where(FILING.c.id == filing_id)).first()
    if row is None:
        raise UnknownFiling(filing_id)
    return FilingSummary(*row)


#: an abutter row's fields, as :func:`abutters` gives them and
#: :func:`models.store.abutters.replace_abutters` takes them (``parcels`` a list; the rest text or None)
ABUTTER_FIELDS = ("name", "address", "parcel", "street", "city", "state", "zip", "ring", "parcels")


def abutter_rows(conn, filing_id: str) -> list[dict]:
    columns = [ABUTTER.c[n] for n in ABUTTER_FIELDS]
    rows = conn.execute(select(*columns).where(ABUTTER.c.filing_id == filing_id).order_by(ABUTTER.c.id)).all()
    return [dict(zip(ABUTTER_FIELDS, r)) for r in rows]


def abutters(store: Store, filing_id: str) -> list[dict]:
    """The filing's abutter list, in the order it was given, each row with
    :data:`ABUTTER_FIELDS`."""
    with store.reader.connect() as conn:
        return abutter_rows(conn, filing_id)


def abutters_version(rows: list[dict]) -> str:
    """A short digest of an abutter list as :func:`abutters` gives it: the
    upload form carries it, so a list replaced since the form was drawn is
    noticed (``""`` for no list)."""
    if not rows:
        return ""
    text = json.dumps([[r["name"], r["address"], r["parcel"]] for r in rows], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class RecordedEvent:
    """An event as recorded: its type, date and raw fields (``get``)."""

    seq: int
    type: str
    date: date
    raw: dict

    def get(self, name: str, default=None):
        return self.raw.get(name, default)


def events_in_state(
    store: Store, *, kind: str, state: str, towns: Sequence[str] | None, types: Sequence[str]
) -> list[tuple[FilingSummary, list[RecordedEvent]]]:
    """The filings of ``kind`` in ``state`` (the ``ix_filing_town_kind_state``
    index), each with its events of ``types`` in record order."""
    query, _ = _summary_query()
    query = _scope(query, towns, [kind]).where(FILING.c.state == state).order_by(FILING.c.id)
    with store.reader.connect() as conn:
        filings = [FilingSummary(*r) for r in conn.execute(query)]
        by_id: dict[str, list[RecordedEvent]] = {f.id: [] for f in filings}
        ids = list(by_id)
        for i in range(0, len(ids), 500):
            rows = conn.execute(
                select(EVENT.c.filing_id, EVENT.c.seq, EVENT.c.type, EVENT.c.date, EVENT.c.raw)
                .where(EVENT.c.filing_id.in_(ids[i : i + 500]), EVENT.c.type.in_(list(types)))
                .order_by(EVENT.c.filing_id, EVENT.c.seq)
            )
            for fid, seq, etype, day, raw in rows:
                by_id[fid].append(RecordedEvent(seq, etype, as_date(day), raw))
    return [(f, by_id[f.id]) for f in filings]
