"""the Today page's counts from a tally kept by the clocks' writers: a few thousand
rows summed instead of every deadline of the view read; its rows of one
town from an index by town

Revision ID: 0130
Revises: 0120
Create Date: 2026-12-02 09:00:00

``docket_tally`` holds signed counts of the docket's clocks of open filings
by (status, day, town, kind); the two writers of ``filing_clock``
(:func:`models.store.filings.write_derived` and the import) add the net change
of the counts they make, and :func:`models.store.docket_tally.fold` now and then
replaces the rows up to an id by their sums.  No row is ever updated in
place, so on PostgreSQL two writers never wait for (or deadlock on) a
shared count; ``docket_tally_fold`` says where the last fold ended.  The tally is filled here, folded, from the
clocks already stored.  ``ix_filing_clock_counts`` (0120), which the counts
read before, is dropped: no query reads it now.

The Today page tests each clock's kind and openness on the clock's own
copies (0120's columns), so ``ix_filing_clock_docket`` (0090) is made
again holding them, and ``ix_filing_clock_docket_town`` holds the same by
the filing's town: a page of one town reads that town's clocks in date
order instead of every town's.  The docket's statuses and the counts'
predicate are written out as they are at 0130.
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0130"
down_revision: Union[str, None] = "0120"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

STATUSES = "('due', 'premature', 'runs', 'unknown', 'violated')"
DOCKET_WHERE = f"lower(status) IN {STATUSES}"
DOCKET_COLUMNS = "date, filing_id, clock_id, status, filing_kind, filing_open"


def _counted(row: str) -> str:
    """The counts' predicate (0120's ``ix_filing_clock_counts``) of a row."""
    return f"{row}filing_open AND lower({row}status) IN {STATUSES}"


def upgrade() -> None:
    tally_id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    op.create_table(
        "docket_tally",
        sa.Column("id", tally_id, primary_key=True, autoincrement=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("town", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
    )
    op.create_index("ix_docket_tally", "docket_tally", ["status", "date", "town", "kind", "n"])
    op.create_table(
        "docket_tally_fold",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("upto", sa.BigInteger(), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
    )
    op.execute(
        "INSERT INTO docket_tally (status, date, town, kind, n)"
        " SELECT status, date, filing_town, filing_kind, count(*) FROM filing_clock"
        f" WHERE {_counted('')} GROUP BY status, date, filing_town, filing_kind"
    )
    op.execute(
        "INSERT INTO docket_tally_fold (id, upto, rows)"
        " SELECT 1, coalesce(max(id), 0), count(*) FROM docket_tally"
    )
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_counts")
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_docket")
    op.execute(f"CREATE INDEX ix_filing_clock_docket ON filing_clock ({DOCKET_COLUMNS}) WHERE {DOCKET_WHERE}")
    op.execute(f"CREATE INDEX ix_filing_clock_docket_town ON filing_clock (filing_town, {DOCKET_COLUMNS}) WHERE {DOCKET_WHERE}")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_docket_town")
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_docket")
    op.execute(f"CREATE INDEX ix_filing_clock_docket ON filing_clock (date, filing_id, clock_id, status) WHERE {DOCKET_WHERE}")
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_filing_clock_counts ON filing_clock"
        f" (status, date, filing_town, filing_kind, filing_open) WHERE {_counted('')}"
    )
    op.drop_table("docket_tally_fold")
    op.drop_table("docket_tally")
