"""An inspection asked for online shows on the DPW schedule with the
permit's site address, whether the filing gives it at the top or under
``site`` (issue 32, item 3: "CAN-SOP-2025-000076 · no address" though the
permit's site is 430 Bolivar St)."""

from __future__ import annotations

from models.handle import Store
from services.database import upgrade_store
from services.imports import import_filings
from services.inspection_requests import requests_for_schedule

HISTORY = [
    {"type": "filed", "date": "2026-12-01"},
    {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "1"},
    {"type": "permit-issued", "date": "2026-12-01"},
    {"type": "excavation-started", "date": "2026-12-02"},
    {"type": "inspection-requested", "date": "2026-12-02", "stage": "pre-backfill", "preferred": "2026-12-03", "by": "ann"},
]


def test_the_schedule_names_the_site_given_under_site(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'permits.db'}")
    upgrade_store(store)
    filings = [
        {"town": "canton", "kind": "street-opening", "id": "CAN-SOP-2025-000076", "site": {"address": "430 Bolivar St"}},
        {"town": "canton", "kind": "street-opening", "id": "CAN-SOP-2025-000077", "address": "12 Pleasant St"},
    ]
    import_filings(store, [{**f, "events": HISTORY} for f in filings], by="test")
    try:
        found = {r.filing: r.address for r in requests_for_schedule(store, towns=["canton"])}
    finally:
        store.engine.dispose()
    assert found == {"CAN-SOP-2025-000076": "430 Bolivar St", "CAN-SOP-2025-000077": "12 Pleasant St"}
