"""meeting, meeting_item: a commission's meetings and their agendas

Revision ID: 0040
Revises: 0010
Create Date: 2026-12-01 21:49:52

A commission meets on set evenings and posts one agenda per meeting
(M.G.L. c.30A §20(b)), listing every hearing heard at it: a hearing's first
session or a continued one, and other business.  Times are the town's wall
times, naive (config/clock.py); ``created_at`` is UTC.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0040'
down_revision: Union[str, None] = '0020'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('meeting',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('town', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('board', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('starts_at', sa.DateTime(), nullable=False),
    sa.Column('place', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('posted_at', sa.DateTime(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('town', 'board', 'starts_at', name='uq_meeting_board_start')
    )
    with op.batch_alter_table('meeting', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_meeting_day'), ['day'], unique=False)
        batch_op.create_index(batch_op.f('ix_meeting_town'), ['town'], unique=False)

    op.create_table('meeting_item',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('meeting_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('filing_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['filing_id'], ['filing.id'], ),
    sa.ForeignKeyConstraint(['meeting_id'], ['meeting.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('meeting_item', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_meeting_item_filing_id'), ['filing_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_meeting_item_meeting_id'), ['meeting_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('meeting_item', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_meeting_item_meeting_id'))
        batch_op.drop_index(batch_op.f('ix_meeting_item_filing_id'))

    op.drop_table('meeting_item')
    with op.batch_alter_table('meeting', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_meeting_town'))
        batch_op.drop_index(batch_op.f('ix_meeting_day'))

    op.drop_table('meeting')
