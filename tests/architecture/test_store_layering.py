"""The core imports no database: calendars/ and the domain modules of
workflows/ load without SQLAlchemy or SQLModel."""

import subprocess
import sys

CORE = [
    "calendars",
    "workflows.filing",
    "workflows.replay",
    "workflows.deposits",
    "workflows.docket",
    "workflows.rulebook",
    "workflows.towns",
]


def test_the_core_loads_without_sqlalchemy_or_sqlmodel():
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'sqlmodel', 'models', 'alembic'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
