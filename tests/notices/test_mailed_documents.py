"""What a town mails (issue 31): every document the demonstration's filings
and cases give (and a suspension and a revocation hearing, which the
demonstration has not, from the notices' fixtures: the Order of Conditions, the Determination, the Certificate
and its denial, the abutter notice, the legal notice, the hearing posting,
the DPW's letters, the notice of violation, the Enforcement Order, the
ticket and the notice of costs) is signed by the person and the title who
sign for the board (the town's declaration, workflows/towns/), carries the
office's address and telephone, and prints none of the office's own
business: no deadline the office itself must meet, no finding that it is
late, no engine id.  Rendered to PDF, no page holds only a signature or a
heading (the notices' stylesheet keeps a heading with its block and a
signature with what it signs: break-after / break-inside: avoid)."""

from __future__ import annotations

import io
import re
from datetime import date, datetime
from html.parser import HTMLParser

import pytest
from notice_fixtures import ABUTTERS_CSV, DATED, as_of_for, filing_for
from test_notice_words import ENGINE

from demo.generate import generate
from demo.stages import stage_cases, stage_filings
from notices.abutters import merge_same_owner, parse_abutters
from notices.enforcement import fitting_case_notices, produce_case_notice
from notices.errors import NoticeError
from notices.kinds import CASE_NOTICE_KINDS
from notices.produce import produce
from services.notices import fitting_notices
from workflows.enforcement import parse_case
from workflows.enforcement_replay import replay_case
from workflows.filing import parse_filing
from workflows.replay import replay
from workflows.towns import town

AS_OF = date(2026, 12, 1)
STAMP = datetime(2026, 12, 1, 9, 30)

#: every notice a town mails or posts (the memo to the other boards and the
#: affidavit the applicant signs are not the town's letters)
MAILED = (
    "abutter-notice",
    "legal-notice",
    "hearing-posting",
    "permit",
    "denial",
    "determination",
    "certificate-of-compliance",
    "certificate-denial",
    "certificate-of-completion",
    "street-permit",
    "street-refusal",
    "inspection-result",
    "settlement-answer",
    "certification-answer",
    "suspension",
    "revocation-hearing",
    "after-hours-invoice",
    "deposit-refund",
)
#: the decisions the state's forms have the commission's members sign (WPA Forms 2, 5, 8B)
SIGNED_BY_MEMBERS = ("permit", "denial", "determination", "certificate-of-compliance", "certificate-denial")
#: what the office's own business reads like on a letter: a deadline it must meet, a finding that it is late
OFFICE_BUSINESS = re.compile(
    r"\b(deadline|overdue|lateness|late)\b|\bdue by\b|\bwas due\b|is due by|in time\b|to be posted by|Decision due",
    re.IGNORECASE,
)
ABUTTERS = merge_same_owner(parse_abutters(ABUTTERS_CSV))


def _demo_documents():
    """(label, town, kind, html) of one copy of each mailed document for
    each town, from the demonstration's filings (staged and 400 generated)
    and its enforcement cases, as ``make demo`` builds them."""
    seen, out = set(), []
    for raw in [*stage_filings(AS_OF), *generate(400, AS_OF)]:
        filing = parse_filing(raw)
        result = replay(filing, AS_OF)
        if not town(filing.town).offices:  # the state defaults: a filing under them gives its own letterhead
            continue
        for kind in fitting_notices(filing, result):
            if kind.id not in MAILED or (kind.id, filing.town, filing.kind) in seen:
                continue
            try:
                copies = produce(filing, result, kind.id, abutters=ABUTTERS, fmt="html", dated=STAMP)
            except NoticeError:  # a notice refused in words (a posting too late, a field the filing lacks)
                continue
            seen.add((kind.id, filing.town, filing.kind))
            html = [c for c in copies if c.fmt == "html" and "labels" not in c.filename][0].content
            out.append((f"{filing.id} {kind.id}", filing.town, filing.kind, kind.id, html))
    # the demo's street openings are never suspended nor called to a revocation hearing: those two from the notices' fixtures
    for notice in ("suspension", "revocation-hearing"):
        if not any(k == notice for _, _, _, k, _ in out):
            filing = filing_for("canton", "street-opening", notice)
            (first, *_) = produce(filing, replay(filing, as_of_for("street-opening", notice)), notice, fmt="html", dated=DATED)
            out.append((f"{filing.id} {notice} (fixture)", "canton", "street-opening", notice, first.content))
    for raw in stage_cases(AS_OF):
        case = parse_case(raw)
        result = replay_case(case, AS_OF)
        for kind in fitting_case_notices(case, result):
            (first, *_) = produce_case_notice(case, result, kind.id, fmt="html", dated=STAMP)
            out.append((f"{case.id} {kind.id}", case.town, "enforcement", kind.id, first.content))
    return out


DOCUMENTS = _demo_documents()


_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr"})


class _Parts(HTMLParser):
    """The text of a notice's headings and of its signature blocks."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings: list[str] = []
        self.signatures: list[str] = []
        self._heading: list[str] | None = None
        self._signature_depth = 0
        self._signature: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:  # no end tag: a line break in a signature
            self.handle_startendtag(tag, attrs)
            return
        self._depth += 1
        if tag in ("h1", "h2", "h3"):
            self._heading = []
        if "signature" in (dict(attrs).get("class") or "").split() and not self._signature_depth:
            self._signature_depth, self._signature = self._depth, []

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append(" ".join("".join(self._heading).split()))
            self._heading = None
        if self._signature_depth and self._depth == self._signature_depth:
            self.signatures.append(" ".join("".join(self._signature).split()))
            self._signature_depth = 0
        self._depth -= 1

    def handle_startendtag(self, tag, attrs):
        if self._signature_depth:
            self._signature.append(" ")

    def handle_data(self, data):
        if self._heading is not None:
            self._heading.append(data)
        if self._signature_depth:
            self._signature.append(data + " ")


def _text(html: str) -> str:
    from notices.render import html_to_text

    return html_to_text(html)


def test_the_demo_gives_every_mailed_document_of_the_issue():
    kinds = {k for _, _, _, k, _ in DOCUMENTS}
    assert set(MAILED) <= kinds
    assert set(CASE_NOTICE_KINDS) <= kinds
    assert {t for _, t, _, _, _ in DOCUMENTS} >= {"canton", "saugus", "mansfield", "manchester-by-the-sea"}


@pytest.mark.parametrize("label, town_id, kind, notice, html", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_a_mailed_document_is_signed_for_the_board_from_the_office_and_prints_none_of_its_own_business(
    label, town_id, kind, notice, html
):
    profile = town(town_id)
    office = profile.office(kind) if kind in profile.permits else profile.offices["conservation"]
    text = _text(html)
    flat = " ".join(text.split())
    assert office.address in flat, f"{label}: no office address"
    assert f"Telephone {office.telephone}" in flat, f"{label}: no office telephone"
    if notice in SIGNED_BY_MEMBERS:
        for member in office.members:  # a line for each member to sign, the name and title printed under it
            assert f"{member.name}, {member.title}" in flat, f"{label}: {member.line} has no signature line"
        assert "______________________________" in text
    elif notice != "hearing-posting" or office.signer_name:
        assert office.signer_name in flat and office.signer in flat, f"{label}: not signed by {office.signed_by.line}"
    assert not OFFICE_BUSINESS.search(text), f"{label}: {OFFICE_BUSINESS.search(text).group(0)!r}"
    assert not ENGINE.search(text), f"{label}: {ENGINE.search(text).group(0)!r}"
    assert not re.search(r"\b\d{4}-\d{2}-\d{2}\b", text), f"{label}: an ISO date"
    assert "@" not in text, f"{label}: an email address"


def _pdf_pages(pdf: bytes) -> list[list[str]]:
    """Each page's lines of text, without the page's footer ("page 1 of 2")."""
    from pypdf import PdfReader

    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        lines = [" ".join(line.split()) for line in page.extract_text().splitlines()]
        pages.append([line for line in lines if line and not re.fullmatch(r"page \d+ of \d+", line)])
    return pages


def lonely_pages(html: str, pdf: bytes) -> list[tuple[int, list[str]]]:
    """The pages (1-based) that hold only a signature block or headings,
    and those that end on a heading (split from the block it heads)."""
    parts = _Parts()
    parts.feed(html)
    headings, signatures = parts.headings, " ".join(parts.signatures)

    def heading(line):
        return any(line in h for h in headings)

    def signature(line):
        return line in signatures

    out = []
    for n, lines in enumerate(_pdf_pages(pdf), start=1):
        if lines and all(heading(ln) or signature(ln) for ln in lines):
            out.append((n, lines))
        elif lines and heading(lines[-1]) and not signature(lines[-1]):
            out.append((n, lines[-3:]))
    return out


def test_the_page_checker_finds_a_signature_alone_on_its_page():
    """The checker itself, on a letter forced to put its signature on a page of its own."""
    from notices.render import html_to_pdf

    body = "<p>" + "A line of the letter. " * 40 + "</p>"
    html = (
        "<html><body><h1>Letter</h1>" + body * 5 + '<p style="break-before: page" class="signature">'
        "______________________________<br>Dana Whitfield<br>Conservation Agent<br>for the Conservation Commission</p>"
        "</body></html>"
    )
    found = lonely_pages(html, html_to_pdf(html))
    assert found and found[-1][1][-1] == "for the Conservation Commission"


@pytest.mark.parametrize("label, town_id, kind, notice, html", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_no_page_of_a_demo_document_holds_only_a_signature_or_a_heading(label, town_id, kind, notice, html):
    from notices.render import html_to_pdf

    assert lonely_pages(html, html_to_pdf(html)) == [], label


#: a decision pushed through every place a page can break: 0 to 27 conditions
#: move its signatures down a page and onto the next
@pytest.mark.parametrize("notice, town_id, kind", [("permit", "canton", "noi"), ("determination", "canton", "rda")])
def test_no_page_holds_only_a_signature_or_a_heading_wherever_the_page_breaks(notice, town_id, kind):
    found = []
    base = filing_for(town_id, kind, notice)
    for n in range(0, 28, 3):
        conditions = [
            f"Condition {i + 1}: the work is kept within the limit of work shown on the plans, sheet {i + 1}." for i in range(n)
        ]
        filing = parse_filing({**base.to_json(), "conditions": conditions, "findings": conditions[: n // 3]})
        (html,) = [o for o in produce(filing, replay(filing, as_of_for(kind, notice)), notice, fmt="html", dated=DATED)][:1]
        (pdf,) = produce(filing, replay(filing, as_of_for(kind, notice)), notice, fmt="pdf", dated=DATED)
        found += [(n, page, lines) for page, lines in lonely_pages(html.content, pdf.content)]
    assert found == []
