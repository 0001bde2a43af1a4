"""A filing heard under the by-law and the Wetlands Protection Act both
(``also: ["wpa"]``) runs two clocks for one act: the by-law's ``decision``
and the Act's ``wpa:decision``.  People read one row per act, naming the
clock that binds (the earlier deadline: :func:`workflows.replay` marks it),
the other one click away.  And a filing's next deadline is its nearest open
one.  Pure: works on clocks (a replay's) or docket rows (the store's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ActRow", "one_row_per_act", "nearest_open", "act_of"]


def act_of(clock_id: str) -> str:
    """``wpa:decision`` -> ``decision``: the act, whatever jurisdiction."""
    return clock_id.rpartition(":")[2]


@dataclass(frozen=True)
class ActRow:
    """One act's row: ``shown`` binds; ``others`` are the same act's other
    clocks (another jurisdiction's), later or equal."""

    shown: Any
    others: tuple = ()


def one_row_per_act(
    items: Sequence, *, clock: Callable[[Any], str] = lambda c: c.id, group: Callable[[Any], Any] = lambda c: None
) -> list[ActRow]:
    """``items`` (clocks, or docket rows with ``clock=`` and ``group=`` the
    filing) as one row per (group, act) of deadline clocks, in the order of
    each row's first item; the earliest date binds, the by-law's (no
    prefix) on a tie, as :func:`workflows.replay._mark_binding` decides.
    Items of one act that are not both deadlines stay apart."""
    rows: list[list] = []
    index: dict[tuple, int] = {}
    for item in items:
        cid = clock(item)
        key = (group(item), act_of(cid), getattr(item, "type", "deadline"))
        at = index.get(key) if key[2] == "deadline" else None
        if at is None:
            index[key] = len(rows)
            rows.append([item])
        else:
            rows[at].append(item)
    out = []
    for members in rows:
        ordered = sorted(members, key=lambda c: (c.date, ":" in clock(c)))
        out.append(ActRow(ordered[0], tuple(ordered[1:])))
    return out


def nearest_open(clocks: Iterable, optional: Callable[[str], bool] = lambda _id: False):
    """The nearest deadline still to act on: an overdue one first (the
    oldest), else the soonest open one; an optional deadline (a renewal the
    holder may let pass) counts only while open.  None when none is."""
    best = None
    for c in clocks:
        if c.type != "deadline" or c.status not in ("open", "overdue"):
            continue
        if c.status == "overdue" and optional(c.id):
            continue
        if best is None or (c.date, c.id) < (best.date, best.id):
            best = c
    return best
