"""The town registry: every module in this package that defines
``PROFILE`` is a town, and so is every town file (``*.toml``, read by
:mod:`workflows.town_file`) beside them.  A town whose by-law runs the
state's clocks is a data file alone (Manchester-by-the-Sea); one whose
by-law sets clocks of its own is a module (a change of law, reviewed as
code).  ``permits towns new`` writes a town file; ``permits towns check``
reads one as the registry will.  What else adding a town touches is listed
in docs/engineering/how-to.md, "Add a town"."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import lru_cache

from workflows.abutter_rules import AbutterRule, NoAbutterRule
from workflows.errors import RuleBookError, UnknownChoice
from workflows.rulebook import KINDS, TownProfile

__all__ = ["registry", "town", "declared_clock", "abutter_rule", "add_towns", "forget_added_towns"]

#: the towns added from files outside the package (:func:`add_towns`)
_ADDED: dict[str, TownProfile] = {}


@lru_cache(maxsize=1)
def registry() -> Mapping[str, TownProfile]:
    from importlib import resources

    from workflows.town_file import read_town

    towns: dict[str, TownProfile] = {}

    def add(profile, where: str) -> None:
        if not isinstance(profile, TownProfile):
            raise RuleBookError(where, None, "PROFILE is not a TownProfile")
        if profile.id in towns:
            raise RuleBookError(profile.id, None, f"declared twice ({where})")
        towns[profile.id] = profile

    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        profile = getattr(importlib.import_module(f"{__name__}.{info.name}"), "PROFILE", None)
        if profile is not None:
            add(profile, info.name)
    for entry in sorted(resources.files(__name__).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            add(read_town(entry.read_text(encoding="utf-8"), f"workflows/towns/{entry.name}"), entry.name)
    for profile in _ADDED.values():
        add(profile, "a town file added")
    return dict(sorted(towns.items()))  # by id, whatever declares them


def add_towns(profiles) -> None:
    """Add towns read from town files outside the package (a town file
    being tried before it is saved beside the others): the registry is read
    anew with them; RuleBookError for a town declared twice."""
    for profile in profiles:
        _ADDED[profile.id] = profile
    registry.cache_clear()
    registry()


def forget_added_towns() -> None:
    """The registry without the towns :func:`add_towns` added."""
    _ADDED.clear()
    registry.cache_clear()


def town(town_id: str) -> TownProfile:
    try:
        return registry()[town_id]
    except KeyError:
        raise UnknownChoice("town", town_id, registry()) from None


def declared_clock(town_id: str, kind: str, clock_id: str):
    """The rule book's :class:`~workflows.rulebook.Clock` behind a replayed
    clock id (``wpa:decision`` is the state's ``decision``), or None when the
    rule book does not list it."""
    prefix, _, base = clock_id.rpartition(":")
    try:
        return town(prefix or town_id).rules(kind).clock(base)
    except UnknownChoice:
        return None


def abutter_rule(town_id: str, kind: str) -> AbutterRule:
    """Who receives the abutter notice of a ``kind`` filing in the town
    (its :class:`~workflows.rulebook.PermitRules` ``abutters``).  UnknownChoice
    for an unknown town or kind; NoAbutterRule for a kind the town runs
    without an abutter notice."""
    profile = town(town_id)
    if kind not in KINDS:
        raise UnknownChoice("permit kind", kind, KINDS)
    rules = profile.permits.get(kind)
    if rules is None or rules.abutters is None:
        raise NoAbutterRule(profile.name, kind)
    return rules.abutters
