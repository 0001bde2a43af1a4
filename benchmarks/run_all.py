"""Run every ``bench_*.py`` in this folder, one process each, with the
project's virtualenv Python (``.venv/bin/python``) when there is one, else
the Python running this script.  Exit status 1 if any benchmark fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV_PYTHON = HERE.parent / ".venv" / "bin" / "python"


def main() -> int:
    python = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable
    failed = []
    for bench in sorted(HERE.glob("bench_*.py")):
        print(f"== {bench.name} ({python})", flush=True)
        if subprocess.run([python, str(bench)]).returncode != 0:
            failed.append(bench.name)
    if failed:
        print("failed:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
