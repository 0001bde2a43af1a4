"""the inspections asked for online found through an index of their own

Revision ID: 0140
Revises: 0130
Create Date: 2026-12-02 10:00:00

The DPW schedule's Inspections tab lists the inspections applicants asked
for online (``inspection-requested`` events, issue 21): it looked for them
by reading every event of the store (about 220 ms at 100,000 filings, a
million events).  ``ix_event_inspection_requested`` holds the filings of
those events only (models/read/inspection_requests.py).
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0140"
down_revision: Union[str, None] = "0130"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_event_inspection_requested ON event (filing_id) WHERE type = 'inspection-requested'"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_event_inspection_requested")
