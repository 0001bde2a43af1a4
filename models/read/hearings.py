"""The hearings still to be held, read for a calendar: every filing of the
towns and kinds asked whose hearing is scheduled or open (its state
``hearing-scheduled`` or ``hearing-open``), with its history, so the core
can say each session's day and time (:func:`workflows.meetings.hearing_sessions`),
and the meetings of those towns from a day on.  Two queries for the
filings (their rows, then their events, in one pass), one per town for the
meetings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import and_, select

from models.handle import Store
from models.read.queries import as_json, filing_json
from models.schema.meeting_tables import MEETING
from models.schema.tables import EventRow, FilingRow
from workflows.filing import parse_filing

__all__ = ["PendingHearing", "HEARING_STATES", "pending_hearings", "meetings_from", "MAX_HEARINGS"]

FILING, EVENT = FilingRow.__table__, EventRow.__table__
#: a filing in these states has a hearing still to hold (a session scheduled, or continued to)
HEARING_STATES = ("hearing-scheduled", "hearing-open")
#: the most filings with a pending hearing one read returns (a calendar's worth, bounded)
MAX_HEARINGS = 2000


@dataclass(frozen=True)
class PendingHearing:
    """A filing with a hearing to hold: the core's filing and its row's
    address (the site) and applicant."""

    filing: Any  # workflows.filing.Filing
    address: str | None


def pending_hearings(store: Store, *, towns: Sequence[str] | None, kinds: Sequence[str]) -> list[PendingHearing]:
    """The filings of ``towns`` (None: all) and ``kinds`` whose hearing is
    scheduled or open, each with its whole history, by id."""
    query = select(FILING.c.id, FILING.c.town, FILING.c.kind, FILING.c.also, FILING.c.extra, FILING.c.address).where(
        FILING.c.state.in_(HEARING_STATES), FILING.c.kind.in_(list(kinds))
    )
    if towns is not None:
        query = query.where(FILING.c.town.in_(list(towns)))
    with store.reader.connect() as conn:
        rows = conn.execute(query.order_by(FILING.c.id).limit(MAX_HEARINGS)).all()
        if not rows:
            return []
        raws: dict[str, list] = {r.id: [] for r in rows}
        events = (
            select(EVENT.c.filing_id, EVENT.c.raw)
            .where(EVENT.c.filing_id.in_(list(raws)))
            .order_by(EVENT.c.filing_id, EVENT.c.seq)
        )
        for fid, raw in conn.execute(events):
            raws[fid].append(as_json(raw))
    return [PendingHearing(parse_filing(filing_json(r.town, r.kind, r.id, r.also, r.extra, raws[r.id])), r.address) for r in rows]


def meetings_from(store: Store, *, towns: Sequence[str], since: date, until: date) -> list:
    """The meetings (:class:`models.read.meetings.Meeting`) of ``towns``
    from ``since`` through ``until``, soonest first."""
    from models.read.meetings import meeting_of_row

    query = (
        select(MEETING)
        .where(and_(MEETING.c.town.in_(list(towns)), MEETING.c.day >= since, MEETING.c.day <= until))
        .order_by(MEETING.c.starts_at, MEETING.c.id)
    )
    with store.reader.connect() as conn:
        return [meeting_of_row(r) for r in conn.execute(query)]
