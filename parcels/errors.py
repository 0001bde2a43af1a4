"""The parcels' errors, each one line naming what is wrong (drawn in
workflows/errors.py's tree):

PermitsError
 └── ParcelError            a parcel question that cannot be answered
      ├── ParcelFileError   an assessors' layer that cannot be imported as it is
      ├── UnknownParcel     no parcel with that id in the town's imported parcels
      └── NoParcels         the town has no parcels imported
"""

from __future__ import annotations

from workflows.errors import PermitsError

__all__ = ["ParcelError", "ParcelFileError", "UnknownParcel", "NoParcels"]


class ParcelError(PermitsError):
    pass


class ParcelFileError(ParcelError):
    """The file, a layer or a field of it, named with what is wrong; nothing
    was imported."""

    def __init__(self, message: str):
        super().__init__(f"{message}; nothing was imported")


class UnknownParcel(ParcelError):
    def __init__(self, town: str, parcel: str, fiscal_year: int | None = None):
        self.town, self.parcel = town, parcel
        year = f" (FY{fiscal_year})" if fiscal_year else ""
        super().__init__(
            f"no parcel {parcel!r} in {town}'s parcels{year}: give its LOC_ID or map-lot id (see 'permits parcels find')"
        )


class NoParcels(ParcelError):
    def __init__(self, town: str):
        self.town = town
        super().__init__(
            f"{town} has no parcels imported: import the assessors' parcels first (permits parcels import PATH --town {town})"
        )
