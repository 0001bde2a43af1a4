"""The record checks itself: ``permits check``, and the daily sweep's
sample of it.

What the store keeps beside each filing's history is derived from it:
the filing's state, next deadline and clocks with their statuses (written
by recording an event, an import, the daily sweep and ``permits
rederive``, each through the one builder
:func:`models.store.filings.derived_from`, as of the day
:func:`models.store.filings.derivation_day` chooses), the columns the
search finds it by, the docket's tally of the clocks (the Today page's
counts) and a street opening's deposit ledger.  :func:`check_record`
replays each filing (or a sample) as of the day its stored rows say they
are as of (``derived_on``; or the day asked), builds the rows again with
that same builder and compares them with what is stored, field by field,
and that the day the daily sweep is to take an open filing up next
(``next_change_on``) is not after a day its clocks may change;
then (a whole check) sums the docket's tally against the clocks and
reconciles the deposit ledger (:func:`services.ledger_check.check_ledger`).
Every difference names the filing and what differs in people's words.

Read only: it writes nothing.  A difference is repaired by ``permits
rederive`` (which writes what a writer writes today).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date

from workflows.errors import PermitsError

__all__ = ["Drift", "RecordCheck", "check_record", "STORED_STATUS_WORDS"]

#: the statuses the store keeps that no replay gives (a deadline still to
#: be done, a period running), in words; the others are the replay's own
#: (:data:`workflows.vocabulary.STATUS_NAMES`)
STORED_STATUS_WORDS = {"due": "still to be done", "runs": "running"}

_SEARCH_WORDS = {
    "address": "the site's address the search finds it by",
    "parcel": "the parcel the search finds it by",
    "site_key": "the address as the search compares it",
    "massdep_file": "the MassDEP file number the search finds it by",
    "applicant": "the applicant the search finds it by",
    "owner": "the owner the search finds it by",
    "contractor": "the contractor the search finds it by",
}


@dataclass(frozen=True)
class Drift:
    """One difference between what the store keeps and what the record
    implies: ``subject`` (a filing's id, or "the docket's counts", or a
    deposit account), and the sentence saying it."""

    subject: str
    words: str

    def line(self) -> str:
        return f"{self.subject}: {self.words}"

    def as_dict(self) -> dict:
        return {"subject": self.subject, "words": self.words}


@dataclass(frozen=True)
class RecordCheck:
    """What a check found: ``filings`` checked (of ``total``), whether the
    docket's counts and the deposit ledger were checked too (a whole
    check), and the ``differences``."""

    filings: int
    total: int
    whole: bool
    differences: list[Drift] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences

    def as_dict(self) -> dict:
        return {
            "filings": self.filings,
            "total": self.total,
            "whole": self.whole,
            "differences": [d.as_dict() for d in self.differences],
        }


def _status(status: str) -> str:
    from workflows.vocabulary import status_name

    return STORED_STATUS_WORDS.get(status) or status_name(status).lower()


def _clock_words(c: dict) -> str:
    from workflows.vocabulary import clock_name
    from workflows.written import day_written

    return f"{clock_name(c['clock_id'])} ({day_written(c['date'])})"


def _clock_drift(kept: dict | None, made: dict | None) -> list[str]:
    """What differs between a stored clock and the clock the record implies, in words."""
    from workflows.written import day_written, time_written

    if kept is None:
        return [f"{_clock_words(made)} is missing from the store ({_status(made['status'])} by the record)"]
    if made is None:
        return [f"{_clock_words(kept)} is kept but the record has no such clock"]
    if kept["clock_id"] != made["clock_id"]:
        return [f"{_clock_words(kept)} is kept where the record has {_clock_words(made)}"]
    out = []
    if kept["date"] != made["date"]:
        out.append(f"{_clock_words(made)} is kept as falling on {day_written(kept['date'])}")
    if kept["at"] != made["at"]:
        said = time_written(kept["at"]) if kept["at"] else "no time"
        out.append(
            f"{_clock_words(made)} is kept at {said}, the record says {time_written(made['at']) if made['at'] else 'no time'}"
        )
    if kept["status"] != made["status"]:
        # a period no act meets (the appeal period) is "met" once it has run out
        ran = {"met": "run out"} if {kept["status"], made["status"]} == {"runs", "met"} else {}
        was, said = (ran.get(x) or _status(x) for x in (kept["status"], made["status"]))
        out.append(f"{_clock_words(made)} is kept as {was}; the record says {said}")
    if kept["filing_open"] != made["filing_open"]:
        out.append(f"{_clock_words(made)} is counted as of {'an open' if kept['filing_open'] else 'a closed'} filing")
    if (kept["type"], kept["rule"]) != (made["type"], made["rule"]):
        out.append(f"{_clock_words(made)} is kept under another rule")
    elif kept["explanation"] != made["explanation"] and not out:
        out.append(f"{_clock_words(made)} is kept with another explanation than the record gives")
    return out


def _filing_drift(filing, kept, made, search: dict) -> list[str]:
    """Every difference of one filing, in words."""
    from workflows.vocabulary import clock_name, state_name
    from workflows.written import day_written

    out = []
    if kept.state != made.state:
        out.append(f"kept as {state_name(filing.kind, kept.state)!r}; the record says {state_name(filing.kind, made.state)!r}")
    if (kept.next_date, kept.next_clock) != (made.next_date, made.next_clock):

        def nxt(day, clock):
            if not clock and day is None:
                return "none"
            return f"{clock_name(clock) if clock else 'no deadline named'}, {day_written(day) if day else 'no day'}"

        out.append(
            f"its next deadline is kept as {nxt(kept.next_date, kept.next_clock)}; "
            f"the record says {nxt(made.next_date, made.next_clock)}"
        )
    for i in range(max(len(kept.clocks), len(made.clocks))):
        k = kept.clocks[i] if i < len(kept.clocks) else None
        m = made.clocks[i] if i < len(made.clocks) else None
        out += _clock_drift(k, m)
    for name, value in search.items():
        if kept.search.get(name) != value:
            out.append(
                f"{_SEARCH_WORDS[name]} is kept as {kept.search.get(name) or 'nothing'}; the record says {value or 'nothing'}"
            )
    return out


def _late_sweep(filing, kept, replayer, day: date) -> list[str]:
    """An open filing kept as next changing after a day its clocks, a
    reminder or a notice may change (:mod:`sweep.next_change`): the daily
    sweep would not take it up in time.  A day kept earlier is no fault
    (the sweep takes it and finds nothing)."""
    from sweep.agenda import is_open
    from sweep.next_change import NO_CHANGE, next_change
    from workflows.written import day_written

    if kept.next_change_on is None:
        return []
    result = replayer(filing, day)
    if not is_open(result):
        return []
    due = next_change(result, day)
    if kept.next_change_on <= due:
        return []
    kept_day = (
        "only when an event is recorded" if kept.next_change_on >= NO_CHANGE else f"next on {day_written(kept.next_change_on)}"
    )
    return [
        f"the daily sweep is to take it up {kept_day}, but its deadlines, reminders or notices may change on "
        f"{day_written(due)} ('permits sweep --all' takes it up)"
    ]


def _expected_search(filing) -> dict:
    from models.store.filings import search_columns
    from models.store.parties import PARTY_ROLES, party_specs

    specs = party_specs(filing)
    return {**search_columns(filing), **{role: (specs[role]["name"] if role in specs else None) for role in PARTY_ROLES}}


def _one(store, conn, fid: str, as_of: date | None) -> list[str]:
    from models.read.derived import clock_key, stored
    from models.store.filings import derivation_day, derive
    from workflows.written import day_written

    kept = stored(conn, fid)
    if kept is None:
        return ["no longer in the store"]
    if kept.derived_on is None and as_of is None:
        return ["its clocks say no day they are as of (kept before this release): 'permits rederive' gives them one"]
    filing, _ = store.load(fid, conn)
    day = derivation_day(filing, as_of) if as_of is not None else kept.derived_on
    made = derive(filing, store.replayer, day)
    made = type(made)(made.state, made.next_date, made.next_clock, tuple(clock_key(c) for c in made.clocks), made.as_of)
    out = _filing_drift(filing, kept, made, _expected_search(filing))
    if not out and as_of is None:
        out = _late_sweep(filing, kept, store.replayer, day)
    if out and as_of is None:
        out = [f"as of {day_written(day)}, {line}" for line in out]
    return out


def _ids(store, town: str | None) -> list[str]:
    from sqlalchemy import select

    from models.schema.tables import FilingRow

    filing = FilingRow.__table__
    query = select(filing.c.id).order_by(filing.c.id)
    if town is not None:
        query = query.where(filing.c.town == town)
    with store.reader.connect() as conn:
        return list(conn.execute(query).scalars())


def _tally_drift(store) -> list[Drift]:
    from models.read.derived import clock_sums, tally_sums
    from workflows.vocabulary import kind_name
    from workflows.written import day_written

    with store.reader.connect() as conn:
        tally, clocks = tally_sums(conn), clock_sums(conn)
    out = []
    for key in sorted(set(tally) | set(clocks), key=lambda k: (k[1], k[2], k[3], k[0])):
        status, day, town, kind = key
        if tally.get(key, 0) != clocks.get(key, 0):
            out.append(
                Drift(
                    "the docket's counts",
                    f"{town.title()}'s {kind_name(kind)} deadlines {_status(status)} on {day_written(day)} "
                    f"are counted {tally.get(key, 0)}; the clocks hold {clocks.get(key, 0)}",
                )
            )
    return out


def check_record(
    store,
    *,
    as_of: date | None = None,
    sample: int | None = None,
    town: str | None = None,
    seed: int | None = None,
    progress=None,
) -> RecordCheck:
    """Check every filing (of ``town``; None: every town), or ``sample`` of
    them chosen at random (``seed``: the same choice each time), against
    its history: each replayed as of the day its stored rows are as of, or
    ``as_of`` when given (:func:`models.store.filings.derivation_day`: what
    a writer that day would store, so a later day finds what time has
    changed since).  A whole check (no ``sample``, no ``town``) also sums
    the docket's tally against the clocks and reconciles the deposit
    ledger.  ``progress``: a :class:`services.sweep.Progress`.  Writes nothing."""
    ids = _ids(store, town)
    total = len(ids)
    if sample is not None and sample < total:
        ids = sorted(random.Random(seed).sample(ids, sample))
    whole = sample is None or sample >= total
    out: list[Drift] = []
    if progress is not None:
        progress.start(len(ids))
    with store.reader.connect() as conn:
        for fid in ids:
            try:
                lines = _one(store, conn, fid, as_of)
            except PermitsError as exc:  # a history the engine refuses is itself a finding
                lines = [f"its history cannot be replayed: {exc}"]
            out += [Drift(fid, line) for line in lines]
            if progress is not None:
                progress.update(1)
    if whole and town is None:
        out += _tally_drift(store)
        from .ledger_check import check_ledger

        out += [Drift("the deposit ledger", d.words()) for d in check_ledger(store).differences]
    return RecordCheck(len(ids), total, whole and town is None, out)
