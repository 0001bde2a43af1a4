"""Benchmark: BusinessCalendar against numpy.busday_offset.

Agreement checked on 100,000 random dates (seeded) from 2001-2098:

* ``add_business_days(d, 21)`` against ``numpy.busday_offset(d, 21, roll=...)``
* ``roll_forward(d)``          against ``numpy.busday_offset(d, 0, roll="forward")``

Goal: our per-call cost at most numpy's per-call cost (paired rounds,
benchmarks/paired.py).  numpy gets the same closed days: every Massachusetts legal holiday of
2000-2100 as a ``datetime64[D]`` array, weekmask Monday-Friday, held in one
``numpy.busdaycalendar`` (its fastest form; ``holidays=`` on every call is
checked to agree).  numpy is timed called once per date in a Python loop
(the per-call cost a clock pays), paired with ours; its vectorized cost on
the whole array is printed for reference.

Day 0.  Ours: day 0 is the start, business day or not; day 1 is the first
business day strictly after it (310 CMR 10.05(1)).  numpy first rolls a
closed start and then counts from the rolled day.  So:

* on a business-day start, ours == numpy with ``roll="forward"``;
* on a closed start, numpy ``roll="forward"`` is one business day later than
  ours (it makes the first open day day 0, not day 1); ours equals numpy
  with ``roll="backward"`` (the last open day before a closed start is
  followed by the same day 1).

The agreement is checked on every sampled date before anything is timed;
any disagreement stops the run with status 1.

Run: ``.venv/bin/python benchmarks/bench_calendar.py`` (or ``make bench``).
"""

from __future__ import annotations

import random
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paired import paired  # noqa: E402

from calendars import FIRST_YEAR, LAST_YEAR, BusinessCalendar, legal_holidays  # noqa: E402

SEED = 20261130
N = 100_000
COUNT = 21
ROUNDS = 9
TIMED = 20_000
FIRST, LAST = date(2001, 1, 1), date(2098, 12, 31)


def sample_dates() -> list[date]:
    rng = random.Random(SEED)
    lo, hi = FIRST.toordinal(), LAST.toordinal()
    return [date.fromordinal(rng.randint(lo, hi)) for _ in range(N)]


def main() -> int:
    cal = BusinessCalendar("massachusetts")
    holidays = np.array(
        sorted(d for y in range(FIRST_YEAR, LAST_YEAR + 1) for d in legal_holidays(y)),
        dtype="datetime64[D]",
    )
    npcal = np.busdaycalendar(weekmask="1111100", holidays=holidays)

    days = sample_dates()
    d64 = np.array(days, dtype="datetime64[D]")
    d64_scalars = list(d64)  # numpy's native scalars for its per-call loop

    # -- agreement, on every sampled date (this also warms our calendar) ------
    ours_add = [cal.add_business_days(d, COUNT) for d in days]
    ours_roll = [cal.roll_forward(d) for d in days]
    np_fwd = np.busday_offset(d64, COUNT, roll="forward", busdaycal=npcal).astype(object)
    np_bwd = np.busday_offset(d64, COUNT, roll="backward", busdaycal=npcal).astype(object)
    np_roll = np.busday_offset(d64, 0, roll="forward", busdaycal=npcal).astype(object)
    np_fwd_holidays = np.busday_offset(d64, COUNT, roll="forward", weekmask="1111100", holidays=holidays).astype(object)

    open_start = [cal.is_business_day(d) for d in days]
    n_open = sum(open_start)
    problems = []
    if list(np_fwd) != list(np_fwd_holidays):
        problems.append("busdaycalendar and holidays= disagree")
    bad = [d for d, o, a, f in zip(days, open_start, ours_add, np_fwd) if o and a != f]
    if bad:
        problems.append(f"add_business_days({COUNT}) != numpy roll=forward on {len(bad)} business-day starts, e.g. {bad[0]}")
    bad = [d for d, a, b in zip(days, ours_add, np_bwd) if a != b]
    if bad:
        problems.append(f"add_business_days({COUNT}) != numpy roll=backward on {len(bad)} starts, e.g. {bad[0]}")
    closed_one_later = sum(1 for d, o, f in zip(days, open_start, np_fwd) if not o and f == cal.add_business_days(d, COUNT + 1))
    if closed_one_later != N - n_open:
        problems.append(
            f"on closed starts numpy roll=forward is one business day later on only {closed_one_later} of {N - n_open}"
        )
    bad = [d for d, a, b in zip(days, ours_roll, np_roll) if a != b]
    if bad:
        problems.append(f"roll_forward != numpy offset 0 roll=forward on {len(bad)} dates, e.g. {bad[0]}")

    print(
        f"bench_calendar: {N:,} random dates {FIRST}..{LAST} (seed {SEED}), "
        f"{len(holidays)} holidays {FIRST_YEAR}-{LAST_YEAR}, weekmask Mon-Fri"
    )
    print(f"  numpy {np.__version__}, Python {sys.version.split()[0]}, {ROUNDS} paired rounds")
    print(f"  agreement: {n_open:,} business-day starts: add_business_days({COUNT}) == numpy roll='forward'")
    print(
        f"             {N - n_open:,} closed starts: == numpy roll='backward'; numpy roll='forward' "
        f"is 1 business day later on {closed_one_later:,} (day 0 differs, see docstring)"
    )
    print(f"             roll_forward == numpy busday_offset(d, 0, roll='forward') on all {N:,}")
    if problems:
        for p in problems:
            print("  DISAGREEMENT:", p)
        return 1

    # -- timing: paired rounds (benchmarks/paired.py), our per-call cost against numpy's per call ---
    add = cal.add_business_days
    roll = cal.roll_forward
    offset = np.busday_offset
    few, few64 = days[:TIMED], d64_scalars[:TIMED]
    print(f"\n  timed on the first {TIMED:,} dates per round; numpy vectorized, for reference:")
    t0 = time.process_time()
    offset(d64, COUNT, roll="forward", busdaycal=npcal)
    print(f"    numpy vectorized add on all {N:,}: {(time.process_time() - t0) / N * 1e6:.3f} us/date")
    for name, ours, theirs in (
        (
            f"add_business_days(d, {COUNT}) / numpy busday_offset per call",
            lambda: [add(d, COUNT) for d in few],
            lambda: [offset(d, COUNT, roll="forward", busdaycal=npcal) for d in few64],
        ),
        (
            "roll_forward(d) / numpy busday_offset(d, 0) per call",
            lambda: [roll(d) for d in few],
            lambda: [offset(d, 0, roll="forward", busdaycal=npcal) for d in few64],
        ),
    ):
        paired(name, 1.0, ours, theirs, rounds=ROUNDS).report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
