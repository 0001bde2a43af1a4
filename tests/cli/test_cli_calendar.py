"""The `permits holidays` and `permits clock` commands, end to end."""

import argparse
import json
import subprocess
import sys

import pytest

from cli.main import build_parser, main


def run(*argv):
    return subprocess.run([sys.executable, "-m", "cli.main", *argv], capture_output=True, text=True)


def test_clock_answers_the_issue_example_and_names_patriots_day(capsys):
    assert main(["clock", "noi", "hearing-open", "--town", "canton", "--from", "2026-03-30"]) == 0
    out = capsys.readouterr().out
    assert "2026-04-21" in out
    assert "Patriots' Day" in out
    assert "Canton Wetlands By-Law 15-5" in out


def test_clock_json_carries_date_rule_and_explanation(capsys):
    assert main(["clock", "noi", "hearing-open", "--town", "canton", "--from", "2026-03-30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["date"] == "2026-04-21"
    assert out["type"] == "deadline"
    assert out["rule"] == "Canton Wetlands By-Law 15-5"
    assert out["explanation"].startswith("21 calendar days after 2026-03-30 (filed, complete)")
    assert out["reckoning"]["rolled"] == [{"date": "2026-04-20", "reason": "Patriots' Day"}]


def test_clock_in_hours_prints_the_moment(capsys):
    assert main(["clock", "street-opening", "work-notice", "--town", "canton", "--from", "2026-11-25T10:00", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # Wed 10:00 + 72 business hours, Thanksgiving and the weekend not counted
    assert out["at"] == "2026-12-01T10:00"


def test_suspension_count_comes_from_the_record_but_is_capped_at_21_days(capsys):
    assert (
        main(
            ["clock", "street-opening", "suspension-ends", "--town", "canton", "--from", "2026-06-01", "--count", "10", "--json"]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["date"] == "2026-06-11"
    assert main(["clock", "street-opening", "suspension-ends", "--town", "canton", "--from", "2026-06-01", "--count", "22"]) == 2
    assert "at most 21" in capsys.readouterr().err


def test_holidays_json_lists_the_statute_days(capsys):
    assert main(["holidays", "--town", "mansfield", "--year", "2027", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    dates = {c["date"] for c in out["closed"]}
    assert "2027-07-05" in dates and "2027-04-19" in dates
    assert "2027-03-17" not in dates and "2027-06-17" not in dates


@pytest.mark.parametrize(
    "argv, needle",
    [
        (
            ["clock", "noi", "hearing-open", "--town", "boston", "--from", "2026-03-30"],
            "unknown town 'boston'; choose one of: canton, manchester-by-the-sea, mansfield, saugus, wpa",
        ),
        (["clock", "street-opening", "hearing-open", "--town", "saugus", "--from", "2026-03-30"], "choose one of: noi, rda"),
        (["clock", "noi", "no-such-clock", "--town", "canton", "--from", "2026-03-30"], "unknown clock for noi 'no-such-clock'"),
        (["clock", "noi", "hearing-open", "--town", "canton", "--from", "2026-02-30"], "invalid --from date '2026-02-30'"),
        (["holidays", "--town", "canton", "--year", "2300"], "year 2300 is outside"),
        (["holidays", "--town", "canton", "--year", "twenty"], "invalid year 'twenty'"),
        (["holidays", "--town", "canton"], "--year"),
    ],
)
def test_bad_input_is_one_line_exit_2_no_traceback(argv, needle):
    result = run(*argv)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.stderr


def test_every_command_has_help_text():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, p in sub.choices.items():
        assert p.description, f"permits {name} has no description"
        for action in p._actions:
            if action.dest != "help":
                assert action.help, f"permits {name}: {action.dest} has no help"


def test_demo_runs_and_shows_every_town(capsys):
    # The clock demonstration moved behind --clocks when `permits demo`
    # became the daily sweep on generated filings (tests/cli/test_cli_sweep.py).
    assert main(["demo", "--clocks"]) == 0
    out = capsys.readouterr().out
    for name in ("Canton", "Saugus", "Mansfield", "Wetlands Protection Act"):
        assert name in out
