"""The Filings page's list: the filings of a user's towns and kinds,
searched (:func:`models.workbench.matching`), narrowed by town, kind and
state, sorted by a column either way, one page at a time, with the total.

Pages are numbered (offset): the list shows "page 3 of 41", previous and
next.  The total is one ``count`` over the same condition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from .service import Store
from .tables import FilingRow, Party
from .workbench import FilingSummary, matching

__all__ = ["SORTS", "FilingPage", "filing_list"]

FILING, PARTY = FilingRow.__table__, Party.__table__
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
    applicant, contractor = aliased(PARTY), aliased(PARTY)
    where = [FILING.c.kind.in_(list(kinds))]
    if towns is not None:
        where.append(FILING.c.town.in_(list(towns)))
    if text.strip():
        where.append(matching(text))
    if state:
        where.append(FILING.c.state == state)
    column = SORTS.get(sort, SORTS["id"])[1]
    order = [column.is_(None), column.desc() if descending else column.asc(), FILING.c.id.desc() if descending else FILING.c.id]
    with store.reader.connect() as conn:
        total = conn.execute(select(func.count()).select_from(FILING).where(*where)).scalar_one()
        pages = max(1, -(-total // per_page))
        page = min(max(page, 1), pages)
        query = (
            select(
                FILING.c.id,
                FILING.c.town,
                FILING.c.kind,
                FILING.c.state,
                FILING.c.last_seq,
                FILING.c.address,
                FILING.c.parcel,
                applicant.c.name,
                contractor.c.name,
                FILING.c.next_deadline_date,
                FILING.c.next_deadline_clock,
            )
            .outerjoin(applicant, applicant.c.id == FILING.c.applicant_id)
            .outerjoin(contractor, contractor.c.id == FILING.c.contractor_id)
            .where(*where)
            .order_by(*order)
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
        rows = [FilingSummary(*r) for r in conn.execute(query)]
    return FilingPage(rows, total, page, pages)
