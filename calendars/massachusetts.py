"""Massachusetts legal holidays as M.G.L. c.4 §7 cl.18 defines them.

Built on the ``holidays`` package (``US(subdiv="MA")``) and then held to the
statute, whatever the library version does:

* January 1, June 19, July 4, November 11 and Christmas Day move to the
  following Monday when they fall on a Sunday ("SUN_TO_NEXT_MON");
* a holiday that falls on a Saturday is *not* moved to the Friday: any
  "(observed)" day the library puts anywhere but on a Monday after a Sunday
  holiday is dropped;
* Evacuation Day (March 17) and Bunker Hill Day (June 17) are holidays in
  Suffolk County only (St. 1941 c.663; St. 1938 c.148): they are removed for
  every other town and added for a Suffolk town.

Pure: no I/O, no clock.  The result for a year is cached.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache

from .errors import UnservableYear

__all__ = [
    "library_table",
    "preload_library_table",
    "STATUTE",
    "FIRST_YEAR",
    "LAST_YEAR",
    "SUFFOLK_ONLY",
    "legal_holidays",
]

STATUTE = "M.G.L. c.4 §7 cl.18"
FIRST_YEAR = 2000
LAST_YEAR = 2100

#: Holidays of Suffolk County alone, by (month, day).
SUFFOLK_ONLY = {(3, 17): "Evacuation Day", (6, 17): "Bunker Hill Day"}

_OBSERVED = "(observed)"


def check_year(year: int) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise UnservableYear(year, FIRST_YEAR, LAST_YEAR)


#: year -> the library's (date, name) pairs; filled on demand, or up front
#: by :func:`preload_library_table` from a cache the edge keeps.
_LIBRARY: dict[int, tuple[tuple[date, str], ...]] = {}


def library_table(first: int = FIRST_YEAR, last: int = LAST_YEAR) -> dict[int, tuple[tuple[date, str], ...]]:
    """What ``holidays.US(subdiv="MA")`` gives for each year in [first, last],
    computed in one call (per-year calls cost ~50 ms each)."""
    import holidays  # imported on first use: it costs ~0.2 s

    table = holidays.US(subdiv="MA", years=range(first, last + 1))
    out: dict[int, list[tuple[date, str]]] = {y: [] for y in range(first, last + 1)}
    for day, name in sorted(table.items()):
        if first <= day.year <= last:
            out[day.year].append((day, name))
    return {y: tuple(v) for y, v in out.items()}


def preload_library_table(table: dict[int, tuple[tuple[date, str], ...]]) -> None:
    """Take the library's answers from a table made by :func:`library_table`
    (the CLI keeps one on disk per ``holidays`` version, so that a command
    does not pay for importing and running the library every time).  The
    statute's corrections below apply all the same."""
    _LIBRARY.update(table)
    legal_holidays.cache_clear()


def _library_year(year: int) -> tuple[tuple[date, str], ...]:
    if year not in _LIBRARY:
        _LIBRARY.update(library_table(max(FIRST_YEAR, year - 3), min(LAST_YEAR, year + 12)))
    return _LIBRARY[year]


@cache
def legal_holidays(year: int, suffolk: bool = False) -> dict[date, str]:
    """The legal holidays of ``year``, date -> name, as the statute has them.

    Sunday holidays appear twice: on the Sunday itself and on the Monday
    ("... (observed)") that the statute closes.  Both are closed days.
    """
    check_year(year)
    result: dict[date, str] = {}
    library = dict(_library_year(year))
    for day, names in library.items():
        for name in names.split("; "):
            if name.endswith(_OBSERVED):
                original = day - timedelta(days=1)
                if day.weekday() != 0 or original not in library:
                    continue  # not SUN_TO_NEXT_MON: the statute does not move it
            if (day.month, day.day) in SUFFOLK_ONLY and name.startswith(SUFFOLK_ONLY[(day.month, day.day)]):
                continue  # added back below for Suffolk towns only
            result[day] = name if day not in result else f"{result[day]}; {name}"
    if suffolk:
        for (month, dom), name in SUFFOLK_ONLY.items():
            day = date(year, month, dom)
            result.setdefault(day, f"{name} (Suffolk County)")
    return dict(sorted(result.items()))
