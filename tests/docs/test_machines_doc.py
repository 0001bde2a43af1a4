"""docs/reference/machines.md's copy of the permit machines is the command's own output."""

import re
import subprocess
import sys
from pathlib import Path

MACHINES = Path(__file__).resolve().parents[2] / "docs" / "reference" / "machines.md"


def test_the_machines_page_equals_permits_machines_format_md():
    text = MACHINES.read_text(encoding="utf-8")
    assert "# Permit lifecycles" in text
    found = re.search(r"<!-- machines:start -->\n(.*?)<!-- machines:end -->", text, re.S)
    assert found, "docs/reference/machines.md needs the <!-- machines:start --> / <!-- machines:end --> markers"
    out = subprocess.run(
        [sys.executable, "-m", "cli.main", "machines", "--format", "md"], capture_output=True, text=True, check=True
    ).stdout
    assert found.group(1) == out, "docs/reference/machines.md is stale: paste `permits machines --format md` between the markers"


def test_machines_for_one_kind_prints_only_that_table():
    out = subprocess.run(
        [sys.executable, "-m", "cli.main", "machines", "street-opening", "--format", "md"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("### street-opening\n")
    assert "### noi" not in out
    assert "| permit-issued | applied | issued | dig_safe_number_given (Canton 16-12 §10.4) |" in out


def test_machines_for_an_unknown_kind_is_one_line_and_status_2():
    done = subprocess.run([sys.executable, "-m", "cli.main", "machines", "dog-license"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "dog-license" in done.stderr
