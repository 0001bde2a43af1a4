"""What the daily sweep reads of the record: which open filings it takes,
and their histories, a chunk at a time in two statements (not two per
filing).

- :func:`sweep_ids`: the open filings, in id order; with ``as_of``, only
  those whose day has come (``next_change_on`` on or before it, or none
  kept: a row written before migration 0186), the incremental sweep's;
- :func:`load_filings`: the chunk's filings as the core's
  :class:`~workflows.filing.Filing`, or the error that the one that cannot
  be read raises.

Read only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import date

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection

from models.errors import UnknownFiling
from models.read.queries import as_json, filing_json
from models.schema.tables import EventRow, FilingRow
from workflows.errors import PermitsError
from workflows.filing import Filing, parse_filing

__all__ = ["sweep_ids", "load_filings"]

FILING, EVENT = FilingRow.__table__, EventRow.__table__


def sweep_ids(conn: Connection, closed: Mapping[str, Collection[str]], as_of: date | None = None) -> list[str]:
    """The ids of the open filings (a state not among ``closed``, the
    final states of its kind), in id order; with ``as_of`` only those whose
    next change has come (the index on ``next_change_on``)."""
    query = select(FILING.c.id, FILING.c.kind, FILING.c.state)
    if as_of is not None:
        query = query.where(or_(FILING.c.next_change_on.is_(None), FILING.c.next_change_on <= as_of))
    return [fid for fid, kind, state in conn.execute(query.order_by(FILING.c.id)) if state not in closed.get(kind, ())]


def load_filings(conn: Connection, ids: Sequence[str]) -> list[Filing | tuple[str, PermitsError]]:
    """Each of ``ids`` (at most a few hundred: one chunk) as a Filing, in
    the order asked, or (id, error) for one the engine cannot read or that
    is gone: the rows in one statement, every event in another."""
    rows = {
        r.id: r
        for r in conn.execute(
            select(FILING.c.id, FILING.c.town, FILING.c.kind, FILING.c.also, FILING.c.extra).where(FILING.c.id.in_(ids))
        )
    }
    raws: dict[str, list] = {}
    query = select(EVENT.c.filing_id, EVENT.c.raw).where(EVENT.c.filing_id.in_(ids)).order_by(EVENT.c.filing_id, EVENT.c.seq)
    for fid, raw in conn.execute(query):
        raws.setdefault(fid, []).append(as_json(raw))
    out: list = []
    for fid in ids:
        row = rows.get(fid)
        if row is None:
            out.append((fid, UnknownFiling(fid)))
            continue
        try:
            out.append(parse_filing(filing_json(row.town, row.kind, row.id, row.also, row.extra, raws.get(fid, []))))
        except PermitsError as exc:
            out.append((fid, exc))
    return out
