"""The daily sweep as plain functions: what the Prefect flow and the CLI call.

    run_sweep(source, log, as_of)           the whole sweep, in chunks
      └─ process_chunk(filings, ...)        one chunk: what a flow task runs
           └─ process_filing(filing, ...)   replay, record, remind, notify

The sweep reads filings from a :class:`FilingSource` and records what it
did in an :class:`OutputLog`.  Both are protocols: the store
(:mod:`sweep.store_source`, :mod:`models.store.outputs`, on its tables,
transactionally), or a directory of filing JSON and a SQLite ledger
(:mod:`sweep.ledger`).

Idempotence: every reminder and notice has a key (:mod:`sweep.agenda`);
it is made only when ``log.already_done(filing, key)`` is false and then
recorded with ``log.mark_done(filing, key, payload)``, in one transaction
with the output.  Re-running the same day, or after a crash halfway,
makes nothing twice and loses nothing.  A filing that fails (a bad record,
a replay refused, a template error) becomes a failure line in the digest;
the rest of the chunk goes on.  Only ``Exception`` is caught: a crash
(``KeyboardInterrupt``, ``SystemExit``, the process dying) stops the sweep
and the rerun picks up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import islice
from typing import Any, Protocol

from sweep.agenda import (
    Entry,
    NoticeDue,
    docket_entries,
    inspection_schedule,
    is_open,
    notices_due,
    reminders_due,
)
from sweep.next_change import next_change
from sweep.spool import ReportSpool
from workflows.departments import department_of
from workflows.errors import PermitsError
from workflows.filing import Filing, parse_filing

__all__ = [
    "BadRecord",
    "FilingSource",
    "ChunkedSource",
    "OutputLog",
    "NoticeHook",
    "FilingOutcome",
    "SweepResult",
    "process_filing",
    "make_notice",
    "describe_failure",
    "process_chunk",
    "run_sweep",
    "case_entries",
    "chunked",
    "DEFAULT_CHUNK",
]

DEFAULT_CHUNK = 500


@dataclass(frozen=True)
class BadRecord:
    """A stored record that is not a filing the engine can read."""

    id: str
    town: str
    kind: str
    error: str


class FilingSource(Protocol):
    def open_filings(self) -> Iterable[Filing | BadRecord]:
        """Filings that may still have something due (the store selects by
        its derived state; a directory yields every filing)."""


class ChunkedSource(FilingSource, Protocol):
    """A source a flow can fan out: :meth:`chunk_refs` names the chunks with
    small values (positions, id ranges) and each task loads its own, so the
    flow never holds every filing at once."""

    def chunk_refs(self, size: int) -> list: ...

    def load(self, ref) -> list[Filing | BadRecord]: ...


class OutputLog(Protocol):
    def already_done(self, filing_id: str, output_key: str) -> bool: ...

    def mark_done(self, filing_id: str, output_key: str, payload: Mapping[str, Any]) -> bool | None:
        """Record the output on its filing and commit; False when another
        run had recorded it first (nothing written)."""

    def save_derived(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Bring filings' derived state and clocks up to date (one row per
        filing: ``id, town, kind, state, clocks, as_of``)."""


#: Makes one notice: (filing, replay, notice due, output folder) -> files
#: written, or ``None`` when it did not make it this run.  A sweep run with
#: no hook makes no notices.  Either way the notice is listed as pending and
#: not marked, so a later sweep makes it.
NoticeHook = Callable[[Filing, Any, NoticeDue, Any], list]


@dataclass
class FilingOutcome:
    filing: str
    town: str
    kind: str
    department: str
    state: str | None = None
    open: bool = True
    docket: list[Entry] = field(default_factory=list)
    schedule: list[Entry] = field(default_factory=list)
    reminders: list[dict] = field(default_factory=list)  # Reminder.as_dict() + "new"
    notices: list[dict] = field(default_factory=list)  # NoticeDue.as_dict() + "status", "files"
    calendar: list = field(default_factory=list)  # notices.ics.CalendarItem
    error: str | None = None
    street: str | None = None  # the site's street address, for the DPW schedule
    contractor: str | None = None


def _street_and_contractor(filing) -> tuple[str | None, str | None]:
    """The filing's site address (``address``, else ``site.address``) and
    its contractor's name (a name, or an object with ``name``)."""
    extra = getattr(filing, "extra", None) or {}
    site = extra.get("site")
    street = extra.get("address") or (site.get("address") if isinstance(site, Mapping) else None)
    contractor = extra.get("contractor")
    if isinstance(contractor, Mapping):
        contractor = contractor.get("name")
    return (street if isinstance(street, str) else None, contractor if isinstance(contractor, str) else None)


class SweepResult:
    """What a sweep found, for its report: the outcomes are handed to a
    :class:`~sweep.spool.ReportSpool` as each chunk is done and then
    dropped, unless ``keep`` (a test, a small run) asks to keep them."""

    def __init__(self, as_of: date, outcomes: Iterable[FilingOutcome] = (), *, keep: bool = True):
        self.as_of = as_of
        self.spool = ReportSpool(as_of)
        self.keep = keep
        self.outcomes: list[FilingOutcome] = []
        self.add(outcomes)

    def add(self, outcomes: Iterable[FilingOutcome]) -> None:
        outcomes = list(outcomes)
        self.spool.add(outcomes)
        if self.keep:
            self.outcomes.extend(outcomes)

    def add_enforcement(self, entries: Iterable[Entry]) -> None:
        self.spool.add_enforcement(entries)

    def counts(self) -> dict[str, int]:
        """``failed`` counts every filing with an error; a filing that
        replayed and then failed (a notice) still counts as open and its
        clocks, reminders and notices made still count."""
        return self.spool.counts()

    def close(self) -> None:
        self.spool.close()


def _replay_fn():
    from workflows.replay import replay

    return replay


def _derived_row(replay, as_of: date, events: int) -> dict:
    """``events``: how many events the replayed history held, so a store can
    leave alone a filing that has recorded more since."""
    clocks = [c.as_dict() for c in replay.clocks]
    return {
        "id": replay.id,
        "town": replay.town,
        "kind": replay.kind,
        "state": str(getattr(replay, "stage", "") or replay.state),  # the stage the store keeps (workflows/stage.py)
        "clocks": clocks,
        "as_of": as_of.isoformat(),
        "events": events,
    }


def process_filing(
    filing: Filing | BadRecord,
    as_of: date,
    log: OutputLog,
    *,
    notice_hook: NoticeHook | None = None,
    out_dir=None,
    replay_fn: Callable | None = None,
    derived: list | None = None,
) -> FilingOutcome:
    """Replay one filing on ``as_of`` and make what is due for it.  Never
    raises ``Exception``: a failure is the outcome's ``error``."""
    from sweep.calendar_items import calendar_items

    if isinstance(filing, BadRecord):
        return FilingOutcome(filing.id, filing.town, filing.kind, _dept(filing.kind), error=filing.error)
    outcome = FilingOutcome(filing.id, filing.town, filing.kind, _dept(filing.kind))
    try:
        replay = (replay_fn or _replay_fn())(filing, as_of)
        outcome.state = str(replay.state)
        row = _derived_row(replay, as_of, len(filing.events))
        if derived is not None:
            derived.append(row)
        if not is_open(replay):
            outcome.open = False
            return outcome
        row["next_change"] = next_change(replay, as_of, pending=True)  # until what is due below is done
        outcome.docket = docket_entries(replay, as_of)
        outcome.schedule = inspection_schedule(replay, as_of, filing.events)
        if outcome.schedule:
            outcome.street, outcome.contractor = _street_and_contractor(filing)
        outcome.calendar = calendar_items(filing, replay, as_of)
    except Exception as exc:  # one bad filing must not stop the rest
        outcome.error = describe_failure(exc)
        outcome.docket, outcome.schedule, outcome.calendar = [], [], []
        return outcome
    # the filing replayed: its clocks stay on the docket whatever fails below
    day, step = as_of.isoformat(), "a reminder"
    try:
        for r in reminders_due(replay, as_of):
            made = _once(log, r.filing, r.key, lambda r=r: {**r.as_dict(), "as_of": day})
            outcome.reminders.append({**r.as_dict(), "new": made})
        for key, make in getattr(notice_hook, "reminders", lambda *a: ())(filing, replay, as_of):
            _once(log, filing.id, key, lambda make=make: {**make(), "as_of": day})  # emails to the applicant
        for n in notices_due(replay, as_of, filing.events):
            step = f"the {n.kind} notice"
            outcome.notices.append(make_notice(log, filing, replay, n, notice_hook, out_dir, day))
    except Exception as exc:  # one bad filing must not stop the rest
        outcome.error = f"{step} failed: {describe_failure(exc)}"
        return outcome  # tried again by the next sweep
    # an output due and not made (listed, refused) is asked for again by the next sweep, as a full sweep would
    waiting = any(n["status"] in ("pending", "refused") for n in outcome.notices)
    row["next_change"] = next_change(replay, as_of, pending=waiting)
    return outcome


def _dept(kind: str) -> str:
    try:
        return department_of(kind)
    except KeyError:
        return "unknown"


def describe_failure(exc: Exception) -> str:
    if isinstance(exc, PermitsError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _once(log: OutputLog, filing_id: str, key: str, make: Callable[[], Mapping]) -> bool:
    """Make and record an output unless it was made before; True if made now."""
    if log.already_done(filing_id, key):
        return False
    log.mark_done(filing_id, key, make())
    return True


def make_notice(log, filing, replay, due: NoticeDue, hook, out_dir, day: str) -> dict:
    row = due.as_dict()
    if log.already_done(filing.id, due.key):
        return {**row, "status": "already", "files": []}
    if hook is None:
        return {**row, "status": "pending", "files": []}
    from sweep.dispatch import NoticeNotApplicable

    try:
        made = hook(filing, replay, due, out_dir)
    except NoticeNotApplicable as exc:
        return {**row, "status": "refused", "files": [], "refused": str(exc)}
    if made is None:  # not made this run (a sample's limit): stays due
        return {**row, "status": "pending", "files": []}
    files = [str(f) for f in made]
    # what the hook says about the notice for the record (its recipients,
    # its date: sweep.dispatch.MadeNotice), beside the files
    recorded = log.mark_done(filing.id, due.key, {**row, "files": files, "as_of": day, **getattr(made, "record", {})})
    if recorded is False:  # another sweep recorded it first: this run did not make it
        return {**row, "status": "already", "files": []}
    return {**row, "status": "made", "files": files}


def process_chunk(
    filings: Sequence[Filing | BadRecord],
    as_of: date,
    log: OutputLog,
    *,
    notice_hook: NoticeHook | None = None,
    out_dir=None,
    replay_fn: Callable | None = None,
) -> list[FilingOutcome]:
    """One chunk of the sweep (one Prefect task): every filing processed,
    then the chunk's derived states saved in one write."""
    derived: list = []
    outcomes = [
        process_filing(f, as_of, log, notice_hook=notice_hook, out_dir=out_dir, replay_fn=replay_fn, derived=derived)
        for f in filings
    ]
    if derived:
        log.save_derived(derived)
    return outcomes


def chunked(items: Iterable, size: int) -> Iterator[list]:
    if size < 1:
        raise ValueError("chunk size must be >= 1")
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def run_sweep(
    source: FilingSource,
    log: OutputLog,
    as_of: date,
    *,
    chunk_size: int = DEFAULT_CHUNK,
    notice_hook: NoticeHook | None = None,
    out_dir=None,
    replay_fn: Callable | None = None,
    progress: Callable[[int], None] | None = None,
    keep_outcomes: bool = False,
) -> SweepResult:
    """The sweep without Prefect: the same chunks, one after the other,
    each chunk's outcomes handed to the report's spool and dropped (kept
    too with ``keep_outcomes``), so the sweep holds one chunk at a time."""
    result = SweepResult(as_of, keep=keep_outcomes)
    for chunk in chunked(source.open_filings(), chunk_size):
        result.add(process_chunk(chunk, as_of, log, notice_hook=notice_hook, out_dir=out_dir, replay_fn=replay_fn))
        if progress:
            progress(len(chunk))
    result.add_enforcement(case_entries(source, as_of))
    return result


def case_entries(source, as_of: date) -> list[Entry]:
    """The docket lines of every open enforcement case the source holds
    (the store's; a folder of filings holds none): each case replayed on
    ``as_of`` and read as a filing's docket is (:func:`sweep.agenda.docket_entries`).
    A case that cannot be replayed is a violation line naming why."""
    cases = getattr(source, "enforcement_cases", None)
    if cases is None:
        return []
    from workflows.enforcement_replay import replay_case

    out: list[Entry] = []
    for case in cases():
        try:
            out += docket_entries(replay_case(case, as_of), as_of)
        except PermitsError as exc:
            day = as_of.isoformat()
            out.append(
                Entry(
                    case.town, "conservation", case.id, "enforcement", "?", "violation", "replay", day, 0, "failed", "", str(exc)
                )
            )
    return out


def parse_or_bad(obj: Any, where: str = "") -> Filing | BadRecord:
    """A stored JSON object as a Filing, or a BadRecord naming what is wrong."""
    try:
        return parse_filing(obj)
    except PermitsError as exc:
        ident = obj.get("id") if isinstance(obj, dict) and isinstance(obj.get("id"), str) else where or "?"
        town = obj.get("town", "?") if isinstance(obj, dict) else "?"
        kind = obj.get("kind", "?") if isinstance(obj, dict) else "?"
        return BadRecord(ident, str(town), str(kind), str(exc))
