"""The web never renders an unchecked town template (issue 35 item 4): a
file in the installed folder (notices/templates/<town>/) that has not been
checked as it is now is refused on the page in people's words, the
template's bomb never run; once `permits towns check-templates` marks it,
the page shows the town's own words."""

from __future__ import annotations

import pytest
from test_web_refusals import _assert_one_sentence_in_words
from webkit import client, login, make_store

import notices.render as render
from cli.main import main


@pytest.fixture
def web(tmp_path):
    store = make_store(f"sqlite:///{tmp_path / 'permits.db'}")
    yield client(store), store
    store.engine.dispose()


def test_an_unchecked_town_template_is_refused_on_the_page_and_a_checked_one_renders(web, tmp_path, monkeypatch, capsys):
    c, _ = web
    root = tmp_path / "notices" / "templates"
    folder = root / "canton"
    folder.mkdir(parents=True)
    monkeypatch.setattr(render, "TEMPLATES_ROOT", root)
    (folder / "legal-notice.html.j2").write_text('<p>Canton legal notice</p>{{ "a" * 4000000000 }}')
    token = login(c, "canton-agent")
    data = {"csrf": token, "seq": "2", "type": "hearing-scheduled", "f_date": "2026-12-02", "f_hearing": "12/17/2026"}
    assert c.post("/filings/CAN-NOI-2026-001/events", data=data).status_code == 303
    r = c.get("/filings/CAN-NOI-2026-001/notices/legal-notice")
    assert r.status_code == 422
    _assert_one_sentence_in_words(
        r.text, "has not been checked as it is now, so it is not used", "an administrator checks it first"
    )
    (folder / "legal-notice.html.j2").write_text("<p>Canton's own legal notice for {{ filing_id }}</p>")
    assert main(["towns", "check-templates", str(folder)]) == 0
    r = c.get("/filings/CAN-NOI-2026-001/notices/legal-notice")
    assert r.status_code == 200, r.text[:500]
    assert "Canton's own legal notice for CAN-NOI-2026-001" in r.text
