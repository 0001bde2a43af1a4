"""The notices recorded on a filing, one line per sending (its recipients
together) with how it went and who recorded it, for the filing's page
(:meth:`services.notice_log.StoreNoticeLog.sendings`)."""

from __future__ import annotations

from sqlalchemy import select

from models.schema.tables import Notice

from .queries import as_datetime, as_utc

__all__ = ["sendings"]

NOTICE = Notice.__table__


def sendings(store, filing_id: str) -> list[dict]:
    """Each sending of a notice on the filing, oldest first: ``kind``,
    ``at`` (the notice's own date and time, else when it was recorded;
    the day alone for a sending staff recorded),
    ``recipients`` (their keys, in order), ``how`` (a word of
    :data:`notices.log.WAYS`; ``email`` for the outbox's emails, none when
    not said) and ``by`` (the account that recorded it, if staff did)."""
    columns = (
        NOTICE.c.kind,
        NOTICE.c.occasion,
        NOTICE.c.recipient,
        NOTICE.c.dated,
        NOTICE.c.produced_at,
        NOTICE.c.channel,
        NOTICE.c.how,
        NOTICE.c.recorded_by,
    )
    with store.reader.connect() as conn:
        rows = conn.execute(select(*columns).where(NOTICE.c.filing_id == filing_id).order_by(NOTICE.c.id)).all()
    out: dict[tuple, dict] = {}
    for kind, occasion, recipient, dated, produced_at, channel, how, by in rows:
        how = how or ("email" if channel == "email" else None)
        at = as_datetime(dated) if dated is not None else as_utc(produced_at)
        if how and channel != "email" and by:  # staff said the day it went, not the minute
            at = at.date()
        key = (kind, occasion, at, how, by)
        line = out.setdefault(key, {"kind": kind, "at": at, "recipients": [], "how": how, "by": by})
        line["recipients"].append(recipient or "")
    return list(out.values())
