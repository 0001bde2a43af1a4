"""Golden files: every notice template rendered for a representative filing,
as HTML and as text, compared byte for byte with tests/golden/notices/.

Regenerate after an intended change, then review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_notices_golden.py
"""

import os
from pathlib import Path

import pytest
from notice_fixtures import ABUTTERS_CSV, DATED, as_of_for, filing_for

from notices.abutters import merge_same_owner, parse_abutters
from notices.kinds import NOTICE_KINDS
from notices.render import template_names
from notices.service import produce
from workflows.replay import replay

GOLDEN = Path(__file__).parent / "golden" / "notices"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

#: (notice, town, permit kind): one representative filing per template.
CASES = [
    ("abutter-notice", "saugus", "noi"),
    ("affidavit-of-service", "canton", "noi"),
    ("legal-notice", "canton", "noi"),
    ("hearing-posting", "canton", "rda"),
    ("board-memo", "canton", "noi"),
    ("board-memo", "mansfield", "land-disturbance"),
    ("permit", "canton", "noi"),
    ("permit", "mansfield", "land-disturbance"),
    ("denial", "wpa", "noi"),
    ("determination", "canton", "rda"),
    ("determination+", "saugus", "rda"),
    ("street-permit", "canton", "street-opening"),
    ("street-refusal", "canton", "street-opening"),
    ("inspection-result", "canton", "street-opening"),
    ("settlement-answer", "canton", "street-opening"),
    ("certification-answer", "canton", "street-opening"),
    ("suspension", "canton", "street-opening"),
    ("revocation-hearing", "canton", "street-opening"),
    ("after-hours-invoice", "canton", "street-opening"),
    ("deposit-refund", "canton", "street-opening"),
]


def _outputs(notice, town, kind, fmt):
    abutters = merge_same_owner(parse_abutters(ABUTTERS_CSV))
    filing = filing_for(town, kind, notice)
    return produce(filing, replay(filing, as_of_for(kind, notice)), notice.rstrip("+"), abutters=abutters, fmt=fmt, dated=DATED)


def _check(name: str, content: str):
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}; run UPDATE_GOLDEN=1 pytest {__file__}"
    assert content == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


@pytest.mark.parametrize("fmt", ["html", "txt"])
@pytest.mark.parametrize("notice, town, kind", CASES)
def test_notice_matches_its_golden_file(notice, town, kind, fmt):
    for out in _outputs(notice, town, kind, fmt):
        label = notice.replace("+", "-positive")
        suffix = out.filename.split(notice.rstrip("+"), 1)[1]
        _check(f"{town}-{kind}-{label}{suffix}", out.content)


def test_every_template_has_a_golden_case():
    covered = {n.rstrip("+") for n, _, _ in CASES}
    assert covered == set(NOTICE_KINDS)
    partials = {"_base.html.j2", "_clocks.html.j2", "labels.html.j2"}
    assert {f"{k}.html.j2" for k in NOTICE_KINDS} | partials == template_names()
