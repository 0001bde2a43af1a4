"""A replayed clock's explanation: how its day was reached (the calendar's
account of the count), what met it, and why its status is what it is.
Built only when read (the sweep and the docket never read it).  Pure: no I/O.
"""

from __future__ import annotations

from datetime import date

from .certificates import closed_text, partial_text
from .record import WINTER_PATCH_LENGTH_FT
from .rulebook import ANCHORS, Clock, PermitRules
from .violations import premature_text

__all__ = ["OYSTER_CREEK"]

OYSTER_CREEK = (
    "a decision issued after its deadline is without effect and the state's superseding order "
    "controls (Oyster Creek v. Harwich, 449 Mass. 859 (2007))"
)


def explain_clock(
    clock: Clock,
    rules: PermitRules,
    question,
    renewed,
    ext,
    met,
    status: str,
    day: date,
    as_of: date,
    at=None,
    dated_start=None,
    acts: str = "",
    missed_on=None,
    closed_by=None,
    partials=(),
) -> str:
    """How the clock's day was reached and what met it, built only when read.
    ``question`` is (calendar, date rule, start, count) as the replay asked
    it (the calendar's account of it is made now); ``renewed`` is (renewals, the day they reach) or None; ``dated_start`` the
    start event of an hour clock recorded by its date alone; ``acts`` what
    the Permit Extension Acts did to an expiry; ``missed_on`` the day the
    hearing opened without this notice; ``closed_by`` the complete
    Certificate that closed the clock; ``partials`` the partial
    Certificates on record (named on the permit's expiry)."""
    calendar, measure, start, count = question  # what was asked of the calendar: its account now
    r = calendar.reckon(measure, start, count)
    text = r.describe(ANCHORS[clock.start])
    if dated_start is not None:
        text += f"; {dated_start.type} recorded without a time: counted from the end of {dated_start.date}"
    if r.rolled and r.roll == "forward" and rules.kind == "street-opening":
        text += (
            " (the first business day: street opening work and its inspections are in Normal Working Hours, Canton 16-12 §10.3)"
        )
    elif r.rolled and r.roll == "forward":
        text += " (a wetlands period: moved under 310 CMR 10.05(1))"
    if renewed is not None:
        count, to = renewed
        text += f"; renewed {count} time(s), {rules.renewal.summary()} each, to {to} ({rules.renewal_citation})"
    text += acts
    if ext is not None:
        text += f"; extended in writing on {ext.date} to {day} (event {ext.position})"
    if met is not None:
        text += f"; {met.type} on {met.date} (event {met.position})"
        if met.get("voted") is not None and met.get("voted") != met.date:
            text += f", voted {met.get('voted')}: judged on the day it issued, not the vote"
        if status == "late" and met.date == day:
            text += f", at {met.at.isoformat(timespec='minutes')}, after the deadline"
        elif status == "late":
            text += f", {(met.date - day).days} days after the deadline"
            if clock.id == "decision" and rules.kind in ("noi", "rda"):
                text += f": {OYSTER_CREEK}"
        if status == "premature":
            text += premature_text(clock, met, day, at)
    elif clock.type == "deadline" and not clock.met_by and as_of > day:
        text += "; the period has run"
    if status == "unknown":
        text += (
            f"; the filing gives no length (length_ft on the filed event): whether the work is over "
            f"{WINTER_PATCH_LENGTH_FT} ft, and so needs a Winter Preparation Patch, is unknown ({clock.citation})"
        )
    if missed_on is not None:
        text += f"; the hearing opened on {missed_on} with this not on record: no longer a task ({clock.citation})"
    if closed_by is not None:
        text += closed_text(closed_by, rules.kind)
    elif partials and clock.type == "expiry":
        text += partial_text(partials, rules.kind)
    return text
