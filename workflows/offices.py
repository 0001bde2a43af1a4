"""A town's offices as the letters it mails name them: the office that runs
a permit (its letterhead, its telephone and hours, who signs for it and
the members who sign its decisions), and the places a ticket sends people
to (the Town Clerk, who takes a fine paid by mail, and the District Court,
M.G.L. c.40 §21D).

Each fact is the town's data, declared once in its file of
:mod:`workflows.towns`.  Where the town's by-law gives a fact (Saugus
306.03 sets its office hours, Canton 16-12 its DPW's working hours,
Mansfield's by-law names its District Court), the declaration cites it;
every other fact is a demonstration value until the town gives its own,
and the declaration says which (``demonstration``): the notices print it
like any other, and docs/reference/town-offices.md lists them.  Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import RuleBookError

__all__ = ["Signer", "Place", "Office", "OFFICE_FACTS", "PLACE_FACTS"]

#: The facts of an office a declaration may mark as demonstration values.
OFFICE_FACTS = ("address", "telephone", "hours", "signer_name", "members", "meeting_place", "newspaper")
#: The facts of a place (the Town Clerk, the court) a declaration may mark so.
PLACE_FACTS = ("name", "address", "telephone", "hours")


@dataclass(frozen=True)
class Signer:
    """A person who signs for a board: a name and a title ("Chair")."""

    name: str
    title: str

    @property
    def line(self) -> str:
        return f"{self.name}, {self.title}"


@dataclass(frozen=True)
class Place:
    """An office people write to, call or visit that does not run a permit
    here: the Town Clerk's office, the District Court.  ``demonstration``
    names the facts (:data:`PLACE_FACTS`) that are not the town's own yet;
    ``citation`` the section that gives the others, where one does."""

    name: str
    address: str
    telephone: str = ""
    hours: str = ""
    citation: str = ""
    demonstration: tuple[str, ...] = ()

    def check(self, town: str, what: str) -> None:
        for name in ("name", "address"):
            if not str(getattr(self, name)).strip():
                raise RuleBookError(town, None, f"{what}: {name} is empty")
        unknown = set(self.demonstration) - set(PLACE_FACTS)
        if unknown:
            raise RuleBookError(town, None, f"{what}: unknown demonstration facts {sorted(unknown)}; known: {PLACE_FACTS}")

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "address": self.address,
            "telephone": self.telephone,
            "hours": self.hours,
            "citation": self.citation,
            "demonstration": list(self.demonstration),
        }


@dataclass(frozen=True)
class Office:
    """A town office as its notices name it: the letterhead (``name``,
    ``address``, ``telephone``, ``hours``), who signs its letters (the
    title ``signer``, the person ``signer_name``), the members who sign its
    decisions (``members``: WPA Forms 2, 5 and 8B are signed by a majority
    of the commission), where its hearings meet (``meeting_place``) and the
    newspaper its legal notices run in.

    ``boards`` are the boards and officials that receive a copy of an
    application, with the section that names them; ``rates`` are fees
    fixed by a by-law's schedule, each ``(dollars, citation)``;
    ``hours_citation`` the section that sets the office's hours, where
    one does.  ``demonstration`` names the facts (:data:`OFFICE_FACTS`)
    that are demonstration values until the town gives its own."""

    name: str
    address: str
    signer: str
    meeting_place: str = ""
    newspaper: str = ""
    boards: tuple[str, ...] = ()
    boards_citation: str = ""
    rates: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    signer_name: str = ""
    members: tuple[Signer, ...] = ()
    telephone: str = ""
    hours: str = ""
    hours_citation: str = ""
    demonstration: tuple[str, ...] = ()

    @property
    def signed_by(self) -> Signer:
        """Who signs the office's letters: the person (when the town names
        one) and the title."""
        return Signer(self.signer_name, self.signer)

    def check(self, town: str, department: str) -> None:
        for name in ("name", "address", "signer"):
            if not str(getattr(self, name)).strip():
                raise RuleBookError(town, None, f"office {department!r}: {name} is empty")
        if self.boards and not self.boards_citation.strip():
            raise RuleBookError(town, None, f"office {department!r}: boards listed without the section that names them")
        for what, (dollars, citation) in self.rates.items():
            if dollars < 0 or not citation.strip():
                raise RuleBookError(town, None, f"office {department!r}: rate {what!r} needs an amount and a citation")
        for member in self.members:
            if not isinstance(member, Signer) or not member.name.strip() or not member.title.strip():
                raise RuleBookError(town, None, f"office {department!r}: a member is a Signer with a name and a title")
        unknown = set(self.demonstration) - set(OFFICE_FACTS)
        if unknown:
            raise RuleBookError(
                town, None, f"office {department!r}: unknown demonstration facts {sorted(unknown)}; known: {OFFICE_FACTS}"
            )
        if self.hours and not self.hours_citation.strip() and "hours" not in self.demonstration:
            raise RuleBookError(
                town, None, f"office {department!r}: hours given with neither a citation nor a demonstration mark"
            )

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "address": self.address,
            "telephone": self.telephone,
            "hours": self.hours,
            "hours_citation": self.hours_citation,
            "signer": self.signer,
            "signer_name": self.signer_name,
            "members": [{"name": m.name, "title": m.title} for m in self.members],
            "meeting_place": self.meeting_place,
            "newspaper": self.newspaper,
            "boards": list(self.boards),
            "boards_citation": self.boards_citation,
            "rates": {k: {"dollars": d, "citation": c} for k, (d, c) in self.rates.items()},
            "demonstration": list(self.demonstration),
        }
