"""parcels: the assessors' parcels (MassGIS L3) and where an abutter list came from

Revision ID: 0030
Revises: 0009
Create Date: 2026-12-04 10:00:00

A town's assessors' parcels are imported (permits parcels import): each
import a parcel_layer row, its polygons in parcel (WKB, so SQLite and
PostgreSQL hold them alike, without PostGIS) and its assessing records in
parcel_owner.  A re-import replaces the town's parcels and keeps the
layer's row, which abutter_list names: a filing's abutter list says
whether it was uploaded or computed from the parcels, and from which
fiscal year's.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0030'
down_revision: Union[str, None] = "0010"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_TEXT = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table('parcel_layer',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('town', _TEXT(), nullable=False),
    sa.Column('fiscal_year', sa.Integer(), nullable=False),
    sa.Column('source', _TEXT(), nullable=False),
    sa.Column('parcels_layer', _TEXT(), nullable=False),
    sa.Column('assess_layer', _TEXT(), nullable=False),
    sa.Column('crs', _TEXT(), nullable=False),
    sa.Column('parcels', sa.Integer(), nullable=False),
    sa.Column('owners', sa.Integer(), nullable=False),
    sa.Column('imported_at', sa.DateTime(), nullable=False),
    sa.Column('imported_by', _TEXT(), nullable=False),
    sa.Column('replaced_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('parcel_layer', schema=None) as batch_op:
        batch_op.create_index('uq_parcel_layer_current', ['town'], unique=True,
                              sqlite_where=sa.text('replaced_at IS NULL'), postgresql_where=sa.text('replaced_at IS NULL'))
    op.create_table('parcel',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('layer_id', sa.Integer(), nullable=False),
    sa.Column('town', _TEXT(), nullable=False),
    sa.Column('loc_id', _TEXT(), nullable=False),
    sa.Column('map_par_id', _TEXT(), nullable=False),
    sa.Column('poly_type', _TEXT(), nullable=False),
    sa.Column('site_addr', _TEXT(), nullable=False),
    sa.Column('geometry', sa.LargeBinary(), nullable=False),
    sa.Column('wgs84', sa.LargeBinary(), nullable=False),
    sa.Column('lon', sa.Float(), nullable=False),
    sa.Column('lat', sa.Float(), nullable=False),
    sa.Column('minx', sa.Float(), nullable=False),
    sa.Column('miny', sa.Float(), nullable=False),
    sa.Column('maxx', sa.Float(), nullable=False),
    sa.Column('maxy', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['layer_id'], ['parcel_layer.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('parcel', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_parcel_layer_id'), ['layer_id'], unique=False)
        batch_op.create_index('ix_parcel_town_loc_id', ['town', 'loc_id'], unique=False)
        batch_op.create_index('ix_parcel_town_map_par_id', ['town', 'map_par_id'], unique=False)
    op.create_table('parcel_owner',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('layer_id', sa.Integer(), nullable=False),
    sa.Column('loc_id', _TEXT(), nullable=False),
    sa.Column('prop_id', _TEXT(), nullable=False),
    sa.Column('site_addr', _TEXT(), nullable=False),
    sa.Column('site_key', _TEXT(), nullable=False),
    sa.Column('name', _TEXT(), nullable=False),
    sa.Column('street', _TEXT(), nullable=False),
    sa.Column('city', _TEXT(), nullable=False),
    sa.Column('state', _TEXT(), nullable=False),
    sa.Column('zip', _TEXT(), nullable=False),
    sa.ForeignKeyConstraint(['layer_id'], ['parcel_layer.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('parcel_owner', schema=None) as batch_op:
        batch_op.create_index('ix_parcel_owner_layer_loc_id', ['layer_id', 'loc_id'], unique=False)
        batch_op.create_index('ix_parcel_owner_layer_site_key', ['layer_id', 'site_key'], unique=False)
    op.create_table('abutter_list',
    sa.Column('filing_id', _TEXT(), nullable=False),
    sa.Column('source', _TEXT(), nullable=False),
    sa.Column('file_name', _TEXT(), nullable=True),
    sa.Column('layer_id', sa.Integer(), nullable=True),
    sa.Column('town', _TEXT(), nullable=True),
    sa.Column('fiscal_year', sa.Integer(), nullable=True),
    sa.Column('loc_id', _TEXT(), nullable=True),
    sa.Column('parcel', _TEXT(), nullable=True),
    sa.Column('rule', _TEXT(), nullable=True),
    sa.Column('parcels', sa.JSON(), nullable=True),
    sa.Column('made_by', _TEXT(), nullable=False),
    sa.Column('made_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['filing_id'], ['filing.id'], ),
    sa.ForeignKeyConstraint(['layer_id'], ['parcel_layer.id'], ),
    sa.PrimaryKeyConstraint('filing_id')
    )


def downgrade() -> None:
    op.drop_table('abutter_list')
    with op.batch_alter_table('parcel_owner', schema=None) as batch_op:
        batch_op.drop_index('ix_parcel_owner_layer_site_key')
        batch_op.drop_index('ix_parcel_owner_layer_loc_id')
    op.drop_table('parcel_owner')
    with op.batch_alter_table('parcel', schema=None) as batch_op:
        batch_op.drop_index('ix_parcel_town_map_par_id')
        batch_op.drop_index('ix_parcel_town_loc_id')
        batch_op.drop_index(batch_op.f('ix_parcel_layer_id'))
    op.drop_table('parcel')
    with op.batch_alter_table('parcel_layer', schema=None) as batch_op:
        batch_op.drop_index('uq_parcel_layer_current')
    op.drop_table('parcel_layer')
