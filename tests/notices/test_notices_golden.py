"""Golden files: every notice template rendered for a representative filing,
as HTML and as text, compared byte for byte with tests/notices/golden/notices/.

Regenerate after an intended change, then review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/notices/test_notices_golden.py
"""

import os
from pathlib import Path

import pytest
from notice_fixtures import ABUTTERS_CSV, DATED, as_of_for, filing_for

from notices.abutters import merge_same_owner, parse_abutters
from notices.kinds import MEETING_NOTICE_KINDS, NOTICE_KINDS
from notices.produce import produce
from notices.render import template_names
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
    ("street-permit", "mansfield", "street-opening"),
    ("certificate-of-compliance", "saugus", "noi"),
    ("certificate-denial", "wpa", "noi"),
    ("certificate-of-completion", "mansfield", "land-disturbance"),
]
#: (case notice, town): every enforcement notice for a case at that step (notice_fixtures.case_for)
CASE_NOTICES = [
    ("violation-notice", "saugus"),
    ("enforcement-order", "mansfield"),
    ("ticket", "saugus"),
    ("ticket", "manchester-by-the-sea"),
    ("cost-notice", "mansfield"),
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


@pytest.mark.parametrize("fmt", ["html", "txt"])
@pytest.mark.parametrize("notice, town", CASE_NOTICES)
def test_each_enforcement_notice_matches_its_golden_file(notice, town, fmt):
    from notice_fixtures import CASE_AS_OF, case_for

    from notices.enforcement import produce_case_notice
    from workflows.enforcement_replay import replay_case

    case = case_for(town)
    for out in produce_case_notice(case, replay_case(case, CASE_AS_OF), notice, fmt=fmt, dated=DATED):
        _check(f"{town}-enforcement-{notice}{out.filename.split(notice, 1)[1]}", out.content)


def test_every_template_has_a_golden_case():
    from notices.kinds import CASE_NOTICE_KINDS

    covered = {n.rstrip("+") for n, _, _ in CASES}
    assert covered == set(NOTICE_KINDS)
    assert {n for n, _ in CASE_NOTICES} == set(CASE_NOTICE_KINDS)
    partials = {"_base.html.j2", "_clocks.html.j2", "_case.html.j2", "labels.html.j2"}
    meetings = {f"{k}.html.j2" for k in MEETING_NOTICE_KINDS}  # a meeting's notices: tests/notices/test_meeting_posting.py
    reports = {"annual-report.html.j2"}  # a board's year: its text read back in tests/services/test_reports.py
    assert {f"{k}.html.j2" for k in (*NOTICE_KINDS, *CASE_NOTICE_KINDS)} | meetings | partials | reports == template_names()


#: conditions staff give with the decision (on its ``permit-issued`` event)
DECIDED_CONDITIONS = [
    "A silt fence along the 50-foot line before any clearing.",
    "The wetland flags kept in place until the certificate of compliance.",
]


def _with_decided_conditions(filing, conditions, *more_events):
    from workflows.filing import parse_filing

    obj = filing.to_json()
    obj["events"][-1]["conditions"] = conditions
    obj["events"].extend(more_events)
    return parse_filing(obj)


@pytest.mark.parametrize("fmt", ["html", "txt"])
def test_the_permit_prints_the_conditions_recorded_with_the_decision_not_the_filings_own(fmt):
    from notice_fixtures import EXTRA

    filing = _with_decided_conditions(filing_for("canton", "noi", "permit"), DECIDED_CONDITIONS)
    outputs = produce(filing, replay(filing, as_of_for("noi", "permit")), "permit", fmt=fmt, dated=DATED)
    for out in outputs:
        assert DECIDED_CONDITIONS[0] in out.content and DECIDED_CONDITIONS[1] in out.content
        assert EXTRA["conditions"][0] not in out.content  # the filing's top-level conditions give way
        _check(f"canton-noi-permit-conditions-on-the-decision{out.filename.split('permit', 1)[1]}", out.content)


def test_a_voided_decisions_conditions_are_not_printed_and_the_filings_own_stand_again():
    from notice_fixtures import EXTRA

    base = filing_for("canton", "noi", "permit")
    issued = len(base.events)  # the permit-issued event's position
    filing = _with_decided_conditions(
        base,
        DECIDED_CONDITIONS,
        {"type": "event-voided", "date": "2026-12-30", "voids": issued, "reason": "issued with the wrong conditions"},
        {"type": "permit-issued", "date": "2026-12-30"},
    )
    assert filing.events[issued - 1].get("conditions") == tuple(DECIDED_CONDITIONS)
    (out,) = produce(filing, replay(filing, as_of_for("noi", "permit")), "permit", fmt="txt", dated=DATED)[:1]
    assert EXTRA["conditions"][0] in out.content and DECIDED_CONDITIONS[0] not in out.content


@pytest.mark.parametrize("fmt", ["html", "txt"])
@pytest.mark.parametrize("notice", ["permit", "legal-notice"])
def test_a_joint_filings_order_and_legal_notice_match_their_golden_files(notice, fmt):
    """A Canton NOI heard under the Act as well (issue 31): both laws cited,
    the Act's appeal period, the by-law's findings as the Order's own
    section after the conditions (WPA Form 5, section D)."""
    filing = filing_for("canton", "noi", notice, also=["wpa"])
    outputs = produce(filing, replay(filing, as_of_for("noi", notice)), notice, fmt=fmt, dated=DATED)
    out = outputs[0]
    assert "Wetlands Protection Act (M.G.L. c.131 §40; 310 CMR 10.00) and the Canton Wetlands By-Law (Art. XV)" in " ".join(
        out.content.split()
    )
    _check(f"canton-noi-joint-{notice}{out.filename.split(notice, 1)[1]}", out.content)
