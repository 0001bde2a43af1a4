"""a filing says the next day time alone may change it

Revision ID: 0186
Revises: 0185
Create Date: 2026-12-05 12:00:00

The daily sweep used to replay and rewrite every open filing every day,
though few change from one day to the next.  ``filing`` gains
``next_change_on``: the first day on which any of its clocks, reminders or
notices may change with time alone (written with its derived rows; a
writer other than the sweep writes the day it wrote, so the next sweep
looks at it), indexed, so the sweep takes the filings whose day has come.
Rows written before have none, and the next sweep takes them all.
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0186"
down_revision: Union[str, None] = "0185"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD COLUMN: SQLite has it, and a batch would copy the table
    op.add_column("filing", sa.Column("next_change_on", sa.Date(), nullable=True))
    op.create_index("ix_filing_next_change_on", "filing", ["next_change_on"])


def downgrade() -> None:
    op.drop_index("ix_filing_next_change_on", table_name="filing")
    with op.batch_alter_table("filing") as batch:
        batch.drop_column("next_change_on")
