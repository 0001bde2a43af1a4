"""The fees a commission sets by its own regulation (Canton 15-4: "a filing
fee ... as set by regulation of the Commission"), set by the town's admin on
the rule book page from a day, with why (services/town_fees.py): a filing
pays the fee in force on the day it was filed; every change is kept and
shown; only an admin may set one (anyone else: 404); a refusal writes
nothing."""

from __future__ import annotations

import re

from webkit import client, login

from models.read.town_fees import fee_changes
from services.imports import import_filings


def _set(c, token, **fields):
    data = {
        "csrf": token,
        "fee": "canton/noi",
        "amount": "150.00",
        "effective": "2026-12-01",
        "reason": "Commission vote of November 12, 2026",
    }
    return c.post("/rules/fees", data={**data, **fields})


def _fee_words(c, fid):
    page = c.get(f"/filings/{fid}").text
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_a_fee_set_from_a_day_is_owed_by_filings_filed_from_it_and_not_before_and_kept_in_the_history(store):
    import_filings(
        store,
        [{"town": "canton", "kind": "noi", "id": "CAN-NOI-2026-002", "events": [{"type": "filed", "date": "2026-11-20"}]}],
        by="test",
    )
    admin = client(store)
    token = login(admin, "admin")
    assert _set(admin, token).status_code == 303
    assert (
        _set(admin, token, amount="200", effective="01/01/2027", reason="Commission vote of December 1, 2026").status_code == 303
    )
    rules = admin.get("/rules").text
    history = re.search(r'<ol id="fee-history">(.*?)</ol>', rules, re.S).group(1)
    lines = re.findall(r"<li>(.*?)</li>", history, re.S)
    assert lines[0].startswith(
        "Canton, Notice of Intent: $200.00 for filings filed from Friday, January 1, 2027, set by admin@permits.example"
    )
    assert lines[0].endswith(": Commission vote of December 1, 2026") and len(lines) == 2
    assert "2026-12" not in history and "UTC" not in history  # people's words
    # in force today (December 3, 2026): the first
    assert "Canton, Notice of Intent: filing fee $150.00" in rules
    agent = client(store)
    login(agent, "canton-agent")
    assert "filing fee $150.00" in _fee_words(agent, "CAN-NOI-2026-001")  # filed December 1, 2026: the fee from that day
    assert "filing fee (amount not yet entered by the town)" in _fee_words(agent, "CAN-NOI-2026-002")  # filed before it
    assert [c.cents for c in fee_changes(store)] == [200_00, 150_00]


def test_only_an_admin_sets_a_fee_the_agent_reads_it_and_others_get_404(store):
    agent = client(store)
    token = login(agent, "canton-agent")
    page = agent.get("/rules").text
    assert 'id="fees-in-force"' in page and 'action="/rules/fees"' not in page
    assert _set(agent, token).status_code == 404
    dpw = client(store)
    assert _set(dpw, login(dpw, "canton-dpw")).status_code == 404
    assert fee_changes(store) == []


def test_a_fee_the_bylaw_prices_or_a_malformed_one_is_refused_in_words_and_nothing_written(store):
    admin = client(store)
    token = login(admin, "admin")
    cases = [
        ({"fee": "canton/street-opening"}, "sets no street-opening fee by regulation"),
        ({"amount": "a lot"}, "an amount in dollars and cents, such as 150.00"),
        ({"reason": ""}, "why the fee changes"),
        ({"effective": "13/45/2026"}, "The day the fee takes effect: a date, such as 12/17/2026"),
    ]
    for fields, says in cases:
        r = _set(admin, token, **fields)
        assert r.status_code == 422 and says.lower() in r.text.lower(), (fields, r.status_code)
    assert _set(admin, token, fee="nowhere/noi").status_code == 404
    assert fee_changes(store) == []


def test_a_payment_adds_up_against_the_fee_in_force_when_the_filing_was_filed(store):
    from datetime import date, datetime

    import pytest

    from services.payments import record_payment
    from services.town_fees import set_fee
    from workflows.fees import PaymentRefused

    set_fee(store, "canton", "noi", "150", effective=date(2026, 12, 1), reason="vote", by="admin")
    pay = dict(
        day=date(2026, 12, 3), method="cash", by="clerk", today=date(2026, 12, 3), now=datetime(2026, 12, 3, 9), mail_from=None
    )
    with pytest.raises(PaymentRefused):
        record_payment(store, "CAN-NOI-2026-001", amount="150.01", **pay)
    record_payment(store, "CAN-NOI-2026-001", amount="150.00", **pay)
    assert store.history("CAN-NOI-2026-001")[-1]["type"] == "payment-received"
