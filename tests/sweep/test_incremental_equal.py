"""The incremental sweep is the full sweep, proved day by day.

Two copies of one generated store live side by side through a month of
days.  Each day the same things happen to both: the events of that day
recorded (hearings opened, decisions, permits issued, work started...:
the demonstration's own histories, generated as of the month's last day
and recorded day by day as staff would), a few filings' last event voided,
the filings first heard of that day imported; then one copy is swept
incrementally (``permits sweep``: only the filings whose next change has
come) and the other whole (``permits sweep --all``).  Each day:

- ``permits check``'s machinery finds no difference between the
  incremental copy's rows and its histories
  (:func:`services.record_check.check_record`, whole: the docket's tally
  and the deposit ledger too), and, asked as of that day, the same
  differences as in the fully swept copy (a closed filing's period that
  ran out after it closed: neither sweep takes a closed filing);
- both copies hold the same derived rows (state, next deadline, every
  clock, the docket's counts) and the same outputs: every reminder and
  notice the sweep recorded (``sweep_output``), every notice and email
  (``notice``), the emails' messages (``email_message``).

The notices are made by the sweep's own hook (:func:`sweep.dispatch.notice_hook`,
with the applicant's reminder emails), as HTML: PDFs would only make the
test slow, and what is compared is what is recorded.  A quarter of days
on 500 filings is the slow version (``make sweep-equality``).
"""

from __future__ import annotations

import random
import shutil
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from demo.generate import generate
from models.handle import Store
from models.read.derived import tally_sums
from models.schema.tables import EmailMessage, FilingClock, FilingRow, Notice, SweepOutput
from services.database import upgrade_store
from services.imports import import_filings
from services.record import record_event, void_event
from services.record_check import check_record
from services.sweep_log import StoreOutputLog
from sweep.dispatch import notice_hook
from sweep.run import run_sweep
from sweep.store_source import StoreSource
from workflows.errors import PermitsError

FIRST = date(2026, 9, 1)
MAIL_FROM = "permits@town.example"


def _day_of(raw: dict) -> date:
    return date.fromisoformat((raw.get("date") or raw["at"])[:10])


def _sweep(url: str, day: date, out, *, everything: bool) -> None:
    source = StoreSource(url, None if everything else day)
    log = StoreOutputLog(source.store)
    hook = notice_hook(day, fmt="html", email=True, mail_from=MAIL_FROM)
    try:
        result = run_sweep(source, log, day, chunk_size=50, notice_hook=hook, out_dir=str(out))
        result.close()
    finally:
        source.store.engine.dispose()


def _kept(url: str) -> dict:
    """What the store derives and what the sweep made, without the
    columns that say when or by which run (ids, moments, the day a row
    was last brought up to date)."""
    filing, clock, output = FilingRow.__table__, FilingClock.__table__, SweepOutput.__table__
    notice, message = Notice.__table__, EmailMessage.__table__
    store = Store(url)
    try:
        with store.reader.connect() as conn:
            return {
                "filings": conn.execute(
                    select(
                        filing.c.id,
                        filing.c.state,
                        filing.c.last_seq,
                        filing.c.next_deadline_date,
                        filing.c.next_deadline_clock,
                    ).order_by(filing.c.id)
                ).all(),
                "clocks": conn.execute(
                    select(*(c for c in clock.c if c.name != "id")).order_by(clock.c.filing_id, clock.c.n)
                ).all(),
                "tally": tally_sums(conn),
                "outputs": conn.execute(
                    select(output.c.filing_id, output.c.output_key, output.c.kind, output.c.payload, output.c.as_of).order_by(
                        output.c.filing_id, output.c.output_key
                    )
                ).all(),
                "notices": sorted(
                    conn.execute(
                        select(
                            notice.c.filing_id,
                            notice.c.kind,
                            notice.c.occasion,
                            notice.c.recipient,
                            notice.c.channel,
                            notice.c.address,
                            notice.c.path,
                            notice.c.files,
                            notice.c.dated,
                            notice.c.output_key,
                        )
                    ).all(),
                    key=repr,
                ),
                "messages": _messages(conn, notice, message),
            }
    finally:
        store.engine.dispose()


def _messages(conn, notice, message) -> list:
    """Each queued email: its filing, kind, address and message size (the
    message's bytes carry a Message-ID made at random)."""
    rows = conn.execute(
        select(notice.c.filing_id, notice.c.kind, notice.c.occasion, notice.c.address, message.c.message).join(
            message, message.c.notice_id == notice.c.id
        )
    ).all()
    return sorted((f, k, o, a) for f, k, o, a, _ in rows)


def _simulate(tmp_path, n: int, days: int, seed: int) -> dict:
    last = FIRST + timedelta(days=days - 1)
    histories = {f["id"]: f for f in generate(n, last, seed=seed)}
    first_day = {fid: _day_of(f["events"][0]) for fid, f in histories.items()}
    inc_url = f"sqlite:///{tmp_path / 'incremental.db'}"
    store = Store(inc_url)
    upgrade_store(store)
    prefix = [{**f, "events": [e for e in f["events"] if _day_of(e) <= FIRST]} for f in histories.values()]
    import_filings(store, [f for f in prefix if f["events"]], by="test", today=FIRST)
    store.engine.dispose()
    shutil.copy(tmp_path / "incremental.db", tmp_path / "full.db")
    full_url = f"sqlite:///{tmp_path / 'full.db'}"
    stores = {"inc": Store(inc_url), "full": Store(full_url)}
    # how far each store's copy of a filing's history has got; a filing
    # whose next event a void made impossible stops there (in both)
    done = {fid: len([e for e in f["events"] if _day_of(e) <= FIRST]) for fid, f in histories.items()}
    stopped: set[str] = set()
    rng = random.Random(seed)
    seen = {"recorded": 0, "voided": 0, "imported": 0, "swept": 0, "refused": 0}
    try:
        for k in range(days):
            day = FIRST + timedelta(days=k)
            if k:
                for fid, f in histories.items():
                    if first_day[fid] == day:  # first heard of today: imported
                        obj = {**f, "events": [e for e in f["events"] if _day_of(e) <= day]}
                        for s in stores.values():
                            import_filings(s, [obj], by="test", today=day)
                        done[fid] = len(obj["events"])
                        seen["imported"] += 1
                        continue
                    if fid in stopped or first_day[fid] > day:
                        continue
                    while done[fid] < len(f["events"]) and _day_of(f["events"][done[fid]]) == day:
                        raw = f["events"][done[fid]]
                        outcomes = []
                        for s in stores.values():
                            try:
                                record_event(s, fid, raw, by="test", today=day, now=None, mail_from=None)
                                outcomes.append(True)
                            except PermitsError:
                                outcomes.append(False)
                        assert outcomes[0] == outcomes[1], (fid, raw)
                        if not outcomes[0]:  # after a void the generated history no longer fits
                            stopped.add(fid)
                            seen["refused"] += 1
                            break
                        done[fid] += 1
                        seen["recorded"] += 1
                # a few filings' last event voided (recorded on the wrong filing)
                live = sorted(fid for fid in histories if first_day[fid] < day and fid not in stopped and done[fid] > 1)
                for fid in rng.sample(live, min(2, len(live))):
                    results = []
                    for s in stores.values():
                        try:
                            void_event(s, fid, done[fid], reason="recorded on the wrong filing", day=day, by="test", today=day)
                            results.append(True)
                        except PermitsError:
                            results.append(False)
                    assert results[0] == results[1], fid
                    if results[0]:
                        stopped.add(fid)
                        seen["voided"] += 1
            _sweep(inc_url, day, tmp_path / "out-inc" / str(k), everything=False)
            _sweep(full_url, day, tmp_path / "out-full" / str(k), everything=True)
            # every filing's rows are its history as of the day they say (permits check)
            found = check_record(stores["inc"])
            assert found.ok, [d.line() for d in found.differences[:5]]
            # and as of today: what differs (a closed filing's period that
            # has run since it closed: no sweep takes a closed filing) is
            # what differs after the full sweep
            today = [d.line() for d in check_record(stores["inc"], as_of=day).differences]
            assert today == [d.line() for d in check_record(stores["full"], as_of=day).differences]
            seen["closed_drift"] = max(seen.get("closed_drift", 0), len(today))
            inc, full = _kept(inc_url), _kept(full_url)
            for name in full:
                assert inc[name] == full[name], f"day {day}: the {name} differ"
            seen["swept"] += 1
        seen["outputs"] = len(full["outputs"])
        seen["notices"] = len(full["notices"])
        return seen
    finally:
        for s in stores.values():
            s.engine.dispose()


def test_a_month_of_incremental_sweeps_equals_the_full_sweep_each_day(tmp_path):
    seen = _simulate(tmp_path, n=160, days=30, seed=36)
    # the month was not empty: events, voids, imports and outputs to compare
    assert seen["recorded"] > 30 and seen["voided"] > 20 and seen["imported"] > 3, seen
    assert seen["outputs"] > 30 and seen["notices"] > 10, seen


@pytest.mark.slow
def test_a_quarter_of_incremental_sweeps_equals_the_full_sweep_each_day(tmp_path):
    seen = _simulate(tmp_path, n=500, days=90, seed=7)
    assert seen["recorded"] > 200 and seen["voided"] > 60, seen
