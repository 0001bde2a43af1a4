"""The command line's cache of the ``holidays`` package's answers for
Massachusetts, in the data directory (an edge: the calendar itself reads
neither the disk nor the environment).

Importing and running the library costs about half a second a process; the
statute's holidays for 2000-2100 do not change for a given library version.
The first command computes them once with the library and keeps them in
``<data dir>/ma-holidays-<holidays version>.json``; later commands read that.
A missing, unreadable or corrupt cache is rebuilt; a data directory that
cannot be written only costs the time.  The statute's corrections
(calendars.massachusetts) apply to cached and fresh answers alike.
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from datetime import date
from pathlib import Path

from calendars import massachusetts

__all__ = ["holidays_version", "install_holiday_cache"]


def holidays_version() -> str:
    """The installed ``holidays`` version, from its ``.dist-info`` folder's
    name, without importing the package or importlib.metadata (~15 ms)."""
    spec = importlib.util.find_spec("holidays")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the holidays package is not installed")
    site = Path(list(spec.submodule_search_locations)[0]).parent
    for info in sorted(site.glob("holidays-*.dist-info")):
        return info.name[len("holidays-") : -len(".dist-info")]
    from importlib import metadata  # an unusual install: ask the slow way

    return metadata.version("holidays")


def _cache_path(directory: Path) -> Path:
    return directory / f"ma-holidays-{holidays_version()}.json"


def install_holiday_cache(directory: Path) -> Path:
    """Give the calendar the statute's holidays from the cache in
    ``directory`` (the data directory), made there first if need be."""
    path = _cache_path(directory)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        table = {int(y): tuple((date.fromisoformat(d), n) for d, n in pairs) for y, pairs in raw["years"].items()}
        if set(table) != set(range(massachusetts.FIRST_YEAR, massachusetts.LAST_YEAR + 1)):
            raise ValueError("cache does not cover the calendar's years")
    except (OSError, ValueError, KeyError, TypeError):
        table = massachusetts.library_table()
        _write(path, table)
    massachusetts.preload_library_table(table)
    return path


def _write(path: Path, table) -> None:
    payload = {
        "source": f"holidays {holidays_version()} US(subdiv='MA')",
        "years": {str(y): [[d.isoformat(), n] for d, n in pairs] for y, pairs in table.items()},
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".holidays-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(payload, fh)
        os.replace(tmp, path)  # readers see the old file or the whole new one
    except OSError:
        pass  # a read-only data directory only costs the time
