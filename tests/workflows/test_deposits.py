"""Canton 16-12 §5-6 deposits and fees: the schedule as data, the exemptions,
the account's running balance.  Pure unit tests, then the command."""

import json
from datetime import date

import pytest
from storekit import STREET, write_json

from cli.main import main
from workflows.deposits import FEES, SCHEDULE, LedgerRefused, Line, charge, parse_dollars, statement

D = date(2026, 6, 1)


def test_schedule_holds_the_bylaw_amounts_each_with_its_citation():
    assert SCHEDULE["across-public-way"].cents == 600_00
    assert SCHEDULE["across-state-highway"].cents == 2_000_00
    assert SCHEDULE["trench-paved-way"].cents == 25_00 and SCHEDULE["trench-paved-way"].unit == "linear ft"
    assert FEES["application"].cents == 50_00
    assert all("Canton 16-12" in i.citation for i in [*SCHEDULE.values(), *FEES.values()])


def test_a_private_applicant_pays_the_schedule_times_the_quantity():
    c = charge("trench-paved-way", 40, "private")
    assert (c.entry, c.cents) == ("deposit", 1_000_00)


def test_municipal_departments_pay_no_fees_and_no_deposits():
    assert charge("application", 1, "municipal").entry == "exempt"
    c = charge("across-public-way", 2, "municipal")
    assert (c.entry, c.cents, c.rule) == ("exempt", 0, "Canton 16-12 §6")


def test_a_gas_company_claiming_the_exemption_pays_only_the_application_fee():
    assert charge("application", 1, "gas-company").cents == 50_00
    assert charge("across-public-way", 1, "gas-company").entry == "exempt"
    assert charge("after-hours", 2, "gas-company").entry == "exempt"


def test_a_deduction_after_a_default_may_draw_on_the_whole_account_but_not_beyond_it():
    lines = [
        Line("deposit", 300_00, D, "A"),
        Line("received", 300_00, D, "A"),
        Line("deposit", 600_00, D, "B"),
        Line("received", 600_00, D, "B"),
        Line("deduction", 500_00, D, "A"),
    ]
    st = statement("Eversource", lines)
    assert st.balance == 400_00 and st.held == {"A": 0, "B": 400_00}
    assert (st.permits["A"].kept, st.permits["B"].kept) == (300_00, 200_00)  # the permit's own deposit first
    with pytest.raises(
        LedgerRefused, match=r"a deduction of \$400.01 is more than the \$400.00 the Town holds in the account.*Canton 16-12 §5"
    ):
        statement("Eversource", lines + [Line("deduction", 400_01, D, "B")])


def test_only_money_received_is_held_and_a_refund_releases_at_most_what_is_held():
    """§5 releases "the unexpended balance": the Town holds what it
    received, less what it kept or refunded, never what it only charged."""
    charged = [Line("deposit", 600_00, D, "A")]
    assert statement("X", charged).held == {"A": 0}
    with pytest.raises(
        LedgerRefused, match=r"nothing is held for A to refund: the \$0.00 the Town holds for it \(\$0.00 received"
    ):
        statement("X", charged + [Line("refund", 0, D, "A")])
    lines = charged + [Line("received", 600_00, D, "A"), Line("deduction", 100_00, D, "A")]
    assert statement("X", lines + [Line("refund", 500_00, D, "A")]).balance == 0
    assert statement("X", lines + [Line("refund", 200_00, D, "A")]).held == {"A": 300_00}  # within it: the rest stays held
    with pytest.raises(LedgerRefused) as refused:
        statement("X", lines + [Line("refund", 600_00, D, "A")])
    assert str(refused.value) == (
        "X: a refund of $600.00 for A is more than the $500.00 the Town holds for it "
        "($600.00 received, less $100.00 kept or refunded) (Canton 16-12 §5)"
    )
    with pytest.raises(LedgerRefused, match=r"a deposit received of \$700.00 for A is more than the \$600.00 charged"):
        statement("X", charged + [Line("received", 700_00, D, "A")])


def test_money_received_cannot_be_taken_back_once_it_was_refunded():
    lines = [Line("deposit", 300_00, D, "A"), Line("received", 300_00, D, "A"), Line("refund", 300_00, D, "A")]
    back = Line("received", -300_00, D, "A", reverses=True)
    with pytest.raises(LedgerRefused, match="was refunded or kept already: record the refund's voiding first"):
        statement("X", lines + [back])
    undone = Line("refund", -300_00, D, "A", reverses=True)
    assert statement("X", lines + [undone, back]).permits["A"].held == 0


def test_dollar_amounts_are_parsed_to_cents_or_refused():
    assert parse_dollars("$1,250.50") == 125_050
    for bad in ("abc", "-5", "1.005", "0"):
        with pytest.raises(LedgerRefused):
            parse_dollars(bad)


def test_deposits_command_keeps_the_applicants_account(tmp_path, capsys):
    """The import charges the application's fee and deposit (a utility's
    40-foot trench: $50.00 and $1,000.00); the deposit received is a
    payment toward it; a deduction after a Default draws on what is held;
    a charge by hand adds to what is charged, not to what is held."""
    db = f"sqlite:///{tmp_path / 'p.db'}"
    private = {**STREET, "id": "CAN-SO-2026-200", "applicant": {"name": "Main St Bakery", "category": "private"}}
    received = ["payments", "record", "CAN-SO-2026-200", "--amount", "1000.00", "--method", "check", "--reference", "9"]
    for argv in (
        ["init"],
        ["import", write_json(tmp_path / "s.json", private)],
        [*received, "--toward", "deposit", "--date", "2026-06-03", "--as-of", "2026-06-03"],
        ["deposits", "Main St Bakery", "--charge", "across-public-way", "--filing", "CAN-SO-2026-200", "--date", "2026-06-04"],
        [
            "deposits",
            "Main St Bakery",
            "--deduct",
            "250",
            "--reason",
            "settlement repair",
            "--filing",
            "CAN-SO-2026-200",
            "--date",
            "2026-09-01",
        ],
    ):
        assert main([*argv, "--db", db]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["deposits", "Main St Bakery", "--json", "--db", db]) == 0
    account = json.loads(capsys.readouterr().out)
    assert account["balance"] == "750.00" and account["fees"] == "50.00"
    assert account["held"] == {"CAN-SO-2026-200": "750.00"}
    figures = account["permits"]["CAN-SO-2026-200"]
    assert (figures["charged"], figures["received"], figures["kept"], figures["held"]) == (
        "1600.00",
        "1000.00",
        "250.00",
        "750.00",
    )
    assert [e["entry"] for e in account["entries"]] == ["fee", "deposit", "received", "deposit", "deduction"]
    # more kept than the Town holds: refused naming both, one line, exit 2
    assert main(["deposits", "Main St Bakery", "--deduct", "800", "--filing", "CAN-SO-2026-200", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a deduction of $800.00 is more than the $750.00 the Town holds" in err
    # not yet final-inspected: no refund (§5), one line, exit 2
    assert main(["deposits", "Main St Bakery", "--refund", "--filing", "CAN-SO-2026-200", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "final inspection" in err and "Canton 16-12 §5" in err
    assert main(["deposits", "Nobody", "--db", db]) == 2
    assert "unknown applicant 'Nobody'" in capsys.readouterr().err
