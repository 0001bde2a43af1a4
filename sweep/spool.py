"""The sweep's report, streamed: each chunk's outcomes are added as they
are made and then dropped, so a sweep holds one chunk at a time however
many filings it reads.

:class:`ReportSpool` keeps what the report needs of an outcome (the counts
and each group's open filings and states in memory; every docket line,
schedule line, reminder, notice, failure and calendar event as one row of
a private temporary SQLite database, which spills to disk past a few
megabytes) and gives it back in the report's order
(:mod:`sweep.report` writes the files from it).  A row holds the record
already in JSON, as the report writes it, and a calendar event its VEVENT
lines, so writing the report is mostly reading them back in order.

Everything here is the report's cost, not the sweep's: :attr:`seconds`
is the CPU time spent in :meth:`ReportSpool.add` (the benchmark counts it
on the report's side).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import date

from notices.ics import LOCAL, CalendarItem, feed_stamp, is_aware, vevent

__all__ = ["ReportSpool", "Rows", "CATEGORIES"]

CATEGORIES = ("violation", "overdue", "due", "waiting", "expiring", "late")
_ORDER = {c: i for i, c in enumerate(CATEGORIES)}
#: The spool's page cache: what it holds in memory before it writes pages
#: to its temporary file (SQLite's default size; a larger one measured no
#: faster, and the point is a peak that does not grow with the filings).
CACHE_KB = 2 * 1024
_FEED_ORDER = "FROM event WHERE town=? AND dept=? ORDER BY day, uid, rowid"

_SCHEMA = """
CREATE TABLE docket (town TEXT, dept TEXT, cat INT, date TEXT, filing TEXT, what TEXT, row TEXT);
CREATE TABLE schedule (date TEXT, town TEXT, filing TEXT, what TEXT, row TEXT);
CREATE TABLE reminder (town TEXT, dept TEXT, grouped INT, listed INT, date TEXT, filing TEXT, key TEXT, row TEXT);
CREATE TABLE notice (town TEXT, dept TEXT, grouped INT, listed INT, filing TEXT, key TEXT, row TEXT);
CREATE TABLE failure (filing TEXT, row TEXT);
CREATE TABLE event (town TEXT, dept TEXT, day TEXT, uid TEXT, timed INT, vevent BLOB);
CREATE TABLE enforcement (town TEXT, cat INT, date TEXT, case_id TEXT, what TEXT, row TEXT);
"""


_INDEXES = """
CREATE INDEX IF NOT EXISTS docket_order ON docket (town, dept, cat, date, filing, what);
CREATE INDEX IF NOT EXISTS schedule_order ON schedule (date, town, filing, what);
CREATE INDEX IF NOT EXISTS reminder_group ON reminder (town, dept, date, filing, key);
CREATE INDEX IF NOT EXISTS reminder_order ON reminder (date, filing, key);
CREATE INDEX IF NOT EXISTS notice_group ON notice (town, dept, filing, key);
CREATE INDEX IF NOT EXISTS notice_order ON notice (filing, key);
CREATE INDEX IF NOT EXISTS event_order ON event (town, dept, day, uid);
"""


class Rows:
    """Records of one list of the report, read back in order when iterated:
    ``len()`` without reading them, ``lines()`` as the JSON text stored,
    iteration as dicts (for the HTML templates)."""

    __slots__ = ("_spool", "_sql", "_args", "_count")

    def __init__(self, spool: ReportSpool, sql: str, args: tuple, count: int):
        self._spool, self._sql, self._args, self._count = spool, sql, args, count

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def lines(self) -> Iterator[str]:
        if self._count:
            for (line,) in self._spool._db.execute(self._sql, self._args):
                yield line

    def __iter__(self) -> Iterator[dict]:
        return map(json.loads, self.lines())

    def head(self, n: int) -> list[dict]:
        """The first ``n`` records (SQLite keeps only the top ``n`` as it sorts)."""
        if not self._count:
            return []
        return [json.loads(line) for (line,) in self._spool._db.execute(f"{self._sql} LIMIT ?", (*self._args, n))]

    def materialize(self) -> list[dict]:
        return list(self)


class ReportSpool:
    """What the report needs of a sweep's outcomes, added chunk by chunk."""

    def __init__(self, as_of: date):
        self.as_of = as_of
        self.seconds = 0.0  # CPU time in add(): the report's share of the run
        self._stamp = feed_stamp(as_of)
        # "": a private temporary database, kept in SQLite's page cache
        # until it outgrows it, then on disk; deleted when closed.  The flow
        # adds in its own thread and writes the report in a task's.
        self._db = sqlite3.connect("", check_same_thread=False)
        # nothing here outlives the process: no journal, no syncing; past
        # the page cache, pages go to the temporary file
        self._db.executescript(f"PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-{CACHE_KB};{_SCHEMA}")
        self._counts = Counter(
            filings=0, open=0, closed=0, failed=0, overdue=0, reminders_new=0, notices_made=0, notices_pending=0
        )
        self._groups: dict[tuple[str, str], list] = {}  # (town, dept) -> [open filings, Counter of states]
        self._counted: Counter | None = None  # rows of each list, counted once all are added

    # -- adding -------------------------------------------------------------

    def add(self, outcomes: Iterable) -> None:
        """Take one chunk's :class:`~sweep.run.FilingOutcome` objects; the
        caller may drop them afterwards."""
        t0 = time.process_time()
        docket, schedule, reminders, notices, failures, events = [], [], [], [], [], []
        counts, dumps = self._counts, json.dumps
        for o in outcomes:
            counts["filings"] += 1
            replayed = o.state is not None
            if o.error:
                counts["failed"] += 1
                failures.append(
                    (
                        o.filing,
                        dumps({"filing": o.filing, "town": o.town, "kind": o.kind, "department": o.department, "error": o.error}),
                    )
                )
            if replayed:
                counts["open" if o.open else "closed"] += 1
                counts["overdue"] += sum(e.category == "overdue" for e in o.docket)
                counts["reminders_new"] += sum(bool(r["new"]) for r in o.reminders)
                counts["notices_made"] += sum(n["status"] == "made" for n in o.notices)
                counts["notices_pending"] += sum(n["status"] == "pending" for n in o.notices)
            grouped = replayed and o.open  # the digest lists it under its town and department
            listed = not o.error  # the reminders, notices, schedule and feeds list it
            town, dept = o.town, o.department
            if grouped:
                group = self._groups.get((town, dept))
                if group is None:
                    group = self._groups[(town, dept)] = [0, Counter()]
                group[0] += 1
                group[1][f"{o.kind}: {o.state}"] += 1
                for e in o.docket:
                    docket.append((town, dept, _ORDER[e.category], e.date, e.filing, e.what, dumps(e.as_dict(), default=str)))
            for r in o.reminders:
                row = dumps({k: v for k, v in r.items() if k != "new"}, default=str)
                reminders.append((town, dept, grouped, listed, r["date"], r["filing"], r["key"], row))
            for n in o.notices:
                row = dumps({k: v for k, v in n.items() if k not in ("status", "files")}, default=str)
                notices.append((town, dept, grouped, listed, n["filing"], n["key"], row))
            if listed and o.open:
                for e in o.schedule:
                    row = dumps({**e.as_dict(), "street": o.street, "contractor": o.contractor}, default=str)
                    schedule.append((e.date, e.town, e.filing, e.what, row))
                for item in o.calendar:
                    events.append(self._event(item))
        db = self._db
        db.executemany("INSERT INTO docket VALUES (?,?,?,?,?,?,?)", docket)
        db.executemany("INSERT INTO schedule VALUES (?,?,?,?,?)", schedule)
        db.executemany("INSERT INTO reminder VALUES (?,?,?,?,?,?,?,?)", reminders)
        db.executemany("INSERT INTO notice VALUES (?,?,?,?,?,?,?)", notices)
        db.executemany("INSERT INTO failure VALUES (?,?)", failures)
        db.executemany("INSERT INTO event VALUES (?,?,?,?,?,?)", events)
        self._counted = None
        self.seconds += time.process_time() - t0

    def add_enforcement(self, entries: Iterable) -> None:
        """Take the enforcement cases' docket lines (:func:`sweep.agenda.docket_entries`
        of each open case's replay)."""
        rows = [(e.town, _ORDER[e.category], e.date, e.filing, e.what, json.dumps(e.as_dict(), default=str)) for e in entries]
        self._db.executemany("INSERT INTO enforcement VALUES (?,?,?,?,?,?)", rows)
        self._counted = None

    def _event(self, item: CalendarItem) -> tuple:
        """The event's VEVENT lines.  A time with its own zone (which no
        filing holds: a filing's times are the town's local time) is
        written as the same moment in the town's time."""
        if is_aware(item):
            item = replace(item, at=item.at.astimezone(LOCAL).replace(tzinfo=None))
        return (item.town, item.department, item.day.isoformat(), item.uid, item.at is not None, vevent(item, self._stamp))

    # -- reading back ---------------------------------------------------------

    @property
    def _sizes(self) -> Counter:
        """How many rows each list holds: one counting query a table, the
        first time a list is read after the last :meth:`add`."""
        if self._counted is None:
            # each list is read in its order once the adding is done: an
            # index a list, made in one sort, saves a scan of the table for
            # every town, department and category
            self._db.executescript(_INDEXES)
            c, q = Counter(), self._db.execute
            for town, dept, cat, n in q("SELECT town, dept, cat, count(*) FROM docket GROUP BY 1, 2, 3"):
                c[("docket", town, dept, CATEGORIES[cat])] = n
            for table in ("reminder", "notice"):
                for town, dept, grouped, listed in q(f"SELECT town, dept, sum(grouped), sum(listed) FROM {table} GROUP BY 1, 2"):
                    c[(table + "s", town, dept)] = grouped
                    c[table + "s"] += listed
            for town, dept, n in q("SELECT town, dept, count(*) FROM event GROUP BY 1, 2"):
                c[("feed", town, dept)] = n
            c["schedule"] = q("SELECT count(*) FROM schedule").fetchone()[0]
            c["enforcement"] = q("SELECT count(*) FROM enforcement").fetchone()[0]
            c["failures"] = q("SELECT count(*) FROM failure").fetchone()[0]
            self._counted = c
        return self._counted

    def counts(self) -> dict[str, int]:
        return dict(self._counts)

    def groups(self) -> Iterator[tuple[str, str, int, dict[str, int]]]:
        """``(town, department, open filings, states)`` in (town, department) order."""
        for (town, dept), (open_filings, states) in sorted(self._groups.items()):
            yield town, dept, open_filings, dict(sorted(states.items()))

    def docket(self, town: str, dept: str, category: str) -> Rows:
        return Rows(
            self,
            "SELECT row FROM docket WHERE town=? AND dept=? AND cat=? ORDER BY date, filing, what, rowid",
            (town, dept, _ORDER[category]),
            self._sizes[("docket", town, dept, category)],
        )

    def group_reminders(self, town: str, dept: str) -> Rows:
        return Rows(
            self,
            "SELECT row FROM reminder WHERE town=? AND dept=? AND grouped ORDER BY date, filing, key, rowid",
            (town, dept),
            self._sizes[("reminders", town, dept)],
        )

    def group_notices(self, town: str, dept: str) -> Rows:
        return Rows(
            self,
            "SELECT row FROM notice WHERE town=? AND dept=? AND grouped ORDER BY filing, key, rowid",
            (town, dept),
            self._sizes[("notices", town, dept)],
        )

    def reminders(self) -> Rows:
        return Rows(self, "SELECT row FROM reminder WHERE listed ORDER BY date, filing, key, rowid", (), self._sizes["reminders"])

    def notices(self) -> Rows:
        return Rows(self, "SELECT row FROM notice WHERE listed ORDER BY filing, key, rowid", (), self._sizes["notices"])

    def schedule(self) -> Rows:
        return Rows(self, "SELECT row FROM schedule ORDER BY date, town, filing, what, rowid", (), self._sizes["schedule"])

    def enforcement(self) -> Rows:
        """The enforcement cases' lines, by town, then category (violations
        and overdue first), then date."""
        return Rows(
            self, "SELECT row FROM enforcement ORDER BY town, cat, date, case_id, what, rowid", (), self._sizes["enforcement"]
        )

    def failures(self) -> Rows:
        return Rows(self, "SELECT row FROM failure ORDER BY filing, rowid", (), self._sizes["failures"])

    def feeds(self) -> list[tuple[str, str]]:
        """The (town, department) of every feed with an event, in order."""
        return sorted(k[1:] for k, n in self._sizes.items() if isinstance(k, tuple) and k[0] == "feed" and n)

    def feed_timed(self, town: str, dept: str) -> bool:
        """Whether any event of the feed has a time (the feed then holds
        the town's VTIMEZONE)."""
        return bool(self._db.execute("SELECT max(timed) FROM event WHERE town=? AND dept=?", (town, dept)).fetchone()[0])

    def feed_blocks(self, town: str, dept: str) -> Iterator[bytes]:
        """The feed's VEVENT blocks in (day, UID) order."""
        for (block,) in self._db.execute(f"SELECT vevent {_FEED_ORDER}", (town, dept)):
            yield block

    def close(self) -> None:
        self._db.close()
