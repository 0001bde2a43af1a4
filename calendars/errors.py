"""Errors raised by the calendar core.

    PermitsError                      (workflows.errors re-exports this root)
     └── CalendarError
          └── UnservableYear          a year outside the calendar's range

Each carries structured fields and a message that names the rule involved.
"""

from __future__ import annotations

__all__ = ["PermitsError", "CalendarError", "UnservableYear"]


class PermitsError(Exception):
    """Root of every error this project raises on purpose."""


class CalendarError(PermitsError):
    """A date question the calendar cannot answer."""


class UnservableYear(CalendarError):
    def __init__(self, year: int, first: int, last: int):
        self.year, self.first, self.last = year, first, last
        super().__init__(
            f"year {year} is outside the Massachusetts calendar's range "
            f"{first}-{last} (M.G.L. c.4 §7 cl.18 as the holidays package gives it)"
        )
