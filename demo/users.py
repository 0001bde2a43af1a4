"""The demonstration store's users: one of each staff role the workbench
knows, and one applicant following a Canton wetlands filing and a Canton
street opening of the demo filings (invited to each, as staff would invite
them, and accepting), each with a fresh random password that ``permits
demo`` prints.  Pure: :func:`services.demo.seed_demo_logins` writes them."""

from __future__ import annotations

import secrets
from datetime import date

__all__ = ["DEMO_USERS", "DEMO_PEOPLE", "DEMO_APPLICANT", "APPLICANT_TOWN", "demo_staff", "applicant_filings", "new_password"]

#: (email, role, towns)
DEMO_USERS = (
    ("agent@canton.example", "agent", ("canton",)),
    ("agent@mansfield.example", "agent", ("mansfield",)),
    ("agent@saugus.example", "agent", ("saugus",)),
    ("agent@manchester-by-the-sea.example", "agent", ("manchester-by-the-sea",)),
    ("dpw@canton.example", "dpw", ("canton",)),
    ("dpw@mansfield.example", "dpw", ("mansfield",)),
    ("admin@permits.example", "admin", ()),
)
#: email -> (full name, title) of the demo's staff: how pages and letters name them
DEMO_PEOPLE = {
    "agent@canton.example": ("Pat Rivera", "Conservation Agent"),
    "agent@mansfield.example": ("Dana Whitcomb", "Conservation Agent"),
    "agent@saugus.example": ("Luis Ferreira", "Conservation Agent"),
    "agent@manchester-by-the-sea.example": ("Morgan Ellis", "Conservation Administrator"),
    "dpw@canton.example": ("Sam O'Neil", "DPW Permit Clerk"),
    "dpw@mansfield.example": ("Chris Tavares", "Highway Superintendent"),
    "admin@permits.example": ("Jordan Lee", "Permits Administrator"),
}
DEMO_APPLICANT = "applicant@demo.example"
#: the town and the permit kinds of the applicant's filings, one of each
APPLICANT_TOWN, _APPLICANT_KINDS = "canton", ("noi", "street-opening")


def _day(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def new_password() -> str:
    return "-".join(secrets.token_hex(3) for _ in range(3))


def demo_staff() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """The demo users, each with a fresh password: (email, password, role,
    towns) of each (:func:`services.demo.seed_demo_logins` adds them)."""
    return [(email, new_password(), role, towns) for email, role, towns in DEMO_USERS]


def applicant_filings(rows, as_of: date) -> list[str]:
    """The filings the demo applicant is invited to, from the Canton rows
    of the store (``Store.list_filings``): of each of ``_APPLICANT_KINDS``,
    the first filing by id whose next deadline is on or after ``as_of``
    (something to follow), else the newest; none of a kind the store lacks."""
    chosen = []
    for kind in _APPLICANT_KINDS:
        of_kind = [r for r in rows if r.kind == kind]
        ahead = [r for r in of_kind if r.next_deadline_date is not None and _day(r.next_deadline_date) >= as_of]
        if ahead or of_kind:
            chosen.append(ahead[0].id if ahead else of_kind[-1].id)
    return chosen
