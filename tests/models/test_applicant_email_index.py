"""An applicant's "My filings" finds the filings naming their address
through the party email indexes (migration 0006), on SQLite and on
PostgreSQL: the query's expressions are the indexed ones, or the plan
would read every filing's JSON."""

from __future__ import annotations

import storekit
from sqlalchemy import select

from models.accounts.applicants import Account
from models.handle import Store
from models.schema.tables import FilingRow
from services.database import upgrade_store
from services.imports import import_filings

FILING = FilingRow.__table__
INDEXES = {"ix_filing_applicant_email", "ix_filing_owner_email", "ix_filing_contractor_email"}


def _plan(store: Store, account: Account) -> str:
    query = select(FILING.c.id).where(storekit.applicants(store)._visible(account))
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "postgresql":
            conn.exec_driver_sql("SET enable_seqscan = off")  # an empty table: make the planner show its choice
            return "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql))
        return "\n".join(str(r[3]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))


def test_my_filings_is_found_through_the_party_email_indexes(db_url):  # noqa: F811
    store = Store(db_url)
    upgrade_store(store)
    plan = _plan(store, Account(1, "ann.lee@example.org", True))
    store.engine.dispose()
    for name in INDEXES:
        assert name in plan, f"{name} not used:\n{plan}"


def test_the_indexes_find_an_address_whatever_its_case_and_only_in_a_party_role(db_url):  # noqa: F811
    store = Store(db_url)
    upgrade_store(store)
    base = {"town": "canton", "kind": "noi", "events": [{"type": "filed", "date": "2026-11-02"}]}
    import_filings(
        store,
        [
            {**base, "id": "CAN-NOI-2026-000001", "applicant": {"name": "Ann Lee", "email": "Ann.Lee@Example.org"}},
            {**base, "id": "CAN-NOI-2026-000002", "owner": {"name": "Ann Lee", "email": "ann.lee@example.org"}},
            {**base, "id": "CAN-NOI-2026-000003", "contractor": {"name": "Lee Paving", "email": "ANN.LEE@EXAMPLE.ORG"}},
            {**base, "id": "CAN-NOI-2026-000004", "applicant": "Ann Lee", "site": {"email": "ann.lee@example.org"}},
            {**base, "id": "CAN-NOI-2026-000005", "applicant": {"name": "Bob", "email": "bob@example.org"}},
        ],
        by="test",
    )
    seen = storekit.applicants(store).filings_visible_to(Account(1, "ann.lee@example.org", True))
    unproved = storekit.applicants(store).filings_visible_to(Account(1, "ann.lee@example.org", False))
    store.engine.dispose()
    assert [r.id for r in seen] == ["CAN-NOI-2026-000001", "CAN-NOI-2026-000002", "CAN-NOI-2026-000003"]
    assert unproved == []
