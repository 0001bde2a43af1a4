"""The sweep's report is streamed through a spool: what it writes is what
the whole report built in memory would write, byte for byte, whatever the
order the chunks came in, and the sweep lets each chunk's outcomes go."""

from __future__ import annotations

import gc
import json
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest

from demo.generate import generate
from notices.ics import build_feed, feed_name
from sweep.ledger import DirectorySource, SqliteLedger, write_jsonl
from sweep.report import (
    build_digest,
    build_schedule,
    json_layout,
    print_docket,
    render_digest_html,
    render_schedule_html,
    write_outputs,
    write_report,
)
from sweep.run import FilingOutcome, SweepResult, run_sweep

AS_OF = date(2026, 11, 30)


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filings")
    write_jsonl(folder / "filings.jsonl", generate(300, AS_OF, seed=5))
    log = SqliteLedger(folder / "ledger.sqlite")
    try:
        return run_sweep(DirectorySource(folder), log, AS_OF, chunk_size=37, keep_outcomes=True)
    finally:
        log.close()


def _files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _in_memory_feeds(outcomes) -> dict[str, bytes]:
    """The feeds as built from every outcome's calendar at once."""
    buckets = defaultdict(list)
    for o in outcomes:
        if not o.error and o.open:
            for item in o.calendar:
                buckets[(item.town, item.department)].append(item)
    return {f"ics/{feed_name(t, d)}.ics": build_feed(items, AS_OF, feed_name(t, d)) for (t, d), items in buckets.items()}


def test_the_streamed_files_are_byte_for_byte_what_the_report_in_memory_writes(swept, tmp_path):
    write_outputs(swept, tmp_path)
    files = _files(tmp_path)
    digest, schedule = build_digest(swept), build_schedule(swept)
    assert digest["counts"]["open"] > 100 and any(g["overdue"] for g in digest["dockets"])
    assert files["digest.json"].decode() == json_layout(digest, "") + "\n"
    assert files["digest.html"].decode() == render_digest_html(digest)
    assert files["inspection-schedule.json"].decode() == json_layout(schedule, "") + "\n"
    assert files["inspection-schedule.html"].decode() == render_schedule_html(schedule)
    reminders = sorted(
        ({k: v for k, v in r.items() if k != "new"} for o in swept.outcomes if not o.error for r in o.reminders),
        key=lambda r: (r["date"], r["filing"], r["key"]),
    )
    assert reminders and json.loads(files["reminders.json"]) == {"as_of": AS_OF.isoformat(), "reminders": reminders}
    notices = sorted(
        ({k: v for k, v in n.items() if k not in ("status", "files")} for o in swept.outcomes if not o.error for n in o.notices),
        key=lambda n: (n["filing"], n["key"]),
    )
    assert notices and json.loads(files["notices.json"]) == {"as_of": AS_OF.isoformat(), "notices": notices}
    feeds = _in_memory_feeds(swept.outcomes)
    assert len(feeds) >= 4 and {k: v for k, v in files.items() if k.startswith("ics/")} == feeds


def test_the_chunks_order_does_not_change_a_byte(swept, tmp_path):
    chunks = [swept.outcomes[i : i + 37] for i in range(0, len(swept.outcomes), 37)]
    backwards = SweepResult(AS_OF, keep=False)
    for chunk in reversed(chunks):
        backwards.add(chunk)
    write_outputs(swept, tmp_path / "forwards")
    write_outputs(backwards, tmp_path / "backwards")
    assert _files(tmp_path / "forwards") == _files(tmp_path / "backwards")
    assert backwards.counts() == swept.counts() and backwards.outcomes == []


def test_a_zoned_time_is_written_as_the_same_moment_in_the_towns_time(swept, tmp_path):
    outcomes = [o for o in swept.outcomes if not o.error and o.open and o.calendar]
    first = outcomes[0]
    zoned = replace(first.calendar[0], at=datetime(2026, 12, 3, 23, 30, tzinfo=UTC))
    local = replace(zoned, at=datetime(2026, 12, 3, 18, 30))  # 23:30 UTC is 18:30 in Massachusetts in December
    result = SweepResult(AS_OF, [replace(first, calendar=[zoned, *first.calendar[1:]]), *outcomes[1:]])
    write_outputs(result, tmp_path)
    name = f"ics/{feed_name(first.town, first.department)}.ics"
    expected = _in_memory_feeds([replace(first, calendar=[local, *first.calendar[1:]]), *outcomes[1:]])[name]
    assert _files(tmp_path)[name] == expected
    assert b"DTSTART;TZID=America/New_York:20261203T183000" in expected


def test_a_record_that_holds_a_list_is_laid_out_as_in_memory(swept, tmp_path):
    o = next(o for o in swept.outcomes if not o.error and o.notices)
    nested = replace(o, notices=[{**o.notices[0], "recipients": ["a", "b"], "key": "notice:x"}, *o.notices[1:]])
    result = SweepResult(AS_OF, [nested])
    write_outputs(result, tmp_path)
    text = (tmp_path / "notices.json").read_text()
    notices = sorted(
        ({k: v for k, v in n.items() if k not in ("status", "files")} for n in nested.notices),
        key=lambda n: (n["filing"], n["key"]),
    )
    assert text == json_layout({"as_of": AS_OF.isoformat(), "notices": notices}, "") + "\n"
    assert '"recipients": [\n' not in text and '"recipients": ["a", "b"]' in text


def test_the_summary_holds_every_count_and_the_first_lines_the_docket_prints(swept, tmp_path):
    res = write_report(swept, tmp_path)
    full = build_digest(swept)
    summary = res["digest"]
    assert summary["counts"] == full["counts"] and res["counts"] == swept.counts()
    for s, f in zip(summary["dockets"], full["dockets"], strict=True):
        for key in ("overdue", "due", "late", "reminders", "notices"):
            assert len(s[key]) == len(f[key])
            assert list(s[key][:8]) == f[key][:8]
    assert any(len(g["due"]) > 8 for g in full["dockets"])  # the summary does cut something
    a, b = [], []
    print_docket(summary, type("W", (), {"write": lambda self, t: a.append(t)})())
    print_docket(full, type("W", (), {"write": lambda self, t: b.append(t)})())
    assert "".join(a) == "".join(b)


def test_the_sweep_lets_each_chunks_outcomes_go(tmp_path):
    write_jsonl(tmp_path / "f.jsonl", generate(200, AS_OF, seed=9))
    log = SqliteLedger(tmp_path / "l.sqlite")
    seen = []

    def alive() -> int:
        gc.collect()
        return sum(isinstance(x, FilingOutcome) for x in gc.get_objects())

    before = alive()  # other tests' outcomes (the module's fixture keeps its own)

    def progress(n):
        seen.append(alive() - before)

    result = run_sweep(DirectorySource(tmp_path), log, AS_OF, chunk_size=20, progress=progress)
    log.close()
    assert result.outcomes == [] and result.counts()["filings"] == 200
    assert len(seen) == 10 and max(seen) <= 20  # never more than the chunk in hand
