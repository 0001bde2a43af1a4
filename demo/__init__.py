"""The demonstration, a layer beside the sweep: realistic generated filings
(:mod:`demo.generate`, with their parties :mod:`demo.generated_parties`),
seeded and pure, for the demo store, the tests and every benchmark; the
demo towns' assessors' parcels in the MassGIS Level 3 schema, generated
for those filings (:mod:`demo.parcels`);
filings and enforcement cases at each later stage of a permit, written by
hand (:mod:`demo.stages`); and the demo store's users (:mod:`demo.users`:
one of each staff role and an applicant following two of the filings).

May import: :mod:`models`, :mod:`parcels`, :mod:`workflows`,
:mod:`calendars`.  Never the sweep beside it, the service layer or an
interface.
"""

__all__ = ["generate", "generated_parties", "parcels", "stages", "users"]
