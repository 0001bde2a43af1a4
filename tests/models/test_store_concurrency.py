"""Two processes recording 1,000 events each into the same filings: every
event is there once, each filing's sequence has no gap and no repeat, the
state allowed only one of two competing `permit-issued`, and every history
replays to the state stored beside it."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from workflows.replay import replay

N_EVENTS = 1000
FILINGS = [f"CAN-SO-2026-{n:03d}" for n in range(1, 51)]


def test_two_writers_at_once_leave_every_event_once_and_every_history_valid(db_url):
    store = Store(db_url)
    upgrade_store(store)
    import_filings(
        store,
        [
            {
                "town": "canton",
                "kind": "street-opening",
                "id": fid,
                "events": [
                    {"type": "filed", "date": "2026-06-01", "applicant": "utility"},
                    {"type": "dig-safe-obtained", "date": "2026-06-02", "ticket": f"T{fid}"},
                ],
            }
            for fid in FILINGS
        ],
        by="setup",
    )
    script = Path(__file__).resolve().parents[1] / "concurrent_writer.py"
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), db_url, str(w), str(N_EVENTS), *FILINGS],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in (1, 2)
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        results.append(json.loads(out))
    # each filing's permit-issued went through once: one writer got it, the other was refused
    assert sum(r["refused"] for r in results) == len(FILINGS)
    assert sum(r["recorded"] for r in results) == 2 * N_EVENTS - len(FILINGS)

    marks = Counter()
    for fid in FILINGS:
        history = store.history(fid)
        assert [h["seq"] for h in history] == list(range(1, len(history) + 1))
        assert [h["type"] for h in history].count("permit-issued") == 1
        marks.update(h["raw"]["ticket"] for h in history if h["raw"].get("ticket", "").startswith("W"))
        filing, row = store.load(fid)
        assert row.last_seq == len(history)
        assert replay(filing, filing.events[-1].date).state == row.state == "issued"
    expected = {f"W{w}-{i}" for w in (1, 2) for i in range(len(FILINGS), N_EVENTS)}
    assert set(marks) == expected and set(marks.values()) == {1}
