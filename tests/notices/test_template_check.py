"""Town templates are checked when they are installed (issue 35 item 4):
`permits towns check-templates FOLDER` reads each as the renderer will and
marks the folder checked; the installed folder (notices/templates/<town>/),
which the web, the sweep and `permits notices` use, is used only as it was
when checked, so the web never renders an unchecked town template."""

from __future__ import annotations

import json

import pytest
from notice_fixtures import filing_for

import notices.render as render
from cli.main import main
from notices.checked import MANIFEST
from notices.errors import TemplateProblem
from notices.produce import produce
from notices.template_check import MAX_TEMPLATE_BYTES
from workflows.replay import replay


def _installed(tmp_path, monkeypatch, text: str):
    root = tmp_path / "notices" / "templates"
    (root / "canton").mkdir(parents=True)
    (root / "canton" / "legal-notice.html.j2").write_text(text)
    monkeypatch.setattr(render, "TEMPLATES_ROOT", root)
    return root / "canton"


def _render_canton():
    from datetime import UTC, date, datetime

    filing = filing_for("canton", "noi", "legal-notice")
    return produce(
        filing,
        replay(filing, date(2026, 12, 3)),
        "legal-notice",
        fmt="html",
        dated=datetime(2026, 12, 3, 15, tzinfo=UTC),
    )


def test_a_folder_that_compiles_is_marked_checked_and_one_that_does_not_is_one_line_with_its_line(tmp_path, capsys):
    folder = tmp_path / "canton"
    folder.mkdir()
    (folder / "legal-notice.html.j2").write_text("<p>{{ filing_id }}</p>\n{% for %}\n")
    assert main(["towns", "check-templates", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["permits: canton/legal-notice.html.j2, line 2: Expected an expression, got 'end of statement block'"]
    assert not (folder / MANIFEST).exists()
    (folder / "legal-notice.html.j2").write_text("<p>{{ filing_id }}</p>\n")
    assert main(["towns", "check-templates", str(folder)]) == 0
    assert "checked" in capsys.readouterr().out
    assert set(json.loads((folder / MANIFEST).read_text())) == {"legal-notice.html.j2"}


@pytest.mark.parametrize(
    "name, content, words",
    [
        ("abuter-notice.html.j2", b"<p></p>", "abuter-notice.html.j2: overrides no notice"),
        ("legal-notice.html.j2", b"x" * (MAX_TEMPLATE_BYTES + 1), "over 256 KB, the most a town template may be"),
        ("legal-notice.html.j2", b"\xff\xfe<p>", "legal-notice.html.j2: not UTF-8 text"),
    ],
)
def test_a_template_that_cannot_be_installed_is_named(tmp_path, capsys, name, content, words):
    folder = tmp_path / "canton"
    folder.mkdir()
    (folder / name).write_bytes(content)
    assert main(["towns", "check-templates", str(folder)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert words in line
    assert not (folder / MANIFEST).exists()


def test_a_folder_named_for_no_town_is_refused(tmp_path, capsys):
    folder = tmp_path / "springfeld"
    folder.mkdir()
    (folder / "legal-notice.html.j2").write_text("<p></p>")
    assert main(["towns", "check-templates", str(folder)]) == 2
    assert "named for no town" in capsys.readouterr().err


def test_the_installed_folder_is_used_only_as_it_was_checked(tmp_path, monkeypatch, capsys):
    folder = _installed(tmp_path, monkeypatch, "<p>Canton's own legal notice for {{ filing_id }}</p>\n")
    with pytest.raises(TemplateProblem, match=r"canton/legal-notice.html.j2 has not been checked as it is now, so it is not"):
        _render_canton()
    assert main(["towns", "check-templates", str(folder)]) == 0
    (out,) = _render_canton()
    assert "Canton's own legal notice for CAN-NOI-2026-014" in out.content
    (folder / "legal-notice.html.j2").write_text('{{ "a" * 4000000000 }}')  # changed after the check
    with pytest.raises(TemplateProblem, match="has not been checked as it is now"):
        _render_canton()


def test_a_template_given_on_the_command_line_is_read_afresh_without_a_mark(tmp_path):
    """--templates DIR is the command line's own folder: read and bounded
    each time, not waiting for a mark."""
    from datetime import UTC, date, datetime

    (tmp_path / "canton").mkdir()
    (tmp_path / "canton" / "legal-notice.html.j2").write_text("<p>From the folder given: {{ filing_id }}</p>")
    filing = filing_for("canton", "noi", "legal-notice")
    (out,) = produce(
        filing,
        replay(filing, date(2026, 12, 3)),
        "legal-notice",
        fmt="html",
        town_templates_dir=tmp_path,
        dated=datetime(2026, 12, 3, 15, tzinfo=UTC),
    )
    assert "From the folder given: CAN-NOI-2026-014" in out.content
