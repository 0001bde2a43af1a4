"""Who is an abutter: each town's rule for the abutter notice, as data with
its citation (one :class:`AbutterRule` on a town's :class:`PermitRules`,
``abutters=``).  The geometry that applies a rule to the assessors'
parcels is not here (it is :mod:`parcels.abutters`, above the core): a rule
only says what counts, in the by-law's terms.

The parts of a rule, each a phrase of the by-laws:

- ``within_feet``: owners of land within this many feet of the property
  line (the state's 100 feet, 310 CMR 10.05(4)(a)); 0 means the land shares
  a boundary with the applicant's (an abutter in the plain sense);
- ``opposite_on_ways``: owners of land directly opposite on any public or
  private street or way (310 CMR 10.05(4)(a); Saugus 508.08 §5.4; Canton
  15-5's "across a traveled way");
- ``across_water``: owners of land directly across a body of water (Canton
  15-5's "across a ... body of water"), whatever its width;
- ``abutters_to_abutters_feet``: owners of land abutting an abutter, within
  this many feet of the property line (Saugus 508.08 §5.4: 300 feet), a
  body of water counting as land abutted, so those across it within the
  distance are included.

Every rule reaches into other towns (the state's "in another
municipality", Saugus's "including any in another municipality"): the
parcels of every imported town are searched.  How each phrase is read is
in docs/reference/readings.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import PermitsError, RuleBookError

__all__ = ["AbutterRule", "NoAbutterRule", "flat_rule", "MAX_FEET"]

#: the largest distance a rule or ``--feet`` may name: a mile
MAX_FEET = 5280


@dataclass(frozen=True)
class AbutterRule:
    """Who receives the abutter notice of a filing, and the section that says so."""

    citation: str
    within_feet: int = 0
    opposite_on_ways: bool = False
    across_water: bool = False
    abutters_to_abutters_feet: int | None = None
    note: str = ""

    def check(self, town: str, kind: str) -> None:
        if not self.citation.strip():
            raise RuleBookError(town, None, f"{kind}: an abutter rule without the section that sets it")
        for name in ("within_feet", "abutters_to_abutters_feet"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int) and 0 <= value <= MAX_FEET):
                raise RuleBookError(town, None, f"{kind}: abutter rule {name}={value!r}: a whole number of feet, 0-{MAX_FEET}")

    def describe(self) -> str:
        """The rule in words, for the page and the command's output."""
        parts = [f"owners of land within {self.within_feet} feet of the property line" if self.within_feet else "abutters"]
        if self.opposite_on_ways:
            parts.append("those directly opposite on any street or way")
        if self.across_water:
            parts.append("those across a body of water")
        if self.abutters_to_abutters_feet:
            parts.append(f"abutters to abutters within {self.abutters_to_abutters_feet} feet")
        return ", ".join(parts) + f" ({self.citation})"


class NoAbutterRule(PermitsError):
    """A permit kind whose by-law sends no abutter notice (a street opening)."""

    def __init__(self, town: str, kind: str):
        self.town, self.kind = town, kind
        super().__init__(f"{town}: a {kind} filing sends no abutter notice, so it has no abutter list (no abutter rule)")


def flat_rule(feet: int) -> AbutterRule:
    """The rule of ``permits abutters --feet N``: owners within ``feet`` of
    the property line and those directly opposite on a way, as the state
    counts them, at the distance given (1 to :data:`MAX_FEET`: the caller
    checks it)."""
    return AbutterRule(f"{feet} feet, the distance asked for", within_feet=feet, opposite_on_ways=True)
