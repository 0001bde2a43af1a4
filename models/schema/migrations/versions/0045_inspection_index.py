"""inspection index: the DPW's schedule of inspections reads only its page

Revision ID: 0045
Revises: 0010
Create Date: 2026-12-01 21:00:00

The schedule's Inspections tab lists the street openings' inspection
clocks due (workflows/inspections.py ``INSPECTION_CLOCKS``: Canton 16-12
§10.2) soonest first, a page at a time.  This partial index holds only
those clocks, in (status, date, filing_id) order, so a page is the first
rows of one index range, however many other clocks the store holds
(tests/models/test_inspection_index.py holds the query to it).
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0045"
down_revision: Union[str, None] = "0060"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: the inspection clocks as they were at 0045 (the query names the same list)
INSPECTION_CLOCKS = ("trench-inspection", "patch-inspection", "final-inspection", "re-inspection")
WHERE = "clock_id IN (" + ", ".join(f"'{c}'" for c in INSPECTION_CLOCKS) + ")"


def upgrade() -> None:
    op.execute(f"CREATE INDEX IF NOT EXISTS ix_filing_clock_inspection ON filing_clock (status, date, filing_id) WHERE {WHERE}")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_filing_clock_inspection")
