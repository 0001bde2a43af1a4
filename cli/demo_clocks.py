"""``permits demo --clocks``: a few clocks of each town and how each was
counted.  Fixed dates: its output does not depend on today."""

from __future__ import annotations

from datetime import date, datetime

from workflows.rulebook import ANCHORS
from workflows.towns import town

__all__ = ["run_demo", "DEMO_CASES"]

DEMO_CASES = (
    ("canton", "noi", "hearing-open", date(2026, 3, 30)),
    ("canton", "noi", "decision", date(2026, 11, 24)),
    ("canton", "noi", "newspaper-notice", date(2026, 12, 15)),
    ("saugus", "noi", "newspaper-notice", date(2026, 12, 15)),
    ("wpa", "noi", "appeal-period", date(2026, 11, 20)),
    ("mansfield", "land-disturbance", "hearing-open", date(2026, 10, 30)),
    ("canton", "street-opening", "work-notice", datetime(2026, 11, 25, 10, 0)),
    ("canton", "street-opening", "permanent-patch-window-closes", date(2025, 5, 31)),
    ("canton", "street-opening", "winter-patch", date(2026, 6, 1)),
)


def run_demo(out) -> int:
    print("Massachusetts permit clocks, counted on each town's business-day calendar\n", file=out)
    for town_id, kind, clock_id, start in DEMO_CASES:
        profile = town(town_id)
        clock = profile.rules(kind).clock(clock_id)
        r = clock.measure.reckon(profile.calendar, start)
        when = r.at.isoformat(timespec="minutes") if r.at else r.date.isoformat()
        print(f"{profile.name:<42} {kind:<16} {clock_id:<30} {when}", file=out)
        print(f"    {r.describe(ANCHORS[clock.start])}", file=out)
        print(f"    rule: {clock.citation}\n", file=out)
    return 0
