"""The parcels directly opposite on a way and across water, made for every
parcel of an index at once (parcels/opposite.py, what a search reads), give
every parcel the list the search for that parcel alone draws
(``abutters_of(..., precomputed=False)``), on generated towns: lots of
random widths and slanted backs on both sides of two ways of random
widths, a pond among them, the whole turned by a random angle."""

import math
import random

import numpy as np
import shapely
import shapely.affinity
from hypothesis import given, settings
from hypothesis import strategies as st

from parcels.abutters import abutters_of
from parcels.index import IndexedParcel, ParcelIndex, ParcelOwner
from workflows.abutter_rules import AbutterRule, flat_rule
from workflows.towns.canton import ABUTTERS as CANTON
from workflows.towns.saugus import ABUTTERS as SAUGUS
from workflows.towns.wpa import ABUTTERS as STATE

ORIGIN = (240_000.0, 900_000.0)


def _row(rng: random.Random, y0: float, depth: float, upward: bool, x_end: float, skip: tuple[float, float] | None):
    """Lots from x = 0 to ``x_end`` with random widths, fronting y0, ``depth`` deep (backs slanted)."""
    lots, x = [], 0.0
    while x < x_end:
        w = rng.uniform(8, 40)
        if skip and skip[0] - 1e-9 <= x < skip[1]:
            x = skip[1]
            continue
        right = min(x + w, skip[0] if skip and x < skip[0] else x_end)
        sign = 1 if upward else -1
        back_l, back_r = y0 + sign * (depth + rng.uniform(-6, 6)), y0 + sign * (depth + rng.uniform(-6, 6))
        lots.append(shapely.Polygon([(x, y0), (right, y0), (right, back_r), (x, back_l)]))
        x = right
    return lots


def town(seed: int, main_w: float, blvd_w: float, angle: float, pond: bool) -> ParcelIndex:
    rng = random.Random(seed)
    end = 240.0
    skip = (120.0, 170.0) if pond else None
    shapes: list[tuple[str, shapely.Geometry]] = []
    shapes += [("FEE", g) for g in _row(rng, 0.0, 30.0, False, end, skip)]
    shapes.append(("ROW", shapely.box(-40, 0, end + 40, main_w)))
    shapes += [("FEE", g) for g in _row(rng, main_w, 30.0, True, end, None)]
    top = main_w + 36.1  # beyond the deepest back: the second way starts clear of the lots
    shapes.append(("ROW", shapely.box(-40, top, end + 40, top + blvd_w)))
    shapes += [("FEE", g) for g in _row(rng, top + blvd_w, 30.0, True, end, None)]
    if pond:
        shapes.append(("WATER", shapely.box(120, -40, 170, 0)))
        shapes += [("FEE", g) for g in _row(rng, -40.0, 25.0, False, end, None)]
    turn = math.radians(angle)
    parcels, wkb, owners = [], [], []
    for k, (kind, g) in enumerate(shapes):
        g = shapely.affinity.rotate(g, turn, origin=(0, 0), use_radians=True)
        g = shapely.affinity.translate(g, *ORIGIN)
        parcels.append(IndexedParcel("saugus", f"L_{k:03d}", f"{k}", kind, "", 2026, 1))
        wkb.append(shapely.to_wkb(g))
        owners.append((ParcelOwner(f"OWNER {k}", f"{k} MAIN ST", "SAUGUS", "MA", "01906"),) if kind == "FEE" else ())
    return ParcelIndex(parcels, wkb, owners)


RULES = [STATE, SAUGUS, CANTON, flat_rule(40), AbutterRule("opposite only", opposite_on_ways=True, across_water=True)]


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.floats(min_value=6, max_value=70),  # narrower than the widest way a line crosses (250 ft)
    st.floats(min_value=6, max_value=70),  # narrower than the widest way a line crosses (250 ft)
    st.floats(min_value=0, max_value=360),
    st.booleans(),
)
def test_every_parcel_has_the_list_its_own_search_draws(seed, main_w, blvd_w, angle, pond):
    index = town(seed, main_w, blvd_w, angle, pond)
    opposite = 0
    for rule in RULES:
        for i in range(len(index)):
            fast = abutters_of(index, i, rule)
            assert fast == abutters_of(index, i, rule, precomputed=False), (rule.citation, index.parcels[i].loc_id)
            opposite += sum(h.why in ("directly opposite on a way", "across the water") for h in fast)
    assert opposite  # the towns drawn do have parcels opposite one another


def test_a_lot_across_the_pond_is_found_by_both():
    index = town(7, 12.0, 40.0, 33.0, True)
    across = {(i, h.position) for i in range(len(index)) for h in abutters_of(index, i, CANTON) if h.why == "across the water"}
    assert across
    assert across == {
        (i, h.position)
        for i in range(len(index))
        for h in abutters_of(index, i, CANTON, precomputed=False)
        if h.why == "across the water"
    }


def test_an_empty_index_and_one_without_ways_have_nothing_opposite():
    from parcels.opposite import across_all

    empty = ParcelIndex([], [], [])
    offsets, found = across_all(empty, water=False, touching=0.3048, reach=76.2, known=0.0)
    assert offsets.tolist() == [0] and not len(found)
    lots = ParcelIndex(
        [IndexedParcel("saugus", f"L{k}", "", "FEE", "", 2026, 1) for k in range(2)],
        [shapely.to_wkb(shapely.box(ORIGIN[0] + 20 * k, ORIGIN[1], ORIGIN[0] + 20 * k + 20, ORIGIN[1] + 30)) for k in range(2)],
        [(), ()],
    )
    offsets, found = across_all(lots, water=False, touching=0.3048, reach=76.2, known=0.0)
    assert np.array_equal(offsets, [0, 0, 0]) and not len(found)
