"""The town's clock: the one place the edges read "now" and "today".

Every Massachusetts town keeps America/New_York time (``PERMITS_TIMEZONE``,
:data:`DEFAULT_TIMEZONE`), whatever zone the server runs in.  The record
keeps two kinds of moment:

- moments the store stamps (an event's ``recorded_at``, a notice's
  ``produced_at``, an email's ``sent_at``, a session's expiry) are UTC;
  :func:`in_town` turns one into the town's wall time for display;
- wall times the record states (an event's ``at`` and hearing time, a
  notice's ``dated`` stamp, a meeting's time) are naive and are the town's
  local time: :func:`town_now` gives such a moment for "now".

So a posting printed at 11:54 a.m. in Massachusetts reads 11:54 a.m. on a
server whose zone is UTC.  The core (workflows/, calendars/) never reads
the clock: the edges call these and pass the day and the moment down.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from calendars.errors import PermitsError

__all__ = ["DEFAULT_TIMEZONE", "town_zone", "town_now", "town_today", "in_town", "town_stamp", "wall_stamp", "utc_now"]

#: the zone of every Massachusetts town
DEFAULT_TIMEZONE = "America/New_York"


def utc_now() -> datetime:
    """The system clock, aware, in UTC (the one read of it here)."""
    return datetime.now(UTC)


def town_zone(name: str = DEFAULT_TIMEZONE) -> ZoneInfo:
    """The zone named ``name`` (an IANA name); :class:`PermitsError` naming
    the setting for an unknown one."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise PermitsError(f"PERMITS_TIMEZONE={name!r}: not a time zone, such as {DEFAULT_TIMEZONE}") from None


def town_now(zone: str = DEFAULT_TIMEZONE, clock: Callable[[], datetime] = utc_now) -> datetime:
    """The town's wall time now, naive, to the minute: what a posting's
    "Posted ... at" stamp and an email's date print."""
    return clock().astimezone(town_zone(zone)).replace(tzinfo=None, second=0, microsecond=0)


def town_today(zone: str = DEFAULT_TIMEZONE, clock: Callable[[], datetime] = utc_now) -> date:
    """The town's date now (at 9 p.m. in Boston it is still today there,
    though tomorrow in UTC)."""
    return clock().astimezone(town_zone(zone)).date()


def in_town(moment: datetime, zone: str = DEFAULT_TIMEZONE) -> datetime:
    """A stored moment in the town's zone, aware.  A naive ``moment`` is one
    the store stamped, so UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(town_zone(zone))


def town_stamp(moment: datetime | None, zone: str = DEFAULT_TIMEZONE) -> str:
    """A stored (UTC) moment as the town reads it: ``2026-12-01 11:54 EST``."""
    if moment is None:
        return ""
    return in_town(moment, zone).strftime("%Y-%m-%d %H:%M %Z")


def wall_stamp(moment: datetime | str | None, zone: str = DEFAULT_TIMEZONE) -> str:
    """A wall time the record states (naive, the town's: a notice's
    ``dated``, an event's ``at``), with its zone named:
    ``2026-12-01 11:54 EST``."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=town_zone(zone))
    return moment.astimezone(town_zone(zone)).strftime("%Y-%m-%d %H:%M %Z")
