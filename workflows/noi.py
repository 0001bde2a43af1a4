"""Notice of Intent: from filing through hearing to the permit (Order of
Conditions) and its life.  Canton Art. XV 15-5..15-7; Saugus 508.08 §5, §7;
the state's 310 CMR 10.05 (Mansfield Ch. 15 §4.1 adopts it)."""

from __future__ import annotations

from enum import Enum

from .guards import COMMON_GUARDS
from .machine import ANY, START, Machine
from .machine import Transition as T
from .wetlands import hearing_rows, incomplete, permit_rows

__all__ = ["NoiState", "MACHINE"]


class NoiState(str, Enum):
    EMERGENCY = "emergency-work"
    SUBMITTED = "submitted"
    INCOMPLETE = "incomplete"
    FILED = "filed"
    HEARING_SCHEDULED = "hearing-scheduled"
    HEARING_OPEN = "hearing-open"
    HEARING_CLOSED = "hearing-closed"
    ISSUED = "issued"
    RENEWED = "renewed"
    DENIED = "denied"
    REVOKED = "revoked"
    COMPLETED = "completed"
    WITHDRAWN = "withdrawn"


S = NoiState
MACHINE = Machine(
    kind="noi",
    states=NoiState,
    final=frozenset({S.DENIED.value, S.REVOKED.value, S.COMPLETED.value, S.WITHDRAWN.value}),
    transitions=(
        # Canton emergency projects (canton.txt lines 6-17): the work first, the application within 21 days
        T("emergency-work-started", (START,), S.EMERGENCY.value, guards=("emergency_projects_provided",)),
        T("emergency-noticed", (START,), S.EMERGENCY.value, guards=("emergency_projects_provided",)),
        T("emergency-work-started", (S.EMERGENCY.value,), None),
        T("emergency-noticed", (ANY,), None),
        T("filed", (S.EMERGENCY.value,), S.INCOMPLETE.value, cond="incomplete"),
        T("filed", (S.EMERGENCY.value,), S.FILED.value),
    )
    + hearing_rows(S)
    + permit_rows(S),
    guards=COMMON_GUARDS,
    conds={"incomplete": incomplete},
)
