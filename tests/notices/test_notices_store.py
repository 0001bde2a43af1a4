"""`permits notices ID` on a filing in the store: the notice recorded on the
filing (which, when, to whom), never sent twice by accident, shown by
`permits show`; on SQLite and PostgreSQL."""

import json

import pytest
from notice_fixtures import ABUTTERS_CSV, filing_for
from storekit import snapshot

from cli.main import main

FILING_ID = "CAN-NOI-2026-014"


@pytest.fixture
def stored(db_url, tmp_path, capsys):
    path = tmp_path / "filing.json"
    path.write_text(json.dumps(filing_for("canton", "noi", "abutter-notice").to_json()), encoding="utf-8")
    assert main(["init", "--db", db_url]) == 0
    assert main(["import", "--db", db_url, str(path)]) == 0
    (tmp_path / "abutters.csv").write_text(ABUTTERS_CSV, encoding="utf-8")
    capsys.readouterr()
    return db_url


def notices_argv(db, tmp_path, out):
    return [
        "notices",
        FILING_ID,
        "--db",
        db,
        "--kind",
        "abutter-notice",
        "--abutters",
        str(tmp_path / "abutters.csv"),
        "--format",
        "html",
        "--out",
        str(out),
        "--as-of",
        "2026-12-03",
        "--at",
        "2026-12-03T09:30",
    ]


def test_a_notice_of_a_stored_filing_is_recorded_on_it_and_shown(stored, tmp_path, capsys):
    from models.handle import Store
    from services.notice_log import StoreNoticeLog

    assert main(notices_argv(stored, tmp_path, tmp_path / "out")) == 0
    assert len(list((tmp_path / "out").iterdir())) == 5
    assert not (tmp_path / f"{FILING_ID}.notices.json").exists()
    store = Store(stored)
    sent = StoreNoticeLog(store).entries(FILING_ID)
    store.engine.dispose()
    assert [(e.kind, e.at) for e in sent] == [("abutter-notice", "2026-12-03T09:30")] * 3
    assert any("brien" in e.recipient.lower() for e in sent)
    assert all(len(e.files) == 5 for e in sent)
    capsys.readouterr()
    assert main(["show", FILING_ID, "--db", stored, "--as-of", "2026-12-03"]) == 0
    out = capsys.readouterr().out
    assert "notices:" in out and out.count("2026-12-03T09:30  abutter-notice  to ") == 3
    assert main(["show", FILING_ID, "--db", stored, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["notices"]
    assert [n["kind"] for n in shown] == ["abutter-notice"] * 3 and all(n["at"] == "2026-12-03T09:30" for n in shown)
    assert main(["notices", FILING_ID, "--db", stored, "--history"]) == 0
    assert capsys.readouterr().out.count("abutter-notice") == 3


def test_a_second_identical_request_renders_the_notice_again_and_records_nothing_unless_again(stored, tmp_path, capsys):
    assert main(notices_argv(stored, tmp_path, tmp_path / "out")) == 0
    capsys.readouterr()
    before = snapshot(stored)
    assert main(notices_argv(stored, tmp_path, tmp_path / "again")) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 5 and err.count("\n") == 1 and err.startswith("permits: abutter-notice was sent to O'Brien")
    assert "not sent a second time" in err and "--again" in err
    assert snapshot(stored) == before and len(list((tmp_path / "again").iterdir())) == 5
    assert main(notices_argv(stored, tmp_path, tmp_path / "again2") + ["--again"]) == 0
    after = snapshot(stored)
    assert len(after["notice"]) == len(before["notice"]) + 3


def test_an_unknown_filing_id_is_one_line_exit_2_and_nothing_written(stored, tmp_path, capsys):
    before = snapshot(stored)
    argv = notices_argv(stored, tmp_path, tmp_path / "out")
    argv[1] = "CAN-NOI-1999-001"
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "unknown filing 'CAN-NOI-1999-001'" in err
    assert snapshot(stored) == before and not (tmp_path / "out").exists()


def test_a_notice_the_sweep_made_is_not_sent_again_by_hand(stored, tmp_path, capsys):
    from services.sweep_log import StoreOutputLog

    log = StoreOutputLog.at(stored)
    log.mark_done(
        FILING_ID,
        "notice:legal-notice:2026-12-08",  # the newspaper notice's date, as the sweep keys it
        {
            "kind": "legal-notice",
            "files": ["notices/x.pdf"],
            "recipients": ["public"],
            "dated": "2026-11-30T08:00",
            "as_of": "2026-11-30",
        },
    )
    log.close()
    argv = [
        "notices",
        FILING_ID,
        "--db",
        stored,
        "--kind",
        "legal-notice",
        "--format",
        "txt",
        "--out",
        str(tmp_path / "out"),
        "--as-of",
        "2026-12-03",
    ]
    before = snapshot(stored)
    assert main(argv) == 0  # the same notice: rendered again as the sweep dated it, not recorded again
    out, err = capsys.readouterr()
    assert "legal-notice was sent to public on 2026-11-30T08:00" in err
    letter = (tmp_path / "out" / f"{FILING_ID}-legal-notice.txt").read_text()
    assert out.strip().endswith(f"{FILING_ID}-legal-notice.txt") and "November 30, 2026" in letter  # dated as sent
    assert snapshot(stored) == before
    assert main(["show", FILING_ID, "--db", stored]) == 0
    shown = capsys.readouterr().out
    assert shown.count("legal-notice  to public") == 1 and "2026-11-30T08:00  legal-notice  to public" in shown
