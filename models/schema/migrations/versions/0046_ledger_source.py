"""ledger source: a deposit ledger entry names the event it was filled from

Revision ID: 0046
Revises: 0045
Create Date: 2026-12-01 22:00:00

A street opening's ledger is filled from its events (services/deposits.py:
the application fee and the deposit from ``filed``, after-hours fees from
``after-hours-billed``, the refund and what was held back from
``deposit-refunded``).  ``source`` names the event (``event:3``), so an
entry is written once however often the ledger is filled; entries made by
hand (``permits deposits --charge``) have none.
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0046"
down_revision: Union[str, None] = "0045"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # a plain ADD COLUMN: a batch copy would drop the append-only trigger on SQLite
    op.add_column("ledger_entry", sa.Column("source", sqlmodel.sql.sqltypes.AutoString(), nullable=True))


def downgrade() -> None:
    op.drop_column("ledger_entry", "source")
