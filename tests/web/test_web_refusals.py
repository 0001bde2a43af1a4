"""Every refusal in the web is one sentence in people's words naming what
to do (issue 32, item 3): no event id, no field name, no command-line flag,
no "(event 4)", no ISO date; and nothing is written.  The sentences come
from :func:`web.refusals.refusal`; a route never shows ``str(exc)``."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from webkit import client, login, make_store

from web.refusals import in_peoples_words
from workflows.event_fields import EVENT_FIELDS

IDS = sorted({e for table in EVENT_FIELDS.values() for e in table if "-" in e}, key=len, reverse=True)
#: what a person should never read in a refusal
ENGINE = re.compile(
    r"(?<![\w/-])(?:" + "|".join(map(re.escape, IDS)) + r")(?![\w-])"  # an event id
    r"|--[a-z]|\(event \d+\)|\bevent \d+\b|\d{4}-\d{2}-\d{2}|\bfield '|\bYYYY\b|permits [a-z]+ "
)


def _refusals(page: str) -> list[str]:
    found = re.findall(r'<p class="(?:error|field-error)[^"]*"[^>]*>(.*?)</p>', page, re.S)
    found += re.findall(r'<span class="field-error"[^>]*>(.*?)</span>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", " ", f)).strip() for f in found]


@pytest.fixture
def web(tmp_path):
    store = make_store(f"sqlite:///{tmp_path / 'permits.db'}")
    yield client(store), store
    store.engine.dispose()


def _assert_one_sentence_in_words(page: str, *expected: str) -> None:
    said = " ".join(_refusals(page))
    assert said, "no refusal shown"
    for words in expected:
        assert words in said
    assert ENGINE.findall(said) == [], said


def test_an_order_of_conditions_before_the_hearing_is_refused_in_words_and_nothing_is_written(web):
    c, store = web
    token = login(c, "canton-agent")
    r = c.post(
        "/filings/CAN-NOI-2026-001/events", data={"csrf": token, "seq": "2", "type": "permit-issued", "f_date": "2026-12-02"}
    )
    assert r.status_code == 422
    _assert_one_sentence_in_words(r.text, "“Order of Conditions issued” was not recorded", "before the hearing closes")
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_a_bad_date_is_refused_beside_its_field_with_an_example_and_nothing_is_written(web):
    c, store = web
    token = login(c, "canton-agent")
    data = {"csrf": token, "seq": "2", "type": "hearing-scheduled", "f_date": "2026-12-02", "f_hearing": "17.12.26x"}
    r = c.post("/filings/CAN-NOI-2026-001/events", data=data)
    assert r.status_code == 422
    _assert_one_sentence_in_words(r.text, "is not a date, such as 12/17/2026")
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_an_event_dated_after_today_is_refused_naming_what_to_do(web):
    c, store = web
    token = login(c, "canton-agent")
    r = c.post("/filings/CAN-NOI-2026-001/events", data={"csrf": token, "seq": "2", "type": "withdrawn", "f_date": "2027-12-02"})
    assert r.status_code == 422
    _assert_one_sentence_in_words(r.text, "has not happened yet (today is Thursday, December 3, 2026): record it once it has")
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_a_stale_form_is_refused_in_words(web):
    c, store = web
    token = login(c, "canton-agent")
    r = c.post("/filings/CAN-NOI-2026-001/events", data={"csrf": token, "seq": "1", "type": "withdrawn", "f_date": "2026-12-02"})
    assert r.status_code == 409
    _assert_one_sentence_in_words(r.text, "changed since you opened it (it had 1 entry, it now has 2)", "try again")
    assert len(store.history("CAN-NOI-2026-001")) == 2


def test_a_notice_asked_for_before_what_it_needs_says_what_to_do_not_a_flag(web):
    c, _ = web
    token = login(c, "canton-agent")
    r = c.get("/filings/CAN-NOI-2026-001/notices/abutter-notice")  # no hearing yet
    assert r.status_code == 422
    _assert_one_sentence_in_words(r.text, "Notice to abutters does not fit the filing now", "Hearing scheduled")
    assert "abutter-notice" not in " ".join(_refusals(r.text))
    data = {"csrf": token, "seq": "2", "type": "hearing-scheduled", "f_date": "2026-12-02", "f_hearing": "12/17/2026"}
    assert c.post("/filings/CAN-NOI-2026-001/events", data=data).status_code == 303
    r = c.get("/filings/CAN-NOI-2026-001/notices/abutter-notice")  # a hearing, no abutter list
    assert r.status_code == 422
    _assert_one_sentence_in_words(r.text, "upload the assessors' abutter list under Abutters first")


def test_ids_flags_and_iso_days_become_peoples_words():
    said = in_peoples_words("no abutters on record for permit-issued on 2026-12-17 (give it with --abutters FILE)", "noi")
    assert said == (
        "No abutters on record for Order of Conditions issued on Thursday, December 17, 2026: "
        "upload the assessors' abutter list under Abutters first."
    )
    assert ENGINE.findall(said) == []
    assert in_peoples_words("a state of 'hearing-open' (see 'permits rules')", "noi").endswith(".")
    assert "--" not in in_peoples_words("x (see 'permits rules --kind noi')")


def test_no_route_shows_an_exception_as_it_is():
    web = Path(__file__).resolve().parents[2] / "web"
    shown = [
        f"{p.relative_to(web)}:{n}"
        for p in web.rglob("*.py")
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"error=str\(exc\)|\{\"\": str\(exc\)\}", line)
    ]
    assert shown == []
