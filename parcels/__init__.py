"""The assessors' parcels, beside the record: a town's MassGIS Level 3
layers read through pyogrio (:mod:`parcels.l3`) within bounds (a file's
size, a parcel's vertices, a repair's time and memory: :mod:`parcels.repair`), their polygons in an
STRtree (:mod:`parcels.index`), a town's abutter rule applied to them
(:mod:`parcels.abutters`; what it reads across ways and water for every
parcel at once: :mod:`parcels.opposite`), site addresses made comparable
(:mod:`parcels.sites`), and the map's geometry, State Plane to WGS84
through pyproj and GeoJSON for the zoom (:mod:`parcels.geo`).  The store
keeps what this reads as WKB and plain values (models/read/parcels.py); the
service layer joins the two (services/parcels.py).

May import: :mod:`workflows` (the abutter rules, the error root) and
:mod:`calendars`, shapely, pyproj, pyogrio, numpy and the standard library.
Never the record (a sibling: it hands plain values across), notices, the
settings, the sweep, the service layer or an interface.  It reads the disk
only where asked to read a layer, and never the clock.
"""

__all__ = ["abutters", "errors", "geo", "index", "l3", "opposite", "repair", "sites"]
