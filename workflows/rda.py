"""Request for Determination of Applicability.  Canton holds a hearing and
decides within 31 days of its close (15-5); Saugus (508.08 §5.3) and the
state (c.131 §40) decide within 21 days of receipt, hearing or not.  A
positive determination means a Notice of Intent is required."""

from __future__ import annotations

from enum import Enum

from .before_work import WORK
from .guards import COMMON_GUARDS
from .machine import ANY, Machine
from .machine import Transition as T
from .superseding import SUPERSEDING_CONDS, SUPERSEDING_GUARDS, late_local_rows, superseding_rows
from .wetlands import hearing_rows, incomplete

__all__ = ["RdaState", "MACHINE"]


class RdaState(str, Enum):
    SUBMITTED = "submitted"
    INCOMPLETE = "incomplete"
    FILED = "filed"
    HEARING_SCHEDULED = "hearing-scheduled"
    HEARING_OPEN = "hearing-open"
    HEARING_CLOSED = "hearing-closed"
    NEGATIVE = "negative-determination"
    POSITIVE = "positive-determination"
    WITHDRAWN = "withdrawn"


def positive(ctx, e) -> bool:
    return bool(e.get("positive"))


S = RdaState
_before_close = (S.FILED.value, S.HEARING_SCHEDULED.value, S.HEARING_OPEN.value)
MACHINE = Machine(
    kind="rda",
    states=RdaState,
    final=frozenset({S.NEGATIVE.value, S.POSITIVE.value, S.WITHDRAWN.value}),
    transitions=hearing_rows(S)
    + (
        T("determination-issued", (S.HEARING_CLOSED.value,), S.POSITIVE.value, cond="positive"),
        T("determination-issued", (S.HEARING_CLOSED.value,), S.NEGATIVE.value),
        T(
            "determination-issued",
            _before_close,
            S.POSITIVE.value,
            cond="positive",
            guards=("decision_follows_close_where_required",),
        ),
        T("determination-issued", _before_close, S.NEGATIVE.value, guards=("decision_follows_close_where_required",)),
        # work seen on the site, judged against the Determination in force (workflows/unpermitted.py)
        *(T(ev, (ANY, S.NEGATIVE.value, S.POSITIVE.value, S.WITHDRAWN.value), None) for ev in WORK),
    )
    # a board's silence and MassDEP's superseding determination (310 CMR 10.05(7))
    + superseding_rows(
        S,
        before=(*_before_close, S.HEARING_CLOSED.value),
        decided=(S.NEGATIVE.value, S.POSITIVE.value),
        granted=S.NEGATIVE.value,
        refused=S.POSITIVE.value,
    )
    + late_local_rows(("determination-issued",), (S.NEGATIVE.value, S.POSITIVE.value)),
    guards={**COMMON_GUARDS, **SUPERSEDING_GUARDS},
    conds={"incomplete": incomplete, "positive": positive, **SUPERSEDING_CONDS},
)
