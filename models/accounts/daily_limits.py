"""Per-account limits on online applications and uploaded bytes in a day
(``PERMITS_APPLICATIONS_PER_DAY``, ``PERMITS_UPLOAD_MB_PER_DAY``, handed
in by the caller as :class:`DailyLimits`).

A day is the town's: from midnight in America/New_York, whatever zone the
server runs in.  What counts is in the record already: the applications an
account submitted (``account_filing`` rows linked ``submitted``) and the
sizes of the plans it uploaded (``upload`` rows, applications and
resubmissions together) since that midnight.  :func:`check_daily` runs in
the transaction that would add one more, after locking the account's row,
so two requests at once cannot both take the last place; a refusal raises
:class:`DailyLimitReached`, the transaction rolls back and nothing is kept.
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from models.errors import DailyLimitReached
from models.schema.tables import AccountFiling, Upload, UserRow
from models.types import DailyLimits

__all__ = ["DailyLimits", "DailyLimitReached", "check_daily", "day_start"]

ZONE = ZoneInfo("America/New_York")
LINK, UPLOAD, USER = AccountFiling.__table__, Upload.__table__, UserRow.__table__


def day_start(now: datetime) -> datetime:
    """Midnight of ``now``'s day in America/New_York, in UTC (how the
    record keeps the moments of uploads and links)."""
    local = now.astimezone(ZONE)
    midnight = datetime.combine(local.date(), time(0), tzinfo=ZONE)
    return midnight.astimezone(UTC)


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_daily(
    conn: Connection, account_id: int, limits: DailyLimits, now: datetime, *, new_bytes: int, new_application: bool
) -> None:
    """Refuse (DailyLimitReached) one more application (``new_application``)
    with ``new_bytes`` of plans from the account, if it passes a limit of
    the day of ``now``; in the caller's transaction, the account's row
    locked first."""
    conn.execute(select(USER.c.id).where(USER.c.id == account_id).with_for_update()).first()
    since = day_start(now)
    tomorrow = "you may submit again from midnight (Eastern time), or ask the town's permit office"
    if new_application:
        made = conn.execute(
            select(func.count())
            .select_from(LINK)
            .where(LINK.c.account_id == account_id, LINK.c.how == "submitted", LINK.c.linked_at >= since)
        ).scalar_one()
        if made >= limits.applications:
            raise DailyLimitReached(
                f"this account has submitted {made} application{'s' if made != 1 else ''} today, the most one account "
                f"may submit online in a day ({limits.applications}); nothing was submitted: {tomorrow}",
                what="applications",
            )
    if new_bytes:
        used = conn.execute(
            select(func.coalesce(func.sum(UPLOAD.c.size), 0)).where(
                UPLOAD.c.account_id == account_id, UPLOAD.c.uploaded_at >= since
            )
        ).scalar_one()
        if used + new_bytes > limits.upload_bytes:
            left = max(0, limits.upload_bytes - used)
            raise DailyLimitReached(
                f"this plan ({_mb(new_bytes)}) would bring this account's uploads today to {_mb(used + new_bytes)}, over "
                f"the {_mb(limits.upload_bytes)} one account may upload in a day ({_mb(left)} left today); nothing was "
                f"submitted: {tomorrow}",
                what="upload",
            )
