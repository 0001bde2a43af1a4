"""The Filings page's list: the filings of a user's towns and kinds,
searched (:func:`models.read.workbench.matching`), narrowed by town, kind and
state, sorted by a column either way, one page at a time, with the total.

Pages are numbered: the list shows "page 3 of 41", previous and next.
The filings are found through the search index (:mod:`models.read.search`):
the text's matches from the trigram index (text of three characters or
more), the scope's ranges of ``ix_filing_town_kind_id``; in id order (the
default sort) a page is the first ids of those ranges, merged
(:func:`models.read.search.page_ids`: no sort of the whole scope), the other
sorts sort what the condition finds.  The total is one ``count`` over the
same condition, read from the same indexes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select

from models.handle import Store
from models.read.search import MIN_INDEXED, Scope, indexed_ids, page_ids
from models.read.workbench import FilingSummary, matching, summary_query
from models.schema.tables import FilingRow

__all__ = ["SORTS", "FilingPage", "filing_list"]

FILING = FilingRow.__table__
#: sort key -> (its words, the column); the id breaks ties
SORTS = {
    "id": ("filing number", FILING.c.id),
    "town": ("town", FILING.c.town),
    "kind": ("kind", FILING.c.kind),
    "state": ("state", FILING.c.state),
    "deadline": ("next deadline", FILING.c.next_deadline_date),
    "site": ("site", FILING.c.address),
}


@dataclass(frozen=True)
class FilingPage:
    rows: list[FilingSummary]
    total: int
    page: int
    pages: int


def filing_list(
    store: Store,
    *,
    towns: Sequence[str] | None,
    kinds: Sequence[str],
    text: str = "",
    state: str | None = None,
    sort: str = "id",
    descending: bool = False,
    page: int = 1,
    per_page: int = 50,
) -> FilingPage:
    """Page ``page`` (from 1; past the last is the last) of the filings of
    these towns (None: all) and kinds matching ``text`` and ``state``,
    sorted by ``sort`` (a key of :data:`SORTS`), a filing with no next
    deadline last either way."""
    text = text.strip()
    scope = Scope(towns, kinds, state, None)
    with store.reader.connect() as conn:
        indexed = len(text) >= MIN_INDEXED
        where = [FILING.c.kind.in_(list(kinds))]  # (town, kind, state) lists: ix_filing_town_kind_state answers the count
        if towns is not None:
            where.append(FILING.c.town.in_(list(towns)))
        if state:
            where.append(FILING.c.state == state)
        if text:  # the search index's matches (every one, by id), or, too short for it, the text tested row by row
            where.append(FILING.c.id.in_(indexed_ids(conn.dialect.name, text)) if indexed else matching(text))
        total = conn.execute(select(func.count()).select_from(FILING).where(*where)).scalar_one()
        pages = max(1, -(-total // per_page))
        page = min(max(page, 1), pages)
        query = summary_query()
        if sort == "id" and not descending:  # the first pages of the index ranges, merged (models/read/search.py)
            ids = page_ids(conn, scope, text, page * per_page)[(page - 1) * per_page :]
            query = query.where(FILING.c.id.in_(ids)).order_by(FILING.c.id)
        else:
            column = SORTS.get(sort, SORTS["id"])[1]
            order = [column.desc() if descending else column.asc(), FILING.c.id.desc() if descending else FILING.c.id]
            if sort != "id":  # a filing with no value last either way (an id is never missing)
                order.insert(0, column.is_(None))
            query = query.where(*where).order_by(*order).limit(per_page).offset((page - 1) * per_page)
        rows = [FilingSummary(*r) for r in conn.execute(query)]
    return FilingPage(rows, total, page, pages)
