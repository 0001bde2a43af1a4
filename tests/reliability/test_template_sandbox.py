"""Town templates (notices/templates/<town>/ and --templates DIR) are edited
by town staff and render in Jinja's sandbox: a template that reaches for
Python's internals is refused with one line naming it, and runs nothing."""

import json

import pytest
from jinja2.sandbox import SandboxedEnvironment
from kit import assert_one_line, run_inprocess
from notice_fixtures import filing_for

from notices.render import environment

ESCAPES = [
    "{{ cycler.__init__.__globals__.os.popen('touch MARK').read() }}",
    "{{ lipsum.__globals__['os'].popen('touch MARK').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.popen('touch MARK') }}",
    "{{ namespace.__init__.__globals__['os'].system('touch MARK') }}",
    "{{ joiner.__init__.__globals__.__builtins__['__import__']('os').system('touch MARK') }}",
    "{% for c in [].__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
]


@pytest.mark.parametrize("payload", ESCAPES)
def test_a_town_template_reaching_for_python_internals_is_refused_and_runs_nothing(tmp_path, capsys, payload):
    mark = tmp_path / "pwned"
    templates = tmp_path / "templates" / "canton"
    templates.mkdir(parents=True)
    (templates / "legal-notice.html.j2").write_text("<p>" + payload.replace("MARK", str(mark)) + "</p>")
    filing = tmp_path / "f.json"
    filing.write_text(json.dumps(filing_for("canton", "noi", "legal-notice").to_json()))
    ended = run_inprocess(
        capsys,
        "notices",
        str(filing),
        "--kind",
        "legal-notice",
        "--format",
        "html",
        "--as-of",
        "2026-12-03",
        "--templates",
        str(tmp_path / "templates"),
        "--out",
        str(tmp_path / "out"),
    )
    assert_one_line(ended, "legal-notice.html.j2")
    assert not mark.exists()
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_town_folder_renders_sandboxed_and_the_defaults_do_not(tmp_path):
    (tmp_path / "canton").mkdir()
    (tmp_path / "canton" / "legal-notice.html.j2").write_text("<p>{{ 1 }}</p>")
    assert isinstance(environment("canton", tmp_path), SandboxedEnvironment)
    assert not isinstance(environment("saugus", tmp_path), SandboxedEnvironment)


def test_a_harmless_town_template_still_renders_in_the_sandbox(tmp_path, capsys):
    templates = tmp_path / "templates" / "canton"
    templates.mkdir(parents=True)
    (templates / "legal-notice.html.j2").write_text("<p>Legal notice for {{ filing_id|upper }}: {{ '%s'|format('ok') }}</p>")
    filing = tmp_path / "f.json"
    filing.write_text(json.dumps(filing_for("canton", "noi", "legal-notice").to_json()))
    argv = ["notices", str(filing), "--kind", "legal-notice", "--format", "html", "--as-of", "2026-12-03"]
    ended = run_inprocess(capsys, *argv, "--templates", str(tmp_path / "templates"), "--out", str(tmp_path / "out"))
    assert ended.code == 0, ended.err
    (written,) = (tmp_path / "out").iterdir()
    assert "Legal notice for CAN-NOI-2026-014: ok" in written.read_text()
