"""a filing's stored derivation says the day it is as of

Revision ID: 0183
Revises: 0182
Create Date: 2026-12-04 12:00:00

What the store keeps about a filing (its state, next deadline and clocks,
each clock's status) is its history replayed as of one day: the day the
writer brought it up to date (an event recorded, an import, the daily
sweep, ``permits rederive``; :func:`models.store.filings.derivation_day`).
``filing`` gains ``derived_on``, that day, so ``permits check`` can
recompute exactly what each filing's rows should hold, and no writer
moves a filing's derivation back to an earlier day.  Rows written before
have none: ``permits rederive`` gives every filing one.
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0183"
down_revision: Union[str, None] = "0182"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD COLUMN: SQLite has it, and a batch would copy the table
    op.add_column("filing", sa.Column("derived_on", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("filing") as batch:
        batch.drop_column("derived_on")
