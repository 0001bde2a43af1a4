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

from dataclasses import dataclass

import numpy as np
import shapely

from workflows.abutter_rules import AbutterRule

from .index import ParcelIndex

__all__ = ["Hit", "abutters_of", "FOOT", "TOUCHING_FEET", "WAY_REACH_FEET", "RAY_SPACING_M", "ABUTTER", "a2a_ring"]

FOOT = 0.3048
#: two parcels closer than this share a boundary (digitised lines of
#: neighbours meet to a few centimetres; a foot is generous and far less
#: than any lot)
TOUCHING_FEET = 1.0
#: the widest way a line is drawn across (a divided highway's layout)
WAY_REACH_FEET = 250.0
#: the spacing of the lines drawn square to a frontage
RAY_SPACING_M = 5.0
ABUTTER = "abutter"


def a2a_ring(feet: int) -> str:
    """The ring of an abutter to an abutter, as the notices' lists name it."""
    return f"abutter to abutter ({feet} ft)"


@dataclass(frozen=True)
class Hit:
    """One parcel the rule takes: its position in the index, its ring
    (:data:`ABUTTER` or :func:`a2a_ring`), why, and how far it is (feet)."""

    position: int
    ring: str
    why: str
    feet: float


def abutters_of(index: ParcelIndex, subject: int, rule: AbutterRule) -> list[Hit]:
    """The parcels ``rule`` takes for the parcel at ``subject``, nearest
    first (abutters, then abutters to abutters)."""
    geometry = index.geometry
    shape = geometry[subject]
    touching = TOUCHING_FEET * FOOT
    taken: dict[int, tuple[str, str]] = {}

    def take(positions, ring: str, why: str) -> None:
        for i in positions:
            i = int(i)
            if i != subject and index.owned[i] and i not in taken:
                taken[i] = (ring, why)

    near = index.tree.query(shape, predicate="dwithin", distance=max(rule.within_feet * FOOT, touching))
    why = f"within {rule.within_feet} ft" if rule.within_feet else "shares a boundary"
    if rule.within_feet:  # those touching say so, the others are within the distance
        close = near[shapely.dwithin(geometry[near], shape, touching)]
        take(close, ABUTTER, "shares a boundary")
    take(near, ABUTTER, why)
    if rule.opposite_on_ways:
        take(_across(index, subject, index.is_way, WAY_REACH_FEET * FOOT), ABUTTER, "directly opposite on a way")
    if rule.across_water:
        take(_across(index, subject, index.is_water, None), ABUTTER, "across the water")
    if rule.abutters_to_abutters_feet:
        feet = rule.abutters_to_abutters_feet
        bordering = near[shapely.dwithin(geometry[near], shape, touching)] if rule.within_feet else near
        chain = [i for i in taken if taken[i][0] == ABUTTER] + [int(i) for i in bordering if index.is_water[i]]
        within = index.tree.query(shape, predicate="dwithin", distance=feet * FOOT)
        if chain and len(within):
            left, right = index.tree.query(geometry[chain], predicate="dwithin", distance=touching)
            abutting = set(right.tolist())
            take([i for i in within if int(i) in abutting], a2a_ring(feet), f"abuts an abutter, within {feet} ft")
    if not taken:
        return []
    positions = np.fromiter(taken, dtype=np.intp, count=len(taken))
    feet_away = shapely.distance(geometry[positions], shape) / FOOT
    hits = [Hit(int(i), taken[int(i)][0], taken[int(i)][1], round(float(d), 1)) for i, d in zip(positions, feet_away)]
    hits.sort(key=lambda h: (h.ring != ABUTTER, h.feet, index.parcels[h.position].label))
    return hits


def _across(index: ParcelIndex, subject: int, crossed: np.ndarray, reach: float | None) -> list[int]:
    """The parcels first met beyond the polygons marked ``crossed`` (ways,
    or water) by lines square to the subject's boundary along them, each at
    most ``reach`` metres long (None: across the whole polygon)."""
    geometry = index.geometry
    shape = geometry[subject]
    touching = TOUCHING_FEET * FOOT
    bordering = [int(i) for i in index.tree.query(shape, predicate="dwithin", distance=touching) if crossed[i]]
    if not bordering:
        return []
    starts, ends = [], []
    for c in bordering:
        polygon = geometry[c]
        length = reach
        if length is None:
            x0, y0, x1, y1 = polygon.bounds
            length = float(np.hypot(x1 - x0, y1 - y0)) + touching
        # a town's ways are often one polygon: cut it down to the subject first
        x0, y0, x1, y1 = shape.bounds
        local = shapely.clip_by_rect(polygon, x0 - 2 * touching, y0 - 2 * touching, x1 + 2 * touching, y1 + 2 * touching)
        frontage = shapely.intersection(shape.boundary, shapely.buffer(local, touching))
        for a, b in _segments(frontage):
            seg = b - a
            size = float(np.hypot(*seg))
            if size < 1.0:
                continue
            normal = np.array([-seg[1], seg[0]]) / size
            probe = (a + b) / 2 + normal * 0.05
            if shape.contains(shapely.Point(probe)):
                normal = -normal
            n = max(1, int(size // RAY_SPACING_M))
            for k in range(n):
                p = a + seg * ((k + 0.5) / n)
                starts.append(p)
                ends.append(p + normal * length)
    if not starts:
        return []
    starts_a, ends_a = np.array(starts), np.array(ends)
    rays = shapely.linestrings(np.stack([starts_a, ends_a], axis=1))
    ray_i, geom_i = index.tree.query(rays, predicate="intersects")
    keep = (geom_i != subject) & ~crossed[geom_i]
    ray_i, geom_i = ray_i[keep], geom_i[keep]
    if not len(ray_i):
        return []
    met = shapely.intersection(rays[ray_i], geometry[geom_i])
    distance = shapely.distance(shapely.points(starts_a[ray_i]), met)
    order = np.lexsort((distance, ray_i))
    first = {}
    for k in order:
        first.setdefault(int(ray_i[k]), int(geom_i[k]))
    return sorted(set(first.values()))


def _segments(lines) -> list[tuple[np.ndarray, np.ndarray]]:
    """The straight pieces of the lines in ``lines`` (points left out)."""
    out = []
    for part in shapely.get_parts(lines):
        if part.geom_type not in ("LineString", "LinearRing"):
            if part.geom_type in ("MultiLineString", "GeometryCollection"):
                out.extend(_segments(part))
            continue
        coords = np.asarray(part.coords)[:, :2]
        out.extend((coords[i], coords[i + 1]) for i in range(len(coords) - 1))
    return out
