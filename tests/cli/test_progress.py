"""What a long command says while it works (cli/progress.py): a bar with
counts and an estimate on a terminal, one line per stage otherwise, and the
stages of ``permits demo``, ``permits import`` and ``permits sweep``."""

from __future__ import annotations

import io
import json

from cli.args import ProgressBar
from cli.main import main
from cli.progress import duration


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_counts_to_the_total_with_an_estimate_then_says_how_long_it_took():
    clock, out = Clock(), Terminal()
    bar = ProgressBar("sweep", stream=out, clock=clock, unit="open filings", then="writing the report")
    bar.start(2500)
    for _ in range(2):
        clock.t += 2
        bar.update(1000)
    clock.t += 1
    bar.update(500)
    text = out.getvalue()
    assert "\rsweep [############..................] 1,000/2,500 open filings  2.0 s, about 3.0 s left" in text
    assert "2,000/2,500 open filings  4.0 s, about 1.0 s left" in text
    assert text.endswith(
        "\rsweep [##############################] 2,500/2,500 open filings in 5.0 s; writing the report...\x1b[K\n"
    )
    assert text.count("\n") == 1  # redrawn in place until the end


def test_on_a_terminal_the_bar_is_redrawn_at_most_ten_times_a_second():
    clock, out = Clock(), Terminal()
    bar = ProgressBar("import", 100_000, stream=out, clock=clock)
    for _ in range(999):
        clock.t += 0.001
        bar.update(100)
    assert out.getvalue().count("\r") <= 1 + 10  # the first drawing and one per 0.1 s


def test_not_on_a_terminal_each_stage_is_one_line_when_it_starts_and_one_when_it_ends():
    clock, out = Clock(), io.StringIO()  # a log file or a pipe
    bar = ProgressBar("import", stream=out, clock=clock, then="writing them to the store in one transaction")
    bar.start(5000)
    for _ in range(50):
        clock.t += 0.5
        bar.update(100)
    assert out.getvalue().splitlines() == [
        "import: 5,000 filings...",
        "import: 5,000 filings in 25 s; writing them to the store in one transaction...",
    ]


def test_a_run_below_the_minimum_says_nothing_and_a_second_start_counts_again():
    out = io.StringIO()
    bar = ProgressBar("import", 999, stream=out)  # the default minimum: 1,000 items
    bar.update(999)
    assert out.getvalue() == ""
    bar.start(1000, label="sweep")
    bar.update(1000)
    assert out.getvalue().startswith("sweep: 1,000 filings...\nsweep: 1,000 filings in ")


def test_durations_are_written_as_people_read_them():
    assert [duration(s) for s in (0.42, 9.95, 12.4, 185, 3725)] == ["0.4 s", "9.9 s", "12 s", "3 min 05 s", "1 h 02 min"]


def test_permits_import_of_many_filings_says_it_checks_them_then_writes_them(tmp_path, capsys):
    from storekit import NOI

    filings = [{**NOI, "id": f"CAN-NOI-2026-{n:06d}"} for n in range(1000)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(filings))
    url = f"sqlite:///{tmp_path / 'p.db'}"
    assert main(["init", "--db", url]) == 0
    capsys.readouterr()
    assert main(["import", str(path), "--db", url]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "permits: imported 1000 filing(s)"
    lines = captured.err.splitlines()
    assert lines[0] == "import: 1,000 filings..."
    assert lines[1].startswith("import: 1,000 filings in ") and lines[1].endswith(
        "; writing them to the store in one transaction..."
    )


def test_permits_demo_tells_every_stage_and_counts_the_filings_it_makes_and_sweeps(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PERMITS_DATA_DIR", str(tmp_path / "data"))
    argv = ["demo", "--no-prefect", "--no-serve", "--as-of", "2026-11-30", "--count", "60", "--notices", "0"]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    out, err = captured.out.splitlines(), captured.err.splitlines()
    assert out[0] == "Creating a demonstration store of 60 generated filings as of 2026-11-30..."
    assert err[0] == "import: 60 filings..." and err[1].startswith("import: 60 filings in ")
    assert any(line.startswith("sweep: ") and line.endswith(" open filings...") for line in err)
    assert "Running the daily sweep..." in out and "Adding the demo users..." in out
