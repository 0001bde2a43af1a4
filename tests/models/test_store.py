"""The record end to end through `permits`: on SQLite and on PostgreSQL."""

import copy
import json
import re

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError
from storekit import NOI, STREET, snapshot, write_json

from cli.main import main


def permits(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(db_url, capsys):
    assert permits(capsys, "init", "--db", db_url)[0] == 0
    return db_url


def imported(db, tmp_path, capsys, *filings):
    paths = [write_json(tmp_path / f"f{i}.json", f) for i, f in enumerate(filings)]
    code, out, err = permits(capsys, "import", "--db", db, "--by", "clerk", *paths)
    assert code == 0, err
    return paths


def assert_refused(capsys, db, argv, *phrases):
    """One line on stderr, exit 2, nothing on stdout, nothing written."""
    before = snapshot(db)
    code, out, err = permits(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("permits: error: ")
    for phrase in phrases:
        assert phrase in err
    assert snapshot(db) == before


def without_provenance(exported: dict) -> dict:
    """An export without the recorded_at/recorded_by it adds to each event."""
    events = [{k: v for k, v in e.items() if k not in ("recorded_at", "recorded_by")} for e in exported["events"]]
    return {**exported, "events": events}


#: what `permits import` keeps of NOI: a town's NOI naming no ``also`` is
#: heard under the Wetlands Protection Act too (every NOI is a filing under
#: M.G.L. c.131 §40; docs/reference/filing-format.md), so the Act is added
AS_IMPORTED = {**NOI, "also": ["wpa"]}


def test_export_of_an_import_is_the_same_json_and_reimports_identically(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI, STREET)
    code, first, _ = permits(capsys, "export", "CAN-NOI-2026-014", "--db", db)
    assert code == 0
    assert without_provenance(json.loads(first)) == AS_IMPORTED
    assert {e["recorded_by"] for e in json.loads(first)["events"]} == {"clerk"}
    other = tmp_path / "other.db"
    permits(capsys, "init", "--db", f"sqlite:///{other}")
    permits(capsys, "import", "--db", f"sqlite:///{other}", write_json(tmp_path / "again.json", json.loads(first)))
    out_file = tmp_path / "second.json"
    assert permits(capsys, "export", "CAN-NOI-2026-014", "--db", f"sqlite:///{other}", "--out", str(out_file))[0] == 0
    assert out_file.read_text() == first


def test_recorded_events_are_checked_against_the_state_and_numbered_in_sequence(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI)
    code, out, _ = permits(
        capsys, "record", "CAN-NOI-2026-014", "hearing-opened", "--date", "2026-12-15", "--as-of", "2026-12-31", "--db", db
    )
    assert code == 0 and "recorded event 5" in out and "hearing-open" in out
    assert_refused(
        capsys,
        db,
        ["record", "CAN-NOI-2026-014", "permit-issued", "--date", "2026-12-16", "--as-of", "2026-12-31", "--db", db],
        "event 6 (permit-issued)",
    )
    code, out, _ = permits(
        capsys,
        "record",
        "CAN-NOI-2026-014",
        "hearing-continued",
        "--date",
        "2026-12-15",
        "to=2027-01-05",
        "--as-of",
        "2026-12-31",
        "--db",
        db,
    )
    assert code == 0 and "recorded event 6" in out
    exported = json.loads(permits(capsys, "export", "CAN-NOI-2026-014", "--db", db)[1])
    assert without_provenance(exported)["events"][-1] == {"type": "hearing-continued", "date": "2026-12-15", "to": "2027-01-05"}


def test_a_voided_event_stays_in_history_and_export_but_not_in_the_replay(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI)
    code, out, _ = permits(
        capsys,
        "void",
        "CAN-NOI-2026-014",
        "4",
        "--reason",
        "wrong newspaper",
        "--date",
        "2026-12-08",
        "--as-of",
        "2026-12-09",
        "--db",
        db,
    )
    assert code == 0 and "event 4 voided by event 5" in out
    code, out, _ = permits(capsys, "show", "CAN-NOI-2026-014", "--as-of", "2026-12-09", "--json", "--db", db)
    shown = json.loads(out)
    assert [h["voided_by"] for h in shown["history"]] == [None, None, None, 5, None]
    assert shown["history"][4]["event"] == {"type": "event-voided", "date": "2026-12-08", "voids": 4, "reason": "wrong newspaper"}
    newspaper = next(c for c in shown["clocks"] if c["id"] == "newspaper-notice")
    assert newspaper["status"] == "overdue"  # the voided notice no longer meets it
    exported = json.loads(permits(capsys, "export", "CAN-NOI-2026-014", "--db", db)[1])
    assert without_provenance(exported)["events"][:4] == NOI["events"] and exported["events"][4]["type"] == "event-voided"
    assert_refused(
        capsys, db, ["void", "CAN-NOI-2026-014", "4", "--reason", "again", "--as-of", "2026-12-09", "--db", db], "already voided"
    )
    assert_refused(
        capsys,
        db,
        ["void", "CAN-NOI-2026-014", "3", "--reason", "typo", "--date", "2026-12-10", "--as-of", "2026-12-09", "--db", db],
        "event-voided dated 2026-12-10 is after 2026-12-09",
    )


def test_show_prints_history_state_and_clock_explanations(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI)
    code, out, _ = permits(capsys, "show", "CAN-NOI-2026-014", "--as-of", "2026-12-09", "--db", db)
    assert code == 0
    assert "state: hearing-scheduled" in out
    assert "by clerk" in out
    assert (
        "hearing-open (Public hearing to open)  deadline  2026-12-22 (Tuesday, December 22, 2026)  open (due)"
        "  [Canton Wetlands By-Law 15-5]"
    ) in out
    assert "21 calendar days after 2026-12-01 (filed, complete)" in out


def test_the_record_keeps_the_explanation_of_the_clocks_a_docket_lists_and_show_explains_them_all(db, tmp_path, capsys):
    done = copy.deepcopy(NOI)
    opened = {"type": "hearing-opened", "date": "2026-12-15"}
    done["events"] = [*NOI["events"], opened, {"type": "hearing-closed", "date": "2026-12-15"}]
    imported(db, tmp_path, capsys, done)
    engine = create_engine(db)
    with engine.connect() as conn:
        stored = {r.clock_id: (r.status, r.explanation) for r in conn.execute(text("SELECT * FROM filing_clock"))}
    engine.dispose()
    assert stored["hearing-open"] == ("met", "")  # no docket lists a met clock
    assert stored["decision"][0] == "due" and "calendar days after 2026-12-15 (hearing closed)" in stored["decision"][1]
    code, out, _ = permits(capsys, "show", done["id"], "--as-of", "2026-12-16", "--json", "--db", db)
    opened = next(c for c in json.loads(out)["clocks"] if c["id"] == "hearing-open")
    assert opened["status"] == "met" and "hearing-opened on 2026-12-15" in opened["explanation"]


def test_docket_lists_due_and_overdue_deadlines_soonest_first_with_rule_and_action(db, tmp_path, capsys):
    late = copy.deepcopy(NOI)
    late["id"], late["events"] = "CAN-NOI-2026-001", [{"type": "filed", "date": "2026-11-02"}]
    imported(db, tmp_path, capsys, NOI, late, STREET)
    code, out, _ = permits(capsys, "docket", "--as-of", "2026-12-09", "--within", "14", "--json", "--db", db)
    items = json.loads(out)["items"]
    got = [(i["date"], i["status"], i["filing"], i["clock"]) for i in items]
    assert ("2026-11-23", "overdue", "CAN-NOI-2026-001", "hearing-open") in got
    assert ("2026-12-22", "open", "CAN-NOI-2026-014", "hearing-open") in got
    assert [g[0] for g in got] == sorted(g[0] for g in got)
    first = items[0]
    assert first["rule"] and first["explanation"] and first["action"]
    code, out, _ = permits(capsys, "docket", "--as-of", "2026-12-09", "--overdue", "--json", "--db", db)
    assert {i["status"] for i in json.loads(out)["items"]} == {"overdue"}
    code, out, _ = permits(capsys, "docket", "--as-of", "2026-12-09", "--town", "saugus", "--json", "--db", db)
    assert json.loads(out)["items"] == []
    code, out, _ = permits(capsys, "docket", "--as-of", "2026-12-09", "--within", "14", "--db", db)
    assert "open the public hearing" in out and "Canton Wetlands By-Law 15-5" in out


def test_a_recorded_event_moves_the_stored_state_and_next_deadline(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI)
    code, out, _ = permits(capsys, "list", "--json", "--db", db)
    (row,) = json.loads(out)
    assert (row["state"], row["next_clock"], row["next_deadline"]) == ("hearing-scheduled", "hearing-posting", "2026-12-11")
    permits(capsys, "record", "CAN-NOI-2026-014", "notice-posted", "--date", "2026-12-10", "--as-of", "2026-12-31", "--db", db)
    (row,) = json.loads(permits(capsys, "list", "--json", "--db", db)[1])
    assert (row["state"], row["next_clock"], row["next_deadline"]) == ("hearing-scheduled", "hearing-open", "2026-12-22")
    permits(capsys, "record", "CAN-NOI-2026-014", "hearing-opened", "--date", "2026-12-15", "--as-of", "2026-12-31", "--db", db)
    (row,) = json.loads(permits(capsys, "list", "--json", "--db", db)[1])
    assert row["state"] == "hearing-open" and row["next_clock"] != "hearing-open"
    assert json.loads(permits(capsys, "list", "--state", "issued", "--json", "--db", db)[1]) == []
    assert len(json.loads(permits(capsys, "list", "--kind", "noi", "--town", "canton", "--json", "--db", db)[1])) == 1


def test_bad_input_is_one_line_exit_2_and_nothing_written(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI)
    broken = copy.deepcopy(STREET)
    broken["events"][2] = {"type": "permit-issued"}  # no date
    good = write_json(tmp_path / "good.json", {**STREET, "id": "CAN-SO-2026-102"})
    assert_refused(
        capsys, db, ["import", "--db", db, good, write_json(tmp_path / "bad.json", broken)], "event 3 (permit-issued)", "'date'"
    )
    assert_refused(
        capsys, db, ["import", "--db", db, good, write_json(tmp_path / "dup.json", NOI)], "duplicate filing id 'CAN-NOI-2026-014'"
    )
    assert_refused(capsys, db, ["import", "--db", db, good, good], "duplicate filing id 'CAN-SO-2026-102'")
    (tmp_path / "junk.json").write_text("{not json")
    assert_refused(capsys, db, ["import", "--db", db, str(tmp_path / "junk.json")], "not valid JSON")
    impossible = copy.deepcopy(STREET)
    del impossible["events"][1]  # issued without a Dig Safe number
    assert_refused(capsys, db, ["import", "--db", db, write_json(tmp_path / "x.json", impossible)], "Dig Safe")
    assert_refused(
        capsys, db, ["record", "NOPE-1", "hearing-opened", "--date", "2026-12-15", "--db", db], "unknown filing 'NOPE-1'"
    )
    assert_refused(
        capsys, db, ["record", "CAN-NOI-2026-014", "no-such-event", "--date", "2026-12-15", "--db", db], "unknown event type"
    )
    assert_refused(
        capsys, db, ["record", "CAN-NOI-2026-014", "hearing-opened", "--date", "2026-13-45", "--db", db], "invalid --date"
    )
    assert_refused(capsys, db, ["void", "CAN-NOI-2026-014", "9", "--reason", "x", "--db", db], "'voids'")
    assert_refused(capsys, db, ["export", "NOPE-1", "--db", db], "unknown filing")
    assert_refused(capsys, db, ["show", "NOPE-1", "--db", db], "unknown filing")


def test_events_and_ledger_entries_cannot_be_updated_or_deleted_even_in_sql(db, tmp_path, capsys):
    imported(db, tmp_path, capsys, NOI, STREET)
    assert (
        permits(
            capsys,
            "deposits",
            "Eversource",
            "--charge",
            "application",
            "--filing",
            "CAN-SO-2026-101",
            "--date",
            "2026-06-01",
            "--db",
            db,
        )[0]
        == 0
    )
    engine = create_engine(db)
    try:
        for statement in (
            "UPDATE event SET type = 'withdrawn' WHERE seq = 1",
            "DELETE FROM event",
            "UPDATE ledger_entry SET amount_cents = 0",
            "DELETE FROM ledger_entry",
        ):
            with pytest.raises(DBAPIError, match="never updated or deleted"):
                with engine.begin() as conn:
                    conn.execute(text(statement))
    finally:
        engine.dispose()
    assert without_provenance(json.loads(permits(capsys, "export", "CAN-NOI-2026-014", "--db", db)[1])) == AS_IMPORTED


def test_commands_refuse_a_database_that_was_never_initialised(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'none.db'}"
    code, out, err = permits(capsys, "list", "--db", url)
    assert code == 2 and "run 'permits init' first" in err
    assert not (tmp_path / "none.db").exists()


def test_the_database_url_comes_from_the_environment_when_no_db_is_given(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PERMITS_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    assert permits(capsys, "init")[0] == 0
    assert (tmp_path / "env.db").exists()
    imported(f"sqlite:///{tmp_path / 'env.db'}", tmp_path, capsys, NOI)
    assert "CAN-NOI-2026-014" in permits(capsys, "list")[1]


class _Terminal:
    """Standard error as a terminal, keeping what was written."""

    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_import_of_many_filings_shows_the_sweeps_progress_bar_on_a_terminal_only(tmp_path, capsys, monkeypatch):
    from datetime import date

    from demo.generate import generate

    path = tmp_path / "many.json"
    path.write_text(json.dumps(list(generate(1000, date(2026, 11, 30), seed=3))))
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    # every update redrawn: on a quick machine the whole check of 1,000
    # filings can take less than the bar's tenth of a second between redraws
    monkeypatch.setattr("cli.progress.REDRAW", 0)
    db = f"sqlite:///{tmp_path / 'p.db'}"
    assert main(["init", "--db", db]) == 0
    assert main(["import", "--db", db, str(path)]) == 0
    assert terminal.text.startswith("\rimport [") and "] 1,000/1,000 filings in " in terminal.text
    assert terminal.text.endswith("; writing them to the store in one transaction...\x1b[K\n")
    assert re.search(r"\] [1-9]00/1,000 filings", terminal.text)  # a count on the way
    monkeypatch.undo()
    small = tmp_path / "few.json"
    small.write_text(json.dumps(list(generate(5, date(2026, 11, 30), seed=4))))
    code, out, err = permits(capsys, "import", "--db", db, str(small))
    assert code == 0 and err == ""


def test_an_event_dated_after_the_day_it_is_recorded_on_is_refused_and_nothing_written(db, tmp_path, capsys):
    """The record says what has happened: a hearing opened tomorrow has not
    (what is to come is scheduled: hearing-scheduled with hearing=DATE)."""
    imported(db, tmp_path, capsys, NOI)
    assert_refused(
        capsys,
        db,
        ["record", "CAN-NOI-2026-014", "hearing-opened", "--date", "2026-12-15", "--as-of", "2026-12-14", "--db", db],
        "hearing-opened dated 2026-12-15 is after 2026-12-14, the day it is recorded",
    )
    code, out, _ = permits(
        capsys, "record", "CAN-NOI-2026-014", "hearing-opened", "--date", "2026-12-15", "--as-of", "2026-12-15", "--db", db
    )
    assert code == 0 and "recorded event 5" in out
