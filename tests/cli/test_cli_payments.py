"""``permits payments``: the fee and a payment through the command line, the
same service as the filing page's form (tests/web/test_web_fees.py); a
refusal is one line, exit status 2, nothing written."""

from __future__ import annotations

import re

from storekit import snapshot
from webkit import TODAY, client, login, make_store

from cli.main import main

FID = "CAN-SOP-2026-001"  # a utility's 40-foot trench: the application fee and $1,000.00 of deposit


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_payment_recorded_on_the_command_line_shows_on_the_filing_page_and_the_same_refusal_holds(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'p.db'}"
    store = make_store(url)
    day = TODAY.isoformat()
    code, out, _ = _run(capsys, "payments", "show", FID, "--db", url)
    assert code == 0 and "application fee $50.00; refundable deposit $1,000.00: $1,050.00 in all" in out
    code, out, _ = _run(
        capsys,
        "payments",
        "record",
        FID,
        "--db",
        url,
        "--amount",
        "50.00",
        "--method",
        "check",
        "--reference",
        "1001",
        "--as-of",
        day,
        "--by",
        "clerk",
    )
    assert code == 0 and "payment-received, $50.00" in out
    before = snapshot(url)
    code, out, err = _run(
        capsys, "payments", "record", FID, "--db", url, "--amount", "1000.01", "--method", "cash", "--as-of", day
    )
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "add up to more than the $1,050.00 due; $1,000.00 is left to pay" in err and "Canton 16-12 §4" in err
    code, _, err = _run(
        capsys, "record", FID, "payment-received", "--db", url, "--date", day, "amount=2000.00", "method=cash", "--as-of", day
    )
    assert code == 2 and "add up to more than" in err  # the generic path is held to the same rule
    assert snapshot(url) == before
    web = client(store)
    login(web, "canton-dpw")
    page = web.get(f"/filings/{FID}").text
    assert "Paid: $50.00." in page and "Left to pay: <strong>$1,000.00</strong>" in page and "1001" in page
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    seq = re.search(r'action="/filings/[^"]+/payments".*?name="seq" value="(\d+)"', page, re.S).group(1)
    r = web.post(f"/filings/{FID}/payments", data={"csrf": token, "seq": seq, "amount": "1000.00", "method": "cash", "date": day})
    assert r.status_code == 303
    code, out, _ = _run(capsys, "payments", "show", FID, "--db", url, "--json")
    assert code == 0 and '"left": "0.00"' in out and '"paid": "1050.00"' in out
