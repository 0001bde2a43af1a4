"""Fuzzed filings and events against replay, import and record: each ends
in success or exit status 2 with one line on standard error, never a
traceback, and a refused import or record writes nothing; the store the
accepted imports built keeps a deposit ledger that reconciles with their
events."""

import copy
import sys

import pytest
from fuzzing import FUZZ_SETTINGS, encoded, malformed_filing, values
from hypothesis import given
from hypothesis import strategies as st
from kit import assert_ledger_reconciles, report_row, run_inprocess
from sqlalchemy import func, select
from storekit import NOI, STREET

from models.handle import Store
from models.schema.tables import EventRow, FilingRow

sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))

BASES = [NOI, STREET]


def totals(url) -> tuple[int, int]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return (
                conn.execute(select(func.count()).select_from(FilingRow.__table__)).scalar_one(),
                conn.execute(select(func.count()).select_from(EventRow.__table__)).scalar_one(),
            )
    finally:
        store.engine.dispose()


RUNS: dict[str, int] = {}
IMPORTS = "fuzz: import of malformed filings"


def assert_clean_end(ended, test: str):
    RUNS[test] = RUNS.get(test, 0) + 1
    assert ended.one_line_or_success(), (ended.code, ended.err)


@pytest.fixture(scope="module", autouse=True)
def fuzz_report():
    yield
    for test, runs in RUNS.items():
        report_row(test, runs)


@pytest.fixture(scope="module")
def store_url(tmp_path_factory):
    from cli.main import main

    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'permits.db'}"
    assert main(["init", "--db", url]) == 0
    return url


@FUZZ_SETTINGS
@given(data=st.data())
def test_replay_of_a_fuzzed_filing_file_ends_in_success_or_one_line(tmp_path_factory, capsys, data):
    obj = data.draw(malformed_filing(data.draw(st.sampled_from(BASES))))
    path = tmp_path_factory.getbasetemp() / "fuzz-replay.json"
    path.write_bytes(data.draw(encoded(obj)))
    assert_clean_end(run_inprocess(capsys, "replay", str(path), "--as-of", "2026-12-20"), "fuzz: replay of malformed filings")


@FUZZ_SETTINGS
@given(data=st.data())
def test_import_of_a_fuzzed_filing_file_ends_in_success_or_one_line_and_writes_all_or_nothing(
    tmp_path_factory, capsys, store_url, data
):
    base = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    base["id"] = f"F-{data.draw(st.integers(0, 10**9))}"
    obj = data.draw(malformed_filing(base))
    path = tmp_path_factory.getbasetemp() / "fuzz-import.json"
    path.write_bytes(data.draw(encoded(obj)))
    before = totals(store_url)
    ended = run_inprocess(capsys, "import", str(path), "--db", store_url)
    assert_clean_end(ended, IMPORTS)
    after = totals(store_url)
    if ended.code != 0:
        assert after == before, "a refused import wrote something"
    else:
        assert after[0] == before[0] + 1


@pytest.fixture(scope="module")
def recorded_url(store_url, tmp_path_factory):
    import json

    from cli.main import main

    path = tmp_path_factory.getbasetemp() / "noi.json"
    path.write_text(json.dumps({**NOI, "id": "REC-1"}))
    assert main(["import", str(path), "--db", store_url]) == 0
    return store_url


field_texts = st.one_of(
    st.text(max_size=12), st.sampled_from(["hearing=2026-12-20", "to=9999-01-01", "clock={}", "voids=1", "x=\x00"])
)


@FUZZ_SETTINGS
@given(
    etype=st.one_of(
        st.sampled_from(["hearing-opened", "hearing-continued", "clock-extended", "event-voided", "filed"]), st.text(max_size=12)
    ),
    day=st.one_of(st.sampled_from(["2026-12-15", "9999-12-31", "2026-12-15T19:00", "1999-01-01"]), st.text(max_size=16)),
    fields=st.lists(field_texts, max_size=3),
)
def test_record_of_a_fuzzed_event_ends_in_success_or_one_line_and_appends_one_event_or_none(
    capsys, recorded_url, etype, day, fields
):
    if etype.startswith("-") or day.startswith("-") or any(f.startswith("-") for f in fields):
        day = "2026-12-15"  # an option, not a value: argparse's business (help tests)
        etype, fields = etype.lstrip("-") or "x", [f.lstrip("-") for f in fields]
    before = totals(recorded_url)
    ended = run_inprocess(capsys, "record", "REC-1", etype, "--date", day, *fields, "--db", recorded_url)
    assert_clean_end(ended, "fuzz: record of malformed events")
    after = totals(recorded_url)
    assert after[1] == before[1] + (1 if ended.code == 0 else 0)


@FUZZ_SETTINGS
@given(raw=values)
def test_any_json_value_as_a_filing_is_refused_in_one_line_or_replayed(tmp_path_factory, capsys, raw):
    import json

    path = tmp_path_factory.getbasetemp() / "fuzz-any.json"
    path.write_text(json.dumps(raw, allow_nan=True), encoding="utf-8", errors="surrogatepass")
    assert_clean_end(run_inprocess(capsys, "replay", str(path), "--as-of", "2026-12-20"), "fuzz: any JSON value as a filing")


def test_the_store_the_fuzzed_imports_built_reconciles_with_its_ledger(store_url):
    """After the fuzzed imports above (this module's order): every street
    opening they brought in has the fees and deposit its events call for,
    and no more (``permits deposits --check``)."""
    if not RUNS.get(IMPORTS):
        pytest.skip("the fuzzed imports did not run in this session")
    store = Store(store_url)
    try:
        got = assert_ledger_reconciles(store, "after the fuzzed imports")
        assert got.permits > 0, "no fuzzed street opening was imported"
    finally:
        store.engine.dispose()
