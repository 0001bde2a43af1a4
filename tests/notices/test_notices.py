"""Notices: every kind for every town that has it, refusals, escaping,
missing fields, town overrides, the notice log, and a few PDFs read back."""

import io
import re
import subprocess
import sys
from datetime import date, datetime

import pytest
from notice_fixtures import ABUTTERS_CSV, DATED, as_of_for, filing_for

from notices.abutters import merge_same_owner, parse_abutters
from notices.errors import MissingField, NoticeRefused, TemplateProblem
from notices.kinds import NOTICE_KINDS
from notices.log import MemoryNoticeLog
from notices.produce import produce
from workflows.replay import replay
from workflows.towns import registry

ABUTTERS = merge_same_owner(parse_abutters(ABUTTERS_CSV))


def _cases():
    for town_id, profile in registry().items():
        for kind in NOTICE_KINDS.values():
            for pk in kind.permit_kinds:
                if kind.applies(profile, pk):
                    yield kind.id, town_id, pk


def make(notice, town, kind, fmt="html", dated=DATED, **overrides):
    filing = filing_for(town, kind, notice, **overrides)
    return produce(filing, replay(filing, as_of_for(kind, notice)), notice.rstrip("+"), abutters=ABUTTERS, fmt=fmt, dated=dated)


@pytest.mark.parametrize("notice, town, kind", list(_cases()))
def test_every_notice_kind_renders_for_every_town_that_has_it(notice, town, kind):
    dated = datetime(2026, 10, 5, 9, 0) if kind == "land-disturbance" else DATED
    outputs = make(notice, town, kind, dated=dated)
    assert outputs
    filing = filing_for(town, kind, notice)
    for out in outputs:
        if out.fmt == "html" and "labels" not in out.filename:
            assert filing.id in out.content
            assert registry()[town].name in out.content


def test_every_notice_kind_applies_somewhere():
    assert {n for n, _, _ in _cases()} == set(NOTICE_KINDS)


def test_saugus_hears_no_rda_so_it_has_no_rda_hearing_notices():
    assert ("abutter-notice", "saugus", "rda") not in set(_cases())
    assert ("determination", "saugus", "rda") in set(_cases())


def test_dates_printed_are_the_clocks_dates():
    filing = filing_for("canton", "noi", "permit")
    r = replay(filing, as_of_for("noi", "permit"))
    [applicant_copy, _] = produce(filing, r, "permit", fmt="txt", dated=DATED)
    expiry = r.clock("permit-expiry").date
    assert f"{expiry.strftime('%B')} {expiry.day}, {expiry.year}" in applicant_copy.content
    assert r.clock("permit-expiry").rule in applicant_copy.content


def test_a_decision_before_the_hearing_closed_is_refused_naming_the_state():
    filing = filing_for("canton", "noi", "legal-notice")  # hearing scheduled, not held
    with pytest.raises(NoticeRefused, match=r"the filing is 'hearing-scheduled'; a permit fits only .*'issued'"):
        produce(filing, replay(filing, as_of_for("noi", "legal-notice")), "permit", dated=DATED)


def test_a_notice_the_town_does_not_have_is_refused():
    filing = filing_for("saugus", "noi", "legal-notice")
    with pytest.raises(NoticeRefused, match="Saugus has no board-memo for a noi filing"):
        produce(filing, replay(filing, as_of_for("noi", "legal-notice")), "board-memo", dated=DATED)


def test_a_missing_filing_field_is_named_not_left_blank():
    filing = filing_for("canton", "noi", "legal-notice", plans={"hours": "9-5"})
    with pytest.raises(MissingField, match=r"field filing\.plans\.where"):
        produce(filing, replay(filing, as_of_for("noi", "legal-notice")), "legal-notice", dated=DATED)


def test_a_missing_applicant_address_part_is_named():
    filing = filing_for("canton", "noi", "permit", applicant={"name": "X", "address": {"street": "1 A St"}})
    with pytest.raises(MissingField, match=r"permit needs field filing\.applicant\.address\.city,"):
        produce(filing, replay(filing, as_of_for("noi", "permit")), "permit", dated=DATED)


def test_abutter_notice_needs_the_abutter_list():
    filing = filing_for("canton", "noi", "abutter-notice")
    with pytest.raises(MissingField, match="--abutters"):
        produce(filing, replay(filing, as_of_for("noi", "abutter-notice")), "abutter-notice", dated=DATED)


def test_posting_later_than_48_business_hours_before_the_hearing_is_refused():
    filing = filing_for("canton", "noi", "hearing-posting")
    r = replay(filing, as_of_for("noi", "hearing-posting"))
    deadline = r.clock("hearing-posting").at  # Friday 7 p.m. for a Tuesday 7 p.m. hearing
    assert deadline == datetime(2026, 12, 11, 19, 0)
    [ok] = produce(filing, r, "hearing-posting", fmt="txt", dated=deadline)
    assert "Posted Friday, December 11, 2026 at 7:00 p.m." in ok.content
    with pytest.raises(NoticeRefused, match=r"c\.30A §20\(b\)"):
        produce(filing, r, "hearing-posting", dated=datetime(2026, 12, 11, 19, 1))


def test_owner_gets_a_copy_only_when_not_the_requester():
    two = make("determination", "canton", "rda")
    assert len(two) == 2 and "Owner's copy" in two[1].content and "Owner's copy" not in two[0].content
    same = {
        "name": "Neponset Builders LLC",
        "address": {"street": "200 Turnpike St", "city": "Canton", "state": "MA", "zip": "02021"},
    }
    one = make("determination", "canton", "rda", owner=same)
    assert len(one) == 1


def test_names_are_escaped_in_html_and_intact_in_text():
    [first, *_] = make("abutter-notice", "canton", "noi")
    assert "O&#39;Brien &amp; Søn &lt;Trust&gt;" in first.content
    assert "<Trust>" not in first.content
    texts = make("abutter-notice", "canton", "noi", fmt="txt")
    assert "O'Brien & Søn <Trust>" in texts[0].content
    assert 'Chen, Wei "Bill"' in texts[2].content
    assert "Amélie Côté" in texts[1].content


def test_same_owner_at_the_same_address_gets_one_letter_with_both_parcels():
    names = [p.name for p in ABUTTERS]
    assert names.count("Amélie Côté") == 1
    amelie = next(p for p in ABUTTERS if p.name == "Amélie Côté")
    assert amelie.parcels == ("12-035", "12-036") and amelie.ring == "abutter"
    htmls = [o for o in make("abutter-notice", "canton", "noi") if o.filename.endswith(".html") and "labels" not in o.filename]
    assert len(htmls) == 3


def test_unknown_town_template_is_refused(tmp_path):
    (tmp_path / "canton").mkdir()
    (tmp_path / "canton" / "abuter-notice.html.j2").write_text("typo")
    filing = filing_for("canton", "noi", "legal-notice")
    with pytest.raises(TemplateProblem, match="unknown town template canton/abuter-notice.html.j2"):
        produce(
            filing, replay(filing, as_of_for("noi", "legal-notice")), "legal-notice", town_templates_dir=tmp_path, dated=DATED
        )


def test_a_town_template_overrides_the_default_for_that_town_only(tmp_path):
    (tmp_path / "canton").mkdir()
    (tmp_path / "canton" / "legal-notice.html.j2").write_text(
        '{% extends "_base.html.j2" %}{% block body %}CANTON LEGAL NOTICE {{ hearing.date|longdate }}{% endblock %}'
    )
    canton = filing_for("canton", "noi", "legal-notice")
    [out] = produce(
        canton, replay(canton, as_of_for("noi", "legal-notice")), "legal-notice", town_templates_dir=tmp_path, dated=DATED
    )
    assert "CANTON LEGAL NOTICE Tuesday, December 15, 2026" in out.content
    saugus = filing_for("saugus", "noi", "legal-notice")
    [other] = produce(
        saugus, replay(saugus, as_of_for("noi", "legal-notice")), "legal-notice", town_templates_dir=tmp_path, dated=DATED
    )
    assert "CANTON LEGAL NOTICE" not in other.content and "Legal notice" in other.content


def test_the_log_records_a_copy_once_and_a_rendering_again_is_not_a_second_sending():
    log = MemoryNoticeLog()
    outputs = make("permit", "canton", "noi")
    first = log.deliver("CAN-NOI-2026-014", outputs, DATED, ["a.pdf"], occasion="event-5")
    assert len(first.sent) == 2 and first.already == ()  # applicant and owner
    assert len(log.entries("CAN-NOI-2026-014")) == 2
    html = make("permit", "canton", "noi", fmt="html")
    second = log.deliver("CAN-NOI-2026-014", html, DATED, ["a.html"], occasion="event-5")
    assert second.sent == () and {e.recipient for e in second.already} == {e.recipient for e in log.entries("CAN-NOI-2026-014")}
    assert second.files == ("a.html",) and len(log.entries("CAN-NOI-2026-014")) == 2
    again = log.deliver("CAN-NOI-2026-014", outputs, DATED, ["b.pdf"], occasion="event-5", again=True)
    assert len(again.sent) == 2 and len(log.entries("CAN-NOI-2026-014")) == 4
    other = log.deliver("CAN-NOI-2026-014", outputs, DATED, ["c.pdf"], occasion="event-9")
    assert len(other.sent) == 2  # another occasion is another notice


def test_a_late_decision_is_the_offices_business_and_the_order_it_mails_does_not_say_so():
    """The decision's lateness is on the filing's record and the docket
    (RULES.md §2: late is a first-class status); the Order mailed to the
    applicant prints neither its deadline nor the finding (issue 31)."""
    filing = filing_for("canton", "noi", "permit")
    events = [e.to_json() for e in filing.events][:-1] + [{"type": "permit-issued", "date": "2027-02-01"}]
    late = filing_for("canton", "noi", "permit", events=events)
    result = replay(late, as_of_for("noi", "permit"))
    decision = result.clock("decision")
    assert decision.status == "late" and decision.date == date(2027, 1, 15)
    [out, _] = produce(late, result, "permit", fmt="txt", dated=DATED)
    assert "Monday, February 1, 2027" in out.content  # its date of issuance
    assert "January 15, 2027" not in out.content
    assert not re.search(r"\b(late|deadline)\b|due by", out.content, re.IGNORECASE)


# -- PDF: few and small --------------------------------------------------------------


def _pdf_text(data: bytes):
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), [p.extract_text() for p in reader.pages]


def test_abutter_notices_merge_into_one_pdf_one_page_each_with_names_intact():
    outputs = make("abutter-notice", "canton", "noi", fmt="pdf")
    merged = next(o for o in outputs if o.filename.endswith("abutter-notice.pdf"))
    pages, texts = _pdf_text(merged.content)
    assert pages == 3
    assert "O'Brien & Søn <Trust>" in texts[0]
    assert "Amélie Côté" in texts[1]
    assert 'Chen, Wei "Bill"' in texts[2]
    assert all("Tuesday, December 15, 2026" in t for t in texts)
    labels = next(o for o in outputs if o.filename.endswith("labels.pdf"))
    pages, texts = _pdf_text(labels.content)
    assert pages == 1 and "Amélie Côté" in texts[0] and "Stoughton, MA 02072" in texts[0]


def test_labels_are_thirty_to_a_sheet():
    from notices.context import Party
    from notices.produce import produce as _produce

    many = [Party(f"Owner {i}", f"{i} Elm St", "Canton", "MA", "02021", (f"1-{i}",), "abutter") for i in range(31)]
    filing = filing_for("canton", "noi", "abutter-notice")
    outputs = _produce(
        filing, replay(filing, as_of_for("noi", "abutter-notice")), "abutter-notice", abutters=many, fmt="html", dated=DATED
    )
    labels = next(o for o in outputs if o.filename.endswith("labels.html"))
    from notices.render import html_to_pdf

    pages, texts = _pdf_text(html_to_pdf(labels.content))
    assert pages == 2
    assert "Owner 29" in texts[0] and "Owner 30" in texts[1] and "Owner 30" not in texts[0]


def test_the_core_and_the_replay_path_import_no_jinja_or_weasyprint():
    code = (
        "import sys, cli.main, workflows.replay, calendars; cli.main.build_parser(); "
        "bad = [m for m in ('jinja2', 'weasyprint') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
