"""Issue 35: a town template must not take the machine.  ``{{ "a" *
4000000000 }}`` exhausted memory and two nested loops over range(100000)
ran until killed; now each bomb is refused in one line naming the template
and its line, with nothing written (notices/bounded.py)."""

import json

import pytest
from kit import assert_one_line, run_inprocess
from notice_fixtures import filing_for

import notices.bounded as bounded

BOMBS = {
    "a text repeated": '{{ "a" * 4000000000 }}',
    "two nested loops": "{% for i in range(100000) %}{% for j in range(100000) %}.{% endfor %}{% endfor %}",
    "nested loops within range": "{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}",
    "a list repeated": "{{ ([1] * 100000000)|length }}",
    "a join doubling": '{% set s = "a" * 2000000 %}{% set s = s ~ s %}{% set s = s ~ s %}{{ s|length }}',
    "a sum doubling": '{% set s = "a" * 2000000 %}{{ (s + s)|length }}',
    "a wide filter": '{{ "a"|center(4000000000) }}',
    "a wide format filter": '{{ "%4000000000s"|format("a") }}',
    "a wide percent": '{{ "%4000000000s" % "a" }}',
    "a wide method": '{{ "a".ljust(4000000000) }}',
    "a wide str.format": '{{ "{:>4000000000}".format(1) }}',
    "a power": "{{ 10 ** 100000000 }}",
    "a long lipsum": "{{ lipsum(n=100000000) }}",
    "output over the cap": '{% for i in range(10000) %}{{ "a" * 1000 }}{% endfor %}',
}

WORDS = {
    "a text repeated": "a text or list repeated to 4,000,000,000 characters",
    "two nested loops": "range of 100,000 items, over the 10,000",
    "nested loops within range": "its loops turn more than 200,000 times",
    "a list repeated": "repeated to 100,000,000",
    "a join doubling": "a text joined with ~ is over 2,000,000 characters",
    "a sum doubling": "joined to 4,000,000 characters",
    "a wide filter": "center given 4,000,000,000",
    "a wide format filter": "format given a format wider than 10,000",
    "a wide percent": "a format wider than 10,000",
    "a wide method": "ljust given 4,000,000,000",
    "a wide str.format": "format given a format wider than 10,000",
    "a power": "a power of 100,000,000",
    "a long lipsum": "lipsum given 100,000,000",
    "output over the cap": "its output is over 2,000,000 characters",
}


def _notice(tmp_path, capsys, body: str):
    templates = tmp_path / "templates" / "canton"
    templates.mkdir(parents=True)
    (templates / "legal-notice.html.j2").write_text("<p>Legal notice</p>\n<p>{{ filing_id }}</p>\n" + body + "\n")
    filing = tmp_path / "f.json"
    filing.write_text(json.dumps(filing_for("canton", "noi", "legal-notice").to_json()))
    argv = ["notices", str(filing), "--kind", "legal-notice", "--format", "html", "--as-of", "2026-12-03"]
    return run_inprocess(capsys, *argv, "--templates", str(tmp_path / "templates"), "--out", str(tmp_path / "out"))


@pytest.mark.parametrize("bomb", list(BOMBS))
def test_a_template_bomb_is_refused_in_one_line_naming_the_template_and_its_line(tmp_path, capsys, bomb):
    ended = _notice(tmp_path, capsys, BOMBS[bomb])
    where = "template canton/legal-notice.html.j2" + ("" if bomb == "output over the cap" else ", line 3")
    assert_one_line(ended, where + ": refused, ", WORDS[bomb])
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_a_rendering_past_its_time_is_refused(tmp_path, capsys, monkeypatch):
    """The wall clock is checked at each turn and piece of output; with no
    time at all the first check refuses (no test waits for a clock)."""
    monkeypatch.setattr(bounded, "RENDER_SECONDS", 0.0)
    ended = _notice(tmp_path, capsys, "{% for i in range(3) %}{{ i }}{% endfor %}")
    assert_one_line(ended, "template canton/legal-notice.html.j2", "its rendering took more than 0 seconds")


def test_loops_and_joins_within_bounds_render_as_before(tmp_path, capsys):
    body = (
        '{% for i in range(3) %}<i>{{ i ~ "-" ~ loop.index }}</i>{% endfor %}'
        '{{ "<b>" ~ "x" }}{{ ("ab" * 2) }}{{ "%5s"|format("y") }}{{ "{:>4}".format(7) }}{{ 1500|money }}'
    )
    ended = _notice(tmp_path, capsys, body)
    assert ended.code == 0, ended.err
    (written,) = (tmp_path / "out").iterdir()
    text = written.read_text()
    assert "<i>0-1</i><i>1-2</i><i>2-3</i>" in text
    assert "&lt;b&gt;x" in text  # ~ escapes as Jinja's own join does
    assert "abab" in text and "    y" in text and "   7" in text and "$1,500.00" in text
