"""The inspection result letter of a failed inspection lists what the
inspector recorded (Canton 16-12 §10.2): the time, the notes, the photos,
the defect and the re-inspection day; golden files beside the others'
(UPDATE_GOLDEN=1 regenerates them)."""

import copy
import os
from pathlib import Path

import pytest
from notice_fixtures import DATED, STREET, STREET_EXTRA, TOWN_SUPPLIES

from notices.produce import produce
from workflows.filing import parse_filing
from workflows.replay import replay

GOLDEN = Path(__file__).parent / "golden" / "notices"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

FAILED = {
    "type": "inspected",
    "date": "2026-05-21",
    "at": "2026-05-21T14:05",
    "stage": "temporary-patch",
    "result": "fail",
    "notes": "Patch below grade along the north edge.",
    "defect": "the temporary patch has settled 1 inch below the road surface",
    "reinspect": "2026-05-26",
    "photos": ["AAAAAAAAAAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBBBBBBBBBB"],
}


def _failed_filing():
    from datetime import date

    extra = {k: v for k, v in STREET_EXTRA.items() if k not in TOWN_SUPPLIES}
    obj = {
        "town": "canton",
        "kind": "street-opening",
        "id": "CAN-STR-2026-014",
        **copy.deepcopy(extra),
        "events": copy.deepcopy(STREET[:-1]) + [FAILED],
    }
    filing = parse_filing(obj)
    return filing, replay(filing, date(2026, 5, 22))


@pytest.mark.parametrize("fmt", ["html", "txt"])
def test_a_failed_inspections_letter_matches_its_golden_file(fmt):
    filing, result = _failed_filing()
    (out,) = produce(filing, result, "inspection-result", fmt=fmt, dated=DATED)
    path = GOLDEN / f"canton-street-opening-inspection-result-failed.{fmt}"
    if UPDATE:
        path.write_text(out.content, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run UPDATE_GOLDEN=1 pytest {__file__}"
    assert out.content == path.read_text(encoding="utf-8")


def test_the_letter_lists_the_defect_the_re_inspection_day_the_time_notes_and_photos():
    filing, result = _failed_filing()
    (out,) = produce(filing, result, "inspection-result", fmt="txt", dated=DATED)
    text = " ".join(out.content.split())
    assert "failed" in text and "at 2:05 p.m." in text  # times as people write them (workflows/written.py)
    assert "Defect found: the temporary patch has settled 1 inch below the road surface" in text
    assert "re-inspection on Tuesday, May 26, 2026" in text
    assert "Inspector's notes: Patch below grade along the north edge." in text
    assert "Photos taken: 2" in text


def test_a_passed_inspections_letter_names_no_defect_and_no_re_inspection():
    from datetime import date

    extra = {k: v for k, v in STREET_EXTRA.items() if k not in TOWN_SUPPLIES}
    filing = parse_filing(
        {"town": "canton", "kind": "street-opening", "id": "CAN-STR-2026-014", **copy.deepcopy(extra), "events": STREET}
    )
    (out,) = produce(filing, replay(filing, date(2026, 5, 26)), "inspection-result", fmt="txt", dated=DATED)
    assert "Defect" not in out.content and "re-inspection" not in out.content
