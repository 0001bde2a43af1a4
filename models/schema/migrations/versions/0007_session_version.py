"""app_user.session_version: a password change logs out the user's other sessions

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 20:20:00

Each session cookie carries the version of its user's row at login; the
workbench refuses a session whose version is not the row's.  Changing the
password bumps it (the session that changed it takes the new one).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0007'
down_revision: Union[str, None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('app_user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_version', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('app_user', schema=None) as batch_op:
        batch_op.drop_column('session_version')
