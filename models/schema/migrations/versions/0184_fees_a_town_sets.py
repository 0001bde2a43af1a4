"""the fees a town's office sets, each change kept with who, when and why

Revision ID: 0184
Revises: 0183
Create Date: 2026-12-04 11:00:00

A Conservation Commission sets its filing fees by regulation (Canton 15-3,
Saugus 508.08 §6, Mansfield Ch. 15): the amounts are the town's, not the
by-law's.  ``town_fee`` keeps each one the town's admin enters, with the
day it takes effect (a filing pays what was in force on the day it was
filed), why, who entered it and when; rows are only ever added.
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0184"
down_revision: Union[str, None] = "0183"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "town_fee",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("town", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("cents", sa.Integer(), nullable=False),
        sa.Column("effective", sa.Date(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("recorded_by", sa.String(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_town_fee_town_kind_effective", "town_fee", ["town", "kind", "effective"])


def downgrade() -> None:
    op.drop_index("ix_town_fee_town_kind_effective", table_name="town_fee")
    op.drop_table("town_fee")
