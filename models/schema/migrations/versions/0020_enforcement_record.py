"""enforcement: a record of its own, its cases, their events and clocks

Revision ID: 0020
Revises: 0009
Create Date: 2026-12-02 10:00:00

A violation of a town's wetlands or stormwater by-law, on a filing or on a
parcel with no filing, is a case with its own history: notices of
violation, an Enforcement Order, tickets under M.G.L. c.40 §21D, the town's
costs, compliance and closing (models/store/enforcement.py).  Its events are
append-only as a filing's are; its clocks are derived beside it for the
docket.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0020'
down_revision: Union[str, None] = "0050"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

WHY = "an enforcement event is never updated or deleted: void it with a later event"


def upgrade() -> None:
    op.create_table('enforcement_case',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('town', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('bylaw', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('filing_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('address', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('parcel', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('violator', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('violator_key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('extra', sa.JSON(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('state', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('next_deadline_date', sa.Date(), nullable=True),
    sa.Column('next_deadline_clock', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('fines', sa.Integer(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['filing_id'], ['filing.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('enforcement_case', schema=None) as batch_op:
        batch_op.create_index('ix_enforcement_case_town_state', ['town', 'state'], unique=False)
        batch_op.create_index('ix_enforcement_case_violator', ['town', 'bylaw', 'violator_key'], unique=False)
        batch_op.create_index(batch_op.f('ix_enforcement_case_filing_id'), ['filing_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_enforcement_case_next_deadline_date'), ['next_deadline_date'], unique=False)

    op.create_table('enforcement_event',
    sa.Column('case_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('type', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('raw', sa.JSON(), nullable=False),
    sa.Column('recorded_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('recorded_by', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['enforcement_case.id'], ),
    sa.PrimaryKeyConstraint('case_id', 'seq')
    )
    op.create_table('enforcement_clock',
    sa.Column('case_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('n', sa.Integer(), nullable=False),
    sa.Column('clock_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('type', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('rule', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('explanation', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['enforcement_case.id'], ),
    sa.PrimaryKeyConstraint('case_id', 'n')
    )
    with op.batch_alter_table('enforcement_clock', schema=None) as batch_op:
        batch_op.create_index('ix_enforcement_clock_status_date', ['status', 'date'], unique=False)

    if op.get_bind().dialect.name == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER enforcement_event_no_{verb.lower()} BEFORE {verb} ON enforcement_event "
                       f"BEGIN SELECT RAISE(ABORT, '{WHY}'); END")
    else:
        op.execute("CREATE FUNCTION enforcement_event_append_only() RETURNS trigger LANGUAGE plpgsql AS "
                   f"$$ BEGIN RAISE EXCEPTION '{WHY}'; END $$")
        op.execute("CREATE TRIGGER enforcement_event_append_only BEFORE UPDATE OR DELETE ON enforcement_event "
                   "FOR EACH ROW EXECUTE FUNCTION enforcement_event_append_only()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for verb in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS enforcement_event_no_{verb}")
    else:
        op.execute("DROP TRIGGER IF EXISTS enforcement_event_append_only ON enforcement_event")
        op.execute("DROP FUNCTION IF EXISTS enforcement_event_append_only()")
    with op.batch_alter_table('enforcement_clock', schema=None) as batch_op:
        batch_op.drop_index('ix_enforcement_clock_status_date')
    op.drop_table('enforcement_clock')
    op.drop_table('enforcement_event')
    with op.batch_alter_table('enforcement_case', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_enforcement_case_next_deadline_date'))
        batch_op.drop_index(batch_op.f('ix_enforcement_case_filing_id'))
        batch_op.drop_index('ix_enforcement_case_violator')
        batch_op.drop_index('ix_enforcement_case_town_state')
    op.drop_table('enforcement_case')
