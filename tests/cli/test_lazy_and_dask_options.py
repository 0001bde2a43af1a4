"""A clock's explanation is built when first read, and the same text as
before; the sweep's --dask option names a scheduler address or is refused
with one line and exit status 2, before anything is swept."""

import pickle
from datetime import date

import pytest

from cli.main import main
from workflows.filing import parse_filing
from workflows.replay import replay

NOI = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-LAZY",
    "events": [
        {"type": "filed", "date": "2026-04-10"},
        {"type": "hearing-scheduled", "date": "2026-04-13", "hearing": "2026-04-27"},
        {"type": "hearing-opened", "date": "2026-04-27"},
        {"type": "hearing-closed", "date": "2026-04-27"},
    ],
}


def test_an_explanation_is_built_only_when_read_and_then_kept():
    clock = replay(parse_filing(NOI), date(2026, 5, 1)).clock("decision")
    assert callable(clock.__dict__["_explanation"])  # not built by the replay
    text = clock.explanation
    assert text == "31 calendar days after 2026-04-27 (hearing closed); is 2026-05-28"
    assert clock.__dict__["_explanation"] == text  # built once, kept


def test_an_unread_explanation_survives_pickling_and_reads_the_same():
    r = replay(parse_filing(NOI), date(2026, 5, 1))
    copy = pickle.loads(pickle.dumps(r))
    assert [c.explanation for c in copy.clocks] == [c.explanation for c in r.clocks]
    assert copy.as_dict() == r.as_dict()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--dask", "localhost:8786"], "expected a scheduler address such as tcp://"),
        (["--dask", "tcp://a b:1"], "expected a scheduler address"),
        (["--dask", "tcp://127.0.0.1:8786", "--no-prefect"], "cannot go with --no-prefect"),
    ],
)
def test_a_bad_dask_address_is_one_line_and_exit_2(args, says, tmp_path, capsys):
    assert main(["sweep", "--filings", str(tmp_path), "--out", str(tmp_path / "out"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()
