"""The fees a town's office sets, written on the connection of the service
layer's unit of work (:func:`services.town_fees.set_fee`): a row added,
never one changed."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy.engine import Connection

from models.schema.town_fee_tables import TOWN_FEE

__all__ = ["add_fee"]


def add_fee(conn: Connection, *, town: str, kind: str, cents: int, effective: date, reason: str, by: str, now: datetime) -> None:
    """Keep the fee ``cents`` for ``kind`` filings of ``town`` filed on or
    after ``effective``, set by ``by`` at ``now`` for ``reason``."""
    conn.execute(
        TOWN_FEE.insert(),
        [
            {
                "town": town,
                "kind": kind,
                "cents": cents,
                "effective": effective,
                "reason": reason,
                "recorded_by": by,
                "recorded_at": now.replace(tzinfo=None),
            }
        ],
    )
