"""parcel map sites: the map-lot id index carries what the map draws

Revision ID: 0100
Revises: 0046
Create Date: 2026-12-02 01:15:00

The workbench map joins each filing to the parcel its map-lot id names
(models/read/map_sites.py) and draws it at the point kept at import.  An index by
(layer, town, map_par_id) that also holds the LOC_ID and that point lets
the join read the index alone instead of one parcel row (with its two
geometries) per filing: on SQLite, 2,000 filings' parcels in about 3 ms
instead of 13 (docs/engineering/speed.md).  The layer first: all three are
equal in the join, so the planner takes it over the layer's own index.
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0100"
down_revision: Union[str, None] = "0046"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index("ix_parcel_layer_map_site", "parcel", ["layer_id", "town", "map_par_id", "loc_id", "lon", "lat"])


def downgrade() -> None:
    op.drop_index("ix_parcel_layer_map_site", table_name="parcel")
