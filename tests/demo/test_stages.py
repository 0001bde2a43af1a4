"""The demonstration's filings and cases at each later stage of a permit
(demo/stages.py) show what they say they show, whatever the day of the
demo, and the demo store holds them beside the generated filings."""

from datetime import date, timedelta

import pytest

from demo.stages import STAGE_IDS, stage_cases, stage_filings
from workflows.enforcement import parse_case
from workflows.enforcement_replay import replay_case
from workflows.filing import parse_filing
from workflows.replay import replay

#: filing -> (state, {clock: status} it must show)
SHOWS = {
    "MAN-NOI-2026-S01": ("issued", {"certificate-decision": "open", "recording-before-work": "passed"}),
    "SAU-NOI-2026-S02": ("certified", {"certificate-decision": "met"}),
    "CAN-NOI-2026-S03": ("completed", {"certificate-decision": "met"}),
    "CAN-NOI-2026-S04": ("issued", {"certificate-decision": "late"}),
    "MAN-NOI-2026-S05": ("issued", {"appeal-before-work": "premature", "recording-before-work": "violated"}),
    "SAU-NOI-2023-S06": ("issued", {"permit-expiry": "violated"}),
    # work after the certification's last day with no Order is a violation, not an expiry (issue 33, item 2)
    "MAN-NOI-2026-S07": ("emergency-work", {"emergency-continuation": "overdue", "emergency-certification": "violated"}),
    "MAN-NOI-2026-S08": ("issued", {"appeal-before-work": "violated"}),
    "MBS-NOI-2026-S09": ("hearing-scheduled", {"hearing-open": "open"}),
    "MBS-RDA-2026-S10": ("negative-determination", {"decision": "met"}),
    "MAN-LDP-2026-S11": ("completed", {}),
    "MAN-SOP-2026-S12": ("restored", {"repair-liability": "active"}),
    "MAN-SOP-2026-S13": ("excavating", {"dig-safe-wait": "violated"}),
}


@pytest.mark.parametrize("as_of", [date(2026, 12, 1), date(2026, 11, 30), date(2027, 4, 19), date(2028, 2, 29), date(2025, 7, 4)])
def test_each_stage_filing_shows_its_stage_whatever_the_day(as_of):
    assert set(SHOWS) == set(STAGE_IDS)
    for f in stage_filings(as_of):
        r = replay(parse_filing(f), as_of)
        state, statuses = SHOWS[f["id"]]
        assert r.state == state, f["id"]
        shown = {c.id: c.status for c in r.clocks}
        for clock, status in statuses.items():
            assert shown.get(clock) == status, (f["id"], clock, shown.get(clock))


@pytest.mark.parametrize("as_of", [date(2026, 12, 1) + timedelta(days=n) for n in range(0, 60, 7)])
def test_each_stage_case_replays_with_its_tickets_priced_by_its_towns_schedule(as_of):
    by_id = {c["id"]: replay_case(parse_case(c), as_of) for c in stage_cases(as_of)}
    assert {r.town for r in by_id.values()} == {"saugus", "mansfield", "manchester-by-the-sea", "canton"}
    assert by_id["SAU-ENF-2026-0001"].fines == 375 and by_id["SAU-ENF-2026-0001"].tickets[-1].offense == 4
    assert by_id["MAN-ENF-2026-0001"].clock("cost-notice").status == "met"
    assert by_id["MBS-ENF-2026-0001"].tickets[0].fine == 0
    assert by_id["CAN-ENF-2026-0001"].state == "open"


def test_the_demo_store_holds_the_stage_filings_and_cases(tmp_path):
    from config import load
    from models.handle import Store
    from models.read.enforcement import EnforcementRecord
    from services.demo import make_demo_store

    settings = load({"PERMITS_DATA_DIR": str(tmp_path)})
    demo = make_demo_store(settings, as_of=date(2026, 12, 1), count=20, seed=0)
    assert (demo.filings, demo.stages, demo.cases) == (20, len(STAGE_IDS), 4)
    store = Store(demo.url)
    assert set(STAGE_IDS) <= {r.id for r in store.list_filings()}
    assert {r.id for r in EnforcementRecord(store).cases()} == {c["id"] for c in stage_cases(date(2026, 12, 1))}
    store.engine.dispose()
