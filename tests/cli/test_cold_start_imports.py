"""A command line that starts at once (issue 36): each command imports only
what it needs.  ``permits --help`` imports no library beyond the standard
one and not the rule book or the date rules; ``permits replay FILE``
imports the core and the settings, never the database, the templates,
Prefect, Dask or the web; ``show`` and ``docket`` on a SQLite store read
through the standard library's driver.  Each is a fresh process: what
``sys.modules`` holds after the command ran.  Speed itself is measured in
benchmarks/bench_cold_start.py, not here."""

import argparse
import json
import subprocess
import sys

import pytest

from cli.main import build_parser

#: libraries no command of these four may import
HEAVY = (
    "sqlalchemy",
    "sqlmodel",
    "alembic",
    "psycopg",
    "prefect",
    "prefect_dask",
    "dask",
    "distributed",
    "jinja2",
    "weasyprint",
    "fastapi",
    "starlette",
    "uvicorn",
    "pydantic",
    "holidays",
    "icalendar",
    "shapely",
    "numpy",
    "argon2",
)
#: the project's layers above the core, none of which replay needs
ABOVE_THE_CORE = ("services", "sweep", "demo", "notices", "web", "parcels", "models")

FILING = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-2026-0001",
    "events": [
        {"type": "filed", "date": "2026-05-01"},
        {"type": "hearing-scheduled", "date": "2026-05-04", "hearing": "2026-05-18"},
    ],
}


def _modules_after(argv, env_dir) -> set[str]:
    code = (
        "import sys, contextlib, io, json\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    from cli.main import main\n"
        "    try:\n"
        f"        code = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        code = exc.code\n"
        "print(json.dumps([code, sorted(sys.modules)]))"
    )
    env = {"PATH": "/usr/bin:/bin", "PERMITS_DATA_DIR": str(env_dir), "PERMITS_USER": "test", "HOME": str(env_dir)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stderr
    return set(modules)


def _packages(modules: set[str], names) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in names)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("cold")
    (d / "filing.json").write_text(json.dumps(FILING))
    env = {"PATH": "/usr/bin:/bin", "PERMITS_DATA_DIR": str(d), "PERMITS_USER": "test", "HOME": str(d)}
    for argv in (["init"], ["import", str(d / "filing.json")]):
        subprocess.run([sys.executable, "-m", "cli.main", *argv], env=env, check=True, capture_output=True)
    return d


def test_permits_help_imports_no_library_the_rule_book_nor_the_date_rules(data_dir):
    modules = _modules_after(["--help"], data_dir)
    assert _packages(modules, HEAVY) == []
    assert _packages(modules, ABOVE_THE_CORE + ("config",)) == []
    # the commands' modules only: no rule book, fee schedule, town or date rule
    assert sorted(m for m in modules if m.startswith(("workflows.", "calendars."))) == ["calendars.errors", "workflows.errors"]


def test_permits_replay_imports_the_core_and_nothing_above_it(data_dir):
    modules = _modules_after(["replay", str(data_dir / "filing.json"), "--as-of", "2026-06-01"], data_dir)
    assert _packages(modules, HEAVY) == []
    assert _packages(modules, ABOVE_THE_CORE) == []
    assert "workflows.replay" in modules  # it did replay


@pytest.mark.parametrize("argv", [["show", "CAN-NOI-2026-0001", "--as-of", "2026-06-01"], ["docket", "--as-of", "2026-06-01"]])
def test_show_and_docket_on_sqlite_import_no_database_library_nor_templates(argv, data_dir):
    modules = _modules_after(argv, data_dir)
    assert _packages(modules, HEAVY) == []
    assert _packages(modules, ("services", "sweep", "demo", "web", "parcels")) == []
    assert "models.read.sqlite_reader" in modules  # it read the store, through the standard library's driver


def test_a_command_built_alone_is_the_command_built_with_the_rest():
    """Only the command asked for is built; its parser, and the list of
    commands ``permits --help`` prints, are the whole parser's."""
    whole = build_parser()
    assert build_parser([]).format_help() == whole.format_help()
    (commands,) = [a for a in whole._actions if isinstance(a, argparse._SubParsersAction)]
    for name, parser in commands.choices.items():
        alone = build_parser([name])
        (its,) = [a for a in alone._actions if isinstance(a, argparse._SubParsersAction)]
        assert its.choices[name].format_help() == parser.format_help(), name
        assert [n for n, p in its.choices.items() if not p.sketch] == [name]
