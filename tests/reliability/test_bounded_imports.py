"""Issue 35: `permits import` reads at most MAX_FILE_MB of a file (a 126 MB
file took 609 MB of memory), refusing a larger one by its name, and an
error in any filing names the file and the filing's place in it."""

import json

import pytest
from kit import assert_one_line, run_inprocess
from storekit import NOI, snapshot, write_json

import workflows.inputs as inputs


@pytest.fixture
def db(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    assert run_inprocess(capsys, "db", "upgrade", "--db", url).code == 0
    return url


def test_a_file_over_the_cap_is_refused_naming_it_and_nothing_is_written(tmp_path, capsys, db, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_FILE_MB", 1)
    big = tmp_path / "filings.json"
    big.write_text(json.dumps([NOI] * 2) + " " * (1024 * 1024))
    before = snapshot(db)
    line = assert_one_line(run_inprocess(capsys, "import", str(big), "--db", db), str(big))
    assert "over 1 MB, the most a filings file may be; split it into smaller files" in line
    assert snapshot(db) == before


def test_a_file_that_is_not_filings_is_named_with_the_place_of_the_first_that_is_not(tmp_path, capsys, db):
    good = write_json(tmp_path / "good.json", NOI)
    other = tmp_path / "numbers.json"
    other.write_text(json.dumps([{**NOI, "id": "CAN-NOI-2026-901"}, 7]))
    before = snapshot(db)
    ended = run_inprocess(capsys, "import", good, str(other), "--db", db)
    assert_one_line(ended, f"{other}, filing 2: a filing must be a JSON object")
    assert snapshot(db) == before
