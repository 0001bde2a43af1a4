"""Realistic generated filings, for the demonstration store, tests and every
benchmark.  Pure and seeded: no clock, no disk, no global random state.

``generate(n, as_of, seed)`` yields ``n`` filings in the JSON form of
docs/reference/filing-format.md for Canton, Saugus, Mansfield and the state defaults
(``wpa``), across the four permit kinds.  Each history is a plausible run of
its permit, cut off at ``as_of``: some filings were made yesterday, some are
years old; some are at every stage of a street opening; some hearings opened
or decisions went out late; some stalled, so their next clock is overdue on
``as_of``.

Filing ``i`` depends only on ``(seed, i, as_of)``, never on ``n``: the first
1,000 of a 100,000-filing run are the 1,000 of a small run.  Dates are kept
as day ordinals and formatted once per day, so 100,000 filings (about a
million events) take a few seconds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date

from calendars import BusinessCalendar
from demo.generated_parties import BOARDS as _BOARDS
from demo.generated_parties import parties as _parties

__all__ = ["generate", "MIX", "TOWN_CODES", "KIND_CODES"]

#: (town, kind) and its share of the generated filings.  Street openings are
#: Canton's (16-12); land disturbance is Mansfield's (Ch. 25 Part B).
MIX: tuple[tuple[str, str, float], ...] = (
    ("canton", "street-opening", 0.30),
    ("canton", "noi", 0.14),
    ("canton", "rda", 0.06),
    ("saugus", "noi", 0.12),
    ("saugus", "rda", 0.06),
    ("mansfield", "land-disturbance", 0.10),
    ("mansfield", "noi", 0.08),
    ("mansfield", "rda", 0.04),
    ("wpa", "noi", 0.06),
    ("wpa", "rda", 0.04),
)
TOWN_CODES = {"canton": "CAN", "saugus": "SAU", "mansfield": "MAN", "wpa": "WPA"}
KIND_CODES = {"noi": "NOI", "rda": "RDA", "land-disturbance": "LDP", "street-opening": "SOP"}

_CUMULATIVE = []
_total = 0.0
for _town, _kind, _share in MIX:
    _total += _share
    _CUMULATIVE.append((_total, _town, _kind))

_ISO: dict[int, str] = {}


def _iso(ordinal: int) -> str:
    s = _ISO.get(ordinal)
    if s is None:
        s = _ISO[ordinal] = date.fromordinal(ordinal).isoformat()
    return s


_CALENDAR = BusinessCalendar("massachusetts")

#: What the town does (hearings, inspections, decisions, postings, answers):
#: only on business days, never on a weekend or a legal holiday.
TOWN_ACTS = frozenset(
    {
        "boards-notified",
        "hearing-scheduled",
        "notice-posted",
        "hearing-opened",
        "hearing-continued",
        "hearing-closed",
        "permit-issued",
        "permit-denied",
        "determination-issued",
        "permit-renewed",
        "inspected",
        "settlement-answered",
        "certification-answered",
        "suspended",
        "revocation-hearing-scheduled",
        "permit-revoked",
        "deposit-refunded",
        "after-hours-billed",
    }
)


def _weekday_on_or_after(ordinal: int) -> int:
    """The ordinal itself if it is a business day, else the next business
    day (weekends and Massachusetts legal holidays passed over)."""
    return _CALENDAR.roll_forward(date.fromordinal(ordinal)).toordinal()


class _History:
    """Events in the order they happened, cut off at ``as_of``."""

    __slots__ = ("events", "as_of", "last", "cut")

    def __init__(self, as_of: int):
        self.events: list[dict] = []
        self.as_of = as_of
        self.last = 0
        self.cut = False

    def add(self, ordinal: int, etype: str, **fields) -> bool:
        """Record the event unless it lies after ``as_of`` (then the history
        stops here).  Dates never go backward."""
        if self.cut:
            return False
        ordinal = max(ordinal, self.last)
        if etype in TOWN_ACTS:
            ordinal = _weekday_on_or_after(ordinal)
        if ordinal > self.as_of:
            self.cut = True
            return False
        self.last = ordinal
        self.events.append({"type": etype, "date": _iso(ordinal), **fields})
        return True

    def add_at(self, ordinal: int, hour: int, etype: str, **fields) -> bool:
        if self.cut:
            return False
        ordinal = max(ordinal, self.last)
        if ordinal > self.as_of:
            self.cut = True
            return False
        self.last = ordinal
        self.events.append({"type": etype, "at": f"{_iso(ordinal)}T{hour:02d}:00", **fields})
        return True

    def stop(self) -> None:
        self.cut = True


def _late(rng: random.Random, p: float = 0.08) -> bool:
    return rng.random() < p


def _hearing(
    h: _History,
    rng,
    d0: int,
    sched_gap: int,
    earliest_hearing: int,
    latest_hearing: int,
    late_hearing: int,
    notice_days: tuple[int, int],
) -> int | None:
    """Schedule, notice, open, perhaps continue, and close a hearing.
    Returns the day it closed, or None when the history stops first."""
    hearing = d0 + (rng.randint(late_hearing, late_hearing + 12) if _late(rng) else rng.randint(earliest_hearing, latest_hearing))
    hearing = _weekday_on_or_after(hearing)
    if not h.add(d0 + sched_gap, "hearing-scheduled", hearing=_iso(hearing), at=f"{_iso(hearing)}T19:00"):
        return None
    lo, hi = notice_days
    if _late(rng, 0.05):  # the newspaper ran the notice too late
        h.add(hearing - 1, "notice-published")
    else:
        h.add(max(h.last, hearing - rng.randint(lo, hi)), "notice-published")
    # Open Meeting Law: 48 business hours before; a few postings go up late.
    h.add(hearing - 1 if _late(rng, 0.04) else max(h.last, hearing - rng.randint(5, 8)), "notice-posted")
    if _late(rng, 0.04):
        h.stop()  # the hearing was never opened: overdue
        return None
    if not h.add(hearing, "hearing-opened"):
        return None
    close = hearing
    if rng.random() < 0.25:
        close = _weekday_on_or_after(hearing + rng.choice((14, 21, 28)))
        h.add(hearing, "hearing-continued", to=_iso(close))
    if _late(rng, 0.04):
        h.stop()
        return None
    return close if h.add(close, "hearing-closed") else None


def _wetlands(h: _History, rng, town: str, kind: str, d0: int) -> None:
    h.add(d0, "filed", complete=True)
    h.add(d0, "abutters-notified")
    if town == "canton":
        h.add(d0 + rng.randint(0, 2), "boards-notified")
    decision_days = 31 if town == "canton" else 21
    if kind == "rda" and town == "saugus":
        # Saugus §5.3: determination within 21 days of the request, no hearing.
        if _late(rng, 0.06):
            h.stop()
            return
        day = d0 + (rng.randint(24, 40) if _late(rng) else rng.randint(8, 20))
        h.add(day, "determination-issued", positive=rng.random() < 0.2)
        return
    if kind == "rda" and town != "canton":
        # 310 CMR 10.05(3): determination within 21 days of the request.
        close = _hearing(h, rng, d0, rng.randint(1, 3), 8, 14, 22, (7, 9))
        if close is None or _late(rng, 0.05):
            h.stop()
            return
        day = max(close, d0 + (rng.randint(23, 35) if _late(rng) else rng.randint(14, 20)))
        h.add(day, "determination-issued", positive=rng.random() < 0.2)
        return
    close = _hearing(h, rng, d0, rng.randint(1, 3), 10, 19, 23, (7, 10))
    if close is None or _late(rng, 0.05):
        h.stop()  # closed, no decision yet: decision overdue once the clock runs out
        return
    decided = close + (rng.randint(decision_days + 3, decision_days + 20) if _late(rng) else rng.randint(7, decision_days - 3))
    if kind == "rda":
        h.add(decided, "determination-issued", positive=rng.random() < 0.2)
        return
    if rng.random() < 0.07:
        h.add(decided, "permit-denied")
        return
    if not h.add(decided, "permit-issued"):
        return
    _after_issuance(h, rng, decided)


def _after_issuance(h: _History, rng, issued: int) -> None:
    h.add(issued + rng.randint(7, 30), "permit-recorded")
    if rng.random() < 0.7:
        notice = issued + rng.randint(20, 240)
        start = notice + (rng.randint(2, 5) if _late(rng) else rng.randint(8, 21))
        h.add(notice, "construction-noticed", start=_iso(start))
    # About 36 months: the renewal is asked in time, late, or never.
    if rng.random() < 0.5:
        h.add(issued + rng.randint(400, 1000), "completion-certified")
        return
    expiry = issued + 1095
    if rng.random() < 0.85:
        asked = expiry - (rng.randint(5, 25) if _late(rng, 0.2) else rng.randint(35, 90))
        if h.add(asked, "renewal-requested"):
            h.add(asked + rng.randint(5, 20), "permit-renewed")


def _land_disturbance(h: _History, rng, d0: int) -> None:
    h.add(d0, "filed", complete=True)
    notified = _weekday_on_or_after(d0 + rng.randint(0, 3))  # a town act: a business day
    h.add(notified, "boards-notified")
    boards = rng.sample(_BOARDS, rng.randint(0, len(_BOARDS)))
    for board in boards:
        h.add(d0 + rng.randint(10, 38), "board-reported", board=board)
    # §7.E: no hearing until every board reported or 40 days have passed;
    # §7.G: the hearing within 60 days of the complete application.
    earliest = h.last + 7 if len(boards) == len(_BOARDS) else notified + 41
    hearing = (d0 + rng.randint(62, 80)) if _late(rng) else rng.randint(earliest, max(earliest, d0 + 57))
    hearing = _weekday_on_or_after(hearing)
    if not h.add(d0 + rng.randint(5, 14), "hearing-scheduled", hearing=_iso(hearing), at=f"{_iso(hearing)}T19:00"):
        return
    out = hearing - (rng.randint(8, 12) if _late(rng, 0.05) else rng.randint(15, 21))
    h.add(out, "notice-published")
    h.add(out, "notice-posted")
    h.add(out, "abutters-notified")
    h.add(out + 2, "mail-receipts-submitted")  # Ch. 25 §7.G: before the hearing opens
    if _late(rng, 0.04) or not h.add(hearing, "hearing-opened"):
        h.stop()
        return
    close = hearing
    if rng.random() < 0.3:
        close = _weekday_on_or_after(hearing + rng.choice((14, 28)))
        h.add(hearing, "hearing-continued", to=_iso(close))
    if _late(rng, 0.04) or not h.add(close, "hearing-closed"):
        h.stop()
        return
    decided = close + (rng.randint(63, 80) if _late(rng) else rng.randint(14, 55))
    if rng.random() < 0.06:
        h.add(decided, "permit-denied")
        return
    if not h.add(decided, "permit-issued"):
        return
    notice = decided + rng.randint(10, 60)
    start = notice + (rng.randint(2, 5) if _late(rng) else rng.randint(8, 15))
    h.add(notice, "construction-noticed", start=_iso(start))
    if rng.random() < 0.5:
        h.add(start + rng.randint(120, 500), "completion-certified")


def _december_1_after(ordinal: int) -> int:
    d = date.fromordinal(ordinal)
    dec1 = date(d.year, 12, 1)
    if d >= dec1:
        dec1 = date(d.year + 1, 12, 1)
    return dec1.toordinal()


def _paid(h: _History, filed: int, applicant: str, length: int) -> None:
    """The Application Fee and the Refundable Deposit the town received
    with the application (Canton 16-12 §4), drawn apart from the history's
    own sequence (every other generated field stays as it was): most by one
    check for both (the fee first, then the deposit), some in two payments
    each toward its part, some the fee alone (the deposit charged and not
    yet received: the Town holds nothing).  A municipal department pays
    nothing (§6)."""
    if applicant == "municipal":
        return
    pay = random.Random(filed * 7919 + length)
    number, draw = f"{1000 + pay.randrange(9000)}", pay.random()
    if draw < 0.6:
        h.add(filed, "payment-received", amount=f"{50 + 25 * length}.00", method="check", reference=number)
    elif draw < 0.85:
        h.add(filed, "payment-received", amount="50.00", method="check", reference=number, toward="fee")
        h.add(
            filed,
            "payment-received",
            amount=f"{25 * length}.00",
            method="bank-transfer",
            reference=f"EFT-{number}",
            toward="deposit",
        )
    else:
        h.add(filed, "payment-received", amount="50.00", method="cash", toward="fee")


def _street_opening(h: _History, rng, d0: int) -> None:
    applicant = rng.choices(("private", "utility", "municipal"), (0.5, 0.35, 0.15))[0]
    length = rng.choice((8, 12, 16, 20, 25, 30)) if rng.random() < 0.6 else rng.randint(31, 400)
    emergency = rng.random() < 0.05
    filed = d0
    if emergency:
        # §7: the application is due the next business day after the start.
        h.add_at(d0 - 1, rng.randint(0, 23), "emergency-work-started")
        if _late(rng, 0.15) and d0 + 3 <= h.as_of:
            filed = d0 + 3
    h.add(filed, "filed", applicant=applicant, length_ft=length, emergency=emergency)
    _paid(h, filed, applicant, length)
    h.add(filed + rng.randint(1, 4), "dig-safe-obtained", ticket=f"{20000000 + rng.randint(0, 9999999)}")
    if rng.random() < 0.04:
        h.add(h.last + rng.randint(2, 10), "permit-denied")
        return
    issued = h.last + rng.randint(1, 6)
    if not h.add(issued, "permit-issued"):
        return
    if rng.random() < 0.12:  # a slow contractor asks for the second 30 days
        h.add(issued + rng.randint(20, 28), "renewal-requested")
        h.add(h.last + rng.randint(1, 3), "permit-renewed")
    noticed = max(h.last, issued + rng.randint(1, 8))
    h.add_at(noticed, rng.randint(7, 14), "work-noticed")
    dig = _weekday_on_or_after(noticed + rng.randint(6, 9))
    if not h.add(dig, "excavation-started"):
        return
    day = dig + rng.randint(0, 2)
    if rng.random() < 0.05:
        h.add(day, "inspected", stage="pre-backfill", result="fail")
        day += 1
    h.add(day, "inspected", stage="pre-backfill", result="pass")
    material = rng.choices(("gravel", "excavated", "cdf"), (0.7, 0.15, 0.15))[0]
    h.add(day, "backfilled", material=material)
    if material == "cdf":
        # §11.2: steel plate, a 24-hour cure, then the permanent patch at once.
        if h.add(day + rng.randint(2, 4), "permanent-patch-placed"):
            h.add(h.last + rng.randint(1, 10), "inspected", stage="permanent-patch", result="pass")
            if rng.random() < 0.8:
                h.add(h.last + rng.randint(10, 45), "deposit-refunded")
        return
    patched = day + rng.randint(0, 1)
    if not h.add(patched, "temporary-patch-placed"):
        return
    h.add(patched + rng.randint(1, 7), "inspected", stage="temporary-patch", result="pass")
    if rng.random() < 0.1:
        h.add(h.last + rng.randint(1, 20), "after-hours-billed", hours=rng.randint(1, 4))
        if rng.random() < 0.8:
            h.add(h.last + rng.randint(3, 14), "after-hours-paid")
    permanent = patched + (rng.randint(560, 640) if _late(rng, 0.1) else rng.randint(372, 540))
    if length > 30:
        # §11.3(c): a Winter Preparation Patch before December 1.
        dec1 = _december_1_after(dig)
        if dec1 < permanent:
            if _late(rng, 0.1):
                if h.as_of >= dec1:
                    days = rng.randint(7, 21)
                    h.add(dec1 + 1, "suspended", days=days)
                    if rng.random() < 0.3:
                        hearing = dec1 + rng.randint(12, 20)
                        h.add(dec1 + 3, "revocation-hearing-scheduled", hearing=_iso(hearing))
                        h.add(hearing, "permit-revoked")
                        return
                    h.add(dec1 + rng.randint(2, days), "winter-patch-placed")
                else:
                    h.stop()  # not yet placed: due before December 1
                    return
            else:
                h.add(dec1 - rng.randint(3, 25), "winter-patch-placed")
    if rng.random() < 0.35:
        settle = patched + rng.randint(366, 420)
        h.add(settle, "inspected", stage="settlement", result="pass")
        h.add(settle + (rng.randint(9, 14) if _late(rng) else rng.randint(1, 6)), "settlement-answered")
    elif rng.random() < 0.1:
        asked = patched + rng.randint(366, 400)
        h.add(asked, "certification-requested")
        h.add(asked + rng.randint(5, 28), "certification-answered", granted=False)
    if not h.add(permanent, "permanent-patch-placed"):
        return
    h.add(permanent + rng.randint(1, 10), "inspected", stage="permanent-patch", result="pass")
    if rng.random() < 0.8:
        h.add(h.last + rng.randint(10, 45), "deposit-refunded")


#: How far back a filing of each kind may have started, in days: about the
#: life of the permit, so that every stage is represented on ``as_of``.
_SPAN = {"noi": 1150, "rda": 120, "land-disturbance": 700, "street-opening": 760}


def _one(i: int, seed: int, as_of: int) -> dict:
    rng = random.Random(seed * 1_000_003 + i)
    x = rng.random() * _total
    for cum, town, kind in _CUMULATIVE:  # noqa: B007 - the town and kind the draw lands on
        if x < cum:
            break
    # Half the filings are recent (the last tenth of the span), half spread.
    span = _SPAN[kind]
    back = rng.randint(0, span // 10) if rng.random() < 0.5 else rng.randint(0, span)
    d0 = _weekday_on_or_after(as_of - back)
    if d0 > as_of:
        d0 -= 3
    h = _History(as_of)
    if kind == "street-opening":
        _street_opening(h, rng, d0)
    elif kind == "land-disturbance":
        _land_disturbance(h, rng, d0)
    else:
        _wetlands(h, rng, town, kind, d0)
    year = date.fromordinal(d0).year
    filing = {"town": town, "kind": kind, "id": f"{TOWN_CODES[town]}-{KIND_CODES[kind]}-{year}-{i + 1:06d}"}
    if kind in ("noi", "rda") and town in ("canton", "saugus") and rng.random() < 0.25:
        filing["also"] = ["wpa"]
    filing.update(_parties(rng, town, kind))
    filing["events"] = h.events
    return filing


def generate(n: int, as_of: date, seed: int = 0) -> Iterator[dict]:
    """Yield ``n`` filings (filing JSON (docs/reference/filing-format.md) objects) as they stand on
    ``as_of``.  Deterministic in ``(seed, as_of)``; filing ``i`` does not
    depend on ``n``.  Every filing has at least its ``filed`` event."""
    if n < 0:
        raise ValueError("n must be >= 0")
    day = as_of.toordinal()
    for i in range(n):
        yield _one(i, seed, day)
