"""a notice recorded as sent says how it went and who recorded it

Revision ID: 0182
Revises: 0181
Create Date: 2026-12-04 10:00:00

Producing or downloading a notice is not sending it: staff record a
sending as its own act, saying how it went (first-class or certified mail,
by hand, posted, emailed, published) and to whom.  ``notice`` gains
``how`` (one of :data:`notices.log.WAYS`; none on the rows made before,
by the daily check or by ``permits notices``) and ``recorded_by`` (the
account that recorded it).
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0182"
down_revision: Union[str, None] = "0181"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD COLUMN: SQLite has it, and a batch would copy the table
    op.add_column("notice", sa.Column("how", sa.String(), nullable=True))
    op.add_column("notice", sa.Column("recorded_by", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notice") as batch:
        batch.drop_column("recorded_by")
        batch.drop_column("how")
