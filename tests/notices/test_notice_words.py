"""Every notice speaks people's words (workflows/vocabulary.py, workflows/
written.py): rendered for each of the demonstration's filings (the staged
ones and 400 generated, as ``make demo`` builds them), no notice prints an
event, clock, state or choice id, a Python value (True, False, None) or an
ISO moment; a clock's explanation is written in words; a filing that names
its applicant without an address is refused in words, not with a crash."""

import re
from datetime import date, datetime

import pytest
from notice_fixtures import ABUTTERS_CSV

from demo.generate import generate
from demo.stages import stage_filings
from notices.abutters import merge_same_owner, parse_abutters
from notices.errors import MissingField, NoticeError
from notices.produce import produce
from notices.render import explained
from services.notices import fitting_notices
from workflows import vocabulary
from workflows.filing import parse_filing
from workflows.replay import replay

AS_OF = date(2026, 12, 1)
DATED = datetime(2026, 12, 1, 9, 30)


def _ids() -> set[str]:
    """Every hyphenated id of the vocabulary's tables whose name is not
    itself the id (``re-inspection`` is a word too: "the re-inspection")."""
    out = set()
    for table in (vocabulary.EVENT_NAMES, vocabulary.STATE_NAMES):
        out |= {key for (_, key), name in table.items() if "-" in key and key not in name.lower()}
    for table in (vocabulary.CLOCK_NAMES, vocabulary.VALUE_NAMES):
        out |= {key for key, name in table.items() if "-" in key and key not in name.lower()}
    return out


IDS = _ids()
ENGINE = re.compile(
    r"(?<![\w/-])(" + "|".join(sorted(map(re.escape, IDS), key=len, reverse=True)) + r")(?![\w-])"
    r"|\b(True|False|None)\b|\d{4}-\d{2}-\d{2}T\d{2}|\bwpa:|\(event \d+\)"
)


def _demo_filings():
    return [parse_filing(raw) for raw in [*stage_filings(AS_OF), *generate(400, AS_OF)]]


def test_the_engine_pattern_finds_what_it_is_for():
    for text in ("recorded permit-issued today", "complete: True", "due 2026-12-15T19:00", "(event 5)", "wpa:decision"):
        assert ENGINE.search(text), text
    assert {"permit-issued", "hearing-posting", "hearing-open"} <= IDS
    assert not ENGINE.search("before the re-inspection on Monday, December 7, 2026, under the by-law")


def test_every_notice_of_the_demo_filings_is_in_words():
    abutters = merge_same_owner(parse_abutters(ABUTTERS_CSV))
    rendered, found = 0, []
    for filing in _demo_filings():
        result = replay(filing, AS_OF)
        for kind in fitting_notices(filing, result):
            try:
                outputs = produce(filing, result, kind.id, abutters=abutters, fmt="txt", dated=DATED)
            except NoticeError:  # a notice refused in words (a posting too late, a field the filing lacks)
                continue
            for out in outputs:
                rendered += 1
                text = out.content if isinstance(out.content, str) else out.content.decode("utf-8")
                found += [(filing.id, kind.id, m.group(0)) for m in ENGINE.finditer(text)]
    assert rendered > 500  # the demo's filings give every kind of notice
    assert found == []


def test_a_clocks_explanation_is_written_with_names_and_dates_as_people_write_them():
    text = (
        "5 business days before 2026-12-15T19:00 (the scheduled hearing); is 2026-12-08; notice-published on 2026-12-07 (event 5)"
    )
    assert explained(text, "noi") == (
        "5 business days before Tuesday, December 15, 2026, 7:00 p.m. (the scheduled hearing); is Tuesday, December 8, 2026; "
        "Hearing notice published in the newspaper on Monday, December 7, 2026 (entry 5)"
    )


def test_a_notice_to_an_applicant_named_without_an_address_is_refused_in_words():
    (filing,) = [f for f in _demo_filings() if f.id == "MAN-SOP-2026-S13"]
    assert isinstance(filing.extra["applicant"], str)
    with pytest.raises(MissingField, match=r"needs the applicant's mailing address \(filing.applicant.address\)"):
        produce(filing, replay(filing, AS_OF), "street-permit", fmt="txt", dated=DATED)
