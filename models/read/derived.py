"""What the store keeps derived from each filing's history, read back as it
is stored: the filing row's state, next deadline and the day its rows are
as of (``derived_on``), its clocks (``filing_clock``), the columns the
search finds it by, and the docket's tally beside the clocks it counts.

``permits check`` (:mod:`services.record_check`) compares these with what
the history implies; ``permits rederive`` (:mod:`services.rederive`) with
what it would write.  Read only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from models.read.queries import as_date, as_datetime
from models.schema.clock_indexes import DOCKET_INDEX_STATUSES
from models.schema.tables import DocketTally, FilingClock, FilingRow, Party

__all__ = ["CLOCK_FIELDS", "SEARCH_FIELDS", "StoredDerivation", "clock_key", "stored", "tally_sums", "clock_sums"]

FILING, CLOCK, PARTY, TALLY = FilingRow.__table__, FilingClock.__table__, Party.__table__, DocketTally.__table__

#: a clock row's fields as :func:`models.store.filings.derived_from` gives them
CLOCK_FIELDS = (
    "n",
    "clock_id",
    "type",
    "date",
    "at",
    "status",
    "rule",
    "explanation",
    "filing_town",
    "filing_kind",
    "filing_open",
)
#: what the search finds a filing by, on its row (migrations 0050, 0181) and its parties' names
SEARCH_FIELDS = ("address", "parcel", "site_key", "massdep_file", "applicant", "owner", "contractor")
_ROLES = ("applicant", "owner", "contractor")


@dataclass(frozen=True)
class StoredDerivation:
    """One filing's derived rows as stored."""

    state: str
    next_date: date | None
    next_clock: str | None
    derived_on: date | None
    clocks: tuple[dict, ...]
    search: dict
    next_change_on: date | None = None  # the day the daily sweep next takes it (migration 0186)


def clock_key(c) -> dict:
    """A clock row (stored, or as :func:`models.store.filings.derived_from`
    makes it) in one shape: dates as dates, a time to the second without
    its zone, an explanation never None, the open flag a bool."""
    at = as_datetime(c["at"])
    if at is not None:
        at = at.replace(tzinfo=None, microsecond=0)
    out = {k: c[k] for k in CLOCK_FIELDS}
    out.update(date=as_date(c["date"]), at=at, explanation=c["explanation"] or "", filing_open=bool(c["filing_open"]))
    return out


def stored(conn: Connection, filing_id: str) -> StoredDerivation | None:
    """The filing's derived rows as the store holds them (None: no such filing)."""
    roles = {role: PARTY.alias(role) for role in _ROLES}
    query = select(
        FILING.c.state,
        FILING.c.next_deadline_date,
        FILING.c.next_deadline_clock,
        FILING.c.derived_on,
        FILING.c.next_change_on,
        FILING.c.address,
        FILING.c.parcel,
        FILING.c.site_key,
        FILING.c.massdep_file,
        *(roles[r].c.name.label(r) for r in _ROLES),
    ).where(FILING.c.id == filing_id)
    joined = FILING
    for role, alias in roles.items():
        joined = joined.outerjoin(alias, alias.c.id == FILING.c[f"{role}_id"])
    row = conn.execute(query.select_from(joined)).mappings().first()
    if row is None:
        return None
    clocks = conn.execute(select(CLOCK).where(CLOCK.c.filing_id == filing_id).order_by(CLOCK.c.n)).mappings()
    return StoredDerivation(
        row["state"],
        as_date(row["next_deadline_date"]) if row["next_deadline_date"] is not None else None,
        row["next_deadline_clock"],
        as_date(row["derived_on"]) if row["derived_on"] is not None else None,
        tuple(clock_key(c) for c in clocks),
        {k: row[k] for k in SEARCH_FIELDS},
        as_date(row["next_change_on"]) if row["next_change_on"] is not None else None,
    )


def tally_sums(conn: Connection) -> Counter:
    """The docket's tally (:mod:`models.store.docket_tally`) summed: how many
    clocks it counts per (status, day, town, kind)."""
    query = select(TALLY.c.status, TALLY.c.date, TALLY.c.town, TALLY.c.kind, func.sum(TALLY.c.n)).group_by(
        TALLY.c.status, TALLY.c.date, TALLY.c.town, TALLY.c.kind
    )
    return Counter({(s, as_date(d), t, k): int(n) for s, d, t, k, n in conn.execute(query) if n})


def clock_sums(conn: Connection) -> Counter:
    """The same counts taken from the clocks themselves: the docket's
    clocks (its statuses) of the open filings."""
    query = (
        select(CLOCK.c.status, CLOCK.c.date, CLOCK.c.filing_town, CLOCK.c.filing_kind, func.count())
        .where(CLOCK.c.filing_open.is_(True), CLOCK.c.status.in_(DOCKET_INDEX_STATUSES))
        .group_by(CLOCK.c.status, CLOCK.c.date, CLOCK.c.filing_town, CLOCK.c.filing_kind)
    )
    return Counter({(s, as_date(d), t, k): int(n) for s, d, t, k, n in conn.execute(query)})
