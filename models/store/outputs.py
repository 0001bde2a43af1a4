"""The daily sweep's output log on the store: what the sweep made is recorded
on its filing, each write on the connection of the service layer's unit of
work (:class:`services.sweep_log.StoreOutputLog` implements
:class:`sweep.run.OutputLog` with these, a unit of work each call):

- :func:`already_done`: is there a ``sweep_output`` row for it;
- :func:`mark_done`: one unit of work writes the
  ``sweep_output`` row and, for a notice that produced files, its ``notice``
  rows (one per recipient), so a crash leaves either both or neither.  The
  insert skips a key already recorded (``ON CONFLICT DO NOTHING``): a second
  sweep racing this one neither duplicates the output nor fails.  The
  payload's ``emails`` (messages to the applicant and owner, built by the
  sweep) are queued in the outbox in the same transaction
  (:func:`models.store.outbox.queue_emails`), not kept in the payload: a rerun
  queues nothing twice, and an address already emailed for the same
  occasion (the event's own email, queued as it was recorded) is not
  emailed the notice again;
- :func:`save_derived`: each filing's stored state, next deadline and
  ``filing_clock`` rows rewritten from the sweep's replay, by the store's
  own rules (:func:`models.store.filings.derived_from`, :func:`~models.store.filings.write_derived`),
  unless an event was recorded since the sweep read the filing (its own
  transaction stored fresher ones).

Thread-safe: flow tasks run in threads; every call is its own unit of
work on the store's engine (a connection pool).
"""

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from models.read.derived import clock_key
from models.read.queries import as_date
from models.schema.tables import FilingClock, FilingRow, Notice, SweepOutput
from models.store.bulk import select_in
from models.store.docket_tally import settle
from models.store.filings import derived_from, write_derived
from models.store.outbox import queue_emails, told_of

__all__ = ["NOTICE_IDENTITY", "occasion_of", "notice_rows", "already_done", "mark_done", "save_derived", "outputs"]

OUTPUT, NOTICE = SweepOutput.__table__, Notice.__table__
FILING, CLOCK = FilingRow.__table__, FilingClock.__table__
#: the columns of a notice's identity: the database refuses a second copy
NOTICE_IDENTITY = ("filing_id", "kind", "occasion", "recipient", "channel")


def _insert_once(dialect: str):
    """INSERT that does nothing when the (filing, key) is already there; it
    returns the key only when it inserted (psycopg gives no rowcount here)."""
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(OUTPUT).on_conflict_do_nothing(index_elements=["filing_id", "output_key"]).returning(OUTPUT.c.output_key)


def _day(text) -> date | None:
    return date.fromisoformat(text) if isinstance(text, str) else None


def _moment(text) -> datetime | None:
    return datetime.fromisoformat(text) if isinstance(text, str) else None


def occasion_of(output_key: str) -> str:
    """What a notice key is for: ``notice:hearing-notice:2026-12-15`` ->
    ``2026-12-15`` (the clock's date), ``notice:permit:event-7`` -> ``event-7``."""
    parts = output_key.split(":", 2)
    return parts[2] if len(parts) == 3 else ""


def notice_rows(filing_id: str, output_key: str, payload: Mapping[str, Any], now: datetime) -> list[dict]:
    """The ``notice`` rows for a notice the sweep made: one per recipient
    the notices module addressed (one row without a recipient if it named
    none); none for a reminder, or a notice that wrote no file."""
    files = [str(f) for f in payload.get("files") or ()]
    if not output_key.startswith("notice:") or not files:
        return []
    recipients = list(payload.get("recipients") or ()) or [""]
    return [
        {
            "filing_id": filing_id,
            "kind": payload.get("kind") or output_key.split(":")[1],
            "produced_at": now,
            "path": files[0],
            "recipient": r or "",
            "occasion": occasion_of(output_key),
            "dated": _moment(payload.get("dated")),
            "files": files,
            "output_key": output_key,
        }
        for r in recipients
    ]


def already_done(conn: Connection, filing_id: str, output_key: str) -> bool:
    """Whether the sweep recorded the output, or, for a notice, whether the
    notice record holds it for that occasion however it was made
    (``permits notices`` by hand records the same identity)."""
    query = select(OUTPUT.c.filing_id).where(OUTPUT.c.filing_id == filing_id, OUTPUT.c.output_key == output_key)
    if conn.execute(query).first() is not None:
        return True
    if not output_key.startswith("notice:"):
        return False
    kind = output_key.split(":")[1]
    sent = select(NOTICE.c.id).where(
        NOTICE.c.filing_id == filing_id, NOTICE.c.kind == kind, NOTICE.c.occasion == occasion_of(output_key)
    )
    return conn.execute(sent.limit(1)).first() is not None


def mark_done(conn: Connection, filing_id: str, output_key: str, payload: Mapping[str, Any], now: datetime) -> bool:
    """Record the output (and its notices, and its emails in the outbox) on
    ``conn``; False if another sweep had recorded it already (nothing
    written)."""
    body = dict(payload)
    emails = body.pop("emails", None) or ()
    if emails:
        body["emailed"] = [e["address"] for e in emails]
    row = {
        "filing_id": filing_id,
        "output_key": output_key,
        "kind": output_key.split(":", 1)[0],
        "payload": body,
        "as_of": _day(body.get("as_of")),
        "recorded_at": now,
    }
    if conn.execute(_insert_once(conn.dialect.name).values(**row)).first() is None:
        return False
    notices = notice_rows(filing_id, output_key, body, now)
    if notices:  # a copy already recorded (by hand, meanwhile) is not recorded twice
        module = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(module.insert(NOTICE).on_conflict_do_nothing(index_elements=list(NOTICE_IDENTITY)), notices)
    if emails:  # an address told of this event at its recording (services/word.py) is not told again
        told = told_of(conn, filing_id, occasion_of(output_key))
        emails = [e for e in emails if e["address"] not in told]
        queue_emails(conn, filing_id, emails, now, output_key, occasion=occasion_of(output_key))
    return True


def save_derived(conn: Connection, rows: Sequence[Mapping[str, Any]], now: datetime) -> int:
    """Each filing's stored state, next deadline and clocks from the
    sweep's replay as of its day (``as_of``), on ``conn``, and the day time
    may next change it (``next_change``: the row's ``next_change_on``).
    Only what changed is written: the chunk's rows and clocks are read in
    two statements, a filing whose state, next deadline and clocks are as
    stored has only its day and ``next_change_on`` moved on (one statement
    for the chunk), the others are rewritten
    (:func:`models.store.filings.write_derived`).  A row carrying
    ``events`` (the history's length the sweep replayed) is skipped if the
    filing has more events now, and one whose stored rows are as of a later
    day is left as it is.  Returns how many filings' clocks were rewritten."""
    made = {}
    for r in rows:
        as_of = r.get("as_of")
        made[r["id"]] = (r, derived_from(r["town"], r["kind"], r["state"], r["clocks"], as_date(as_of) if as_of else None))
    kept = _kept(conn, list(made))
    same, rewritten = [], 0
    for fid, (r, d) in made.items():
        old = kept.get(fid)
        if old is not None and r.get("events") is not None and old == _comparable(d):
            same.append({"b_id": fid, "b_seq": r.get("events"), "b_day": d.as_of, "b_next": r.get("next_change") or d.as_of})
            continue
        d = d.__class__(d.state, d.next_date, d.next_clock, d.clocks, d.as_of, r.get("next_change"))
        rewritten += write_derived(conn, fid, d, now, last_seq=r.get("events"))
    if same:
        conn.execute(_MOVE_ON, same)
    settle(conn)
    return rewritten


#: a filing the sweep found unchanged: its day and next change moved on,
#: unless an event was recorded since the sweep read it or a later day's
#: rows are stored
_MOVE_ON = (
    update(FILING)
    .where(
        FILING.c.id == bindparam("b_id"),
        FILING.c.last_seq == bindparam("b_seq"),
        or_(FILING.c.derived_on.is_(None), FILING.c.derived_on <= bindparam("b_day")),
    )
    .values(derived_on=bindparam("b_day"), next_change_on=bindparam("b_next"))
)


def _comparable(d) -> tuple:
    """What is compared of a derivation: state, next deadline, clocks."""
    return (d.state, d.next_date, d.next_clock, tuple(clock_key(c) for c in d.clocks))


def _kept(conn: Connection, ids: list[str]) -> dict[str, tuple]:
    """The stored state, next deadline and clocks of ``ids``, as
    :func:`_comparable` gives a derivation's: two statements."""
    heads = select_in(
        conn, (FILING.c.id, FILING.c.state, FILING.c.next_deadline_date, FILING.c.next_deadline_clock), FILING.c.id, ids
    )
    clocks: dict[str, list] = {}
    for row in conn.execute(select(CLOCK).where(CLOCK.c.filing_id.in_(ids)).order_by(CLOCK.c.filing_id, CLOCK.c.n)).mappings():
        clocks.setdefault(row["filing_id"], []).append(clock_key(row))
    return {
        fid: (state, as_date(day) if day is not None else None, clock, tuple(clocks.get(fid, ())))
        for fid, state, day, clock in heads
    }


def outputs(conn: Connection, filing_id: str | None = None) -> list[tuple[str, str, dict]]:
    """(filing, key, payload) of every recorded output, in key order."""
    query = select(OUTPUT.c.filing_id, OUTPUT.c.output_key, OUTPUT.c.payload)
    if filing_id is not None:
        query = query.where(OUTPUT.c.filing_id == filing_id)
    return [tuple(r) for r in conn.execute(query.order_by(OUTPUT.c.filing_id, OUTPUT.c.output_key))]
