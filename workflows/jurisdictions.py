"""Every Notice of Intent and Request for Determination in Massachusetts is a
filing under the Wetlands Protection Act (M.G.L. c.131 §40; 310 CMR 10.00);
a town's wetlands by-law adds to it.  A town whose NOI and RDA rules are its
own by-law's (Canton, Saugus) hears them as joint filings: the filing's
``also: ["wpa"]`` runs the Act's clocks beside the by-law's
(:func:`workflows.replay.replay`), its abutter list is the union of both
laws' (:mod:`services.parcel_abutters`) and its notices cite both.  A town
whose rules are the Act's already (``PermitRules.under_the_act``: the state
defaults, Mansfield Ch. 15 §4.1 adopting them, Manchester-by-the-Sea) needs
no ``also``.

:func:`with_act_default` is the rule every way of making a filing applies
(the workbench's New filing, Apply online, ``permits import``): a filing
that says nothing is joint; an agent hears one under the by-law alone only
with a reason, kept on the filing (``bylaw_only``).  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import MalformedEvent

__all__ = ["ACT_ID", "JOINT_KINDS", "act_applies", "with_act_default", "bylaw_only_reason", "laws_heard_under"]

#: The Act's jurisdiction id (its rules: :mod:`workflows.towns.wpa`).
ACT_ID = "wpa"
#: The permit kinds the Act hears.
JOINT_KINDS = ("noi", "rda")
#: The longest reason kept for a by-law-only filing.
MAX_REASON = 500


def act_applies(town_id: str, kind: str) -> bool:
    """Whether a ``kind`` filing of the town is also heard under the Act,
    beside rules of the town's own: an NOI or RDA of a town whose rules for
    it are its by-law's (not the Act's, adopted or as they stand)."""
    from .towns import registry

    profile = registry().get(town_id)
    if kind not in JOINT_KINDS or town_id == ACT_ID or profile is None or kind not in profile.permits:
        return False
    return not profile.permits[kind].under_the_act


def bylaw_only_reason(extra: Mapping[str, Any]) -> str:
    """Why the filing is heard under the by-law alone ("" when it gives no reason)."""
    given = extra.get("bylaw_only")
    reason = given.get("reason") if isinstance(given, Mapping) else None
    return reason.strip() if isinstance(reason, str) else ""


def with_act_default(obj: Mapping[str, Any]) -> dict:
    """The filing JSON ``obj`` as a new filing is made: a town's NOI or RDA
    (:func:`act_applies`) that names no ``also`` is heard under the Act
    too (``also: ["wpa"]`` added); one heard under the by-law alone gives
    ``bylaw_only: {"reason": ...}``.  Raises MalformedEvent, naming the
    rule, for an ``also`` that leaves the Act out without a reason, or a
    reason given for a filing the Act hears."""
    out = dict(obj)
    town_id, kind = out.get("town"), out.get("kind")
    if not isinstance(town_id, str) or not isinstance(kind, str) or not act_applies(town_id, kind):
        return out
    also = out.get("also")
    reason = bylaw_only_reason(out)
    if "bylaw_only" in out and not reason:
        raise MalformedEvent(
            "bylaw_only needs a reason: say why the filing is heard under the by-law alone", filing=out.get("id")
        )
    if len(reason) > MAX_REASON:
        raise MalformedEvent(f"the reason for a by-law-only filing is at most {MAX_REASON} characters", filing=out.get("id"))
    heard = list(also) if isinstance(also, list) else None
    if reason:
        if heard and ACT_ID in heard:
            raise MalformedEvent(
                "a filing heard under the by-law alone (bylaw_only) cannot also name the Act in 'also'", filing=out.get("id")
            )
        out["also"] = heard or []
        return out
    if heard is None:
        out["also"] = [ACT_ID]
    elif ACT_ID not in heard:
        raise MalformedEvent(
            f"a {'Notice of Intent' if kind == 'noi' else 'Request for Determination'} is a filing under the Wetlands "
            "Protection Act (M.G.L. c.131 §40) as well as the town's by-law: add \"wpa\" to 'also', or give "
            '"bylaw_only": {"reason": ...} to hear it under the by-law alone',
            filing=out.get("id"),
        )
    return out


def laws_heard_under(town_id: str, kind: str, also) -> str:
    """The laws a filing is heard under, as a notice names them after
    "under the": the town's rules cited, and the Act's before them when the
    filing is joint."""
    from .towns import town
    from .towns.wpa import ACT

    bylaw = town(town_id).rules(kind).bylaw
    return f"{ACT} and the {bylaw}" if ACT_ID in (also or ()) else bylaw
