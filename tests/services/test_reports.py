"""A board's year (services/reports.py, workflows/reports.py): each figure
of Canton's Conservation Commission computed again here, independently,
from the events of a generated store (each filing loaded and replayed
through the core, not read from the derived tables the service reads), and
the traps of the counting: a voided decision counts for nothing, a
decision late by the state's period and on time by the by-law's is late
under the state's alone (Canton Wetlands By-Law 15-5, 15-7: 31 days;
310 CMR 10.05(6)(a): 21 days), money is money received."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from statistics import median

import pytest

from demo.generate import generate
from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from services.reports import ReportRefused, annual_report_pdf, board_year, money
from workflows.replay import live_events
from workflows.reports import ClockFact, FilingFacts, Happening, LedgerFact, year_report

AS_OF = date(2026, 11, 30)
YEAR = 2026
KINDS = ("noi", "rda")  # Canton's Conservation Commission: its permit kinds


@pytest.fixture(scope="module")
def gen(tmp_path_factory):
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('report') / 'permits.db'}")
    upgrade_store(store)
    import_filings(store, generate(160, AS_OF, seed=11), by="test")
    yield store
    store.engine.dispose()


def _independent(store: Store):
    """The figures, from each Canton conservation filing's live events and its replay."""
    received = Counter()
    decided, late_by, timed_by, continued, issued = [], Counter(), Counter(), 0, Counter()
    for row in store.list_filings(town="canton"):
        if row.kind not in KINDS:
            continue
        filing, _ = store.load(row.id)
        events = live_events(filing)
        filed = next(e.date for e in events if e.type == "filed")
        if filed.year == YEAR:
            received[(row.kind, filed.month)] += 1
        continued += sum(e.type == "hearing-continued" and e.date.year == YEAR for e in events)
        issued[row.kind] += sum(e.type in ("permit-issued", "determination-issued") and e.date.year == YEAR for e in events)
        first = next((e for e in events if e.type in ("permit-issued", "permit-denied", "determination-issued")), None)
        if first is None or first.date.year != YEAR:
            continue
        decided.append((row.id, (first.date - filed).days))
        for c in store.replay(row.id, AS_OF).clocks:
            if c.id.removeprefix("wpa:") == "decision" and c.status in ("met", "late"):
                who = "state" if c.id.startswith("wpa:") else "by-law"
                timed_by[who] += 1
                late_by[who] += first.date > c.date  # late: decided after the period's last day
    return received, decided, timed_by, late_by, continued, issued


def test_each_figure_of_cantons_conservation_commission_matches_one_computed_from_the_events(gen):
    y = board_year(gen, town="canton", board="conservation", year=YEAR, as_of=AS_OF)
    r = y.report
    received, decided, timed_by, late_by, continued, issued = _independent(gen)
    assert {(k, m + 1): n for k in KINDS for m, n in enumerate(r.received[k]) if n} == dict(received)
    assert sorted((d.filing, d.days) for d in r.decisions) == sorted(decided)
    assert r.median_days == median(days for _, days in decided)
    for t in r.timeliness:
        assert (t.timed, len(t.late)) == (timed_by[t.authority], late_by[t.authority]), t.authority
    assert r.continued == continued and dict(r.issued) == {k: issued[k] for k in KINDS}
    assert sum(late_by.values()) > 0 and r.received_total > 10  # the generated year has late decisions to show
    # the page's tables hold the same figures
    tables = {t.key: t for t in y.tables}
    assert tables["received"].rows[2][-1] == sum(received[(k, 3)] for k in KINDS)
    assert len(tables["late"].rows) == sum(late_by.values())


def test_a_street_openings_inspections_and_deposits_come_from_the_record(gen):
    y = board_year(gen, town="canton", board="dpw", year=YEAR, as_of=AS_OF)
    passed = failed = 0
    for row in gen.list_filings(town="canton", kind="street-opening"):
        for e in live_events(gen.load(row.id)[0]):
            if e.type == "inspected" and e.date.year == YEAR:
                passed += e.get("result") == "pass"
                failed += e.get("result") != "pass"
    assert y.report.inspections_total == (passed, failed) and passed > 0
    assert y.report.deposits_received > 0 and "inspections" in {t.key for t in y.tables}


def _filing(fid, events, clocks=()):
    return FilingFacts(fid, "canton", "noi", tuple(Happening(i, t, d, raw) for i, (t, d, raw) in enumerate(events, 1)), clocks)


def test_a_voided_decision_counts_for_nothing():
    f = _filing(
        "CAN-NOI-2026-001",
        [
            ("filed", date(2026, 3, 2), {}),
            ("permit-issued", date(2026, 4, 1), {}),
            ("event-voided", date(2026, 4, 2), {"voids": 2}),
        ],
    )
    r = year_report(YEAR, [f], kinds=KINDS, as_of=AS_OF)
    assert r.decisions == () and r.issued["noi"] == 0 and r.received["noi"][2] == 1


def test_late_by_the_states_21_days_is_not_late_by_the_bylaws_31():
    clocks = (
        ClockFact("decision", "deadline", date(2026, 5, 1), "met", "Canton Wetlands By-Law 15-5, 15-7"),
        ClockFact("wpa:decision", "deadline", date(2026, 4, 21), "late", "310 CMR 10.05(6)(a)"),
    )
    f = _filing("CAN-NOI-2026-002", [("filed", date(2026, 3, 2), {}), ("permit-issued", date(2026, 4, 28), {})], clocks)
    by_law, state = year_report(YEAR, [f], kinds=KINDS, as_of=AS_OF).timeliness
    assert (by_law.timed, by_law.on_time, by_law.late) == (1, 1, ())
    assert (state.timed, state.on_time, [d.filing for d in state.late]) == (1, 0, ["CAN-NOI-2026-002"])


def test_money_is_money_received_and_a_deposit_held_is_what_was_not_refunded_by_the_years_end():
    f = _filing(
        "CAN-NOI-2026-003", [("filed", date(2026, 3, 2), {}), ("payment-received", date(2026, 3, 2), {"amount": "125.50"})]
    )
    ledger = [
        LedgerFact("X", "noi", "received", 50000, date(2026, 5, 1)),
        LedgerFact("X", "noi", "refund", 20000, date(2026, 12, 30)),
        LedgerFact("X", "noi", "refund", 30000, date(2027, 1, 5)),  # next year: still held at the end of this one
    ]
    r = year_report(YEAR, [f], ledger, kinds=KINDS, as_of=date(2027, 2, 1))
    assert r.fees["noi"] == 12550 and (r.deposits_received, r.deposits_refunded, r.deposits_held) == (50000, 20000, 30000)
    assert money(12550) == "$125.50"


def test_a_town_board_kind_or_year_not_kept_is_refused_in_one_line(gen):
    for kw in ({"town": "nowhere"}, {"board": "library"}, {"kind": "street-opening"}, {"year": 1066}):
        args = {"town": "canton", "board": "conservation", "year": YEAR, **kw}
        with pytest.raises(ReportRefused) as e:
            board_year(gen, as_of=AS_OF, **args)
        assert "\n" not in str(e.value)


def test_the_annual_report_pdf_renders_the_boards_doings_in_words_and_figures(gen):
    from io import BytesIO

    from pypdf import PdfReader

    pdf = annual_report_pdf(gen, town="canton", board="conservation", year=YEAR, as_of=AS_OF)
    text = " ".join(p.extract_text() for p in PdfReader(BytesIO(pdf)).pages)
    y = board_year(gen, town="canton", board="conservation", year=YEAR, as_of=AS_OF)
    assert "Report of the Conservation Commission for 2026" in text
    assert f"received {y.report.received_total} filings" in " ".join(text.split())
    assert "Filings received by month" in text and "Receipts: fees and deposits" in text
    assert not re.search(r"\b\d{4}-\d{2}-\d{2}\b", text)  # dates in words, never ISO
