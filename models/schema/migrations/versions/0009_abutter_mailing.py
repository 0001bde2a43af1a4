"""abutter: the mailing address in its parts, the ring and every parcel

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 19:00:00

An abutter list uploaded in the workbench was kept as name, one address
line and one parcel text, and rebuilt into a CSV to be read again for the
notices: the ring (abutter, or abutter to an abutter) and the split address
were lost on the way.  The parts are kept now, so the stored list is the
list the assessors' file gave (services/abutters.py).  Rows from before
keep their address line, which is read as before.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0009'
down_revision: Union[str, None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('abutter', schema=None) as batch_op:
        batch_op.add_column(sa.Column('street', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('city', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('state', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('zip', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('ring', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('parcels', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('abutter', schema=None) as batch_op:
        for name in ('parcels', 'ring', 'zip', 'state', 'city', 'street'):
            batch_op.drop_column(name)
