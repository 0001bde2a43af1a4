"""The enforcement actions of the service layer (services/enforcement.py) on
SQLite and PostgreSQL, and the command line over them: a case from the
violation to its tickets, the offenses numbered across the violator's
cases, a refusal that writes nothing."""

from datetime import date

import pytest

from cli.main import main
from models.errors import EventFromTheFuture, UnknownCase
from models.handle import Store
from models.read.enforcement import EnforcementRecord
from services.database import upgrade_store
from services.enforcement import (
    NotTheFilingsTown,
    issue_order,
    issue_tickets,
    notice_violation,
    open_case,
    record_step,
    void_step,
)
from services.imports import import_filings
from workflows.fines import FineAmountLost

TODAY = date(2026, 5, 29)


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    upgrade_store(s)
    yield s
    s.engine.dispose()


def _open(store, town="saugus", violator="Lynn Fells LLC", day=date(2026, 5, 4), **more):
    bylaw = more.pop("bylaw", "wetlands")
    return open_case(
        store,
        town_id=town,
        bylaw=bylaw,
        violator=violator,
        provision="508.08 §2",
        description="fill in the buffer zone",
        day=day,
        by="agent",
        today=TODAY,
        address=more.pop("address", "12 Lincoln Ave"),
        **more,
    ).case


def test_a_case_from_the_violation_to_its_order_and_tickets(store):
    case = _open(store)
    assert case == "SAU-ENF-2026-0001"
    assert notice_violation(store, case, day=date(2026, 5, 5), by="agent", today=TODAY, delivered="in-hand").state == "noticed"
    assert (
        issue_order(
            store, case, day=date(2026, 5, 6), comply_by=date(2026, 6, 5), requires=["Remove the fill."], by="agent", today=TODAY
        ).state
        == "ordered"
    )
    done = issue_tickets(
        store,
        case,
        day=date(2026, 5, 12),
        provisions=["508.08 §2"],
        days=[date(2026, 5, 8), date(2026, 5, 9)],
        by="agent",
        today=TODAY,
    )
    assert [(t[2], t[3]) for t in done.tickets] == [(1, 25), (2, 50)]
    replay = EnforcementRecord(store).replay(case, TODAY)
    assert replay.state == "ordered" and replay.fines == 75
    row = EnforcementRecord(store).cases()[0]
    assert (row.fines, row.next_deadline_clock, row.next_deadline_date) == (75, "ticket-appearance", date(2026, 6, 2))


def test_offenses_are_numbered_across_every_case_of_the_same_violator(store):
    """saugus.txt line 563: the penalty rises with the violator's offense
    number, whatever case it is ticketed in ("Lynn Fells, LLC" and "LYNN
    FELLS LLC" are one violator)."""
    first = _open(store)
    issue_tickets(
        store,
        first,
        day=date(2026, 5, 12),
        provisions=["508.08 §2"],
        days=[date(2026, 5, 8), date(2026, 5, 9), date(2026, 5, 10)],
        by="a",
        today=TODAY,
    )
    second = _open(store, violator="LYNN FELLS, LLC", day=date(2026, 5, 20), address=None, parcel="5-101")
    done = issue_tickets(
        store, second, day=date(2026, 5, 21), provisions=["508.08 §2"], days=[date(2026, 5, 20)], by="a", today=TODAY
    )
    assert done.tickets[0][2:] == (4, 200, "fourth offense (fourth and each later offense)")
    other = _open(store, violator="Someone Else", day=date(2026, 5, 20))
    assert (
        issue_tickets(
            store, other, day=date(2026, 5, 21), provisions=["§2"], days=[date(2026, 5, 20)], by="a", today=TODAY
        ).tickets[0][3]
        == 25
    )


def test_a_ticket_the_schedule_cannot_price_is_refused_and_nothing_is_written(store):
    """manchester-by-the-sea.txt line 11: the second offense's amount is
    lost; the first day's warning and the second day's ticket go together
    or not at all."""
    case = open_case(
        store,
        town_id="manchester-by-the-sea",
        bylaw="wetlands",
        violator="Ocean Rd Trust",
        provision="Order condition 7",
        description="lawn mowed into the buffer zone",
        day=date(2026, 5, 4),
        by="a",
        today=TODAY,
        parcel="31-7",
    ).case
    with pytest.raises(FineAmountLost, match="no fine for a second offense"):
        issue_tickets(
            store,
            case,
            day=date(2026, 5, 12),
            provisions=["Order condition 7"],
            days=[date(2026, 5, 6), date(2026, 5, 7)],
            by="a",
            today=TODAY,
        )
    assert EnforcementRecord(store).replay(case, TODAY).tickets == []
    warned = issue_tickets(
        store, case, day=date(2026, 5, 12), provisions=["Order condition 7"], days=[date(2026, 5, 6)], by="a", today=TODAY
    )
    assert warned.tickets[0][3] == 0 and case.startswith("MBS-ENF-2026-")


def test_a_step_from_the_future_an_unknown_case_and_another_towns_filing_are_refused(store):
    case = _open(store)
    with pytest.raises(EventFromTheFuture):
        record_step(store, case, {"type": "complied", "date": "2026-06-30"}, by="a", today=TODAY)
    with pytest.raises(UnknownCase, match="unknown enforcement case 'SAU-ENF-2026-0099'"):
        notice_violation(store, "SAU-ENF-2026-0099", day=TODAY, by="a", today=TODAY)
    from storekit import NOI

    import_filings(store, [NOI], by="clerk")
    with pytest.raises(NotTheFilingsTown):
        _open(store, filing=NOI["id"])


def test_a_voided_ticket_frees_its_number(store):
    case = _open(store)
    issue_tickets(store, case, day=date(2026, 5, 12), provisions=["508.08 §2"], days=[date(2026, 5, 8)], by="a", today=TODAY)
    void_step(store, case, 2, reason="ticketed the wrong day", day=date(2026, 5, 13), by="a", today=TODAY)
    again = issue_tickets(
        store, case, day=date(2026, 5, 13), provisions=["508.08 §2"], days=[date(2026, 5, 9)], by="a", today=TODAY
    )
    assert again.tickets[0][2:4] == (1, 25)


def test_the_command_line_runs_a_case_to_its_tickets_and_refuses_with_one_line(db_url, capsys):
    upgrade_store(Store(db_url))
    asof = ["--db", db_url, "--as-of", "2026-05-29"]
    assert (
        main(
            [
                "enforcement",
                "open",
                *asof,
                "--town",
                "saugus",
                "--bylaw",
                "wetlands",
                "--violator",
                "Lynn Fells LLC",
                "--provision",
                "508.08 §2",
                "--description",
                "fill",
                "--address",
                "12 Lincoln Ave",
                "--date",
                "2026-05-04",
            ]
        )
        == 0
    )
    assert "opened enforcement case SAU-ENF-2026-0001" in capsys.readouterr().out
    assert (
        main(
            [
                "enforcement",
                "ticket",
                "SAU-ENF-2026-0001",
                *asof,
                "--provision",
                "508.08 §2",
                "--day",
                "2026-05-05",
                "--through",
                "2026-05-08",
                "--date",
                "2026-05-09",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "fourth offense (fourth and each later offense), $200" in out
    assert main(["enforcement", "record", "SAU-ENF-2026-0001", "town-abated", *asof, "--date", "2026-05-10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sets no recovery of the town's costs" in err
    assert (
        main(
            [
                "enforcement",
                "open",
                *asof,
                "--town",
                "boston",
                "--bylaw",
                "wetlands",
                "--violator",
                "x",
                "--provision",
                "p",
                "--description",
                "d",
                "--address",
                "a",
            ]
        )
        == 2
    )
    assert "unknown town 'boston'" in capsys.readouterr().err
