"""A street opening's deposit ledger is filled from its events in the
transaction that records them (services/deposits.py), the same by the
command line and by the workbench; the deposit is received by a payment
toward it; the refund takes its amount and what was kept and why; a refund
larger than what the Town holds writes nothing; the Deposits page lists
each permit's charged, received, kept, refunded and held, and the filing
page its ledger."""

import html

from storekit import snapshot
from webkit import TODAY, client, login, make_store

from cli.main import main
from services.deposits import permit_ledger

FID = "CAN-SOP-2026-001"  # the web kit's street opening: a utility's, 40 ft
STEPS = [
    ("payment-received", "2026-12-01", {"amount": "1000.00", "method": "check", "reference": "CK-77", "toward": "deposit"}),
    ("dig-safe-obtained", "2026-12-01", {"ticket": "1"}),
    ("permit-issued", "2026-12-01", {}),
    ("excavation-started", "2026-12-01", {}),
    ("backfilled", "2026-12-02", {"material": "gravel"}),
    ("permanent-patch-placed", "2026-12-02", {}),
    ("inspected", "2026-12-03", {"stage": "permanent-patch", "result": "pass"}),
]
REFUND = ("deposit-refunded", "2026-12-03", {"amount": "750.00", "held_back": "250.00", "reason": "curb replaced"})


def _by_cli(url, steps, capsys):
    for etype, day, fields in steps:
        argv = ["record", FID, etype, "--date", day, "--as-of", TODAY.isoformat(), "--db", url]
        argv += [f"{k}={v}" for k, v in fields.items()]
        assert main(argv) == 0, capsys.readouterr().err


def _by_web(web, store, steps, expect=303, token=None):
    token = token or login(web, "canton-dpw")
    for etype, day, fields in steps:
        seq = store.load(FID)[1].last_seq
        data = {"csrf": token, "seq": str(seq), "type": etype, "f_date": day, **{f"f_{k}": v for k, v in fields.items()}}
        r = web.post(f"/filings/{FID}/events", data=data)
        assert r.status_code == expect, html.unescape(r.text)[-3000:]
        last = r
    return last


def _entries(store):
    return [(e.entry, e.cents, e.item, e.note) for e in permit_ledger(store, FID).entries]


def test_the_cli_and_the_web_fill_the_same_ledger_with_the_refund_and_what_was_held_back(db_url, second_url, capsys):
    cli_store, web_store = make_store(db_url), make_store(second_url)
    _by_cli(db_url, [*STEPS, REFUND], capsys)
    _by_web(client(web_store), web_store, [*STEPS, REFUND])
    assert _entries(cli_store) == _entries(web_store)
    assert [(e, c) for e, c, _, _ in _entries(cli_store)] == [
        ("fee", 50_00),
        ("deposit", 40 * 25_00),
        ("received", 1_000_00),
        ("deduction", 250_00),
        ("refund", 750_00),
    ]
    assert _entries(cli_store)[3][3] == "curb replaced"
    assert permit_ledger(cli_store, FID).held == 0
    cli_store.engine.dispose()
    web_store.engine.dispose()


def test_a_refund_larger_than_what_is_held_is_refused_naming_the_amounts_with_nothing_written(web, store):
    token = login(web, "canton-dpw")
    _by_web(web, store, STEPS, token=token)
    before = snapshot(store.url)
    wrong = ("deposit-refunded", "2026-12-03", {"amount": "900.00", "held_back": "250.00", "reason": "curb"})
    r = _by_web(web, store, [wrong], expect=422, token=token)
    assert (
        "a refund of $900.00 and $250.00 kept, $1,150.00 in all, is more than the $1,000.00 the Town holds for it "
        "($1,000.00 received, less $0.00 kept or refunded) (Canton 16-12 §5)"
    ) in html.unescape(r.text)
    assert snapshot(store.url) == before


def _row(page: str, fid: str) -> dict:
    row = page.split(f'<tr data-filing="{fid}">')[1].split("</tr>")[0]
    return {
        k: html.unescape(row.split(f'class="{k}">')[1].split("</td>")[0]).replace("<strong>", "").replace("</strong>", "")
        for k in ("charged", "received", "kept", "refunded", "held")
    }


def test_the_deposits_page_lists_what_was_charged_received_kept_refunded_and_held(web, store):
    login(web, "canton-dpw")
    assert _row(web.get("/deposits").text, FID) == {
        "charged": "$1,000.00",
        "received": "$0.00",  # charged with the application, not received: nothing held
        "kept": "$0.00",
        "refunded": "$0.00",
        "held": "$0.00",
    }
    _by_web(web, store, STEPS)
    page = web.get("/deposits").text
    assert _row(page, FID)["received"] == "$1,000.00" and _row(page, FID)["held"] == "$1,000.00"
    filing = web.get(f"/filings/{FID}").text
    assert 'id="ledger"' in filing and '<td id="deposit-held"><strong>$1,000.00</strong></td>' in filing
    _by_web(web, store, [REFUND])
    assert _row(web.get("/deposits").text, FID) == {
        "charged": "$1,000.00",
        "received": "$1,000.00",
        "kept": "$250.00",
        "refunded": "$750.00",
        "held": "$0.00",
    }
    assert '<td id="deposit-refunded">$750.00</td>' in web.get(f"/filings/{FID}").text
    closed = web.get("/deposits", params={"state": "closed"}).text
    assert FID in closed and 'id="deposit-count">1 permit(s)' in closed
    assert FID not in web.get("/deposits", params={"state": "issued"}).text.split('id="deposits"')[1]


def test_the_deposits_page_is_not_found_for_an_agent_and_an_applicants_account_is_still_shown(web, store):
    _by_web(web, store, STEPS[:1])
    login(web, "canton-agent")
    assert web.get("/deposits").status_code == 404
    login(web, "canton-dpw")
    page = web.get("/deposits", params={"applicant": "Eversource"}).text
    assert "Eversource: the Town holds $1000.00 in the account; fees charged $50.00" in page  # the deposit received
