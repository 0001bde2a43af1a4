"""The replay path stays light: no Prefect, no database, no Jinja."""

import subprocess
import sys


def test_permits_replay_does_not_import_prefect_the_database_or_jinja(tmp_path):
    path = tmp_path / "f.json"
    path.write_text('{"town": "canton", "kind": "noi", "id": "C-1", "events": [{"type": "filed", "date": "2026-06-01"}]}')
    code = (
        "import sys, contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    from cli.main import main; assert main(['replay', {str(path)!r}, '--as-of', '2026-06-02', '--json']) == 0\n"
        "print(sorted(m for m in ('prefect', 'sqlmodel', 'sqlalchemy', 'alembic', 'psycopg', 'jinja2', 'weasyprint') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
