"""An abutter list computed from the assessors' parcels: for a parcel by a
town's rule (``permits abutters``), or for a filing's parcel by the rules
it is heard under (the workbench), reviewed and then used as the filing's
list, which the abutter notice and the certified-mail list read.

The list is one letter per owner and mailing address (the parcels of one
owner at one address merged, the nearest ring kept:
:func:`notices.abutters.merge_same_owner`), written as the CSV the notices
read (:func:`abutters_csv`).  An assessors' list uploaded for a filing
wins: it is certified (Canton 15-5: "such certification shall be
conclusive for all purposes"), so a computed list never replaces it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from notices.context import Party
from notices.errors import AbutterListError

__all__ = [
    "ComputedAbutters",
    "Listed",
    "UploadedListWins",
    "ComputedListChanged",
    "compute_abutters",
    "filing_abutters",
    "use_parcel_abutters",
    "abutters_csv",
    "CSV_COLUMNS",
]

#: the CSV's header: the L3 names, which the notices' reader maps
CSV_COLUMNS = ("MAP_PAR_ID", "OWNER1", "OWN_ADDR", "OWN_CITY", "OWN_STATE", "OWN_ZIP", "RING")


class UploadedListWins(AbutterListError):
    """The filing's list is the assessors' uploaded one: it is kept."""

    def __init__(self, filing_id: str, file_name: str | None):
        super().__init__(
            f"{filing_id}'s abutter list is the assessors' list uploaded ({file_name or 'a CSV file'}): it is certified "
            "and wins over one computed from the parcels (Canton 15-5); nothing was changed"
        )


class ComputedListChanged(AbutterListError):
    """The parcels, or the list computed from them, changed since the page showed it."""

    def __init__(self, filing_id: str):
        super().__init__(
            f"the abutter list computed for {filing_id} is not the one you reviewed (the parcels were imported again "
            "meanwhile); nothing was changed: review it again"
        )


@dataclass(frozen=True)
class Listed:
    """One parcel the rules take, for review: its id, town, ring, why,
    distance, its owners (name, mailing address) and the rules that take it."""

    label: str
    town: str
    loc_id: str
    ring: str
    why: str
    feet: float
    owners: tuple[tuple[str, str], ...]
    #: the rules that take the parcel, each as its citation (a joint
    #: filing's list is the union of each law's: every law that names it)
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class ComputedAbutters:
    """The letters (``parties``, merged by owner and address), the parcels
    behind them (``listed``), the owners without a complete mailing address
    (``incomplete``: (parcel, owner name)), and what it was computed from."""

    town: str
    subject: object  # parcels.index.IndexedParcel
    layer: object  # models.read.parcels.Layer
    rules: tuple  # workflows.abutter_rules.AbutterRule, each applied
    parties: list[Party]
    listed: list[Listed]
    incomplete: list[tuple[str, str]] = field(default_factory=list)

    @property
    def fiscal_year(self) -> int:
        return self.layer.fiscal_year

    @property
    def rule_text(self) -> str:
        return "; ".join(r.describe() for r in self.rules)

    def rules_for(self, party: Party) -> tuple[str, ...]:
        """The rules that put a letter on the list: those of its parcels,
        each cited once, in the order the filing's laws are named."""
        mine = set(party.parcels)
        found = {c for item in self.listed if item.label in mine for c in item.rules}
        return tuple(r.citation for r in self.rules if r.citation in found)

    @property
    def digest(self) -> str:
        """What the review form carries: the same list from the same layers has the same digest."""
        text = json.dumps(
            [self.layer.id, [[p.name, p.street, p.city, p.zip, list(p.parcels), p.ring] for p in self.parties]],
            ensure_ascii=False,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _rules(town: str, kind: str, feet: int | None, also: Sequence[str] = ()):
    from workflows.abutter_rules import MAX_FEET, NoAbutterRule, flat_rule
    from workflows.towns import abutter_rule

    if feet is not None:
        if not 1 <= feet <= MAX_FEET:
            raise AbutterListError(f"--feet {feet}: a distance of 1 to {MAX_FEET} feet")
        return (flat_rule(feet),)
    rules = [abutter_rule(town, kind)]
    for other in also:
        try:
            rule = abutter_rule(other, kind)
        except NoAbutterRule:
            continue
        if rule not in rules:
            rules.append(rule)
    return tuple(rules)


def compute_abutters(
    store, town: str, parcel: str, *, kind: str = "noi", feet: int | None = None, also: Sequence[str] = ()
) -> ComputedAbutters:
    """The abutter list of the town's parcel ``parcel`` (LOC_ID or map-lot
    id) by the town's rule for ``kind`` (and those of the jurisdictions
    ``also`` heard under), or by ``feet`` when given.  UnknownParcel,
    NoParcels, NoAbutterRule name what is missing."""
    from parcels.abutters import ABUTTER, abutters_of
    from parcels.errors import UnknownParcel
    from services.parcels import town_index

    rules = _rules(town, kind, feet, also)
    index, layer = town_index(store, town)
    subject = index.find(town, parcel)
    if subject is None:
        raise UnknownParcel(town, parcel, layer.fiscal_year)
    taken_by: dict[int, list[str]] = {}  # position -> the citations of the rules that take it
    if len(rules) == 1:  # one rule's list is already in this order (its ties by position, as the stable sort keeps them)
        hits = abutters_of(index, subject, rules[0])
        for hit in hits:
            taken_by[hit.position] = [rules[0].citation]
    else:
        best: dict[int, object] = {}
        for rule in rules:
            for hit in abutters_of(index, subject, rule):
                taken_by.setdefault(hit.position, []).append(rule.citation)
                seen = best.get(hit.position)
                if seen is None or (hit.ring == ABUTTER and seen.ring != ABUTTER):
                    best[hit.position] = hit
        hits = sorted(best.values(), key=lambda h: (h.ring != ABUTTER, h.feet, index.parcels[h.position].label))
    letters = index.made(("letters", town), lambda: _letters(index, town))
    parties, keys, listed, incomplete = [], [], [], []
    for hit in hits:
        label, in_town, loc_id, shown, lacking, complete = letters[hit.position] or _letters_of(index, hit.position, town, {})
        listed.append(Listed(label, in_town, loc_id, hit.ring, hit.why, hit.feet, shown, tuple(taken_by[hit.position])))
        if lacking:
            incomplete += ((label, name) for name in lacking)
        for letter, key in complete:  # each made as an abutter's: another ring's made from it
            if hit.ring != ABUTTER:
                letter = Party(
                    letter.name, letter.street, letter.city, letter.state, letter.zip, letter.parcels, hit.ring, "abutter"
                )
            parties.append(letter)
            keys.append(key)
    from notices.abutters import merge_same_owner

    return ComputedAbutters(town, index.parcels[subject], layer, rules, merge_same_owner(parties, keys), listed, incomplete)


def _letters(index, town: str) -> list:
    """What the list takes of each parcel of ``index`` when the rules take
    it, made once per index and town (``index.made``: a re-import builds a
    new index, and with it these): :func:`_letters_of` each, or None for
    a parcel of a town the registry no longer names (its hit then raises
    as it would have)."""
    from workflows.errors import PermitsError

    names: dict[str, str] = {}
    out = []
    for position in range(len(index)):
        try:
            out.append(_letters_of(index, position, town, names))
        except PermitsError:
            out.append(None)
    return out


def _letters_of(index, position: int, town: str, names: dict[str, str]) -> tuple:
    """The parcel's label as the list writes it (its town named when not
    ``town``'s), its town and LOC_ID, its owners as the review shows them
    ((name, mailing line) each), the names of those without a complete
    mailing address, and the others' letters as an abutter's ((the Party,
    its :attr:`~notices.context.Party.key` for the merge) each).
    ``names``: the towns' names found so far."""
    from parcels.abutters import ABUTTER

    p = index.parcels[position]
    if p.town == town:
        label = p.label
    else:
        if p.town not in names:
            from workflows.towns import town as town_profile

            names[p.town] = town_profile(p.town).name
        label = f"{p.label} ({names[p.town]})"
    owners = index.owners[position]
    shown = tuple((o.name, _line(o)) for o in owners)
    lacking = tuple(o.name or "(no owner name)" for o in owners if not o.complete)
    letters = (Party(o.name, o.street, o.city, o.state, o.zip, (label,), ABUTTER, "abutter") for o in owners if o.complete)
    return label, p.town, p.loc_id, shown, lacking, tuple((letter, letter.key) for letter in letters)


def _line(o) -> str:
    return ", ".join(x for x in (o.street, o.city, f"{o.state} {o.zip}".strip()) if x)


def filing_abutters(store, filing_id: str) -> ComputedAbutters:
    """The list computed for a filing: from its parcel (the map-lot id or
    LOC_ID it names), by its town's rule and those of the jurisdictions it
    is also heard under."""
    from models.read import workbench

    parcel = (workbench.summary(store, filing_id).parcel or "").strip()
    filing, _ = store.load(filing_id)
    if not parcel:
        raise AbutterListError(f"{filing_id} names no parcel: give the site's map-lot id to compute its abutters")
    return compute_abutters(store, filing.town, parcel, kind=filing.kind, also=filing.also)


def use_parcel_abutters(
    store,
    filing_id: str,
    *,
    digest: str,
    by: str,
    now: datetime,
    expect_seq: int | None = None,
    expect_version: str | None = None,
) -> ComputedAbutters:
    """The list computed from the parcels, as reviewed (``digest``),
    becomes the filing's list, with where it came from, in one unit of work.
    Refused, nothing written: when an assessors' list was uploaded
    (UploadedListWins), when the list is no longer the one reviewed
    (ComputedListChanged), when an owner has no complete mailing address,
    when the filing or its list changed since the page was drawn
    (StaleFiling, StaleAbutterList)."""
    from models.read import parcels as stored
    from services.abutters import party_row

    source = stored.abutter_source(store, filing_id)
    if source is not None and source["source"] == "upload":
        raise UploadedListWins(filing_id, source.get("file_name"))
    result = filing_abutters(store, filing_id)
    if result.digest != digest:
        raise ComputedListChanged(filing_id)
    if result.incomplete:
        parcel, owner = result.incomplete[0]
        more = f" (and {len(result.incomplete) - 1} more)" if len(result.incomplete) > 1 else ""
        raise AbutterListError(
            f"parcel {parcel}: {owner} has no complete mailing address in the FY{result.fiscal_year} assessing table{more}; "
            "upload the assessors' certified list instead"
        )
    if not result.parties:
        raise AbutterListError(f"no abutter was found for {filing_id}'s parcel: check the parcel, or upload the assessors' list")
    record = {
        "source": "parcels",
        "layer_id": result.layer.id,
        "town": result.town,
        "fiscal_year": result.fiscal_year,
        "loc_id": result.subject.loc_id,
        "parcel": result.subject.label,
        "rule": result.rule_text,
        "parcels": [[item.town, item.loc_id] for item in result.listed],
        "made_by": by,
        "made_at": now,
    }
    from models.store.abutters import replace_abutters

    from .unit_of_work import UnitOfWork

    with UnitOfWork(store) as uow:
        replace_abutters(
            uow.conn,
            filing_id,
            [party_row(p) for p in result.parties],
            expect_seq=expect_seq,
            expect_version=expect_version,
            source=record,
        )
    return result


def abutters_csv(result: ComputedAbutters) -> str:
    """The list as the CSV the notices read (``permits notices --abutters``):
    one row per parcel of each letter, so the reader's owner merge gives
    back these letters."""
    from workflows.spreadsheet import csv_text

    rows = ((parcel, p.name, p.street, p.city, p.state, p.zip, p.ring) for p in result.parties for parcel in p.parcels)
    return csv_text(CSV_COLUMNS, rows, lineterminator="\n")
