"""Every bad input ends in one line on standard error and exit status 2,
with nothing written: encodings, types, nesting, strange strings, dates out
of range, paths that cannot be read or written, databases that cannot be
reached, misspelled filters, and ids that would name a file elsewhere."""

import copy
import json

import pytest
from kit import assert_one_line, run_inprocess
from storekit import NOI, snapshot, write_json

from workflows.errors import PermitsError
from workflows.ids import BadFilingId, UnsafePath, check_filing_id, safe_child
from workflows.inputs import MAX_FIELD_CHARS, load_json


def _noi(**changes):
    obj = copy.deepcopy(NOI)
    obj.update(changes)
    return obj


@pytest.fixture
def db(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'permits.db'}"
    assert run_inprocess(capsys, "init", "--db", url).code == 0
    return url


# -- filing ids ---------------------------------------------------------------


@pytest.mark.parametrize("good", ["CAN-NOI-2026-014", "a", "x_1.2-b", "A" * 64])
def test_a_filing_id_of_letters_digits_dash_underscore_dot_is_accepted(good):
    assert check_filing_id(good) == good


@pytest.mark.parametrize(
    "bad",
    ["", ".hidden", "..", "../../escape/trav", "/abs/path", "a/b", "a\\b", "A" * 65, "two\nlines", "nul\x00", "é", " x", 7, None],
)
def test_an_id_that_could_name_a_path_or_split_a_line_is_refused_naming_the_rule(bad):
    with pytest.raises(BadFilingId) as caught:
        check_filing_id(bad)
    message = str(caught.value)
    assert "\n" not in message and "1-64 letters, digits" in message


@pytest.mark.parametrize("part", ["..", ".", "a/b", "/etc", ""])
def test_safe_child_refuses_a_name_that_leaves_the_folder(tmp_path, part):
    with pytest.raises(UnsafePath):
        safe_child(tmp_path, part)


def test_safe_child_refuses_a_symlink_pointing_outside_the_folder(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "link").symlink_to(tmp_path)
    with pytest.raises(UnsafePath):
        safe_child(tmp_path / "out", "link", "x")


@pytest.mark.parametrize("bad_id", ["../../escape/trav", "/abs/path", "x\ny"])
def test_import_of_a_traversal_id_is_refused_and_writes_nothing(tmp_path, capsys, db, bad_id):
    before = snapshot(db)
    path = write_json(tmp_path / "f.json", _noi(id=bad_id))
    assert_one_line(run_inprocess(capsys, "import", path, "--db", db), "invalid filing id")
    assert snapshot(db) == before


@pytest.mark.parametrize("command", ["show", "export", "void", "record", "notices"])
def test_every_command_naming_a_filing_refuses_a_traversal_id(capsys, db, command):
    extra = {
        "void": ["1", "--reason", "x"],
        "record": ["hearing-opened", "--date", "2026-12-15"],
        "notices": ["--kind", "abutter-notice"],
    }.get(command, [])
    ended = run_inprocess(capsys, command, "../../escape", *extra, "--db", db)
    assert_one_line(ended, "invalid filing id")


def test_notices_for_a_traversal_id_in_a_json_file_write_nothing_outside_out(tmp_path, capsys):
    path = write_json(tmp_path / "f.json", _noi(id="../../escape"))
    ended = run_inprocess(capsys, "notices", path, "--kind", "hearing-notice", "--out", str(tmp_path / "o"))
    assert_one_line(ended, "invalid filing id")
    assert not (tmp_path.parent / "escape-hearing-notice.pdf").exists()


# -- encodings and JSON --------------------------------------------------------


def test_utf8_with_a_byte_order_mark_is_read():
    assert load_json(b"\xef\xbb\xbf" + json.dumps(NOI).encode(), "f") == NOI


@pytest.mark.parametrize(
    "data, needle",
    [
        (json.dumps(NOI).encode("utf-16"), "UTF-16"),
        (json.dumps(NOI).encode("utf-16-le"), "UTF-16"),
        (json.dumps(NOI).encode("utf-32"), "UTF-32"),
        (json.dumps({**NOI, "address": "café"}, ensure_ascii=False).encode("latin-1"), "not UTF-8"),
        (b'{"a": NaN}', "NaN is not a JSON number"),
        (b'{"a": -Infinity}', "Infinity is not a JSON number"),
        (b"[" * 1000 + b"]" * 1000, "nested deeper than 32"),
        (b'{"a": "\\ud800"}', "lone surrogate"),
        (b'{"a": "x\\u0000y"}', "NUL"),
        (json.dumps({"a": "x" * (MAX_FIELD_CHARS + 1)}).encode(), "the limit is 2,000"),
    ],
)
def test_a_document_that_is_not_plain_utf8_json_is_refused_by_name(data, needle):
    with pytest.raises(PermitsError) as caught:
        load_json(data, "f.json")
    assert needle in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "change, needle",
    [
        ({"events": [{"type": ["filed"], "date": "2026-12-01"}]}, "unknown event type"),
        ({"events": [{"type": {"a": 1}, "date": "2026-12-01"}]}, "unknown event type"),
        (
            {
                "events": [
                    {"type": "filed", "date": "2026-12-01"},
                    {"type": "clock-extended", "date": "2026-12-02", "clock": {}, "to": "2027-01-01"},
                ]
            },
            "unknown clock",
        ),
        ({"events": [{"type": "filed", "date": "9999-12-31"}]}, "outside the years 2000-2100"),
        ({"events": [{"type": "filed", "date": "1999-12-31"}]}, "outside the years 2000-2100"),
        ({"applicant": "x" * 5000}, "the limit is 2,000"),
    ],
)
def test_a_malformed_filing_is_one_line_on_replay_and_import(tmp_path, capsys, db, change, needle):
    path = write_json(tmp_path / "f.json", _noi(**change))
    before = snapshot(db)
    assert_one_line(run_inprocess(capsys, "replay", path, "--as-of", "2026-12-20"), needle)
    assert_one_line(run_inprocess(capsys, "import", path, "--db", db), needle)
    assert snapshot(db) == before


def test_record_refuses_a_date_outside_2000_to_2100(tmp_path, capsys, db):
    assert run_inprocess(capsys, "import", write_json(tmp_path / "f.json", NOI), "--db", db).code == 0
    ended = run_inprocess(capsys, "record", NOI["id"], "hearing-opened", "--date", "9999-12-15", "--db", db)
    assert_one_line(ended, "outside the years 2000-2100")


# -- paths ---------------------------------------------------------------------


def test_abutters_naming_a_folder_is_one_line(tmp_path, capsys):
    path = write_json(tmp_path / "f.json", NOI)
    ended = run_inprocess(
        capsys, "notices", path, "--kind", "abutter-notice", "--abutters", str(tmp_path), "--out", str(tmp_path / "o")
    )
    assert_one_line(ended, "a folder, not a CSV file")


def test_notices_out_naming_a_file_is_one_line(tmp_path, capsys):
    path = write_json(tmp_path / "f.json", NOI)
    (tmp_path / "afile").write_text("x")
    ended = run_inprocess(capsys, "notices", path, "--kind", "hearing-notice", "--out", str(tmp_path / "afile" / "sub"))
    assert_one_line(ended, "is a file, not a folder")


def test_export_out_naming_a_folder_is_one_line(tmp_path, capsys, db):
    assert run_inprocess(capsys, "import", write_json(tmp_path / "f.json", NOI), "--db", db).code == 0
    assert_one_line(run_inprocess(capsys, "export", NOI["id"], "--out", str(tmp_path), "--db", db), "is a folder")


def test_ics_out_naming_a_folder_is_one_line(tmp_path, capsys, db):
    assert_one_line(run_inprocess(capsys, "ics", "--out", str(tmp_path), "--db", db), "is a folder")


def test_import_of_a_folder_is_one_line(tmp_path, capsys, db):
    assert_one_line(run_inprocess(capsys, "import", str(tmp_path), "--db", db), "is a folder")


def test_a_postgresql_url_that_cannot_connect_is_one_line_naming_the_host_without_the_password(capsys):
    ended = run_inprocess(capsys, "list", "--db", "postgresql+psycopg://clerk:s3cret@127.0.0.1:9/permits")
    line = assert_one_line(ended, "cannot connect", "host 127.0.0.1 port 9")
    assert "s3cret" not in line


# -- filters -------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, value, valid",
    [("--town", "boston", "canton"), ("--kind", "xyz", "street-opening"), ("--state", "nonsense", "filed")],
)
def test_a_misspelled_list_filter_is_refused_with_the_valid_choices(capsys, db, option, value, valid):
    assert_one_line(run_inprocess(capsys, "list", option, value, "--db", db), f"{value!r}", "choose one of", valid)


def test_a_misspelled_docket_town_is_refused(capsys, db):
    assert_one_line(run_inprocess(capsys, "docket", "--town", "boston", "--db", db), "choose one of")


@pytest.mark.parametrize("value", ["²", "9" * 5000])
def test_record_of_a_field_value_of_odd_digits_is_one_line_or_success_not_a_traceback(tmp_path, capsys, db, value):
    assert run_inprocess(capsys, "import", write_json(tmp_path / "f.json", NOI), "--db", db).code == 0
    ended = run_inprocess(capsys, "record", NOI["id"], "hearing-opened", "--date", "2026-12-15", f"x={value}", "--db", db)
    assert ended.one_line_or_success(), ended.err


def test_export_keeps_who_recorded_each_event_and_when_and_import_restores_them(tmp_path, capsys, db):
    assert run_inprocess(capsys, "import", write_json(tmp_path / "f.json", NOI), "--db", db, "--by", "clerk").code == 0
    assert (
        run_inprocess(
            capsys,
            "record",
            NOI["id"],
            "hearing-opened",
            "--date",
            "2026-12-15",
            "--as-of",
            "2026-12-31",
            "--db",
            db,
            "--by",
            "agent",
        ).code
        == 0
    )
    first = run_inprocess(capsys, "export", NOI["id"], "--db", db).out
    exported = json.loads(first)
    assert [e["recorded_by"] for e in exported["events"]] == ["clerk"] * 4 + ["agent"]
    assert all(e["recorded_at"].endswith("Z") for e in exported["events"])
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert run_inprocess(capsys, "init", "--db", other).code == 0
    assert (
        run_inprocess(capsys, "import", write_json(tmp_path / "again.json", exported), "--db", other, "--by", "someone-else").code
        == 0
    )
    assert run_inprocess(capsys, "export", NOI["id"], "--db", other).out == first
    shown = json.loads(run_inprocess(capsys, "show", NOI["id"], "--json", "--as-of", "2026-12-20", "--db", other).out)
    assert [h["recorded_by"] for h in shown["history"]] == ["clerk"] * 4 + ["agent"]
    assert "recorded_at" not in shown["history"][0]["event"]


def test_an_import_with_a_bad_recorded_at_is_one_line(tmp_path, capsys, db):
    events = [{**NOI["events"][0], "recorded_at": "yesterday", "recorded_by": "clerk"}, *NOI["events"][1:]]
    ended = run_inprocess(capsys, "import", write_json(tmp_path / "f.json", _noi(events=events)), "--db", db)
    assert_one_line(ended, "event 1", "recorded_at")


def test_the_certified_mail_csv_neutralises_cells_a_spreadsheet_would_run_as_formulas():
    from notices.abutters import certified_mail_csv
    from notices.context import Party

    csv_text = certified_mail_csv([Party('=HYPERLINK("http://x")', "+1 Elm St", "@Canton", "MA", "02021", ("-12",), "abutter")])
    row = csv_text.splitlines()[1]
    assert "'=HYPERLINK" in row and "'+1 Elm St" in row and "'@Canton" in row and "'-12" in row


def test_a_sweep_of_filings_with_traversal_ids_writes_nothing_outside_its_out_folder(tmp_path, capsys):
    folder = tmp_path / "filings"
    folder.mkdir()
    for n, bad_id in enumerate(["../../escape", "/abs/path", ".hidden"]):
        write_json(folder / f"f{n}.json", _noi(id=bad_id, events=[{"type": "filed", "date": "2026-11-02"}]))
    write_json(folder / "good.json", _noi(events=[{"type": "filed", "date": "2026-11-02"}]))
    out = tmp_path / "work" / "out"
    ended = run_inprocess(
        capsys,
        "sweep",
        "--filings",
        str(folder),
        "--ledger",
        str(tmp_path / "l.sqlite"),
        "--no-prefect",
        "--as-of",
        "2026-11-30",
        "--out",
        str(out),
    )
    assert ended.code == 0, ended.err
    assert ended.out.count("invalid filing id") == 3
    outside = [p for p in tmp_path.rglob("*") if p.is_file() and out not in p.parents and folder not in p.parents]
    assert {p.name for p in outside} <= {"l.sqlite", "l.sqlite-wal", "l.sqlite-shm"}
