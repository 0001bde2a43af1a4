"""Benchmark: the rest of a permit's life (issue 20), paired
(benchmarks/paired.py).  Two measurements, each against json.loads of the
same text in the same rounds:

- replay of Orders of Conditions carried to their Certificate of
  Compliance (recording, the appeal period, work started, the request, the
  Certificate and its recording), in every town with an NOI, Manchester-by-
  the-Sea included, some with an emergency certification first;
- replay of enforcement cases (a violation, its notice, an Enforcement
  Order, tickets numbered and priced by the town's schedule, and in
  Mansfield the town's costs, protest and lien).

    .venv/bin/python benchmarks/bench_permit_life.py [--n 10000] [--rounds 7]

Goal: at most 15x json.loads, the goal of the filing replay
(bench_replay.py), both sides in steady state.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from datetime import date, timedelta

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from paired import paired  # noqa: E402

from workflows.enforcement import parse_case  # noqa: E402
from workflows.enforcement_replay import replay_case  # noqa: E402
from workflows.filing import parse_filing  # noqa: E402
from workflows.replay import replay  # noqa: E402
from workflows.towns import town  # noqa: E402

TOWNS = ["canton", "saugus", "mansfield", "manchester-by-the-sea", "wpa"]
SAUGUS_FINES = [25, 50, 100, 200]  # Saugus 508 §11: first, second, third, fourth and later within the year


def _d(day: date) -> str:
    return day.isoformat()


def _order_to_certificate(rng: random.Random, where: str, d0: date) -> list[dict]:
    ev = []
    if rng.random() < 0.1:
        ev.append(
            {"type": "emergency-certified", "date": _d(d0 - timedelta(days=20)), "days": 15, "work": "shore up the culvert"}
        )
    hearing = d0 + timedelta(days=rng.randint(10, 20))
    issued = hearing + timedelta(days=rng.randint(5, 20))
    recorded = issued + timedelta(days=rng.randint(16, 30))
    ev += [
        {"type": "filed", "date": _d(d0)},
        {"type": "hearing-opened", "date": _d(hearing)},
        {"type": "hearing-closed", "date": _d(hearing)},
        {"type": "permit-issued", "date": _d(issued)},
        {"type": "permit-recorded", "date": _d(recorded)},
    ]
    if where == "saugus":  # Saugus 508 §7.9: the recording certified in writing before work
        ev.append({"type": "recording-certified", "date": _d(recorded + timedelta(days=1))})
    started = recorded + timedelta(days=rng.randint(2, 10))
    asked = started + timedelta(days=rng.randint(120, 500))
    decided = asked + timedelta(days=rng.randint(3, 18))
    ev += [
        {"type": "work-started", "date": _d(started)},
        {"type": "work-observed", "date": _d(started + timedelta(days=30)), "what": "grading"},
        {"type": "certificate-requested", "date": _d(asked), "requested_by": "the owner", "scope": "complete"},
    ]
    if rng.random() < 0.2:
        ev.append({"type": "certificate-denied", "date": _d(decided), "reasons": ["The plantings have not survived."]})
        asked = decided + timedelta(days=60)
        decided = asked + timedelta(days=10)
        ev.append({"type": "certificate-requested", "date": _d(asked), "requested_by": "the owner", "scope": "complete"})
    ev.append({"type": "certificate-issued", "date": _d(decided), "scope": "complete", "continuing": ["Keep the swale clear."]})
    if rng.random() < 0.7:
        ev.append({"type": "certificate-recorded", "date": _d(decided + timedelta(days=rng.randint(3, 20)))})
    return ev


def generate_filings(n: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        where = TOWNS[i % len(TOWNS)]
        d0 = date(2024, 1, 2) + timedelta(days=rng.randint(0, 2 * 365))
        events = _order_to_certificate(rng, where, d0)
        out.append(json.dumps({"town": where, "kind": "noi", "id": f"{where[:3].upper()}-NOI-{i:06d}", "events": events}))
    return out


def _saugus_case(rng: random.Random, d0: date) -> tuple[str, list[dict]]:
    ev = [
        {"type": "violation-observed", "date": _d(d0), "provision": "508.08 §2", "description": "fill in the buffer zone"},
        {"type": "violation-noticed", "date": _d(d0 + timedelta(days=1)), "delivered": "in-hand"},
        {
            "type": "order-issued",
            "date": _d(d0 + timedelta(days=2)),
            "comply_by": _d(d0 + timedelta(days=32)),
            "requires": ["Remove the fill."],
        },
    ]
    tickets = rng.randint(1, 6)
    day = d0 + timedelta(days=10)
    for k in range(tickets):
        offense_day = d0 + timedelta(days=3 + k)
        fine = SAUGUS_FINES[min(k, 3)]
        ev.append(
            {
                "type": "ticket-issued",
                "date": _d(day),
                "provision": "508.08 §2",
                "offense_day": _d(offense_day),
                "offense": k + 1,
                "fine": fine,
            }
        )
    ev.append({"type": "ticket-paid", "date": _d(day + timedelta(days=5)), "ticket": 4})  # the first ticket: event 4
    if rng.random() < 0.5:
        ev.append({"type": "complied", "date": _d(d0 + timedelta(days=30))})
    return "wetlands", ev


def _mansfield_case(rng: random.Random, d0: date) -> tuple[str, list[dict]]:
    abated = d0 + timedelta(days=rng.randint(20, 40))
    noticed = abated + timedelta(days=rng.randint(5, 25))
    ev = [
        {
            "type": "violation-observed",
            "date": _d(d0),
            "provision": "§14.B.1 (erosion control)",
            "description": "silt fence down",
        },
        {
            "type": "order-issued",
            "date": _d(d0 + timedelta(days=1)),
            "comply_by": _d(d0 + timedelta(days=15)),
            "requires": ["Repair the silt fence."],
        },
        {
            "type": "ticket-issued",
            "date": _d(d0 + timedelta(days=3)),
            "provision": "§14.B.1",
            "offense_day": _d(d0 + timedelta(days=2)),
            "offense": 1,
            "fine": 300,
        },
        {"type": "town-abated", "date": _d(abated)},
        {
            "type": "costs-noticed",
            "date": _d(noticed),
            "amount": rng.randint(1000, 9000),
            "received": _d(noticed + timedelta(days=3)),
        },
    ]
    if rng.random() < 0.4:
        ev.append({"type": "costs-protested", "date": _d(noticed + timedelta(days=10))})
        ev.append({"type": "costs-decided", "date": _d(noticed + timedelta(days=30)), "amount": 900})
    return "stormwater", ev


def generate_cases(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        d0 = date(2024, 1, 2) + timedelta(days=rng.randint(0, 2 * 365))
        where = "saugus" if i % 2 == 0 else "mansfield"
        bylaw, events = (_saugus_case if where == "saugus" else _mansfield_case)(rng, d0)
        obj = {
            "town": where,
            "id": f"{where[:3].upper()}-ENF-{i:06d}",
            "bylaw": bylaw,
            "violator": {"name": "Lynn Fells LLC"},
            "events": events,
        }
        out.append(json.dumps(obj))
    return out


def _bench(label: str, one: str, texts: list[str], run, calendars, as_of: date, rounds: int) -> None:
    objs = [json.loads(t) for t in texts]
    for obj in objs[:20]:  # one-time setup: holidays and each town's calendar
        run(obj, as_of)
    n = len(texts)
    events = sum(len(o["events"]) for o in objs)
    clocks = sum(len(run(o, as_of).clocks) for o in objs)
    print(f"{label}: {n}  events: {events} ({events / n:.1f} each)  clocks: {clocks}")

    def measured():
        for cal in calendars:  # each round starts with no remembered reckonings
            cal.forget_reckonings()
        for obj in objs:
            run(obj, as_of)

    def baseline():
        for text in texts:
            json.loads(text)

    result = paired(f"{label} replay / json.loads of the same text", 15, measured, baseline, rounds=rounds)
    print(
        f"  per {one}: replay {statistics.median(result.measured_s) / n * 1e6:.1f} us,"
        f" json.loads {statistics.median(result.baseline_s) / n * 1e6:.1f} us"
    )
    result.report()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000, help="filings (and cases) per side per round (default 10,000)")
    ap.add_argument("--rounds", type=int, default=7)
    args, _ = ap.parse_known_args()  # run_all.py passes the same arguments to every benchmark
    as_of = date(2027, 6, 1)
    calendars = {town(t).calendar for t in TOWNS}
    _bench(
        "Orders to their Certificates",
        "Order",
        generate_filings(args.n),
        lambda o, d: replay(parse_filing(o), d),
        calendars,
        as_of,
        args.rounds,
    )
    _bench(
        "enforcement cases",
        "case",
        generate_cases(args.n),
        lambda o, d: replay_case(parse_case(o), d),
        calendars,
        as_of,
        args.rounds,
    )


if __name__ == "__main__":
    main()
