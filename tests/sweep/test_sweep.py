"""The sweep as plain functions on a fixed generated store: the golden
digest, idempotence, a crash and a rerun, one bad filing among good ones.

Regenerate the golden files after a deliberate change with
``PERMITS_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/sweep/test_sweep.py``
and review the diff."""

import json
import os
from datetime import date
from pathlib import Path

import pytest

from demo.generate import generate
from services.database import upgrade_store
from services.imports import import_filings
from sweep.ledger import DirectorySource, SqliteLedger, write_jsonl
from sweep.report import build_digest, build_schedule, write_outputs
from sweep.run import run_sweep

AS_OF = date(2026, 11, 30)
GOLDEN = Path(__file__).parent / "golden"


class Crash(BaseException):
    """A process dying halfway: not an Exception, so nothing catches it."""


class NoticeRecorder:
    """A notice hook standing in for the notices module: writes one file per
    notice and counts how often each was made."""

    def __init__(self):
        self.made = {}

    def __call__(self, filing, replay, due, out_dir):
        self.made[(filing.id, due.key)] = self.made.get((filing.id, due.key), 0) + 1
        path = Path(out_dir) / "notices" / filing.id / f"{due.key.replace(':', '_')}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(due.reason)
        return [str(path.relative_to(out_dir))]


class CrashingLedger(SqliteLedger):
    def __init__(self, path, after):
        super().__init__(path)
        self.left = after

    def mark_done(self, filing_id, output_key, payload):
        super().mark_done(filing_id, output_key, payload)
        self.left -= 1
        if self.left == 0:
            raise Crash()


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("store")
    write_jsonl(folder / "filings.jsonl", generate(150, AS_OF, seed=11))
    return folder


def sweep(store, ledger, out, hook=None, log=None):
    log = log or SqliteLedger(ledger)
    try:
        result = run_sweep(DirectorySource(store), log, AS_OF, chunk_size=40, notice_hook=hook, out_dir=out, keep_outcomes=True)
        write_outputs(result, out)
        return result
    finally:
        log.close()


def files(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _golden(name, obj):
    path = GOLDEN / name
    text = json.dumps(obj, indent=1, sort_keys=True) + "\n"
    if os.environ.get("PERMITS_REGEN_GOLDEN"):
        path.write_text(text)
    assert json.loads(path.read_text()) == json.loads(text), f"{name} differs from the golden file"


def test_golden_digest_and_schedule_for_a_fixed_store_and_day(store, tmp_path):
    result = sweep(store, tmp_path / "l.sqlite", tmp_path / "out")
    _golden("digest-2026-11-30.json", build_digest(result))
    _golden("schedule-2026-11-30.json", build_schedule(result))


def test_the_digest_covers_every_town_overdue_and_late(store, tmp_path):
    d = build_digest(sweep(store, tmp_path / "l.sqlite", tmp_path / "out"))
    assert {(g["town"], g["department"]) for g in d["dockets"]} == {
        ("canton", "conservation"),
        ("canton", "dpw"),
        ("saugus", "conservation"),
        ("mansfield", "conservation"),
        ("wpa", "conservation"),
    }
    assert d["counts"]["overdue"] > 0 and any(g["late"] for g in d["dockets"])
    assert d["failures"] == []


def test_sweeping_twice_gives_the_same_outputs_and_no_new_notices(store, tmp_path):
    hook = NoticeRecorder()
    first = sweep(store, tmp_path / "l.sqlite", tmp_path / "out1", hook)
    again = sweep(store, tmp_path / "l.sqlite", tmp_path / "out2", hook)
    assert first.counts()["notices_made"] > 0 and first.counts()["reminders_new"] > 0
    assert again.counts()["notices_made"] == 0 and again.counts()["reminders_new"] == 0
    assert set(hook.made.values()) == {1}
    one = {k: v for k, v in files(tmp_path / "out1").items() if not k.startswith("notices/")}
    two = files(tmp_path / "out2")
    assert one == two


def test_a_crash_halfway_then_a_rerun_ends_as_one_clean_run(store, tmp_path):
    clean_hook = NoticeRecorder()
    sweep(store, tmp_path / "clean.sqlite", tmp_path / "clean", clean_hook)
    clean = SqliteLedger(tmp_path / "clean.sqlite")
    total = len(clean.outputs())

    hook = NoticeRecorder()
    with pytest.raises(Crash):
        sweep(store, None, tmp_path / "crashed", hook, log=CrashingLedger(tmp_path / "crashed.sqlite", after=total // 2))
    partial = SqliteLedger(tmp_path / "crashed.sqlite")
    assert 0 < len(partial.outputs()) < total
    partial.close()
    sweep(store, tmp_path / "crashed.sqlite", tmp_path / "crashed", hook)

    rerun = SqliteLedger(tmp_path / "crashed.sqlite")
    assert rerun.outputs() == clean.outputs()
    assert rerun.derived() == clean.derived()
    assert hook.made == clean_hook.made  # every notice made exactly once
    assert files(tmp_path / "crashed") == files(tmp_path / "clean")


def test_a_bad_record_and_a_failing_notice_are_reported_and_the_rest_goes_on(store, tmp_path):
    folder = tmp_path / "store"
    folder.mkdir()
    good = list(generate(30, AS_OF, seed=11))
    bad_history = dict(good[3], events=[{"type": "hearing-closed", "date": "2026-01-01"}])
    write_jsonl(folder / "a.jsonl", good[:3] + [bad_history] + good[4:])
    (folder / "b.json").write_text("{not json")

    broke = []

    def broken_template(filing, replay, due, out_dir):
        if not broke or broke[0] == filing.id:
            broke.append(filing.id)
            raise KeyError("applicant")  # a template error
        return []

    result = sweep(folder, tmp_path / "l.sqlite", tmp_path / "out", broken_template)
    failed = {o.filing: o.error for o in result.outcomes if o.error}
    assert set(failed) == {good[3]["id"], "b.json", broke[0]}
    assert "not JSON" in failed["b.json"] and "KeyError" in failed[broke[0]]
    assert len(result.outcomes) == 31
    assert sum(1 for o in result.outcomes if not o.error and o.open) > 20
    d = build_digest(result)
    assert {f["filing"] for f in d["failures"]} == set(failed)


def test_chunk_refs_load_the_same_records_as_reading_the_whole_source(tmp_path):
    folder = tmp_path / "store"
    folder.mkdir()
    raws = list(generate(25, AS_OF, seed=4))
    write_jsonl(folder / "a.jsonl", raws[:17])
    (folder / "b.json").write_text(json.dumps(raws[17:20]))
    for i, raw in enumerate(raws[20:]):
        (folder / f"c{i}.json").write_text(json.dumps(raw))
    (folder / "d.json").write_text("{not json")
    source = DirectorySource(folder)
    whole = list(source.open_filings())
    refs = source.chunk_refs(4)
    assert all(len(source.load(r)) <= 4 or r[0] == "json" for r in refs)
    assert [x for r in refs for x in source.load(r)] == whole
    assert len(whole) == 26 and source.count() == 17 + 1 + 5 + 1


def test_the_store_as_source_gives_the_same_dockets_as_the_filing_json(store, tmp_path):
    from models.handle import Store
    from sweep.store_source import StoreSource

    url = f"sqlite:///{tmp_path / 'permits.db'}"
    db = Store(url)
    upgrade_store(db)
    import_filings(db, generate(150, AS_OF, seed=11), by="test")
    from_json = build_digest(sweep(store, tmp_path / "a.sqlite", tmp_path / "a"))
    source = StoreSource(url)
    log = SqliteLedger(tmp_path / "b.sqlite")
    from_store = build_digest(run_sweep(source, log, AS_OF, chunk_size=40))
    log.close()
    assert from_store["dockets"] == from_json["dockets"]
    assert from_store["counts"]["open"] == from_json["counts"]["open"]
    assert from_store["counts"]["filings"] == from_json["counts"]["open"]  # closed ones are not selected
    assert [x for r in source.chunk_refs(40) for x in source.load(r)] == list(source.open_filings())
