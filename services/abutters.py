"""A filing's abutter list: read from the assessors' CSV (one reader for the
command line's ``--abutters FILE`` and the workbench's upload:
:func:`notices.abutters.read_abutter_bytes`, every encoding, the owner
merge), kept on the filing in the store with every part the file gave, and
read back as the notices' parties without a detour through CSV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from notices.abutters import parse_mailing_address, read_abutter_bytes, read_abutters
from notices.context import Party
from notices.errors import AbutterListError

__all__ = [
    "MAX_LIST_BYTES",
    "ListTooLarge",
    "upload_abutter_list",
    "stored_abutters",
    "abutters_for_notice",
    "party_row",
    "party_of_row",
]

#: The largest abutter list the workbench takes (a town's whole assessors'
#: export is a few hundred KB).
MAX_LIST_BYTES = 2_000_000


class ListTooLarge(AbutterListError):
    """An abutter list larger than :data:`MAX_LIST_BYTES`."""

    def __init__(self, name: str):
        super().__init__(f"abutter list {name}: over {MAX_LIST_BYTES // 1_000_000} MB; is it the right file?")


def party_row(p: Party) -> dict:
    """What the store keeps of one abutter (:data:`models.read.workbench.ABUTTER_FIELDS`)."""
    return {
        "name": p.name,
        "address": f"{p.street}, {p.city}, {p.state} {p.zip}",
        "parcel": "; ".join(p.parcels) or None,
        "street": p.street,
        "city": p.city,
        "state": p.state,
        "zip": p.zip,
        "ring": p.ring,
        "parcels": list(p.parcels),
    }


def party_of_row(row: Mapping, source: str) -> Party:
    """A stored abutter as the notices' :class:`~notices.context.Party`.  A
    row kept before its parts were (or from a filing's JSON, which gives one
    address line) is read from its address line; AbutterListError when that
    is not ``street, city, ST 12345``."""
    if row.get("street") and row.get("city") and row.get("zip"):
        street, city, state, zipc = row["street"], row["city"], row.get("state") or "", row["zip"]
        parcels = tuple(row.get("parcels") or ())
    else:
        parts = parse_mailing_address(row.get("address") or "")
        if parts is None:
            raise AbutterListError(
                f"{source}: {row.get('name')!r} has no mailing address as 'street, city, ST 12345' "
                f"(it has {row.get('address')!r}); upload the assessors' list again"
            )
        street, city, state, zipc = parts
        parcels = tuple(x.strip() for x in (row.get("parcel") or "").replace(";", ",").split(",") if x.strip())
    return Party(row["name"], street, city, state, zipc, parcels, row.get("ring") or "abutter", "abutter")


def upload_abutter_list(
    store,
    filing_id: str,
    data: bytes,
    name: str,
    *,
    expect_seq: int | None = None,
    expect_version: str | None = None,
    by: str = "unknown",
    now: datetime | None = None,
) -> list[Party]:
    """Read the assessors' file ``name`` (its bytes ``data``) and make it the
    filing's abutter list, in one unit of work, noting that it was uploaded
    (by ``by`` at ``now``): an uploaded list wins over one computed from the
    parcels (services/parcel_abutters.py).  The parties as read.
    ``expect_seq`` and ``expect_version``: the filing's event count and its
    list's version when the form was drawn (StaleFiling, nothing written, if
    either moved).  AbutterListError names what is wrong with the file."""
    from models.store.abutters import replace_abutters

    from .unit_of_work import UnitOfWork

    if len(data) > MAX_LIST_BYTES:
        raise ListTooLarge(name)
    parties = read_abutter_bytes(data, name)
    source = {"source": "upload", "file_name": name, "made_by": by, "made_at": now or store.now()}
    with UnitOfWork(store) as uow:
        replace_abutters(
            uow.conn,
            filing_id,
            [party_row(p) for p in parties],
            expect_seq=expect_seq,
            expect_version=expect_version,
            source=source,
        )
    return parties


def stored_abutters(store, filing_id: str) -> list[Party] | None:
    """The filing's abutter list as kept in the store, or None for none."""
    from models.read import workbench

    rows = workbench.abutters(store, filing_id)
    if not rows:
        return None
    return [party_of_row(r, f"the stored abutter list of {filing_id}") for r in rows]


def abutters_for_notice(store, filing_id: str | None, path: str | None) -> Sequence[Party] | None:
    """The abutter list a notice is made with: the file at ``path`` when one
    is given (``--abutters FILE``), else the list kept on the filing in the
    store (``filing_id``; None for a filing JSON file)."""
    if path:
        return read_abutters(path)
    if store is None or filing_id is None:
        return None
    return stored_abutters(store, filing_id)
