"""The deposit and fee ledger, read: an applicant's statement, a permit's
entries, the permits with a deposit (charged, received, kept, refunded,
held) and their totals, the winter patches past due (Canton 16-12 §4-6,
§11.3(c)).  Its writes are
:mod:`models.store.deposit_ledger`.
"""

from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.engine import Connection, Engine

from models.errors import UnknownApplicant
from models.read.queries import as_date
from models.schema.tables import FilingClock, FilingRow, LedgerEntry, Party
from workflows.deposit_events import REVERSED
from workflows.deposits import Line, Statement, statement

__all__ = [
    "UnknownApplicant",
    "PermitDeposit",
    "DepositTotals",
    "applicant_statement",
    "winter_defaults",
    "deposits",
    "deposits_query",
    "filing_entries",
    "party_row",
    "account_lines",
    "stored_line",
    "ledger_sums",
    "accounts",
]

PARTY, LEDGER, FILING, CLOCK = Party.__table__, LedgerEntry.__table__, FilingRow.__table__, FilingClock.__table__


def stored_line(r) -> Line:
    """A stored entry as the core reads it (a reversing line by its source)."""
    reverses = (r.source or "").startswith(REVERSED)
    return Line(r.entry, r.amount_cents, r.date, r.filing_id, r.item, r.quantity, r.rule, r.note or "", reverses)


def account_lines(conn: Connection, party_id: int) -> list[Line]:
    rows = conn.execute(select(LEDGER).where(LEDGER.c.party_id == party_id).order_by(LEDGER.c.seq)).all()
    return [stored_line(r) for r in rows]


def party_row(conn: Connection, name: str, *, lock: bool = False):
    """The applicant's row (locked for a write when ``lock``); UnknownApplicant."""
    query = select(PARTY).where(PARTY.c.name == name)
    row = conn.execute(query.with_for_update(key_share=True) if lock else query).first()  # as DepositLedger.fill_many
    if row is None:
        raise UnknownApplicant(name)
    return row


def applicant_statement(engine: Engine, name: str) -> Statement:
    """The applicant's account: every entry, what each permit holds."""
    with engine.connect() as conn:
        party = party_row(conn, name)
        return statement(name, account_lines(conn, party.id))


def winter_defaults(engine: Engine, name: str, day: date) -> list[tuple[str, date]]:
    """The applicant's permits whose winter patch was due before ``day``
    and is not on record (stored ``due``): each a Default (16-12 §11.3(c))."""
    with engine.connect() as conn:
        party = party_row(conn, name)
        rows = conn.execute(
            select(CLOCK.c.filing_id, CLOCK.c.date)
            .join(FILING, FILING.c.id == CLOCK.c.filing_id)
            .where(
                FILING.c.applicant_id == party.id,
                CLOCK.c.clock_id == "winter-patch",
                CLOCK.c.status == "due",
                CLOCK.c.date < day,
            )
            .order_by(CLOCK.c.filing_id)
        ).all()
    return [(f, d if isinstance(d, date) else date.fromisoformat(str(d))) for f, d in rows]


@dataclass(frozen=True)
class PermitDeposit:
    """A permit's deposit in the ledger, in cents, each figure a line of
    its own: ``charged``, ``received``, ``kept`` (for a repair after a
    Default), ``refunded``; ``held`` what the Town holds (received less
    kept and refunded); ``charged_on`` the day it was charged."""

    filing: str
    town: str
    state: str
    address: str | None
    applicant: str
    charged: int
    received: int
    kept: int
    refunded: int
    held: int
    charged_on: date | None


@dataclass(frozen=True)
class DepositTotals:
    """The sums of the permits a filter keeps, in cents."""

    permits: int = 0
    charged: int = 0
    received: int = 0
    kept: int = 0
    refunded: int = 0
    held: int = 0


def _sum(entry: str):
    return func.sum(case((LEDGER.c.entry == entry, LEDGER.c.amount_cents), else_=0))


def deposits_query(*, towns, state: str | None = None, charged_before: date | None = None):
    """The SELECT of :func:`deposits`, without its page: each permit's sums
    by (filing, party) from the ledger alone, in filing order, read along
    ``ix_ledger_entry_filing_party`` (migration 0090: the filing, the party,
    the entry and its amount, so the sums are made as the index is read,
    with no sort, and a page stops at its last permit).  A permit is listed
    once a deposit was charged or received for it.  ``towns`` (None: all)
    and ``state`` keep the permits of those towns and that state;
    ``charged_before`` those whose deposit was charged before that day."""
    charged, received = _sum("deposit"), _sum("received")
    kept, refunded = _sum("deduction"), _sum("refund")
    held = received - kept - refunded
    charged_on = func.min(case((LEDGER.c.entry == "deposit", LEDGER.c.date), else_=None))
    query = select(
        LEDGER.c.filing_id,
        LEDGER.c.party_id,
        charged.label("charged"),
        received.label("received"),
        kept.label("kept"),
        refunded.label("refunded"),
        held.label("held"),
        charged_on.label("charged_on"),
    ).where(LEDGER.c.filing_id.is_not(None))
    if towns is not None or state is not None:
        scope = select(FILING.c.id)
        if towns is not None:
            scope = scope.where(FILING.c.town.in_(list(towns)))
        if state is not None:
            scope = scope.where(FILING.c.state == state)
        query = query.where(LEDGER.c.filing_id.in_(scope))
    having = or_(charged != 0, received != 0)
    if charged_before is not None:
        having = and_(having, charged_on < charged_before)
    return query.group_by(LEDGER.c.filing_id, LEDGER.c.party_id).having(having).order_by(LEDGER.c.filing_id, LEDGER.c.party_id)


def deposits(
    engine: Engine,
    *,
    towns,
    state: str | None = None,
    charged_before: date | None = None,
    limit: int | None = 200,
    offset: int = 0,
) -> tuple[list[PermitDeposit], DepositTotals]:
    """The permits of ``towns`` (None: all) with a deposit, by filing id, a
    page of them (``limit`` None: every one), and the totals of every
    permit the filters keep: the ledger's sums (:func:`deposits_query`),
    then the page's permits and applicants by key."""
    sums = deposits_query(towns=towns, state=state, charged_before=charged_before)
    page = (sums.limit(limit) if limit is not None else sums).offset(offset).subquery()
    rows = (
        select(
            page.c.filing_id,
            FILING.c.town,
            FILING.c.state,
            FILING.c.address,
            PARTY.c.name,
            page.c.charged,
            page.c.received,
            page.c.kept,
            page.c.refunded,
            page.c.held,
            page.c.charged_on,
        )
        .select_from(page.join(FILING, FILING.c.id == page.c.filing_id).join(PARTY, PARTY.c.id == page.c.party_id))
        .order_by(page.c.filing_id, page.c.party_id)
    )
    every = sums.order_by(None).subquery()
    totals = select(
        func.count(),
        *(func.coalesce(func.sum(every.c[n]), 0) for n in ("charged", "received", "kept", "refunded", "held")),
    ).select_from(every)
    with engine.connect() as conn:
        total = DepositTotals(*(int(v or 0) for v in conn.execute(totals).one()))
        found = conn.execute(rows).all()
    return [PermitDeposit(*r[:10], as_date(r[10])) for r in found], total


def filing_entries(engine: Engine, filing_id: str) -> list[Line]:
    """The ledger's entries for one permit, in the order they were recorded."""
    with engine.connect() as conn:
        rows = conn.execute(select(LEDGER).where(LEDGER.c.filing_id == filing_id).order_by(LEDGER.c.party_id, LEDGER.c.seq)).all()
    return [stored_line(r) for r in rows]


def ledger_sums(engine: Engine) -> dict[str, dict]:
    """Every permit's ledger, summed for the reconciliation
    (:mod:`services.ledger_check`): filing id -> ``{"party": id,
    "events": {entry: cents}, "by_hand": {entry: cents}}``: the lines filled
    from its events (a source, reversals netted) and those entered by hand
    (``permits deposits --charge``, ``--deduct``, ``--refund``: no source),
    and how many of those (``"by_hand_lines"``)."""
    by_hand = LEDGER.c.source.is_(None)
    query = (
        select(
            LEDGER.c.filing_id,
            LEDGER.c.party_id,
            LEDGER.c.entry,
            by_hand.label("by_hand"),
            func.sum(LEDGER.c.amount_cents),
            func.count(),
        )
        .where(LEDGER.c.filing_id.is_not(None))
        .group_by(LEDGER.c.filing_id, LEDGER.c.party_id, LEDGER.c.entry, by_hand)
    )
    out: dict[str, dict] = {}
    with engine.connect() as conn:
        for filing, party, entry, hand, cents, lines in conn.execute(query):
            got = out.setdefault(filing, {"party": party, "events": {}, "by_hand": {}, "by_hand_lines": 0})
            side = got["by_hand" if hand else "events"]
            side[entry] = side.get(entry, 0) + int(cents or 0)
            if hand:
                got["by_hand_lines"] += int(lines)
    return out


def accounts(engine: Engine) -> list[tuple[str, list[Line]]]:
    """Each applicant's account with entries: (name, its lines in order),
    in one pass over the ledger."""
    out: dict[int, tuple[str, list[Line]]] = {}
    query = select(LEDGER, PARTY.c.name.label("party_name")).join(PARTY, PARTY.c.id == LEDGER.c.party_id)
    with engine.connect() as conn:
        for r in conn.execute(query.order_by(LEDGER.c.party_id, LEDGER.c.seq)):
            out.setdefault(r.party_id, (r.party_name, []))[1].append(stored_line(r))
    return list(out.values())
