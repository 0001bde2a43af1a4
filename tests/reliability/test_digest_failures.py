"""One filing whose notice fails must not hide overdue deadlines: the digest
counts every overdue clock of every filing it could replay, and lists the
failed filing under its own department with why."""

import io
from datetime import date

from demo.generate import generate
from sweep.ledger import DirectorySource, SqliteLedger, write_jsonl
from sweep.report import build_digest, print_docket
from sweep.run import run_sweep

AS_OF = date(2026, 11, 30)
#: a hearing whose newspaper notice is overdue: its legal notice is due too
LATE_NOTICE = {
    "town": "canton",
    "kind": "noi",
    "id": "CAN-NOI-2026-LATE",
    "applicant": "J. Doe",
    "events": [
        {"type": "filed", "date": "2026-11-02"},
        {"type": "boards-notified", "date": "2026-11-02"},
        {"type": "hearing-scheduled", "date": "2026-11-03", "hearing": "2026-11-24"},
    ],
}


def failing_hook(filing, replay, due, out_dir):
    raise RuntimeError("the printer is on fire")


def quiet_hook(filing, replay, due, out_dir):
    return []


def _sweep(tmp_path, name, hook):
    folder = tmp_path / name
    folder.mkdir()
    write_jsonl(folder / "filings.jsonl", [LATE_NOTICE, *generate(80, AS_OF, seed=11)])
    ledger = SqliteLedger(tmp_path / f"{name}.sqlite")
    try:
        return run_sweep(DirectorySource(folder), ledger, AS_OF, notice_hook=hook)
    finally:
        ledger.close()


def test_failed_notices_do_not_hide_the_filings_overdue_clocks_from_the_digest(tmp_path):
    good = build_digest(_sweep(tmp_path, "good", quiet_hook))
    bad = build_digest(_sweep(tmp_path, "bad", failing_hook))
    assert bad["counts"]["failed"] > 0
    assert good["counts"]["overdue"] > 0
    assert bad["counts"]["overdue"] == good["counts"]["overdue"]
    assert sum(len(g["overdue"]) for g in bad["dockets"]) == sum(len(g["overdue"]) for g in good["dockets"])
    assert "CAN-NOI-2026-LATE" in {f["filing"] for f in bad["failures"]}
    assert "CAN-NOI-2026-LATE" in {e["filing"] for g in bad["dockets"] for e in g["overdue"]}


def test_a_filing_whose_notice_failed_is_listed_under_its_own_department_with_why(tmp_path):
    digest = build_digest(_sweep(tmp_path, "bad", failing_hook))
    failure = digest["failures"][0]
    assert "notice failed" in failure["error"] and "the printer is on fire" in failure["error"]
    buf = io.StringIO()
    print_docket(digest, buf, limit=1000)
    section = None
    for line in buf.getvalue().splitlines():
        if line and not line.startswith(" ") and " — " in line:
            section = line.split(":")[0]
        if line.strip().startswith(f"FAILED   {failure['filing']}:"):
            assert section is not None and section.endswith(failure["department"]), (section, failure)
            break
    else:
        raise AssertionError("the failed filing is not printed")
