"""A filing's writes: filings imported, events appended, the derived rows
(state, next deadline, clocks, the docket's tally) rewritten; each on the
connection of the service layer's unit of work, which commits.

Appending an event reads the filing's row (locked: ``SELECT ... FOR
UPDATE``, on SQLite the write lock) and its history, replays the history
with the new event through the core (:mod:`workflows.replay`), and only if
the core accepts it appends the event at the next sequence number and
rewrites the filing's derived state and clocks.  A second writer waits for
the lock and then sees the first writer's event, so two writers cannot
produce a history that was never replayed.  The primary key (filing, seq)
and the ``last_seq`` check on the row are a second guard.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

from sqlalchemy import and_, delete, insert, or_, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from models.errors import DuplicateFiling, EventFromTheFuture, StaleFiling, StoreError
from models.handle import Store
from models.read.queries import DOCKET_STATUSES, as_date, as_datetime
from models.schema.clock_indexes import filing_open
from models.schema.tables import Abutter, EventRow, FilingClock, FilingRow
from models.store import bulk
from models.store import docket_tally as tally
from models.store.parties import PARTY_ROLES, party_specs, upsert_parties
from workflows.errors import MalformedEvent
from workflows.filing import VOID, Filing, parse_filing
from workflows.numbers import massdep_file
from workflows.sites import spaced_key
from workflows.towns import declared_clock

__all__ = [
    "Derived",
    "derivation_day",
    "derive",
    "derived_from",
    "search_columns",
    "write_derived",
    "import_filings",
    "append_event",
    "void_raw",
    "split_provenance",
]

FILING, EVENT, CLOCK, ABUTTER = FilingRow.__table__, EventRow.__table__, FilingClock.__table__, Abutter.__table__

#: the replay statuses of a deadline still to be acted on (open or overdue,
#: which the docket decides from the day asked)
_DUE = {"open", "overdue"}
#: filings checked between two calls of an import's progress callback
_PROGRESS_STEP = 100
#: the events that may change a filing's MassDEP file number (a void may undo one)
_NUMBERING = frozenset({"file-number-assigned", VOID})


@dataclass(frozen=True)
class Derived:
    """What the filing row and ``filing_clock`` hold about a filing: its
    history replayed as of ``as_of`` (stored as the row's ``derived_on``),
    and ``next_change``, the first day time alone may change it (the row's
    ``next_change_on``, which the incremental sweep selects by): the day
    the sweep found (:mod:`sweep.next_change`), else ``as_of`` itself, so
    a filing any other writer touched is swept next."""

    state: str
    next_date: date | None
    next_clock: str | None
    clocks: tuple[dict, ...]
    as_of: date | None = None
    next_change: date | None = None


@cache
def _due_kind(town_id: str, kind: str, clock_id: str) -> bool:
    """Whether a pending deadline is stored as ``due``: met by an act
    (``met_by``) and not optional.  A period that simply runs out (the appeal
    period) or an optional one (a renewal request) is stored as ``runs``.  A
    clock the rule book does not list stays on the docket."""
    clock = declared_clock(town_id, kind, clock_id)
    return clock is None or (bool(clock.met_by) and not clock.optional)


def derivation_day(filing: Filing, day: date | None, stored_on: date | None = None) -> date:
    """The day a writer replays ``filing`` as of to store it: the writer's
    ``day`` (the day an event is recorded, an import's, the sweep's, a
    ``permits rederive``'s), never before the filing's last event nor
    before the day its stored rows are already as of (``stored_on``, the
    row's ``derived_on``): a writer never moves a filing's clocks back in
    time (a clock stored ``passed`` by the sweep stays so when the next
    event is recorded).  Every writer asks this one function, so the store
    holds one reading of each clock whoever wrote it last, and
    ``permits check`` recomputes it exactly."""
    days = [d for d in (day, stored_on) if d is not None]
    days.append(max((e.date for e in filing.events), default=None) or date.min)
    return max(days)


def derive(filing: Filing, replayer, as_of: date) -> Derived:
    """Replay ``filing`` as of ``as_of`` (:func:`derivation_day`) and say
    what the store keeps of it: each clock's status as of that day, but a
    deadline still to be acted on is stored as ``due`` (open or overdue is
    the docket's question, asked with its own day) and a period that runs
    out by itself as ``runs`` while it runs.  Raises the core's FilingError
    for a history that cannot have happened."""
    result = replayer(filing, as_of)
    return derived_from(filing.town, filing.kind, _stage(result), result.clocks, as_of)


def _stage(result) -> str:
    """What the filing row's ``state`` holds: the replay's stage
    (:mod:`workflows.stage`: the machine's state, but ``incomplete`` for an
    online application sent back), so every list reads the word the
    filing's page shows."""
    return str(getattr(result, "stage", "") or result.state)


def derived_from(
    town_id: str, kind: str, state, clocks: Iterable, as_of: date | None = None, next_change: date | None = None
) -> Derived:
    """What the store keeps of one replay as of ``as_of``: its stage
    (``state``, from :func:`_stage`), and each clock with the stored status
    (``due``, ``runs``, or the replay's own) and the next deadline due.
    ``clocks`` are the replay's clocks, or their ``as_dict()`` (what the
    sweep hands :meth:`services.sweep_log.StoreOutputLog.save_derived`).
    ``next_change``: the day the sweep found time may next change it
    (None: ``as_of``, the day written: the next sweep looks at it).
    The one builder of the derived rows: recording, importing, the sweep,
    ``permits rederive`` and ``permits check`` all call it."""
    rows, next_clock = _clock_rows(town_id, kind, state, clocks)
    clock_rows = tuple(dict(zip(_CLOCK_KEYS, r)) for r in rows)
    return Derived(str(state), *(next_clock or (None, None)), clock_rows, as_of, next_change or as_of)


def _clock_rows(town_id: str, kind: str, state, clocks: Iterable) -> tuple[list[tuple], tuple | None]:
    """:func:`derived_from`'s clocks as tuples in ``_CLOCK_KEYS`` order (what
    an import writes), and the next deadline due as (date, clock id) or None.
    Each row carries its filing's town, kind and whether the filing in
    ``state`` is open (the Today page counts from these alone:
    :mod:`models.read.docket_counts`)."""
    rows, next_clock = [], None
    filing = (town_id, kind, filing_open(kind, state))
    for n, c in enumerate(clocks, start=1):
        if c.__class__ is not dict and hasattr(c, "rule"):  # the replay's ClockResult: its explanation made only if kept
            cid, ctype, day, at, status, rule, explanation = c.id, c.type, c.date, c.at, c.status, c.rule, None
        else:
            cid, ctype, day, at, status, rule, explanation = _clock_fields(c)
        if ctype == "deadline" and status in _DUE:
            status = "due" if _due_kind(town_id, kind, cid) else "runs"
        if status not in DOCKET_STATUSES:
            explanation = ""  # no docket lists it: its replay explains it (permits show)
        elif explanation is None:
            explanation = c.explanation
        rows.append((n, cid, ctype, day, at, status, rule, explanation, *filing))
        if status == "due" and (next_clock is None or day < next_clock[0]):
            next_clock = (day, cid)
    return rows, next_clock


def _clock_fields(c: Mapping) -> tuple:
    """A clock's ``as_dict()``, as the replay's ClockResult gives it."""
    at = c.get("at")
    return (c["id"], c["type"], as_date(c["date"]), as_datetime(at), c["status"], c["rule"], c["explanation"])


def write_derived(
    conn: Connection,
    filing_id: str,
    d: Derived,
    now: datetime,
    *,
    last_seq: int | None,
    new_seq: int | None = None,
    also: Mapping[str, Any] | None = None,
) -> bool:
    """Rewrite the filing's stored state, next deadline and ``filing_clock``
    rows from ``d``, inside the caller's transaction, only if the filing's
    ``last_seq`` is still ``last_seq`` (None: whatever it is); ``new_seq``
    moves it on; ``also``: other columns of the filing's row the event
    changed (its MassDEP file number).  False, and nothing written, when
    the row moved on or does not exist, or is already as of a later day
    than ``d`` (``derived_on``: a sweep of a day gone by does not move a
    filing's clocks back)."""
    values = {
        "state": d.state,
        "next_deadline_date": d.next_date,
        "next_deadline_clock": d.next_clock,
        "updated_at": now,
        "derived_on": d.as_of,
        "next_change_on": d.next_change if d.next_change is not None else d.as_of,
    }
    if new_seq is not None:
        values["last_seq"] = new_seq
    values.update(also or {})
    where = FILING.c.id == filing_id
    if last_seq is not None:
        where = and_(where, FILING.c.last_seq == last_seq)
    if d.as_of is not None:
        where = and_(where, or_(FILING.c.derived_on.is_(None), FILING.c.derived_on <= d.as_of))
    if conn.execute(update(FILING).where(where).values(**values)).rowcount != 1:
        return False
    gone = conn.execute(delete(CLOCK).where(CLOCK.c.filing_id == filing_id).returning(*_TALLIED)).all()
    if d.clocks:
        conn.execute(insert(CLOCK), [{"filing_id": filing_id, **c} for c in d.clocks])
    tally.record(conn, gone=gone, came=[tuple(c[k] for k in _TALLIED_KEYS) for c in d.clocks])
    return True


def import_filings(
    conn: Connection,
    store: Store,
    objects: Iterable[Mapping[str, Any]],
    *,
    by: str,
    progress: Callable[[int], None] | None = None,
    parsed: list | None = None,
    parsed_kind: str | None = None,
    day: date | None = None,
) -> list[str]:
    """Check every filing (form, replay, duplicate ids), then write them
    all on ``conn``, the unit of work's: any error and the caller's
    transaction rolls back with nothing written.  Each is stored replayed
    as of :func:`derivation_day` of ``day`` (the import's, passed in by
    the service layer; None: each filing's last event).  ``progress`` is told how
    many more filings were checked, every 100 and at the end (the command
    line's progress bar); ``parsed`` gains each filing of ``parsed_kind``
    as read (what the service derives more from: a street opening's
    ledger)."""
    now, replayer = store.now(), store.replayer
    ids, seen, named = [], set(), []
    # the rows, built as each filing is checked; events, clocks and
    # abutters flat, row after row (models.store.bulk.insert_flat)
    filings, events, clocks, abutters = [], [], [], []
    for obj in objects:
        obj, recorded = split_provenance(obj)
        filing = parse_filing(obj)
        fid = filing.id
        if fid in seen:
            raise DuplicateFiling(fid, "appears twice in the input")
        seen.add(fid)
        parties = party_specs(filing)
        as_of = derivation_day(filing, day)
        result = replayer(filing, as_of)
        if parsed is not None and filing.kind == parsed_kind:
            parsed.append(filing)
        rows, next_due = _clock_rows(filing.town, filing.kind, result.state, result.clocks)
        ids.append(fid)
        named.append(parties)
        filings.append(_filing_row(filing, _stage(result), next_due or (None, None), now, as_of))
        if any(recorded):
            for e in filing.events:
                events += _event_row(fid, e, *(recorded[e.position - 1] or (now, by)))
        else:
            for e in filing.events:
                events += _event_row(fid, e, now, by)
        for row in rows:
            clocks += (fid, *row)
        for a in parties.get("abutters", ()):
            abutters += (fid, a["name"], a["address"], a["parcel"])
        if progress is not None and len(ids) % _PROGRESS_STEP == 0:
            progress(_PROGRESS_STEP)
    if progress is not None and len(ids) % _PROGRESS_STEP:
        progress(len(ids) % _PROGRESS_STEP)
    _write_import(conn, ids, named, filings, events, clocks, abutters)
    return ids


def append_event(
    conn: Connection,
    store: Store,
    filing_id: str,
    raw_event: Mapping[str, Any],
    *,
    by: str,
    expect_seq: int | None = None,
    today: date | None = None,
) -> tuple[int, str, Filing]:
    """Append one event on ``conn`` (the unit of work's) if the filing's
    history with it replays; returns its sequence number, the filing's new
    state and the filing as it now stands (what the event's effects read).
    The filing's row is locked first (``SELECT ... FOR UPDATE``; on SQLite
    the write lock), so a second writer waits and then sees this event.
    ``expect_seq``: the sequence number the writer saw (a web form's); if
    another event was recorded since, :class:`StaleFiling` and nothing
    written.  ``today`` (passed in by the edge): an event dated after it has
    not happened, :class:`EventFromTheFuture`."""
    now = store.now()
    filing, row = store.load(filing_id, conn, lock=True)
    if expect_seq is not None and row.last_seq != expect_seq:
        raise StaleFiling(filing_id, expect_seq, row.last_seq)
    if len(filing.events) != row.last_seq:
        raise StoreError(
            f"{filing_id}: history has {len(filing.events)} events but the filing row says {row.last_seq}; refusing to write"
        )
    longer = filing.with_event(raw_event)
    event = longer.events[-1]
    if today is not None and event.date > today:
        raise EventFromTheFuture(filing_id, event.type, event.date, today)
    d = derive(longer, store.replayer, derivation_day(longer, today, row.derived_on))
    seq = row.last_seq + 1
    also = {}
    if event.type in _NUMBERING and massdep_file(longer) != row.massdep_file:  # what the search finds it by
        also["massdep_file"] = massdep_file(longer)
    conn.execute(insert(EVENT), [_event_values(filing_id, event, now, by)])
    if not write_derived(conn, filing_id, d, now, last_seq=row.last_seq, new_seq=seq, also=also):
        # pragma: no cover - the lock makes this unreachable
        raise StoreError(f"{filing_id}: another writer recorded event {seq} first; nothing written")
    tally.settle(conn)
    return seq, d.state, longer


def void_raw(seq: int, *, reason: str, day: date) -> dict:
    """The ``event-voided`` event naming event ``seq``; the replay refuses a
    void of a void, or of an event already voided."""
    return {"type": VOID, "date": day.isoformat(), "voids": seq, "reason": reason}


def _write_import(conn: Connection, ids, named, filings, events, clocks, abutters) -> None:
    """An import's rows, checked by :func:`import_filings`, written in
    the caller's transaction."""
    taken = bulk.select_in(conn, (FILING.c.id,), FILING.c.id, ids)
    if taken:
        raise DuplicateFiling(taken[0][0])
    # parties in name order (upsert_parties): two imports sharing parties
    # take their row locks in the same order and cannot deadlock
    party_ids = upsert_parties(conn, [p[role] for p in named for role in PARTY_ROLES if role in p])
    filings = [
        row + tuple(party_ids[p[role]["name"]] if role in p else None for role in PARTY_ROLES)
        for row, p in zip(filings, named, strict=True)
    ]
    try:
        bulk.insert_rows(conn, FILING, _FILING_COLUMNS, filings)
        for table, names, values in (
            (EVENT, _EVENT_COLUMNS, events),
            (CLOCK, _CLOCK_COLUMNS, clocks),
            (ABUTTER, _ABUTTER_COLUMNS, abutters),
        ):
            bulk.insert_flat(conn, table, names, values)
    except IntegrityError:  # another writer imported the same id meanwhile
        raise DuplicateFiling(", ".join(ids[:3]) + ("..." if len(ids) > 3 else "")) from None
    width = len(_CLOCK_COLUMNS)
    tally.record(conn, came=zip(*(clocks[_CLOCK_COLUMNS.index(k) :: width] for k in _TALLIED_KEYS)))
    tally.settle(conn)


#: the fields an export adds to each event, and an import takes back off
PROVENANCE = ("recorded_at", "recorded_by")


def _any_recorded(events: list) -> bool:
    """Whether an event carries ``recorded_at`` (a loop: most imports have none)."""
    for e in events:
        if (e.__class__ is dict or isinstance(e, Mapping)) and PROVENANCE[0] in e:
            return True
    return False


def split_provenance(obj):
    """``obj`` without the events' ``recorded_at``/``recorded_by`` (what an
    export adds), and per event (at, by) or None.  MalformedEvent for a
    value that is not a time or a name."""
    events = obj.get("events") if isinstance(obj, Mapping) else None
    if not isinstance(events, list) or not _any_recorded(events):
        return obj, [None] * (len(events) if isinstance(events, list) else 0)
    recorded, stripped = [], []
    for i, e in enumerate(events, start=1):
        if not isinstance(e, Mapping) or not any(k in e for k in PROVENANCE):
            recorded.append(None)
            stripped.append(e)
            continue
        at, who = e.get("recorded_at"), e.get("recorded_by")
        try:
            moment = datetime.fromisoformat(at) if isinstance(at, str) else None
        except ValueError:
            moment = None
        if moment is None or not isinstance(who, str) or not who.strip() or len(who) > 200:
            raise MalformedEvent(
                "'recorded_at' must be a time (as 'permits export' writes it) and 'recorded_by' a name",
                filing=obj.get("id") if isinstance(obj.get("id"), str) else None,
                position=i,
            )
        recorded.append((moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC), who))
        stripped.append({k: v for k, v in e.items() if k not in PROVENANCE})
    return {**obj, "events": stripped}, recorded


def _text(value) -> str | None:
    return value if isinstance(value, str) else None


def _site(filing: Filing, name: str) -> str | None:
    """The filing's ``address`` or ``parcel``: the top-level field, else
    the one under ``site`` (what the notices read)."""
    site = filing.extra.get("site")
    return _text(filing.extra.get(name)) or (_text(site.get(name)) if isinstance(site, Mapping) else None)


#: the columns of an import's rows, in the order _filing_row, _event_row,
#: _clock_rows and the abutters' tuples give them
_FILING_COLUMNS = (
    "id",
    "town",
    "kind",
    "also",
    "extra",
    "last_seq",
    "state",
    "next_deadline_date",
    "next_deadline_clock",
    "updated_at",
    "derived_on",
    "next_change_on",
    "address",
    "parcel",
    "site_key",
    "massdep_file",
    *(f"{role}_id" for role in PARTY_ROLES),
)
_EVENT_COLUMNS = ("filing_id", "seq", "type", "date", "at", "raw", "recorded_at", "recorded_by")
_CLOCK_KEYS = (
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
_CLOCK_COLUMNS = ("filing_id", *_CLOCK_KEYS)
#: what the docket's tally counts of a clock (models/store/docket_tally.py)
_TALLIED_KEYS = ("status", "date", "filing_town", "filing_kind", "filing_open")
_TALLIED = tuple(CLOCK.c[k] for k in _TALLIED_KEYS)
_ABUTTER_COLUMNS = ("filing_id", "name", "address", "parcel")


def search_columns(filing: Filing) -> dict:
    """What the search finds ``filing`` by, as its row keeps it: its site's
    address and parcel, the address as the search compares addresses and
    its MassDEP file number (``permits check`` compares them with the row)."""
    address = _site(filing, "address")
    return {
        "address": address,
        "parcel": _site(filing, "parcel"),
        "site_key": spaced_key(address),
        "massdep_file": massdep_file(filing),
    }


def _filing_row(filing: Filing, state: str, next_due: tuple, now: datetime, as_of: date) -> tuple:
    """The filing's columns up to ``massdep_file`` (_FILING_COLUMNS without
    the parties); ``next_due`` is the next deadline's (date, clock id);
    ``as_of`` the day its clocks are replayed as of."""
    search = search_columns(filing)
    return (
        filing.id,
        filing.town,
        filing.kind,
        list(filing.also),
        dict(filing.extra),
        len(filing.events),
        state,
        *next_due,
        now,
        as_of,
        as_of,  # next_change_on: the next sweep looks at what was imported
        search["address"],
        search["parcel"],
        search["site_key"],
        search["massdep_file"],
    )


def _event_row(filing_id: str, e, now: datetime, by: str) -> tuple:
    """The event's columns in _EVENT_COLUMNS order."""
    raw = e.raw
    return (filing_id, e.position, e.type, e.date, e.at, raw if raw.__class__ is dict else dict(raw), now, by)


def _event_values(filing_id: str, e, now: datetime, by: str) -> dict:
    return dict(zip(_EVENT_COLUMNS, _event_row(filing_id, e, now, by)))
