"""Re-derive what the store keeps about each filing from its history:
``permits rederive``.

Recording an event stores, in its transaction, what the filing's history
now implies (``services.record.record_event``): the filing's state, its
next deadline and its clocks (``filing_clock``: the DPW's inspection clocks
of Canton 16-12 §10.2 among them), and a street opening's deposit ledger
lines (Canton 16-12 §4-6: :func:`services.deposits.fill_ledger_in`).  A store
built before a release that derives more (the inspection clocks, the
ledger) holds the older derivation until each permit records its next
event.  :func:`rederive` brings every filing up to date at once: each
filing is replayed as recording replays it (:func:`models.store.filings.derive`)
as of the day it runs and what differs is rewritten, in one transaction per filing with the
filing's row locked, so a writer recording meanwhile waits or wins and
nothing is half-written.  The ledger only ever gains lines (it is
append-only): the lines the live events call for and the ledger lacks.

Run twice, the second run changes nothing.  ``dry_run`` does the same work
and rolls each transaction back: the counts of what a run would change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

__all__ = ["Rederived", "rederive"]


@dataclass(frozen=True)
class Rederived:
    """What a re-derivation found: ``filings`` replayed, ``clocks_changed``
    (filings whose state, next deadline or clocks were rewritten) and
    ``ledger_lines`` appended; ``dry_run``: nothing was kept."""

    filings: int
    clocks_changed: int
    ledger_lines: int
    dry_run: bool

    def as_dict(self) -> dict:
        return {
            "filings": self.filings,
            "clocks_changed": self.clocks_changed,
            "ledger_lines": self.ledger_lines,
            "dry_run": self.dry_run,
        }


def _key(d) -> tuple:
    """What a re-derivation compares: a derivation (stored, or made) as
    (state, next deadline, clocks)."""
    from models.read.derived import clock_key

    return (d.state, d.next_date, d.next_clock, tuple(clock_key(c) for c in d.clocks))


def _filing_ids(store, town: str | None) -> list[str]:
    from sqlalchemy import select

    from models.schema.tables import FilingRow

    filing = FilingRow.__table__
    query = select(filing.c.id).order_by(filing.c.id)
    if town is not None:
        query = query.where(filing.c.town == town)
    with store.reader.connect() as conn:
        return list(conn.execute(query).scalars())


def rederive(
    store,
    *,
    by: str,
    town: str | None = None,
    dry_run: bool = False,
    progress=None,
    today: date | None = None,
) -> Rederived:
    """Replay every filing (of ``town``; None: every town) as of ``today``
    (:func:`models.store.filings.derivation_day`: never before its last
    event, nor before the day its rows are already as of) and store what a
    writer that day stores: its state, next deadline and clocks where they
    differ, and a street opening's missing ledger lines (recorded ``by``);
    a unit of work per filing.  A filing whose rows are right but as of an
    earlier day is given the later day (not counted).  ``dry_run``: count,
    keep nothing.  ``progress``: a :class:`services.sweep.Progress`
    (``start(total)``, then ``update(1)`` per filing)."""
    from models.read.derived import stored
    from models.store.docket_tally import settle
    from models.store.filings import derivation_day, derive, write_derived
    from services.deposits import fill_ledger_in
    from services.unit_of_work import UnitOfWork

    ids = _filing_ids(store, town)
    if progress is not None:
        progress.start(len(ids))
    changed = lines = 0
    for fid in ids:
        with UnitOfWork(store) as uow:
            conn = uow.conn
            filing, row = store.load(fid, conn, lock=True)
            d = derive(filing, store.replayer, derivation_day(filing, today, row.derived_on))
            differs = _key(d) != _key(stored(conn, fid))
            if differs or row.derived_on != d.as_of:
                write_derived(conn, fid, d, store.now(), last_seq=row.last_seq)
                settle(conn)
                changed += differs
            lines += fill_ledger_in(uow, store, filing, by=by)
            if dry_run:
                uow.discard()
        if progress is not None:
            progress.update(1)
    return Rederived(len(ids), changed, lines, dry_run)
