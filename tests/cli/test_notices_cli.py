"""`permits notices` end to end: files written and recorded, never sent twice
by accident, and bad input as one line with exit status 2 and nothing written."""

import json
import subprocess
import sys

import pytest
from notice_fixtures import ABUTTERS_CSV, filing_for

from cli.main import main


def write_filing(tmp_path, town, kind, notice, **overrides):
    path = tmp_path / "filing.json"
    path.write_text(json.dumps(filing_for(town, kind, notice, **overrides).to_json()), encoding="utf-8")
    return path


def run(*argv):
    return subprocess.run([sys.executable, "-m", "cli.main", *argv], capture_output=True, text=True)


def test_abutter_notices_are_written_recorded_and_rendering_them_again_in_another_format_is_not_a_second_sending(
    tmp_path, capsys
):
    filing = write_filing(tmp_path, "canton", "noi", "abutter-notice")
    csv_path = tmp_path / "abutters.csv"
    csv_path.write_text(ABUTTERS_CSV, encoding="utf-8")
    out = tmp_path / "out"
    argv = [
        "notices",
        str(filing),
        "--kind",
        "abutter-notice",
        "--abutters",
        str(csv_path),
        "--format",
        "html",
        "--out",
        str(out),
        "--as-of",
        "2026-12-03",
        "--at",
        "2026-12-03T09:30",
    ]
    assert main(argv) == 0
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 5  # three letters, the certified-mail list, the labels
    assert "CAN-NOI-2026-014-abutter-notice-certified-mail.csv" in written
    log = json.loads((tmp_path / "filing.notices.json").read_text(encoding="utf-8"))
    assert [e["kind"] for e in log] == ["abutter-notice"] * 3
    assert log[0]["at"] == "2026-12-03T09:30"
    capsys.readouterr()
    as_pdf = [*argv[: argv.index("html")], "pdf", *argv[argv.index("html") + 1 :]]
    as_pdf[as_pdf.index("2026-12-03T09:30")] = "2026-12-04T11:00"  # asked a day later: still the letter of the 3rd
    assert main(as_pdf) == 0  # the same letter as PDF: rendered, not a second sending
    out_text, err = capsys.readouterr()
    assert "CAN-NOI-2026-014-abutter-notice.pdf" in out_text
    assert "abutter-notice was sent to O'Brien" in err and "on 2026-12-03T09:30" in err and "not sent a second time" in err
    assert "--again" in err and err.count("\n") == 1
    assert len(json.loads((tmp_path / "filing.notices.json").read_text(encoding="utf-8"))) == 3
    assert main(argv + ["--again"]) == 0
    capsys.readouterr()
    assert main(["notices", str(filing), "--history"]) == 0
    assert capsys.readouterr().out.count("abutter-notice") == 6


def test_list_shows_every_kind_with_its_permit_kinds_and_states(capsys):
    from notices.kinds import NOTICE_KINDS

    assert main(["notices", "--list"]) == 0
    out = capsys.readouterr().out
    for k in NOTICE_KINDS:
        assert k in out
    assert "states: hearing-scheduled" in out and "land-disturbance: mansfield" in out


def _assert_one_line_nothing_written(result, needle, out):
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0]
    assert not out.exists()


def test_a_decision_before_the_hearing_closed_is_one_line_and_nothing_written(tmp_path):
    filing = write_filing(tmp_path, "canton", "noi", "legal-notice")
    out = tmp_path / "out"
    result = run("notices", str(filing), "--kind", "permit", "--out", str(out), "--as-of", "2026-12-03")
    _assert_one_line_nothing_written(result, "can't produce permit: the filing is 'hearing-scheduled'", out)
    assert not (tmp_path / "filing.notices.json").exists()


def test_a_csv_without_an_address_column_is_one_line_and_nothing_written(tmp_path):
    filing = write_filing(tmp_path, "canton", "noi", "abutter-notice")
    bad = tmp_path / "abutters.csv"
    bad.write_text("Parcel,Owner\n1,A\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run("notices", str(filing), "--kind", "abutter-notice", "--abutters", str(bad), "--out", str(out))
    _assert_one_line_nothing_written(result, "abutters.csv: no mailing address column", out)


def test_an_unknown_town_template_is_one_line_and_nothing_written(tmp_path):
    filing = write_filing(tmp_path, "canton", "noi", "legal-notice")
    (tmp_path / "tpl" / "canton").mkdir(parents=True)
    (tmp_path / "tpl" / "canton" / "legal-notise.html.j2").write_text("x")
    out = tmp_path / "out"
    result = run(
        "notices",
        str(filing),
        "--kind",
        "legal-notice",
        "--templates",
        str(tmp_path / "tpl"),
        "--out",
        str(out),
        "--as-of",
        "2026-12-03",
    )
    _assert_one_line_nothing_written(result, "unknown town template canton/legal-notise.html.j2", out)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["notices"], "give a filing and --kind KIND, or --list"),
        (["notices", "FILE.json", "--kind", "ransom-note"], "cannot read FILE.json"),
        (["notices", "--kind", "abutter-notice"], "give a filing"),
    ],
)
def test_usage_mistakes_are_one_line(argv, needle, tmp_path):
    result = run(*argv, "--out", str(tmp_path / "out"))
    _assert_one_line_nothing_written(result, needle, tmp_path / "out")


def test_an_unknown_notice_kind_names_the_choices(tmp_path):
    filing = write_filing(tmp_path, "canton", "noi", "legal-notice")
    result = run("notices", str(filing), "--kind", "ransom-note", "--out", str(tmp_path / "out"))
    _assert_one_line_nothing_written(result, "unknown notice kind 'ransom-note'; choose one of: abutter-notice", tmp_path / "out")
