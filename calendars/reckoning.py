"""A computed date and the account of how it was reached.

Every date the engine gives is a :class:`Reckoning`: the rule that made it,
the start and what the start was, the count and its unit, the days passed
over while counting and the days rolled over at the end, each with its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

__all__ = ["Reckoning", "ClosedStep", "closed_days_text"]

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class ClosedStep:
    """A closed day the reckoning passed: ``date`` and why it was closed."""

    date: date
    reason: str

    def __str__(self) -> str:
        return f"{self.date.isoformat()} {self.reason}"

    def named(self) -> str:
        """What the day is, in words: a weekend day by its weekday ("a
        Sunday"), a holiday or closure by its name, and a holiday on a
        weekend by both ("a Sunday, New Year's Day")."""
        weekday = _WEEKDAYS[self.date.weekday()]
        if self.reason == weekday or self.reason.startswith(weekday + ","):
            return f"a {self.reason}"  # "a Saturday, town offices closed by vote under M.G.L. c.41 §110A"
        if self.date.weekday() >= 5:
            return f"a {weekday}, {self.reason}"
        return self.reason


def closed_days_text(steps) -> str:
    """The closed days a roll moved over, each named on its own date:
    ``lands on 2024-01-14, a Sunday; 2024-01-15 is Martin Luther King Jr.
    Day``.  The first step is the day the count landed on."""
    first, *rest = steps
    return "; ".join(
        [f"lands on {first.date.isoformat()}, {first.named()}"] + [f"{s.date.isoformat()} is {s.named()}" for s in rest]
    )


@dataclass(frozen=True, init=False)
class Reckoning:
    rule: str  # the named date rule, e.g. "CALENDAR_DAYS_FORWARD"
    start: date | datetime
    count: int
    unit: str  # "calendar days", "business days", "business hours", "hours", "months"
    direction: str  # "after" | "before"
    date: date  # the answer
    at: datetime | None = None  # the answer as a moment, for clocks in hours
    counted_to: date | None = None  # the date before any roll
    skipped: tuple[ClosedStep, ...] = ()  # closed days passed over while counting
    rolled: tuple[ClosedStep, ...] = ()  # closed days the roll moved off
    roll: str = "none"  # "none" | "forward" | "backward"
    notes: tuple[str, ...] = field(default=())

    def __init__(
        self,
        rule: str,
        start: date | datetime,
        count: int,
        unit: str,
        direction: str,
        date: date,
        at: datetime | None = None,
        counted_to: date | None = None,
        skipped: tuple[ClosedStep, ...] = (),
        rolled: tuple[ClosedStep, ...] = (),
        roll: str = "none",
        notes: tuple[str, ...] = (),
    ):
        # the dataclass's own __init__, without its twelve object.__setattr__
        # calls (a reckoning is made for every new question a replay asks)
        d = self.__dict__
        d["rule"], d["start"], d["count"], d["unit"], d["direction"], d["date"] = rule, start, count, unit, direction, date
        d["at"], d["counted_to"], d["skipped"], d["rolled"], d["roll"], d["notes"] = at, counted_to, skipped, rolled, roll, notes

    def describe(self, start_label: str = "") -> str:
        """One sentence: ``21 calendar days after 2026-03-30 (filed, complete);
        lands on 2026-04-20, Patriots' Day: rolled forward to 2026-04-21``,
        each closed day named on its own date (a weekend day, then a holiday
        by name: ``lands on 2024-01-14, a Sunday; 2024-01-15 is Martin Luther
        King Jr. Day``).
        Kept on the reckoning once made (a calendar hands the same frozen
        reckoning to every filing that asks its question)."""
        texts = self.__dict__.get("_texts")
        if texts is None:
            texts = self.__dict__["_texts"] = {}
        text = texts.get(start_label)
        if text is None:
            text = texts[start_label] = self._describe(start_label)
        return text

    def _describe(self, start_label: str) -> str:
        start = self.start.isoformat(timespec="minutes") if isinstance(self.start, datetime) else self.start.isoformat()
        label = f" ({start_label})" if start_label else ""
        if self.count == 0 and self.direction == "before" and self.unit == "calendar days":
            head = f"on or before {start}{label}"  # "before expiry": no days counted back
        elif self.count == 0 and self.unit == "calendar days" and not self.rolled:
            return "; ".join([f"{start}{label}", *self.notes])  # the day itself: nothing counted
        elif self.unit == "annual date":
            which = "the day" if self.rule == "DAY_BEFORE" else "last business day"
            head = f"{which} before {self.notes[0]} on or after {start}{label}"
        else:
            unit = self.unit[:-1] if self.count == 1 else self.unit
            head = f"{self.count} {unit} {self.direction} {start}{label}"
        parts = [head]
        if self.skipped:
            parts.append("not counting " + ", ".join(str(s) for s in self.skipped))
        if self.rule == "DAY_AFTER_BUSINESS_DAYS":  # the notes say where the period ends and what follows
            parts.extend(self.notes)
            return "; ".join(parts)
        if self.rolled:
            parts.append(f"{closed_days_text(self.rolled)}: rolled {self.roll} to {self.date.isoformat()}")
        elif self.at is not None:
            parts.append(f"is {self.at.isoformat(timespec='minutes')}")
        else:
            parts.append(f"is {self.date.isoformat()}")
        parts.extend(self.notes[1:] if self.unit == "annual date" else self.notes)
        return "; ".join(parts)

    def as_dict(self) -> dict:
        out = {
            "rule": self.rule,
            "start": self.start.isoformat(),
            "count": self.count,
            "unit": self.unit,
            "direction": self.direction,
            "date": self.date.isoformat(),
            "counted_to": (self.counted_to or self.date).isoformat(),
            "roll": self.roll,
            "skipped": [{"date": s.date.isoformat(), "reason": s.reason} for s in self.skipped],
            "rolled": [{"date": s.date.isoformat(), "reason": s.reason} for s in self.rolled],
        }
        if self.at is not None:
            out["at"] = self.at.isoformat(timespec="minutes")
        return out
