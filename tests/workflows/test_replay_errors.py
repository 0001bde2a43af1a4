"""`permits replay` on a history it refuses: exit status 2, one line on
standard error naming the event, its position and the rule or field, and
nothing on standard output.  Run through a subprocess, as a user runs it."""

import json
import subprocess
import sys
from datetime import date

import pytest

from workflows.errors import MalformedEvent
from workflows.filing import parse_filing
from workflows.replay import replay


def test_a_time_with_a_utc_offset_is_a_malformed_event_not_a_crash():
    with pytest.raises(MalformedEvent, match=r"event 2 \(work-noticed\): field 'at'"):
        replay(
            parse_filing(
                {
                    "town": "canton",
                    "kind": "street-opening",
                    "id": "CAN-SO-1",
                    "events": [
                        {"type": "filed", "date": "2026-12-01"},
                        {"type": "work-noticed", "at": "2026-12-02T10:00+05:00"},
                    ],
                }
            ),
            date(2026, 12, 20),
        )


def run_replay(tmp_path, obj, *flags):
    path = tmp_path / "filing.json"
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "replay", str(path), "--as-of", "2026-12-31", *flags], capture_output=True, text=True
    )


def assert_one_line_error(done, *needles):
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.endswith("\n") and done.stderr.count("\n") == 1, done.stderr
    for needle in needles:
        assert needle in done.stderr, (needle, done.stderr)


def street(*events):
    return {"town": "canton", "kind": "street-opening", "id": "CAN-SO-2026-7", "events": list(events)}


@pytest.mark.parametrize("flags", [(), ("--json",), ("--explain",)])
def test_a_refused_event_is_one_line_naming_event_position_and_rule(tmp_path, flags):
    done = run_replay(
        tmp_path, street({"type": "filed", "date": "2026-06-01"}, {"type": "permit-issued", "date": "2026-06-02"}), *flags
    )
    assert_one_line_error(done, "CAN-SO-2026-7", "event 2 (permit-issued)", "Dig Safe", "Canton 16-12 §10.4")


def test_a_missing_field_is_one_line_naming_the_field(tmp_path):
    done = run_replay(
        tmp_path, street({"type": "filed", "date": "2026-06-01"}, {"type": "dig-safe-obtained", "date": "2026-06-01"}), "--json"
    )
    assert_one_line_error(done, "event 2 (dig-safe-obtained)", "missing required field 'ticket'")


def test_an_impossible_date_is_one_line(tmp_path):
    done = run_replay(tmp_path, street({"type": "filed", "date": "2026-02-30"}), "--json")
    assert_one_line_error(done, "event 1 (filed)", "field 'date'", "2026-02-30")


def test_an_unknown_event_type_is_one_line(tmp_path):
    done = run_replay(tmp_path, street({"type": "filed", "date": "2026-06-01"}, {"type": "paved", "date": "2026-06-02"}))
    assert_one_line_error(done, "event 2 (paved)", "unknown event type 'paved'", "docs/reference/filing-format.md")


def test_an_event_the_state_does_not_allow_is_one_line(tmp_path):
    done = run_replay(
        tmp_path, street({"type": "filed", "date": "2026-06-01"}, {"type": "deposit-refunded", "date": "2026-06-02"})
    )
    assert_one_line_error(done, "event 2 (deposit-refunded)", "not allowed when the filing is 'applied'")


def test_a_guard_refusal_on_a_wetlands_filing_is_one_line(tmp_path):
    done = run_replay(
        tmp_path,
        {
            "town": "canton",
            "kind": "noi",
            "id": "CAN-NOI-1",
            "events": [{"type": "filed", "date": "2026-06-01"}, {"type": "hearing-closed", "date": "2026-06-16"}],
        },
    )
    assert_one_line_error(done, "event 2 (hearing-closed)", "cannot close before it opens", "Canton Wetlands By-Law")


def test_an_unknown_town_and_bad_json_are_one_line(tmp_path):
    assert_one_line_error(
        run_replay(tmp_path, {"town": "boston", "kind": "noi", "id": "B-1", "events": [{"type": "filed", "date": "2026-06-01"}]}),
        "unknown town 'boston'",
        "canton",
    )
    assert_one_line_error(run_replay(tmp_path, "{not json"), "not valid JSON")
