"""Finding a page of filings by what a clerk types: any part of the
filing's number, of its site address (its suffix and directions spelled
out or abbreviated: "109 Sherman Street" finds "109 Sherman St"), its
parcel, its MassDEP file number, or its applicant's or owner's name,
through indexes instead of reading every filing (migrations 0050, 0181);
and the filings list, a user's towns and kinds in id order.

What a text matches (:func:`text_condition`, and the index the same): a
filing whose id, address, parcel, MassDEP file number (``massdep_file``),
applicant's or owner's name contains it, whatever the case, or whose site
key (``site_key``: the address as :mod:`workflows.sites` compares
addresses, between spaces) contains the text's
:func:`workflows.sites.site_pattern`.

The indexes:

- **SQLite**: an FTS5 table with the trigram tokenizer, ``filing_search``
  (the filing's id, address, parcel, applicant's and owner's names, file
  number and site key), kept by triggers on ``filing`` and ``party``.  A
  phrase of three characters or more matches wherever it occurs in those
  fields, whatever the case: the trigrams of the phrase, one after
  another.
- **PostgreSQL**: ``pg_trgm`` GIN indexes on the lower-cased id, address,
  parcel, site key, file number and party name, which answer
  ``lower(column) LIKE '%text%'``.
- **Both**: ``ix_filing_town_kind_id`` (town, kind, id, and what a search
  tests: address, parcel, applicant, owner, site key, file number), one
  range per town and kind in id order.

How a page is read (:func:`page_ids`): the index gives every filing a text
matches, which is best while they are few (below :data:`SPARSE`); a text
many filings match fills its page after a few rows of each range read in
id order, each tested as it is read, so those are read first, at most
:data:`SCAN_FIRST` of each range, before the index is asked after all.
Text shorter than three characters has no trigram: its ranges are read
to the end if need be.  The text is only ever a bound value: on SQLite a
quoted FTS5 phrase (its quotes doubled), never query syntax; in ``LIKE``
its ``%``, ``_`` and ``\\`` are escaped.  ``docs/engineering/speed.md``
has the figures and ``tests/models/test_search_index.py`` the plans and
the proof that every way finds what reading every filing finds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import String, and_, column, false, func, or_, select, table, text, union, union_all
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from models.schema.tables import FilingRow, Party
from workflows.sites import site_pattern

__all__ = [
    "SEARCH_TABLE",
    "SEARCH_INDEXES",
    "SEARCH_TRIGGERS",
    "MIN_INDEXED",
    "SPARSE",
    "is_search_table",
    "fts_phrase",
    "fts_query",
    "like_pattern",
    "index_matches",
    "indexed_ids",
    "text_condition",
    "Scope",
    "SCAN_FIRST",
    "range_page",
    "range_ends_within",
    "indexed_page",
    "page_ids",
]

FILING, PARTY = FilingRow.__table__, Party.__table__

#: the SQLite FTS5 table (and the prefix of its shadow tables)
SEARCH_TABLE = "filing_search"
#: the PostgreSQL trigram indexes.  Alembic cannot compare them (or the
#: FTS5 table) with the models, so the schema test leaves them out and
#: tests/models/test_search_index.py checks the plans that use them.
SEARCH_INDEXES = frozenset(
    {
        "ix_filing_address_trgm",
        "ix_filing_parcel_trgm",
        "ix_party_name_trgm",
        "ix_filing_id_trgm",
        "ix_filing_site_key_trgm",
        "ix_filing_massdep_file_trgm",
    }
)
_FTS = table(SEARCH_TABLE, column("filing_id", String))
SEARCH_TRIGGERS = ("filing_search_insert", "filing_search_update", "filing_search_delete", "filing_search_party")
#: a trigram index needs three characters
MIN_INDEXED = 3
#: below this many filings matching the text, SQLite reads them through the
#: index (all of them, then the page in id order); at or above it, it reads
#: filings in id order until the page is full, testing each one (about
#: ``limit * filings / matches`` reads).  Measured at 100,000 filings:
#: docs/engineering/speed.md.
SPARSE = 1500


def is_search_table(name: str) -> bool:
    """The FTS5 table or one of its shadow tables (``filing_search_data``...)."""
    return name == SEARCH_TABLE or name.startswith(SEARCH_TABLE + "_")


def fts_phrase(text_: str) -> str:
    """``text_`` as one FTS5 phrase: quoted, its quotes doubled, so no
    character of it is query syntax."""
    return '"' + text_.replace('"', '""') + '"'


def like_pattern(text_: str) -> str:
    """``%text%``, lower-cased, with ``\\``, ``%`` and ``_`` escaped (``ESCAPE '\\'``)."""
    return "%" + text_.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


#: the columns of ``filing_search`` a typed text is looked for in as typed
#: (the site key is looked for as the text's site pattern)
_AS_TYPED = "{filing_id address parcel applicant owner massdep_file}"


def fts_query(text_: str) -> str:
    """The FTS5 query of ``text_``: the phrase in the columns it is looked
    for as typed, or its site pattern in the site key."""
    query = f"{_AS_TYPED} : {fts_phrase(text_)}"
    pattern = site_pattern(text_)
    return query if pattern is None else f"{query} OR site_key : {fts_phrase(pattern)}"


def index_matches(conn: Connection, text_: str, cap: int = SPARSE) -> int | None:
    """How many filings the index matches for ``text_``, counting no
    further than ``cap`` (on SQLite the FTS5 table's row numbers only);
    None for text shorter than :data:`MIN_INDEXED`, which no index answers."""
    if len(text_) < MIN_INDEXED:
        return None
    if conn.dialect.name == "sqlite":
        sql = text(f"SELECT count(*) FROM (SELECT 1 FROM {SEARCH_TABLE} WHERE {SEARCH_TABLE} MATCH :query LIMIT :cap)")
        return conn.execute(sql, {"query": fts_query(text_), "cap": cap}).scalar_one()
    first = indexed_ids(conn.dialect.name, text_).limit(cap).subquery()
    return conn.execute(select(func.count()).select_from(first)).scalar_one()


def indexed_ids(dialect: str, text_: str):
    """The ids of the filings the index matches for ``text_``, for
    ``filing.id IN (...)``: on SQLite from the FTS5 table (read into a
    sorted list, so the page comes in id order); on PostgreSQL one query
    per trigram index (the id's, the address's, the parcel's, the file
    number's, the site key's, the applicant's and the owner's through the
    party names'), their union, so each is a bitmap scan of its own index."""
    if dialect == "sqlite":
        match = text(f"{SEARCH_TABLE} MATCH :query").bindparams(query=fts_query(text_))
        return select(_FTS.c.filing_id).where(match)
    like = like_pattern(text_)
    named = select(PARTY.c.id).where(func.lower(PARTY.c.name).like(like, escape="\\"))
    branches = [
        select(FILING.c.id).where(func.lower(column_).like(like, escape="\\"))
        for column_ in (FILING.c.id, FILING.c.address, FILING.c.parcel, FILING.c.massdep_file)
    ]
    branches += [
        select(FILING.c.id).where(FILING.c.applicant_id.in_(named)),
        select(FILING.c.id).where(FILING.c.owner_id.in_(named)),
    ]
    pattern = site_pattern(text_)
    if pattern is not None:
        branches.append(select(FILING.c.id).where(func.lower(FILING.c.site_key).like(like_pattern(pattern), escape="\\")))
    return union(*branches)


def text_condition(text_: str, row=FILING, parties=None, dialect: str = "postgresql") -> ColumnElement:
    """The filing ``row`` (the ``filing`` table, or a subquery of its
    columns) matches ``text_`` as it is read: its id, address, parcel,
    file number, applicant's or owner's name contains it, or its site key
    the text's site pattern.  ``parties``: the applicant's and the owner's
    names, as two parties joined to the row or two expressions of the name;
    None: each is looked up by name (a subquery: on PostgreSQL, through the
    trigram index of party names).  On PostgreSQL each column is
    lower-cased (the indexed expressions); SQLite's ``LIKE`` ignores the
    case of ASCII letters itself, as its ``lower`` is ASCII-only too."""
    like = like_pattern(text_)

    def contains(col, pattern=like):
        return (func.lower(col) if dialect == "postgresql" else col).like(pattern, escape="\\")

    if parties is None:
        named = select(PARTY.c.id).where(contains(PARTY.c.name)).scalar_subquery()
        people = [row.c.applicant_id.in_(named), row.c.owner_id.in_(named)]
    else:
        people = [contains(p if isinstance(p, ColumnElement) else p.c.name) for p in parties]
    found = [contains(row.c.id), contains(row.c.address), contains(row.c.parcel), contains(row.c.massdep_file), *people]
    pattern = site_pattern(text_)
    if pattern is not None:
        found.append(contains(row.c.site_key, like_pattern(pattern)))
    return or_(*found)


@dataclass(frozen=True)
class Scope:
    """Which filings a page may show: the user's towns (None: all) and
    kinds, the state asked for, and the id the page starts after."""

    towns: Sequence[str] | None
    kinds: Sequence[str]
    state: str | None = None
    after: str | None = None

    def ranges(self) -> list[ColumnElement]:
        """One condition per range of ``ix_filing_town_kind_id`` the scope
        covers (a town and a kind), or the one condition of a scope of
        every town (read along the primary key); none for an empty scope."""
        if self.towns is None:
            return [FILING.c.kind.in_(list(self.kinds))] if self.kinds else []
        return [and_(FILING.c.town == t, FILING.c.kind == k) for t in self.towns for k in self.kinds]

    def rest(self) -> list[ColumnElement]:
        """The state and the page's start, within every range."""
        where = []
        if self.state:
            where.append(FILING.c.state == self.state)
        if self.after:
            where.append(FILING.c.id > self.after)
        return where

    def condition(self) -> ColumnElement:
        ranges = self.ranges()
        return and_(or_(*ranges) if ranges else false(), *self.rest())


#: at most this many filings of each range are read in id order, each
#: tested against the text, before the index is asked instead: a text many
#: filings match fills the page long before (about ``limit * filings /
#: matches`` rows)
SCAN_FIRST = 2000


#: what a search tests of each filing of a range, all in ``ix_filing_town_kind_id``
_TESTED = (FILING.c.id, FILING.c.address, FILING.c.parcel, FILING.c.massdep_file, FILING.c.site_key)


def range_page(
    range_: ColumnElement, scope: Scope, limit: int, text_: str = "", scan: int | None = None, dialect: str = "sqlite"
):
    """The first ``limit`` filings of one range of the scope in id order
    (``ix_filing_town_kind_id``, or the primary key), matching ``text_``
    if one is given, each filing tested as it is read; ``scan``: read no
    more than that many of the range (a subquery SQLite reads as it goes,
    so the reading stops when the page is full)."""
    if not text_:
        return select(FILING.c.id).where(range_, *scope.rest()).order_by(FILING.c.id).limit(limit)
    rows = select(*_TESTED, FILING.c.applicant_id, FILING.c.owner_id).where(range_, *scope.rest())
    rows = rows.order_by(FILING.c.id)
    rows = (rows.limit(scan) if scan is not None else rows).subquery()
    if dialect == "postgresql":  # the names looked up row by row (a hash of every party otherwise)
        names = (_name_of(rows.c.applicant_id), _name_of(rows.c.owner_id))
        page = select(rows.c.id).where(text_condition(text_, rows, names, dialect=dialect))
        return page.order_by(rows.c.id).limit(limit)  # it may join in another order
    # SQLite: no ORDER BY, which would sort every row read first: the rows
    # come in id order from the subquery, which SQLite reads as it goes (a
    # co-routine, the outer side of the join) and stops reading at the
    # limit (the plan test holds it)
    applicant, owner = aliased(PARTY), aliased(PARTY)
    return (
        select(rows.c.id)
        .select_from(
            rows.outerjoin(applicant, applicant.c.id == rows.c.applicant_id).outerjoin(owner, owner.c.id == rows.c.owner_id)
        )
        .where(text_condition(text_, rows, (applicant, owner), dialect=dialect))
        .limit(limit)
    )


def _name_of(party_id):
    """The name of the party ``party_id`` of each row, as a correlated
    subquery (a look-up of the party's primary key per row)."""
    return select(PARTY.c.name.label("name")).where(PARTY.c.id == party_id).scalar_subquery()


def range_ends_within(range_: ColumnElement, scope: Scope, rows: int):
    """Whether the range holds fewer than ``rows`` filings (after the page's
    start): a count of at most ``rows`` entries of its index."""
    first = select(FILING.c.id).where(range_, *scope.rest()).order_by(FILING.c.id).limit(rows).subquery()
    return select(func.count() < rows).select_from(first)


def indexed_page(dialect: str, scope: Scope, text_: str, limit: int):
    """The first ``limit`` filings of the scope in id order among those the
    index finds for ``text_`` (:func:`indexed_ids`: every match)."""
    match = FILING.c.id.in_(indexed_ids(dialect, text_))
    return select(FILING.c.id).where(match, scope.condition()).order_by(FILING.c.id).limit(limit)


def page_ids(conn: Connection, scope: Scope, text_: str, limit: int) -> list[str]:
    """The ids of one page (at most ``limit``, in id order), read the
    cheapest way:

    - no text: the first ``limit`` of each range of the scope
      (:func:`range_page`), merged;
    - text the index matches in fewer than :data:`SPARSE` filings: those
      filings, from the index (:func:`indexed_page`);
    - text more filings match: each range of the scope read in id order,
      each filing tested, until the page is full or :data:`SCAN_FIRST`
      filings were read; a range that ends first is done; if one neither
      filled nor ended, the page comes from the index after all (text
      shorter than the index's three characters: those ranges read to
      their end)."""
    if not text_:
        return _merged(conn, [range_page(r, scope, limit) for r in scope.ranges()], limit)
    dialect = conn.dialect.name
    matches = index_matches(conn, text_)
    if matches is not None and matches < SPARSE:
        return list(conn.execute(indexed_page(dialect, scope, text_, limit)).scalars())
    found, unfinished = [], []
    for range_ in scope.ranges():
        ids = list(conn.execute(range_page(range_, scope, limit, text_, SCAN_FIRST, dialect)).scalars())
        if len(ids) < limit and not conn.execute(range_ends_within(range_, scope, SCAN_FIRST)).scalar_one():
            unfinished.append(range_)
        else:
            found += ids
    if unfinished and matches is not None:
        return list(conn.execute(indexed_page(dialect, scope, text_, limit)).scalars())
    for range_ in unfinished:  # too short for the index: to the range's end
        found += conn.execute(range_page(range_, scope, limit, text_, None, dialect)).scalars()
    return sorted(found)[:limit]


def _merged(conn: Connection, queries: list, limit: int) -> list[str]:
    if not queries:
        return []
    if len(queries) == 1:
        return list(conn.execute(queries[0]).scalars())
    branches = [select(q.subquery().c.id) for q in queries]
    merged = union_all(*branches).subquery()
    return list(conn.execute(select(merged.c.id).order_by(merged.c.id).limit(limit)).scalars())
