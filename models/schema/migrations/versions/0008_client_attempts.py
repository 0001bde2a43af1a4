"""client_attempt: failed logins and registrations by client address

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30 20:30:00

The workbench limits failed logins, invitation acceptances and
registrations per client address (models/accounts/throttle.py).  The attempts are
kept in the store, not in a process's memory, so several web processes
behind a load balancer count the same ones.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0008'
down_revision: Union[str, None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('client_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('client', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('client_attempt', schema=None) as batch_op:
        batch_op.create_index('ix_client_attempt_key', ['action', 'client', 'at'], unique=False)
        batch_op.create_index(batch_op.f('ix_client_attempt_at'), ['at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('client_attempt', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_client_attempt_at'))
        batch_op.drop_index('ix_client_attempt_key')
    op.drop_table('client_attempt')
