"""A street opening's inspections (Canton 16-12 §10.2): which stages fit
the permit now, read from its machine, and the clocks the DPW's schedule
of inspections lists.  Pure: no I/O.

§10.2: "Inspections may take place at the following events: a. prior to
backfilling the trench b. following completion of Temporary Patch
placement c. during the Permanent Patch Window d. following completion of
Permanent Patch placement."  An inspection that fails names the defect and
the day of the re-inspection, which the rule book counts as the
``re-inspection`` clock (docs/reference/readings.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

__all__ = ["STAGES", "STAGE_NAMES", "INSPECTION_CLOCKS", "INSPECTION_NAMES", "fitting_stages", "inspectable_states", "dug"]

#: the ``stage`` values of an ``inspected`` event, in the order of §10.2
STAGES = ("pre-backfill", "temporary-patch", "settlement", "permanent-patch")

#: each stage in the by-law's words (§10.2 a-d)
STAGE_NAMES = {
    "pre-backfill": "trench, before backfilling",
    "temporary-patch": "temporary patch",
    "settlement": "settlement, in the permanent patch window",
    "permanent-patch": "final, after the permanent patch",
}

#: the rule book's clocks that are inspections (workflows/towns/canton.py):
#: the schedule's Inspections tab lists these; every other clock of a
#: street opening is on its Other dates tab
INSPECTION_CLOCKS = ("trench-inspection", "patch-inspection", "final-inspection", "re-inspection")

#: each inspection clock as the schedule names it
INSPECTION_NAMES = {
    "trench-inspection": "trench inspection, before backfilling",
    "patch-inspection": "temporary patch inspection",
    "final-inspection": "final inspection of the permanent patch",
    "re-inspection": "re-inspection after a failed inspection",
}


@dataclass(frozen=True)
class _Probe:
    """An ``inspected`` event as a condition or guard reads it."""

    stage: str
    result: str
    at: None = None
    date: None = None

    def get(self, name: str, default=None):
        return {"stage": self.stage, "result": self.result}.get(name, default)


def fitting_stages(state: str, *, excavated: bool = False, machine=None) -> tuple[str, ...]:
    """The stages an inspection recorded now may name, for a street opening
    in ``state`` (``excavated``: an issued permit whose work was dug
    before it, an emergency; any later state has been dug): those for which the machine has an ``inspected`` row that
    applies in ``state``, whose condition selects the stage and whose
    guards let it through.  The machine's last row (any open state, the
    guard that refuses a stage that does not fit) is never a fit."""
    if machine is None:
        from .street_opening import MACHINE as machine
    # past issuance a permit's trench has been dug (the machine's states say so)
    ctx = SimpleNamespace(excavated=excavated or state not in ("applied", "issued", "submitted"), state=state)
    fits = []
    for stage in STAGES:
        for result in ("pass", "fail"):
            if _selects(machine, state, _Probe(stage, result), ctx):
                fits.append(stage)
                break
    return tuple(fits)


def _selects(machine, state: str, event: _Probe, ctx) -> bool:
    for t in machine.transitions:
        if t.event != "inspected" or t.cond is None or state not in t.sources:
            continue
        if not machine.conds[t.cond](ctx, event):
            continue
        return not any(machine.guards[g].check(ctx, event) for g in t.guards)
    return False


def inspectable_states(machine=None) -> frozenset[str]:
    """The states of a street opening whose trench has been dug in which an
    inspection may be recorded (:func:`fitting_stages` names a stage): the
    DPW's schedule lists an inspection (whose clock says a trench was
    opened) only for a permit in one of them, so an emergency dug before
    its application was decided waits for the permit."""
    if machine is None:
        from .street_opening import MACHINE as machine
    names = (str(getattr(s, "value", s)) for s in machine.states)
    return frozenset(n for n in names if fitting_stages(n, excavated=True, machine=machine))


#: the events that open the trench (workflows/record.py sets ``excavated`` on them)
_DIGS = frozenset({"excavation-started", "emergency-work-started"})


def dug(events) -> bool:
    """Whether the trench has been opened among ``events`` (the live ones):
    an excavation started, or emergency work (Canton 16-12 §10.7), which
    digs before the permit issues."""
    return any(e.type in _DIGS for e in events)
