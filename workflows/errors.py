"""The project's errors, in one hierarchy.

    PermitsError                       (calendars.errors)
     ├── CalendarError                 a date question the calendar cannot answer
     │    └── UnservableYear
     ├── RuleBookError                 a town declaration is malformed (at import)
     ├── UnknownChoice                 an unknown town, kind, clock... with the valid ones
     ├── BadFilingId                   an id outside the rule (workflows.ids)
     ├── UnsafePath                    a file name from an id that would leave its folder
     └── FilingError                   a history that cannot have happened
          ├── MalformedEvent           missing/invalid field, unknown type
          │    └── BadInput            not UTF-8 JSON, NaN, too deep, NUL... (workflows.inputs)
          └── TransitionRefused        the filing's state does not allow the event

Every error carries structured fields and names the rule or field at fault.
The CLI turns any of them into one line on standard error and exit status 2.
"""

from __future__ import annotations

from calendars.errors import CalendarError, PermitsError, UnservableYear

__all__ = [
    "PermitsError",
    "CalendarError",
    "UnservableYear",
    "RuleBookError",
    "UnknownChoice",
    "FilingError",
    "MalformedEvent",
    "TransitionRefused",
]


class RuleBookError(PermitsError):
    """A town's declaration is malformed; raised when the rule book loads."""

    def __init__(self, town: str, clock: str | None, problem: str):
        self.town, self.clock, self.problem = town, clock, problem
        where = f"town {town!r}" + (f", clock {clock!r}" if clock else "")
        super().__init__(f"rule book: {where}: {problem}")


class UnknownChoice(PermitsError):
    def __init__(self, what: str, value: str, choices):
        self.what, self.value, self.choices = what, value, sorted(choices)
        super().__init__(f"unknown {what} {value!r}; choose one of: {', '.join(self.choices)}")


class FilingError(PermitsError):
    """A filing's history that the engine refuses.

    ``position`` is the 1-based index of the event in the history."""

    def __init__(
        self,
        message: str,
        *,
        filing: str | None = None,
        position: int | None = None,
        event: str | None = None,
        rule: str | None = None,
        state: str | None = None,
    ):
        self.filing, self.position, self.event, self.rule, self.state = filing, position, event, rule, state
        where = []
        if filing:
            where.append(filing)
        if position is not None:
            where.append(f"event {position}" + (f" ({event})" if event else ""))
        prefix = ": ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class MalformedEvent(FilingError):
    pass


class TransitionRefused(FilingError):
    pass
