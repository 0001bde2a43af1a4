"""The town registry: every module in this package that defines
``PROFILE`` is a town.  A town's rules are one file here, found without
editing the engine; what else adding a town touches today (the letters of
the ids the workbench makes, the demonstration's data) is listed in
docs/engineering/how-to.md, "Add a town"."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import lru_cache

from workflows.abutter_rules import AbutterRule, NoAbutterRule
from workflows.errors import RuleBookError, UnknownChoice
from workflows.rulebook import KINDS, TownProfile

__all__ = ["registry", "town", "declared_clock", "abutter_rule"]


@lru_cache(maxsize=1)
def registry() -> Mapping[str, TownProfile]:
    towns: dict[str, TownProfile] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        profile = getattr(module, "PROFILE", None)
        if profile is None:
            continue
        if not isinstance(profile, TownProfile):
            raise RuleBookError(info.name, None, "PROFILE is not a TownProfile")
        if profile.id in towns:
            raise RuleBookError(profile.id, None, f"declared twice ({info.name})")
        towns[profile.id] = profile
    return towns


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
