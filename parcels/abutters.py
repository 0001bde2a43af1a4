"""A town's abutter rule (:class:`workflows.abutter_rules.AbutterRule`)
applied to the parcels of a :class:`~parcels.index.ParcelIndex`.

Distances are measured from the subject parcel's boundary (its property
line) to the nearest point of the other parcel, in State Plane metres
(feet times 0.3048), across ways, water and town lines alike.  What each
part of a rule takes, in the by-laws' words (how each is read:
docs/reference/readings.md):

- *abutters* (``within_feet`` 0): parcels whose boundary comes within
  :data:`TOUCHING_FEET` of the subject's: they share a line or a corner,
  to the digitiser's tolerance;
- *within N feet*: any part within N feet of the subject's boundary;
- *directly opposite on any way*: from each stretch of the subject's
  boundary along a way (an L3 ``ROW`` or ``PRIV_ROW`` polygon), lines
  square to it, one every :data:`RAY_SPACING_M` metres, drawn across
  the way (at most :data:`WAY_REACH_FEET`); the first parcel each line
  meets beyond the way is opposite;
- *across a body of water*: the same lines across a ``WATER`` polygon
  that borders the subject, however wide;
- *abutters to abutters within N feet*: parcels abutting an abutter (or a
  water body bordering the subject), any part of them within N feet.

Only parcels with an owner on the assessing table are answered (a way or
a pond without one has no one to notify); the subject itself never is.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import shapely

from workflows.abutter_rules import AbutterRule

from .index import SAMPLE_SPACING_M, ParcelIndex
from .opposite import across_all

__all__ = ["Hit", "abutters_of", "FOOT", "TOUCHING_FEET", "WAY_REACH_FEET", "RAY_SPACING_M", "ABUTTER", "a2a_ring"]

FOOT = 0.3048
#: two parcels closer than this share a boundary (digitised lines of
#: neighbours meet to a few centimetres; a foot is generous and far less
#: than any lot)
TOUCHING_FEET = 1.0
#: the widest way a line is drawn across (a divided highway's layout)
WAY_REACH_FEET = 250.0
#: the spacing of the lines drawn square to a frontage
RAY_SPACING_M = SAMPLE_SPACING_M
ABUTTER = "abutter"


def a2a_ring(feet: int) -> str:
    """The ring of an abutter to an abutter, as the notices' lists name it."""
    return f"abutter to abutter ({feet} ft)"


class Hit(NamedTuple):
    """One parcel the rule takes: its position in the index, its ring
    (:data:`ABUTTER` or :func:`a2a_ring`), why, and how far it is (feet)."""

    position: int
    ring: str
    why: str
    feet: float


def abutters_of(index: ParcelIndex, subject: int, rule: AbutterRule, *, precomputed: bool = True) -> list[Hit]:
    """The parcels ``rule`` takes for the parcel at ``subject``, nearest
    first (abutters, then abutters to abutters).  The parcels directly
    opposite on a way and across water are read from what the index made
    for all its parcels at once (:mod:`parcels.opposite`), or with
    ``precomputed`` False drawn for this parcel alone (the same answer)."""
    geometry, owned = index.geometry, index.owned
    shape = geometry[subject]
    touching = TOUCHING_FEET * FOOT
    taken: dict[int, tuple[str, str]] = {}

    def take(positions: np.ndarray, ring: str, why: str) -> None:
        for i in positions[owned[positions]].tolist():
            if i != subject and i not in taken:
                taken[i] = (ring, why)

    near_m: np.ndarray | None = None  # the distance of each of ``near`` (metres), when measured
    if rule.within_feet:
        near = index.tree.query(shape, predicate="dwithin", distance=max(rule.within_feet * FOOT, touching))
        near_m = shapely.distance(geometry[near], shape)
        bordering = near[near_m <= touching]
    else:  # the parcels sharing a line or a corner with it: the index's pairs (what the same query answers)
        near = bordering = index.touching(int(subject), touching)
    take(bordering, ABUTTER, "shares a boundary")
    if rule.within_feet:
        take(near, ABUTTER, f"within {rule.within_feet} ft")
    if rule.opposite_on_ways:
        known = rule.within_feet * FOOT
        if precomputed:
            opposite = _made(index, subject, False, WAY_REACH_FEET * FOOT, known)
        else:
            opposite = _across(index, shape, subject, bordering[index.is_way[bordering]], WAY_REACH_FEET * FOOT, known)
        take(opposite, ABUTTER, "directly opposite on a way")
    if rule.across_water:
        if precomputed:
            across = _made(index, subject, True, None, 0.0)
        else:
            across = _across(index, shape, subject, bordering[index.is_water[bordering]], None)
        take(across, ABUTTER, "across the water")
    if rule.abutters_to_abutters_feet:
        feet = rule.abutters_to_abutters_feet
        chain = [i for i, (ring, _) in taken.items() if ring == ABUTTER] + bordering[index.is_water[bordering]].tolist()
        if chain:
            # every parcel touching the chain, the chain itself among them (each touches itself): measured once
            candidates = np.unique(index.touching(chain, touching))
            candidates = candidates[owned[candidates]]
            near, near_m = candidates, shapely.distance(geometry[candidates], shape)
            take(candidates[near_m <= feet * FOOT], a2a_ring(feet), f"abuts an abutter, within {feet} ft")
    if not taken:
        return []
    positions = list(taken)
    if near_m is None:  # none measured yet: all at once
        metres = shapely.distance(geometry[positions], shape)
    else:
        measured = dict(zip(near.tolist(), near_m.tolist()))  # those measured keep their distance
        unmeasured = [i for i in positions if i not in measured]
        if unmeasured:
            measured.update(zip(unmeasured, shapely.distance(geometry[unmeasured], shape).tolist()))
        metres = np.array([measured[i] for i in positions])
    feet_away = (metres / FOOT).round(1).tolist()
    labels = index.labels
    order = sorted((taken[i][0] != ABUTTER, d, labels[i], i) for i, d in zip(positions, feet_away))
    return [Hit(i, *taken[i], d) for _, d, _, i in order]


def _made(index: ParcelIndex, subject: int, water: bool, reach: float | None, known: float) -> np.ndarray:
    """What :func:`parcels.opposite.across_all` answers for ``subject``, made once per index."""
    offsets, positions = index.made(
        ("across", water, reach, known),
        lambda: across_all(index, water=water, touching=TOUCHING_FEET * FOOT, reach=reach, known=known),
    )
    return positions[offsets[subject] : offsets[subject + 1]]


def _across(index: ParcelIndex, shape, subject: int, crossed: np.ndarray, reach: float | None, known: float = 0.0) -> np.ndarray:
    """The parcels first met beyond the ``crossed`` polygons (ways, or
    water, bordering the subject ``shape``) by lines square to the
    subject's boundary along them, one every :data:`RAY_SPACING_M`, each at
    most ``reach`` metres long (None: across the whole polygon).  A line
    that first meets a parcel within ``known`` metres (one the caller has
    already taken by distance) adds nothing, nor one whose way ends within
    them (what lies beyond is that near, or no parcel fronts the way there).

    Each line is crossed with the edges of the parcels in its reach in
    numpy, segment against segment: the first edge of a parcel that is not
    itself a way (or water) is where the line stops."""
    empty = np.array([], dtype=np.intp)
    if not len(crossed):
        return empty
    geometry = index.geometry
    starts, normals = index.samples(subject)
    if not len(starts):
        return empty
    probe = starts + normals * (TOUCHING_FEET * FOOT)  # just outside the subject's line: in the way, if it fronts one
    along = np.zeros(len(starts), dtype=bool)
    length = np.zeros(len(starts))
    for c in crossed.tolist():
        polygon = geometry[c]  # prepared with the index
        here = shapely.contains_xy(polygon, probe[:, 0], probe[:, 1]) & ~along
        if not here.any():
            continue
        along |= here
        if reach is None:
            x0, y0, x1, y1 = polygon.bounds
            length[here] = float(np.hypot(x1 - x0, y1 - y0))
        else:
            length[here] = reach
    if known > 0 and along.any():  # where the way ends within the distance already taken, its far side is taken
        at = starts[along] + normals[along] * known
        still = np.zeros(len(at), dtype=bool)
        for c in crossed.tolist():
            still |= shapely.contains_xy(geometry[c], at[:, 0], at[:, 1])
        along[np.flatnonzero(along)[~still]] = False
    if not along.any():
        return empty
    length = length[along]
    p, d = starts[along], normals[along] * length[:, None]
    ends = np.concatenate([p, p + d])
    lo, hi = ends.min(axis=0), ends.max(axis=0)
    passable = index.is_way if reach is not None else index.is_water
    near = index.tree.query(shapely.box(lo[0], lo[1], hi[0], hi[1]))
    near = np.sort(near[(near != subject) & ~passable[near]])  # where two are crossed at one point, the lowest position
    if not len(near):
        return empty
    a, e, owner = index.edges(near)
    # ray k: p + t d (0 < t <= 1); edge j: a + u e (0 <= u <= 1); where the two are parallel
    # (denominator 0) t is infinite or not a number, and no comparison below holds
    w_x = a[:, 0] - p[:, 0, None]
    w_y = a[:, 1] - p[:, 1, None]
    d_x, d_y, e_x, e_y = d[:, 0, None], d[:, 1, None], e[:, 0], e[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = d_x * e_y - d_y * e_x
        t = (w_x * e_y - w_y * e_x) / denom
        u = (w_x * d_y - w_y * d_x) / denom
    t[~((t > 0) & (t <= 1) & (u >= 0) & (u <= 1))] = np.inf
    first = t.argmin(axis=1)
    best = t[np.arange(len(p)), first]
    beyond = np.isfinite(best) & (best * length > known)
    return np.unique(owner[first[beyond]])
