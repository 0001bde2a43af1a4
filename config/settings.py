"""Every ``PERMITS_*`` setting, what it means and its default, and
:func:`load`, which reads them from the environment into :class:`Settings`.

:data:`SETTINGS` is the table ``docs/operations/configuration.md`` shows (a
test finds every ``PERMITS_`` name in the code and in that page, and fails
on one missing from either).  Nothing else in the project reads
``os.environ`` for a ``PERMITS_`` name (a test checks that too).

Cheap to import (the standard library and the error root), so
``permits replay`` and ``permits show`` pay nothing for it.
"""

from __future__ import annotations

import getpass
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from calendars.errors import PermitsError

from .clock import DEFAULT_TIMEZONE, town_zone

__all__ = [
    "Setting",
    "SETTINGS",
    "Settings",
    "BadSetting",
    "load",
    "environment",
    "DEFAULT_MAIL_FROM",
    "DEFAULT_UPLOAD_MAX_MB",
    "DEFAULT_FORM_MAX_KB",
    "DEFAULT_TIMEZONE",
    "DEFAULT_BASE_URL",
    "DEFAULT_APPLICATIONS_PER_DAY",
    "DEFAULT_UPLOAD_MB_PER_DAY",
    "DEFAULT_SWEEP_CHECK_SAMPLE",
]

DEFAULT_MAIL_FROM = "permits@localhost"
DEFAULT_UPLOAD_MAX_MB = 25
DEFAULT_FORM_MAX_KB = 512
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_APPLICATIONS_PER_DAY = 10
DEFAULT_UPLOAD_MB_PER_DAY = 100
DEFAULT_SWEEP_CHECK_SAMPLE = 50


class Setting(NamedTuple):
    name: str
    default: str
    meaning: str


#: Every setting, in the order the configuration page lists them.
SETTINGS: tuple[Setting, ...] = (
    Setting(
        "PERMITS_DATA_DIR",
        "`$XDG_DATA_HOME/permits`, else `~/.local/share/permits`",
        "the data directory: the default SQLite store `permits.db`, uploads, the holidays cache, "
        "Prefect's home for the embedded run, the sweep's ledger for a folder of filings, the demo store",
    ),
    Setting(
        "PERMITS_DATABASE_URL",
        "`sqlite:///DATA_DIR/permits.db`",
        "the store: `sqlite:///PATH` or `postgresql+psycopg://USER:PASSWORD@HOST:PORT/DB`; `--db URL` wins over it",
    ),
    Setting("PERMITS_UPLOADS_DIR", "`DATA_DIR/uploads`", "where uploaded plans are kept (outside any web root)"),
    Setting("PERMITS_UPLOAD_MAX_MB", str(DEFAULT_UPLOAD_MAX_MB), "the largest plan an applicant may upload, in MB"),
    Setting(
        "PERMITS_FORM_MAX_KB",
        str(DEFAULT_FORM_MAX_KB),
        "the largest form the workbench reads, in KB, besides its file: a larger request body is refused "
        "(413) before it is read; a form with a plan may add `PERMITS_UPLOAD_MAX_MB`",
    ),
    Setting("PERMITS_SMTP_URL", "unset: nothing is sent", "the SMTP server: `smtp://`, `smtp+starttls://` or `smtps://` URL"),
    Setting("PERMITS_MAIL_FROM", f"`{DEFAULT_MAIL_FROM}`", "the sender of every email (`Town permits <ADDRESS>` when bare)"),
    Setting(
        "PERMITS_SECRET_KEY",
        "a fresh key at each start (a restart logs everyone out)",
        "signs the workbench's session cookies; give the same key to every worker and server",
    ),
    Setting(
        "PERMITS_HTTPS",
        "`no`",
        "`yes` when the workbench is reached only over HTTPS (a TLS proxy in front): the session cookie is sent "
        "only over HTTPS (`Secure`) and browsers are told to use HTTPS for a year (HSTS); never on plain HTTP",
    ),
    Setting(
        "PERMITS_SERVER_TIMING",
        "`no`",
        "`yes` to send every response's app time in a `Server-Timing` header (what the benchmarks read); "
        "off, nobody outside learns how long the server took",
    ),
    Setting(
        "PERMITS_TRUSTED_PROXIES",
        "unset: `X-Forwarded-For` is never read",
        "the reverse proxies' addresses or networks, comma-separated, whose `X-Forwarded-For` names the client",
    ),
    Setting(
        "PERMITS_DASK_ADDRESS", "unset: threads in the sweep's process", "a Dask scheduler (`tcp://HOST:PORT`) for the sweep"
    ),
    Setting("PERMITS_USER", "the login name", "who records an event or an import from the command line (`--by` wins)"),
    Setting(
        "PERMITS_MAP_TILES_URL",
        "unset: no basemap, the parcels drawn alone",
        "the town's own tile server for the workbench map, `https://HOST/.../{z}/{x}/{y}.png` (fetched by the browser)",
    ),
    Setting(
        "PERMITS_MAP_TILES_ATTRIBUTION",
        "unset: none shown",
        "the credit line the tile server's terms ask the map to show",
    ),
    Setting(
        "PERMITS_TIMEZONE",
        f"`{DEFAULT_TIMEZONE}`",
        "the towns' time zone (an IANA name): every stamp printed or shown (postings, emails, the timeline, "
        'sent lists) and every "today" is in it, whatever zone the server runs in',
    ),
    Setting(
        "PERMITS_BASE_URL",
        f"`{DEFAULT_BASE_URL}`; under `permits serve`, the address it serves",
        "the workbench's public address, the start of every link an email carries (an invitation to follow a filing "
        "or to join the staff, a registration, a password reset); never taken from a request's `Host` header; `permits demo` always uses the address it serves",
    ),
    Setting(
        "PERMITS_APPLICATIONS_PER_DAY",
        str(DEFAULT_APPLICATIONS_PER_DAY),
        "how many applications one applicant's account may submit online in a day (America/New_York); the next is refused",
    ),
    Setting(
        "PERMITS_UPLOAD_MB_PER_DAY",
        str(DEFAULT_UPLOAD_MB_PER_DAY),
        "how many MB of plans one applicant's account may upload in a day (America/New_York), applications and "
        "resubmissions together; a plan over what is left is refused",
    ),
    Setting(
        "PERMITS_SWEEP_CHECK_SAMPLE",
        str(DEFAULT_SWEEP_CHECK_SAMPLE),
        "how many filings, chosen at random, the daily sweep checks against their histories after it runs "
        "(`permits check --sample`); a difference is reported in its output (`record-check.json`) and log; 0: none",
    ),
)

_NAMES = frozenset(s.name for s in SETTINGS)


class Settings(NamedTuple):
    """The settings of one process, as :func:`load` read them."""

    data_dir: Path
    database_url: str | None
    uploads_dir: Path
    upload_max_bytes: int
    form_max_bytes: int
    smtp_url: str | None
    mail_from: str
    secret_key: str | None
    https: bool
    trusted_proxies: str
    dask_address: str | None
    user: str
    map_tiles_url: str | None = None
    map_tiles_attribution: str = ""
    timezone: str = DEFAULT_TIMEZONE
    base_url: str = DEFAULT_BASE_URL
    applications_per_day: int = DEFAULT_APPLICATIONS_PER_DAY
    upload_bytes_per_day: int = DEFAULT_UPLOAD_MB_PER_DAY * 1024 * 1024
    sweep_check_sample: int = DEFAULT_SWEEP_CHECK_SAMPLE
    server_timing: bool = False

    def store_url(self, given: str | None = None) -> str:
        """``--db`` (``given``) first, then ``PERMITS_DATABASE_URL``, then
        ``permits.db`` in the data directory."""
        return given or self.database_url or f"sqlite:///{self.data_dir / 'permits.db'}"

    @property
    def sweep_ledger(self) -> Path:
        """Where a sweep of a folder of filing JSON records what it made."""
        return self.data_dir / "sweep-ledger.sqlite"

    @property
    def demo_dir(self) -> Path:
        return self.data_dir / "demo"

    @property
    def prefect_home(self) -> Path:
        return self.data_dir / "prefect"


class BadSetting(PermitsError):
    """A setting whose value cannot be used; the message names it."""


def _data_dir(env: Mapping[str, str]) -> Path:
    if env.get("PERMITS_DATA_DIR"):
        return Path(env["PERMITS_DATA_DIR"])
    base = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "permits"


def _megabytes(env: Mapping[str, str], name: str, default: float) -> int:
    text = env.get(name)
    if not text:
        return int(default * 1024 * 1024)
    try:
        value = float(text)
    except ValueError:
        raise BadSetting(f"{name}={text!r}: a number of megabytes, such as 25") from None
    if not 0 < value <= 10_000:
        raise BadSetting(f"{name}={text!r}: between 0 and 10000 megabytes")
    return int(value * 1024 * 1024)


def _kilobytes(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name)
    if not text:
        return default * 1024
    if not (text.isascii() and text.isdigit()) or not 16 <= int(text) <= 1_000_000:
        raise BadSetting(f"{name}={text!r}: a whole number of kilobytes from 16 to 1000000, such as {default}")
    return int(text) * 1024


def _yes_no(env: Mapping[str, str], name: str) -> bool:
    text = (env.get(name) or "no").strip().lower()
    if text not in ("yes", "no", "true", "false", "1", "0", "on", "off"):
        raise BadSetting(f"{name}={env.get(name)!r}: yes or no")
    return text in ("yes", "true", "1", "on")


def _base_url(env: Mapping[str, str]) -> str:
    from urllib.parse import urlsplit

    text = (env.get("PERMITS_BASE_URL") or DEFAULT_BASE_URL).strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a port that is not a number raises
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise BadSetting(f"PERMITS_BASE_URL={text!r}: the workbench's address, such as https://permits.canton.example")
    if parts.username or parts.password or any(c.isspace() for c in text):
        raise BadSetting(f"PERMITS_BASE_URL={text!r}: an address without a user, password or spaces")
    return text.rstrip("/")


def _whole(env: Mapping[str, str], name: str, default: int, most: int) -> int:
    text = env.get(name)
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= most:
        raise BadSetting(f"{name}={text!r}: a whole number from 1 to {most}, such as {default}")
    return int(text)


def _login_name(env: Mapping[str, str]) -> str:
    if env.get("USER"):
        return env["USER"]
    try:
        return getpass.getuser()
    except Exception:  # no login name (a container without a passwd entry)
        return "unknown"


def _tiles_url(text: str | None) -> str | None:
    """A tile URL template the browser can fetch: http(s), with {z}, {x} and {y}."""
    if text is None:
        return None
    if not re.fullmatch(r"https?://[^\s\"'<>]+", text) or not all(f"{{{p}}}" in text for p in "zxy"):
        raise BadSetting(
            f"PERMITS_MAP_TILES_URL={text!r}: an http(s) URL with {{z}}, {{x}} and {{y}}, "
            "such as https://gis.town.example/tiles/{z}/{x}/{y}.png"
        )
    return text


def load(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from ``environ`` (default: this process's environment).
    An empty variable counts as unset.  :class:`BadSetting` names a value
    that cannot be used."""
    env = os.environ if environ is None else environ
    data = _data_dir(env)
    return Settings(
        data_dir=data,
        database_url=env.get("PERMITS_DATABASE_URL") or None,
        uploads_dir=Path(env["PERMITS_UPLOADS_DIR"]) if env.get("PERMITS_UPLOADS_DIR") else data / "uploads",
        upload_max_bytes=_megabytes(env, "PERMITS_UPLOAD_MAX_MB", DEFAULT_UPLOAD_MAX_MB),
        form_max_bytes=_kilobytes(env, "PERMITS_FORM_MAX_KB", DEFAULT_FORM_MAX_KB),
        smtp_url=env.get("PERMITS_SMTP_URL") or None,
        mail_from=env.get("PERMITS_MAIL_FROM") or DEFAULT_MAIL_FROM,
        secret_key=env.get("PERMITS_SECRET_KEY") or None,
        https=_yes_no(env, "PERMITS_HTTPS"),
        trusted_proxies=env.get("PERMITS_TRUSTED_PROXIES", ""),
        dask_address=env.get("PERMITS_DASK_ADDRESS") or None,
        user=env.get("PERMITS_USER") or _login_name(env),
        map_tiles_url=_tiles_url(env.get("PERMITS_MAP_TILES_URL") or None),
        map_tiles_attribution=(env.get("PERMITS_MAP_TILES_ATTRIBUTION") or "")[:300],
        timezone=_timezone(env),
        base_url=_base_url(env),
        applications_per_day=_whole(env, "PERMITS_APPLICATIONS_PER_DAY", DEFAULT_APPLICATIONS_PER_DAY, 10_000),
        upload_bytes_per_day=_whole(env, "PERMITS_UPLOAD_MB_PER_DAY", DEFAULT_UPLOAD_MB_PER_DAY, 1_000_000) * 1024 * 1024,
        sweep_check_sample=_sample(env),
        server_timing=_yes_no(env, "PERMITS_SERVER_TIMING"),
    )


def _sample(env: Mapping[str, str]) -> int:
    text = env.get("PERMITS_SWEEP_CHECK_SAMPLE")
    if not text:
        return DEFAULT_SWEEP_CHECK_SAMPLE
    if not (text.isascii() and text.isdigit()) or int(text) > 1_000_000:
        raise BadSetting(
            f"PERMITS_SWEEP_CHECK_SAMPLE={text!r}: a whole number of filings from 0 (none) to 1000000, "
            f"such as {DEFAULT_SWEEP_CHECK_SAMPLE}"
        )
    return int(text)


def environment(settings: Settings) -> dict[str, str]:
    """Every ``PERMITS_*`` variable, as text under which :func:`load` reads
    ``settings`` back (an unset one as ``""``): what ``permits serve
    --workers N`` hands its worker processes, so each reads the same
    database URL and session key as the command did."""
    return {
        "PERMITS_DATA_DIR": str(settings.data_dir),
        "PERMITS_DATABASE_URL": settings.database_url or "",
        "PERMITS_UPLOADS_DIR": str(settings.uploads_dir),
        "PERMITS_UPLOAD_MAX_MB": repr(settings.upload_max_bytes / (1024 * 1024)),
        "PERMITS_SMTP_URL": settings.smtp_url or "",
        "PERMITS_MAIL_FROM": settings.mail_from,
        "PERMITS_SECRET_KEY": settings.secret_key or "",
        "PERMITS_TRUSTED_PROXIES": settings.trusted_proxies,
        "PERMITS_DASK_ADDRESS": settings.dask_address or "",
        "PERMITS_USER": settings.user,
        "PERMITS_FORM_MAX_KB": str(settings.form_max_bytes // 1024),
        "PERMITS_HTTPS": "yes" if settings.https else "no",
        "PERMITS_MAP_TILES_URL": settings.map_tiles_url or "",
        "PERMITS_MAP_TILES_ATTRIBUTION": settings.map_tiles_attribution,
        "PERMITS_TIMEZONE": settings.timezone,
        "PERMITS_BASE_URL": settings.base_url,
        "PERMITS_APPLICATIONS_PER_DAY": str(settings.applications_per_day),
        "PERMITS_UPLOAD_MB_PER_DAY": str(settings.upload_bytes_per_day // (1024 * 1024)),
        "PERMITS_SWEEP_CHECK_SAMPLE": str(settings.sweep_check_sample),
        "PERMITS_SERVER_TIMING": "yes" if settings.server_timing else "no",
    }


def _timezone(env: Mapping[str, str]) -> str:
    name = (env.get("PERMITS_TIMEZONE") or DEFAULT_TIMEZONE).strip()
    try:
        town_zone(name)
    except PermitsError:
        raise BadSetting(f"PERMITS_TIMEZONE={name!r}: an IANA time zone, such as {DEFAULT_TIMEZONE}") from None
    return name
