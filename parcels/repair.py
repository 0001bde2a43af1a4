"""The bounds of a parcel import: how large a file, how many vertices in one
parcel, and how long and how much memory the repair of one invalid polygon
may take.

A small file can hold a polygon no assessor drew: 2.5 MB of GeoPackage is a
self-intersecting parcel of 100,000 vertices, and GEOS's ``make_valid`` on
it ran past 200 s at 5.7 GB (issue 35).  So a parcel of more than
:data:`MAX_VERTICES` vertices is refused by its LOC_ID before anything is
asked of GEOS, and the invalid polygons left are repaired in a child
process (:func:`repair`) under an address-space limit of
:data:`REPAIR_MEMORY_MB` and :data:`REPAIR_SECONDS` a parcel: a parcel over
either is refused by its LOC_ID, the child is started again for the rest,
and the rest are imported.  GEOS's own failures on one polygon (a
``bad_alloc`` at the limit) refuse that parcel alone.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from .errors import ParcelFileError

__all__ = [
    "MAX_FILE_MB",
    "MAX_VERTICES",
    "REPAIR_SECONDS",
    "REPAIR_MEMORY_MB",
    "Refused",
    "dataset_bytes",
    "valid",
    "repair",
    "readable",
    "bounded",
]

#: the largest parcel download read (the dataset: its file, or every file
#: of its folder): the largest Massachusetts town's L3 layers are a few
#: hundred megabytes short of it
MAX_FILE_MB = 1024
#: the most vertices one parcel may have (its rings together): an assessor's
#: parcel has tens to a few thousand
MAX_VERTICES = 50_000
#: how long the repair of one invalid polygon may take
REPAIR_SECONDS = 10.0
#: how much more memory (address space) the repair may take than the
#: importing process had when it began
REPAIR_MEMORY_MB = 512


@dataclass(frozen=True)
class Refused:
    """A parcel left out of the import, and why (people's words)."""

    index: int
    why: str


def dataset_bytes(path: Path) -> int:
    """The bytes of a dataset: a file's, or those of a folder's files (a
    folder of shapefiles, a file geodatabase), one level down."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for child in path.iterdir():
        if child.is_file():
            total += child.stat().st_size
        elif child.is_dir():  # a .gdb inside a folder
            total += sum(f.stat().st_size for f in child.iterdir() if f.is_file())
    return total


def valid(g):
    """One invalid polygon made valid, keeping only its polygonal parts
    (make_valid may leave a stray line or point beside them)."""
    g = shapely.make_valid(g)
    if g.geom_type not in ("Polygon", "MultiPolygon"):
        polys = [p for p in shapely.get_parts(g) if p.geom_type in ("Polygon", "MultiPolygon")]
        g = shapely.union_all(polys) if polys else g
    return g


def _address_space() -> int:
    """The process's address space now (bytes), from /proc; 0 where there is none."""
    try:
        fields = Path("/proc/self/statm").read_text().split()
        return int(fields[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _child(conn, items: list[tuple[int, bytes]], limit: int, memory_mb: int) -> None:  # pragma: no cover - runs in the child
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for i, wkb in items:
        try:
            out = shapely.to_wkb(valid(shapely.from_wkb(wkb)))
            conn.send((i, out, ""))
        except MemoryError:
            conn.send((i, None, f"its repair needs more than {memory_mb} MB"))
        except shapely.errors.GEOSException as exc:
            why = str(exc).strip().splitlines()[0] if str(exc).strip() else "GEOS failed"
            why = f"its repair needs more than {memory_mb} MB" if "bad_alloc" in why else f"it cannot be repaired ({why[:120]})"
            conn.send((i, None, why))
    conn.close()


def repair(
    geometry: np.ndarray, *, seconds: float | None = None, memory_mb: int | None = None
) -> tuple[np.ndarray, list[Refused]]:
    """The invalid polygons ``geometry`` made valid, each in a child
    process under ``seconds`` and ``memory_mb``; those over either (or that
    GEOS cannot repair) are :class:`Refused` by position, their place None."""
    seconds = REPAIR_SECONDS if seconds is None else seconds
    memory_mb = REPAIR_MEMORY_MB if memory_mb is None else memory_mb
    out = np.array(geometry, dtype=object)
    pending = [(i, shapely.to_wkb(g)) for i, g in enumerate(geometry)]
    refused: list[Refused] = []
    context = multiprocessing.get_context("fork")
    while pending:
        base = _address_space()
        limit = base + memory_mb * 1024 * 1024 if base else 0
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_child, args=(send, pending, limit, memory_mb), daemon=True)
        child.start()
        send.close()
        try:
            while pending:
                i = pending[0][0]
                if not receive.poll(seconds):
                    refused.append(Refused(i, f"its repair takes more than {seconds:g} second{'' if seconds == 1 else 's'}"))
                    break
                try:
                    got, wkb, why = receive.recv()
                except EOFError:  # the child died: the memory limit, or GEOS aborting
                    refused.append(Refused(i, f"its repair needs more than {memory_mb} MB"))
                    break
                if why:
                    refused.append(Refused(got, why))
                else:
                    out[got] = shapely.from_wkb(wkb)
                pending.pop(0)
            else:
                continue
            pending.pop(0)
        finally:
            if child.is_alive():
                child.kill()
            child.join()
            receive.close()
    for r in refused:
        out[r.index] = None
    return out, refused


def readable(wkb, cols: dict[str, list], what: str) -> np.ndarray:
    """The features' polygons; a damaged file (a shapefile cut short and
    padded, a ring that does not close) is one line naming the first
    feature that cannot be read."""
    geometry = shapely.from_wkb(wkb, on_invalid="ignore")
    broken = [i for i, (g, b) in enumerate(zip(geometry, wkb, strict=True)) if g is None and b is not None]
    if broken:
        i = broken[0]
        raise ParcelFileError(
            f"{what}: feature {i + 1} (LOC_ID {cols['LOC_ID'][i] or '?'}) has a geometry that cannot be read"
            + (f", nor {len(broken) - 1} other(s)" if len(broken) > 1 else "")
            + ": the file is damaged (cut short, or not written whole); download it again"
        )
    return geometry


def bounded(cols: dict[str, list], geometry: np.ndarray, what: str, seconds: float | None = None):
    """The parcels within bounds, invalid ones repaired: a parcel of more
    than MAX_VERTICES vertices, or whose repair is over its budget
    (:func:`parcels.repair.repair`), is left out by its LOC_ID; every
    parcel left out is one ParcelFileError.  (cols, geometry, refused,
    repaired)."""
    out: dict[int, str] = {}
    counts = shapely.get_num_coordinates(geometry)
    for i in np.flatnonzero(counts > MAX_VERTICES):
        out[int(i)] = f"{int(counts[i]):,} vertices, over the {MAX_VERTICES:,} a parcel may have"
    ok = np.array([i not in out for i in range(len(geometry))], dtype=bool)
    invalid = np.zeros(len(geometry), dtype=bool)
    invalid[ok] = ~shapely.is_valid(geometry[ok])
    where = np.flatnonzero(invalid)
    repaired = 0
    if len(where):
        fixed, refused = repair(geometry[where], seconds=seconds)
        for r in refused:
            out[int(where[r.index])] = f"invalid, and {r.why}"
        for k, i in enumerate(where):
            if fixed[k] is not None:
                geometry[i] = fixed[k]
        repaired = len(where) - len(refused)
    if len(out) == len(geometry):
        i = min(out)
        raise ParcelFileError(f"{what}: LOC_ID {cols['LOC_ID'][i] or '?'} (feature {i + 1}) is refused: {out[i]}")
    refused = [(cols["LOC_ID"][i] or f"feature {i + 1}", why) for i, why in sorted(out.items())]
    if out:
        keep = [i for i in range(len(geometry)) if i not in out]
        cols = {k: [v[i] for i in keep] for k, v in cols.items()}
        geometry = geometry[keep]
    return cols, geometry, refused, repaired
