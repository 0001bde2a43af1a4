"""the Today page's counts from one index: each clock carries its filing's
town, kind and whether the filing is open

Revision ID: 0120
Revises: 0090
Create Date: 2026-12-02 02:00:00

``filing_clock`` gains ``filing_town``, ``filing_kind`` and ``filing_open``
(the filing is not in a final state of its machine), written with the
clocks from then on (models/store/filings.py ``_clock_rows``) and filled here
from the filing table; ``ix_filing_clock_counts`` (status, date, town,
kind, open), partial on the docket's statuses of the open filings, holds
everything the counts read (models/read/docket_counts.py), so they are counted from the index
alone instead of looking up each clock's filing.  The final states and the
docket's predicate are written out as they are at 0120.
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0120"
down_revision: Union[str, None] = "0090"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

DOCKET_WHERE = "lower(status) IN ('due', 'premature', 'runs', 'unknown', 'violated')"
#: every state final in a machine (one list serves every kind: no state is
#: final for one kind and open for another)
FINAL_STATES = "('closed', 'completed', 'denied', 'negative-determination', 'positive-determination', 'revoked', 'withdrawn')"


def upgrade() -> None:
    # plain ADD COLUMN (SQLite has it): a batch would reflect the table and its
    # neighbours, warning on every expression index it cannot read
    op.add_column("filing_clock", sa.Column("filing_town", sa.String(), nullable=False, server_default=""))
    op.add_column("filing_clock", sa.Column("filing_kind", sa.String(), nullable=False, server_default=""))
    op.add_column("filing_clock", sa.Column("filing_open", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.execute(
        "UPDATE filing_clock SET filing_town = filing.town, filing_kind = filing.kind,"
        f" filing_open = (filing.state NOT IN {FINAL_STATES})"
        " FROM filing WHERE filing.id = filing_clock.filing_id"
    )
    if op.get_bind().dialect.name == "postgresql":  # the writers fill them (SQLite would copy the table to drop a default)
        for column in ("filing_town", "filing_kind", "filing_open"):
            op.execute(f"ALTER TABLE filing_clock ALTER COLUMN {column} DROP DEFAULT")
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_filing_clock_counts ON filing_clock"
        f" (status, date, filing_town, filing_kind, filing_open) WHERE {DOCKET_WHERE} AND filing_open"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_counts")
    with op.batch_alter_table("filing_clock") as batch:
        batch.drop_column("filing_open")
        batch.drop_column("filing_kind")
        batch.drop_column("filing_town")
