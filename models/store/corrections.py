"""Rewriting a filing's fields after the applicant corrected them
(:func:`services.apply.resubmit`): the filing row's JSON, its site address
and parcel columns and its parties, in the caller's transaction, the same
transaction that records the ``submitted`` event naming every change
(the history keeps what the fields were).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import update
from sqlalchemy.engine import Connection

from models.schema.tables import FilingRow
from models.store.parties import PARTY_ROLES, party_specs, upsert_parties
from workflows.filing import Filing
from workflows.sites import spaced_key

__all__ = ["rewrite_fields"]

FILING = FilingRow.__table__


def _site(extra: Mapping, name: str) -> str | None:
    value = extra.get(name)
    site = extra.get("site")
    if not isinstance(value, str) and isinstance(site, Mapping):
        value = site.get(name)
    return value if isinstance(value, str) else None


def rewrite_fields(conn: Connection, filing: Filing, extra: Mapping) -> None:
    """Store ``extra`` as the filing's fields, with the columns read from
    them (site address and its site key, parcel, the parties a search
    finds by name)."""
    corrected = Filing(filing.town, filing.kind, filing.id, filing.events, filing.also, dict(extra))
    specs = party_specs(corrected)
    ids = upsert_parties(conn, [specs[role] for role in PARTY_ROLES if role in specs])
    values = {
        "extra": dict(extra),
        "address": _site(extra, "address"),
        "site_key": spaced_key(_site(extra, "address")),
        "parcel": _site(extra, "parcel"),
        **{f"{role}_id": ids[specs[role]["name"]] for role in PARTY_ROLES if role in specs},
    }
    conn.execute(update(FILING).where(FILING.c.id == filing.id).values(**values))
