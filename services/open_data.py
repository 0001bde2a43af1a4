"""Open permit data in BLDS (:mod:`workflows.blds`): the Permits,
Inspections and StatusChanges datasets of a town or of every town, as CSV,
JSON or GeoJSON; ``permits open-data`` and the public site's
``/open-data/...`` call :func:`dataset` and :func:`encode`.  Read only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date

__all__ = ["DATASETS", "FORMATS", "dataset", "encode"]

#: the datasets, by the name their files and routes carry
DATASETS = ("permits", "inspections", "status-changes")
FORMATS = {"csv": "text/csv", "json": "application/json", "geojson": "application/geo+json"}


def dataset(store, name: str, *, towns: Sequence[str] | None, as_of: date) -> list[dict]:
    """The rows of dataset ``name`` for ``towns`` (None: every town), each
    filing replayed as of ``as_of``."""
    from models.read.open_data import open_filings
    from workflows import blds
    from workflows.inspections import STAGE_NAMES
    from workflows.numbers import massdep_file
    from workflows.replay import live_events, state_trail
    from workflows.stage import stage_name
    from workflows.towns import town

    from .fees import filing_fee

    if name not in DATASETS:
        from workflows.errors import UnknownChoice

        raise UnknownChoice("open dataset", name, DATASETS)
    rows: list[dict] = []
    for row in open_filings(store, towns):
        filing, _ = store.load(row.id)
        events = live_events(filing)
        if name == "inspections":
            rows += blds.inspection_rows(filing, events, STAGE_NAMES)
            continue
        trail = state_trail(filing)
        if name == "status-changes":
            rows += blds.status_change_rows(filing, trail, stage_name)
            continue
        result = store.replayer(filing, as_of)
        fee = filing_fee(store, filing)
        rows.append(
            blds.permit_row(
                filing,
                result,
                trail,
                town_name=town(filing.town).name,
                stage_words=stage_name(filing.kind, result.stage),
                parcel=row.parcel,
                point=row.point,
                fee_dollars=None if fee is None or fee.due is None else fee.due // 100,
                massdep_file=massdep_file(filing),
                events=events,
            )
        )
    return rows


def encode(name: str, rows: list[dict], fmt: str) -> bytes:
    """The rows of dataset ``name`` in ``fmt``: CSV (BLDS's field names as
    the header, ExtraFields as JSON text), JSON (a list of objects), or
    GeoJSON (Permits only: a Feature per permit with a point)."""
    from workflows import blds

    fields = {
        "permits": blds.PERMIT_FIELDS,
        "inspections": blds.INSPECTION_FIELDS,
        "status-changes": blds.STATUS_CHANGE_FIELDS,
    }[name]
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False, indent=1).encode()
    if fmt == "geojson":
        features = [
            {
                "type": "Feature",
                "id": r["PermitNum"],
                "geometry": {"type": "Point", "coordinates": [r["Longitude"], r["Latitude"]]}
                if r.get("Longitude") not in (None, "")
                else None,
                "properties": {k: v for k, v in r.items() if k not in ("Latitude", "Longitude")},
            }
            for r in rows
        ]
        return json.dumps({"type": "FeatureCollection", "features": features}, ensure_ascii=False).encode()
    from workflows.spreadsheet import csv_text  # formula-safe: a cell never runs in a spreadsheet

    def cell(v):
        return json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else (None if v == "" else v)

    return csv_text(fields, ([cell(r.get(k, "")) for k in fields] for r in rows)).encode()
