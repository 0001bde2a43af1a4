"""Notice of Intent: from filing through hearing to the permit (Order of
Conditions) and its life, to the Certificate of Compliance recorded at the
Registry of Deeds.  Canton Art. XV 15-5..15-7; Saugus 508.08 §5, §7; the
state's 310 CMR 10.05 (Mansfield Ch. 15 §4.1 adopts it), its Certificates
of Compliance (WPA Forms 8A, 8B) and its emergency certifications (10.06)."""

from __future__ import annotations

from enum import Enum

from .certificates import CERTIFICATE_GUARDS, certificate_rows, complete_certificate
from .guards import COMMON_GUARDS
from .machine import ANY, START, Machine
from .machine import Transition as T
from .superseding import SUPERSEDING_CONDS, SUPERSEDING_GUARDS, late_local_rows, superseding_rows
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
    CERTIFIED = "certified"
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
        # 310 CMR 10.06: an emergency certification, for the certified work and at most 30 days
        T("emergency-certified", (START,), S.EMERGENCY.value, guards=("certified_for_at_most_30_days",)),
        T("emergency-work-started", (S.EMERGENCY.value,), None),
        T("emergency-noticed", (ANY,), None),
        T("emergency-certified", (S.EMERGENCY.value,), None, guards=("certified_for_at_most_30_days",)),
        T("filed", (S.EMERGENCY.value,), S.INCOMPLETE.value, cond="incomplete"),
        T("filed", (S.EMERGENCY.value,), S.FILED.value),
    )
    + hearing_rows(S)
    + permit_rows(S)
    + certificate_rows(S)
    + (
        # an appeal of the Order holds the work back until it is decided (WPA Form 5, General Conditions)
        T("appeal-requested", (S.ISSUED.value, S.RENEWED.value), None),
        T("appeal-decided", (S.ISSUED.value, S.RENEWED.value), None, guards=("an_appeal_to_decide",)),
    )
    # a board's silence and MassDEP's superseding order (310 CMR 10.05(7); Lippman v. Hopkinton)
    + superseding_rows(
        S,
        before=(S.FILED.value, S.HEARING_SCHEDULED.value, S.HEARING_OPEN.value, S.HEARING_CLOSED.value),
        decided=(S.ISSUED.value, S.RENEWED.value, S.DENIED.value),
        granted=S.ISSUED.value,
        refused=S.DENIED.value,
    )
    + late_local_rows(("permit-issued", "permit-denied"), (S.ISSUED.value, S.RENEWED.value, S.DENIED.value)),
    guards={**COMMON_GUARDS, **CERTIFICATE_GUARDS, **SUPERSEDING_GUARDS},
    conds={"incomplete": incomplete, "complete_certificate": complete_certificate, **SUPERSEDING_CONDS},
)
