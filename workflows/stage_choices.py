"""Every stage a filing of a kind can show, each named once, for the
Filings list's and the map's filter and the command line's ``--state``
(:mod:`workflows.stage` names one filing's stage).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from .stage import INCOMPLETE, SUBMITTED, stage_name
from .vocabulary import ANY, STATE_NAMES

__all__ = ["stages", "stage_choices"]


def stages(kind: str) -> tuple[str, ...]:
    """Every stage a filing of ``kind`` can show: its machine's states
    (and those of a machine a town picks for the kind instead,
    :data:`workflows.replay.VARIANTS`), and ``incomplete`` where an
    application may be submitted online."""
    from .replay import MACHINES, VARIANTS
    from .rulebook import KINDS

    if kind not in KINDS:
        return ()
    machines = [MACHINES[kind]] + [m for m in VARIANTS.values() if m.kind == kind]
    out: list[str] = []
    for m in machines:
        for s in m.states:
            if s.value not in out:
                out.append(s.value)
    if SUBMITTED in out and INCOMPLETE not in out:
        out.insert(out.index(SUBMITTED) + 1, INCOMPLETE)
    return tuple(out)


def stage_choices(kinds: Sequence[str]) -> list[tuple[str, str]]:
    """The stages of ``kinds`` as (stage, name) for a filter, each stage
    once: named as its kind names it when one kind is in view, else by its
    common name (an NOI's "issued" is an Order of Conditions, a street
    opening's a permit: "Permit issued")."""
    seen: dict[str, str] = {}
    for kind in kinds:
        for s in stages(kind):
            seen.setdefault(s, stage_name(kind, s) if len(kinds) == 1 else STATE_NAMES.get((ANY, s)) or stage_name(kind, s))
    return list(seen.items())
