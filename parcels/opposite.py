"""*Directly opposite on any way* and *across a body of water*, for every
parcel of a :class:`~parcels.index.ParcelIndex` at once.

The same lines as :func:`parcels.abutters.abutters_of` draws for one
parcel (square to its boundary where it fronts a way or water that borders
it, one every :data:`parcels.abutters.RAY_SPACING_M`), drawn for all the
index's parcels in a few numpy and shapely calls on arrays of every line:
which lines start in a way (or water) bordering their parcel, where each
first meets a parcel beyond it, and which parcels those are, per parcel.
:meth:`ParcelIndex.made <parcels.index.ParcelIndex.made>` keeps the answer
with the index, so it is made by the first search after an import, once
per process, and a search then reads its parcel's rows.

Each line's answer is the one parcel search's (the same points, the same
arithmetic on the same numbers): a line stops at its nearest crossing of
an edge of a parcel that is not itself a way (or water), the lowest
position first where two are crossed at the same point.  A test draws
generated towns both ways and compares every parcel's list.
"""

from __future__ import annotations

import numpy as np
import shapely

__all__ = ["across_all", "CHUNK"]

#: lines crossed with the edges near them in one numpy pass (bounds the memory used)
CHUNK = 20_000


def across_all(index, *, water: bool, touching: float, reach: float | None, known: float) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, positions): for the parcel at ``p``, ``positions[offsets[p]:offsets[p + 1]]``
    (ascending) are the parcels first met beyond the ways (``water``: the
    water) that border it, by lines at most ``reach`` metres long (None:
    across the whole water polygon), a line adding nothing when what it
    meets is within ``known`` metres, nor one whose way ends within them:
    what :func:`parcels.abutters._across` answers for ``p``."""
    n = len(index)
    empty = (np.zeros(n + 1, dtype=np.intp), np.array([], dtype=np.intp))
    if not n:
        return empty
    passable = index.is_water if water else index.is_way
    left, right = index.touching_pairs(touching)
    keep = passable[right]
    cl, cr = left[keep], right[keep]  # the parcel, a way (or water) bordering it, in the order the search meets them
    if not len(cl):
        return empty
    starts, normals, offsets = index.all_samples()
    of_sample = np.repeat(np.arange(n), np.diff(offsets))
    # each sample of a parcel with each way (or water) bordering it, by way (or water): tested in it, one call each
    rows = index.sample_rows(cl)
    pair = np.repeat(np.arange(len(cl)), np.diff(offsets)[cl])
    by_polygon = np.argsort(cr[pair], kind="stable")
    rows, pair = rows[by_polygon], pair[by_polygon]
    polygons, first_row = np.unique(cr[pair], return_index=True)
    bounds = np.append(first_row, len(rows))

    def inside(at: float, wanted: np.ndarray | None = None) -> np.ndarray:
        """For each of (rows, pair): whether the point ``at`` metres out from
        the sample is in that pair's way (or water), for those ``wanted``."""
        found = np.zeros(len(rows), dtype=bool)
        for c, lo, hi in zip(polygons.tolist(), bounds[:-1].tolist(), bounds[1:].tolist()):
            here = rows[lo:hi]
            if wanted is not None:
                asked = np.flatnonzero(wanted[here])
                here = here[asked]
            point = starts[here] + normals[here] * at
            hit = shapely.contains_xy(index.geometry[c], point[:, 0], point[:, 1])
            if wanted is None:
                found[lo:hi] = hit
            else:
                found[lo + asked] = hit
        return found

    # where a line starts in a way (or water) bordering its parcel: the first of them, in the search's order
    hit = inside(touching)
    k, rank = rows[hit], pair[hit]
    first = np.lexsort((rank, k))
    k, rank = k[first], rank[first]
    lead = np.ones(len(k), dtype=bool)
    lead[1:] = k[1:] != k[:-1]
    k, rank = k[lead], rank[lead]
    if not len(k):
        return empty
    if reach is None:
        x0, y0, x1, y1 = shapely.bounds(index.geometry[cr[rank]]).T
        length = np.hypot(x1 - x0, y1 - y0)
    else:
        length = np.full(len(k), float(reach))
    if known > 0:  # where the way ends within the distance already taken, its far side is taken
        along = np.zeros(len(starts), dtype=bool)
        along[k] = True
        still = np.zeros(len(starts), dtype=bool)
        still[rows[inside(known, along)]] = True
        kept = still[k]
        k, length = k[kept], length[kept]
    found_parcel, found_owner = [], []
    for lo in range(0, len(k), CHUNK):
        ks, ls = k[lo : lo + CHUNK], length[lo : lo + CHUNK]
        p, d = starts[ks], normals[ks] * ls[:, None]
        ray, near = index.tree.query(shapely.linestrings(np.stack([p, p + d], axis=1)))
        ok = (near != of_sample[ks[ray]]) & ~passable[near]
        ray, near = ray[ok], near[ok]
        a, e, owner = index.edges(near)
        ray = np.repeat(ray, index.edge_counts(near))
        pr, dr = p[ray], d[ray]
        # ray: p + t d (0 < t <= 1); edge: a + u e (0 <= u <= 1); parallel ones (denominator 0) never hold
        w_x = a[:, 0] - pr[:, 0]
        w_y = a[:, 1] - pr[:, 1]
        d_x, d_y, e_x, e_y = dr[:, 0], dr[:, 1], e[:, 0], e[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            denom = d_x * e_y - d_y * e_x
            t = (w_x * e_y - w_y * e_x) / denom
            u = (w_x * d_y - w_y * d_x) / denom
        hit = (t > 0) & (t <= 1) & (u >= 0) & (u <= 1)
        ray, t, owner = ray[hit], t[hit], owner[hit]
        nearest = np.lexsort((owner, t, ray))
        ray, t, owner = ray[nearest], t[nearest], owner[nearest]
        lead = np.ones(len(ray), dtype=bool)
        lead[1:] = ray[1:] != ray[:-1]
        ray, t, owner = ray[lead], t[lead], owner[lead]
        beyond = t * ls[ray] > known
        found_parcel.append(of_sample[ks[ray[beyond]]])
        found_owner.append(owner[beyond])
    parcel = np.concatenate(found_parcel) if found_parcel else np.array([], dtype=np.intp)
    owner = np.concatenate(found_owner) if found_owner else np.array([], dtype=np.intp)
    pairs = np.unique(parcel.astype(np.int64) * n + owner)
    parcel, owner = pairs // n, pairs % n
    return np.searchsorted(parcel, np.arange(n + 1)).astype(np.intp), owner.astype(np.intp)
