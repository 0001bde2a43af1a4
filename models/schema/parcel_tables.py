"""The record's parcel tables (SQLModel; registered on the metadata by
:mod:`models.schema.tables`, which imports this module).  No ``from __future__
import annotations`` here, as in models/schema/tables.py.

- ``parcel_layer``: one import of a town's assessors' parcels (MassGIS
  Level 3): its fiscal year, the file and layers it came from, who imported
  it and when.  ``replaced_at`` is set when a later import replaces it; the
  row is kept (an abutter list names the layer it was computed from), its
  parcels are deleted.  At most one current layer per town (a unique index
  on ``town`` where ``replaced_at`` is null).
- ``parcel``: one polygon of a current layer.  Geometry is kept as WKB
  (``geometry``, Massachusetts State Plane EPSG:26986, metres, as imported;
  ``wgs84``, the same in longitude and latitude for the map) with its
  bounding box and a point inside it (``lon``, ``lat``), so SQLite and
  PostgreSQL hold it alike, without PostGIS.
- ``parcel_owner``: one record of the assessing table, joined to its parcel
  by (``layer_id``, ``loc_id``) as L3 joins them: the owner, their mailing
  address, the site address (``site_key``, normalised for finding it).
- ``abutter_list``: where a filing's abutter list came from: the assessors'
  list uploaded (``upload``), or computed from the parcels (``parcels``)
  with the layer, fiscal year, subject parcel and rule, and who reviewed
  and used it, when.
"""

from datetime import datetime

from sqlalchemy import JSON, Column, DateTime, Index, LargeBinary, text
from sqlmodel import Field, SQLModel

__all__ = ["ParcelLayer", "ParcelRow", "ParcelOwnerRow", "AbutterList"]


class ParcelLayer(SQLModel, table=True):
    __tablename__ = "parcel_layer"
    __table_args__ = (
        Index(
            "uq_parcel_layer_current",
            "town",
            unique=True,
            sqlite_where=text("replaced_at IS NULL"),
            postgresql_where=text("replaced_at IS NULL"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    town: str
    fiscal_year: int
    source: str
    parcels_layer: str
    assess_layer: str
    crs: str
    parcels: int
    owners: int
    imported_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))  # UTC, naive
    imported_by: str
    replaced_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))  # UTC, naive


class ParcelRow(SQLModel, table=True):
    __tablename__ = "parcel"
    __table_args__ = (
        Index("ix_parcel_town_loc_id", "town", "loc_id"),
        Index("ix_parcel_town_map_par_id", "town", "map_par_id"),
        # what the map draws, so its join reads the index alone (migration 0100)
        Index("ix_parcel_layer_map_site", "layer_id", "town", "map_par_id", "loc_id", "lon", "lat"),
    )
    id: int | None = Field(default=None, primary_key=True)
    layer_id: int = Field(foreign_key="parcel_layer.id", index=True)
    town: str
    loc_id: str
    map_par_id: str
    poly_type: str
    site_addr: str
    geometry: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    wgs84: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    lon: float
    lat: float
    minx: float
    miny: float
    maxx: float
    maxy: float


class ParcelOwnerRow(SQLModel, table=True):
    __tablename__ = "parcel_owner"
    __table_args__ = (
        Index("ix_parcel_owner_layer_loc_id", "layer_id", "loc_id"),
        Index("ix_parcel_owner_layer_site_key", "layer_id", "site_key"),
    )
    id: int | None = Field(default=None, primary_key=True)
    layer_id: int = Field(foreign_key="parcel_layer.id")
    loc_id: str
    prop_id: str
    site_addr: str
    site_key: str
    name: str
    street: str
    city: str
    state: str
    zip: str


class AbutterList(SQLModel, table=True):
    __tablename__ = "abutter_list"
    filing_id: str = Field(foreign_key="filing.id", primary_key=True)
    source: str  # upload | parcels
    file_name: str | None = None
    layer_id: int | None = Field(default=None, foreign_key="parcel_layer.id")
    town: str | None = None
    fiscal_year: int | None = None
    loc_id: str | None = None
    parcel: str | None = None
    rule: str | None = None
    #: every listed parcel as [town, LOC_ID], for the filing's map
    parcels: list | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    made_by: str
    made_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))  # UTC, naive
