"""A street opening's deposit ledger is filled from its events in the
transaction that records them (services/deposits.py), the same by the
command line and by the workbench; the refund takes its amount and what
was held back and why; a refund that does not add up writes nothing; the
Deposits page lists the open deposits and the filing page its ledger."""

import html

from storekit import snapshot
from webkit import TODAY, client, login, make_store

from cli.main import main
from services.deposits import permit_ledger

FID = "CAN-SOP-2026-001"  # the web kit's street opening: a utility's, 40 ft
STEPS = [
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
        ("deduction", 250_00),
        ("refund", 750_00),
    ]
    assert _entries(cli_store)[2][3] == "curb replaced"
    assert permit_ledger(cli_store, FID).held == 0
    cli_store.engine.dispose()
    web_store.engine.dispose()


def test_a_refund_that_does_not_add_up_is_refused_with_nothing_written(web, store):
    token = login(web, "canton-dpw")
    _by_web(web, store, STEPS, token=token)
    before = snapshot(store.url)
    wrong = ("deposit-refunded", "2026-12-03", {"amount": "900.00", "held_back": "250.00", "reason": "curb"})
    r = _by_web(web, store, [wrong], expect=422, token=token)
    assert "add up to $1,150.00, not the $1,000.00 held" in html.unescape(r.text)
    assert snapshot(store.url) == before


def test_the_deposits_page_lists_the_open_deposit_until_it_is_refunded(web, store):
    _by_web(web, store, STEPS)
    page = web.get("/deposits").text
    assert FID in page and "$1,000.00" in page and 'id="open-count">1 open deposit' in page
    filing = web.get(f"/filings/{FID}").text
    assert 'id="ledger"' in filing and "the Town holds <strong>$1,000.00</strong>" in filing
    _by_web(web, store, [REFUND])
    assert FID not in web.get("/deposits").text.split('id="open-deposits"')[1].split("</table>")[0]
    assert "refunded $750.00" in web.get(f"/filings/{FID}").text


def test_the_deposits_page_is_not_found_for_an_agent_and_an_applicants_account_is_still_shown(web, store):
    _by_web(web, store, STEPS[:1])
    login(web, "canton-agent")
    assert web.get("/deposits").status_code == 404
    login(web, "canton-dpw")
    page = web.get("/deposits", params={"applicant": "Eversource"}).text
    assert "Eversource: balance $1000.00" in page
