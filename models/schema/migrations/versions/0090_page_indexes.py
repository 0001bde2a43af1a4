"""page indexes: Today's docket, the schedule's other dates and the
submitted applications and the open deposits read only the rows their
page shows

Revision ID: 0090
Revises: 0100
Create Date: 2026-12-02 01:00:00

- ``ix_filing_clock_docket``: the clocks a docket can list, in date order
  (the Today page's 200 rows are the first entries that pass; its counts
  are read from the index and the filings' keys);
- ``ix_filing_clock_other_dates``: the DPW schedule's Other dates tab
  (every clock due, running or waiting that is not an inspection), in date
  order;
- ``ix_filing_state_id``: the filings in one state, any town, by id (the
  applications submitted online on the Today page);
- ``ix_ledger_entry_filing_party``: the ledger by permit and party with
  each entry's kind and amount (the Deposits page sums the open deposits
  as it reads the index, in permit order, and stops at its page).

models/schema/clock_indexes.py says why each predicate tests ``lower(status)``;
tests/models/test_clock_indexes.py holds the queries to these indexes on
SQLite and PostgreSQL.  The predicates are written out as they were at
0090 (the query modules name the same lists).
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0090"
down_revision: Union[str, None] = "0100"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

DOCKET_WHERE = "lower(status) IN ('due', 'premature', 'runs', 'unknown', 'violated')"
OTHER_DATES_WHERE = (
    "lower(status) IN ('active', 'due', 'runs', 'waiting') AND lower(clock_id) NOT IN "
    "('trench-inspection', 'patch-inspection', 'final-inspection', 're-inspection')"
)


def upgrade() -> None:
    op.execute(
        f"CREATE INDEX IF NOT EXISTS ix_filing_clock_docket ON filing_clock (date, filing_id, clock_id, status) WHERE {DOCKET_WHERE}"
    )
    op.execute(
        f"CREATE INDEX IF NOT EXISTS ix_filing_clock_other_dates ON filing_clock (date, filing_id, n, status, clock_id) WHERE {OTHER_DATES_WHERE}"
    )
    op.execute("CREATE INDEX IF NOT EXISTS ix_filing_state_id ON filing (state, id)")
    op.execute("CREATE INDEX IF NOT EXISTS ix_ledger_entry_filing_party ON ledger_entry (filing_id, party_id, entry, amount_cents)")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_ledger_entry_filing_party")
    op.execute("DROP INDEX IF EXISTS ix_filing_state_id")
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_other_dates")
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_docket")
