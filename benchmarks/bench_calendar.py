"""Benchmark: BusinessCalendar against numpy.busday_offset.

One run on 100,000 random dates (seeded) from 2001-2098:

* ``add_business_days(d, 21)`` against ``numpy.busday_offset(d, 21, roll=...)``
* ``roll_forward(d)``          against ``numpy.busday_offset(d, 0, roll="forward")``

numpy gets the same closed days: every Massachusetts legal holiday of
2000-2100 as a ``datetime64[D]`` array, weekmask Monday-Friday, held in one
``numpy.busdaycalendar`` (its fastest form; passing ``holidays=`` on every
call is also timed, for reference).  numpy is timed twice: called once per
date in a Python loop (the per-call cost a clock pays) and once on the whole
array (vectorized).

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

from calendars import FIRST_YEAR, LAST_YEAR, BusinessCalendar, legal_holidays  # noqa: E402

SEED = 20261130
N = 100_000
COUNT = 21
REPEATS = 5
FIRST, LAST = date(2001, 1, 1), date(2098, 12, 31)


def sample_dates() -> list[date]:
    rng = random.Random(SEED)
    lo, hi = FIRST.toordinal(), LAST.toordinal()
    return [date.fromordinal(rng.randint(lo, hi)) for _ in range(N)]


def best_of(fn, repeats=REPEATS) -> float:
    """Seconds for the fastest of ``repeats`` runs of ``fn()``."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


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
    print(f"  numpy {np.__version__}, Python {sys.version.split()[0]}, best of {REPEATS} runs")
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

    # -- timing ----------------------------------------------------------------
    add = cal.add_business_days
    roll = cal.roll_forward
    offset = np.busday_offset

    timings = {
        "add": {
            "ours": best_of(lambda: [add(d, COUNT) for d in days]),
            "numpy per call": best_of(lambda: [offset(d, COUNT, roll="forward", busdaycal=npcal) for d in d64_scalars]),
            "numpy per call, holidays= *": best_of(
                lambda: [offset(d, COUNT, roll="forward", weekmask="1111100", holidays=holidays) for d in d64_scalars[:10_000]],
                repeats=2,
            )
            * (N / 10_000),
            "numpy vectorized": best_of(lambda: offset(d64, COUNT, roll="forward", busdaycal=npcal)),
        },
        "roll": {
            "ours": best_of(lambda: [roll(d) for d in days]),
            "numpy per call": best_of(lambda: [offset(d, 0, roll="forward", busdaycal=npcal) for d in d64_scalars]),
            "numpy vectorized": best_of(lambda: offset(d64, 0, roll="forward", busdaycal=npcal)),
        },
    }

    titles = {"add": f"add_business_days(d, {COUNT})", "roll": "roll_forward(d)"}
    goal_met = True
    for key, t in timings.items():
        us = {k: v / N * 1e6 for k, v in t.items()}
        print(f"\n  {titles[key]}")
        for k, v in us.items():
            print(f"    {k:<28} {v:8.3f} us/date   ({t[k] * 1e3:8.1f} ms for {N:,})")
        print(f"    ratio ours / numpy per call   {us['ours'] / us['numpy per call']:8.3f}")
        print(f"    ratio ours / numpy vectorized {us['ours'] / us['numpy vectorized']:8.1f}")
        goal_met &= us["ours"] <= us["numpy per call"]
    print(
        "\n  * timed on the first 10,000 dates and scaled to 100,000: numpy re-reads the"
        "\n    holiday list on every call when it is passed as holidays= instead of busdaycal="
    )
    print(f"\n  goal (our per-call cost <= numpy's per-call cost): {'met' if goal_met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
