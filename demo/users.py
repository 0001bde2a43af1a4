"""The demonstration store's users: one of each staff role the workbench
knows, and one applicant following a Canton wetlands filing and a Canton
street opening of the demo filings (invited to each, as staff would invite
them, and accepting), each with a fresh random password that ``permits
demo`` prints."""

from __future__ import annotations

import secrets
from datetime import date

from models.accounts.applicants import Applicants
from models.accounts.users import Users
from models.handle import Store

__all__ = ["DEMO_USERS", "DEMO_APPLICANT", "seed_demo_users", "seed_demo_applicant"]

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
DEMO_APPLICANT = "applicant@demo.example"
#: the town and the permit kinds of the applicant's filings, one of each
_APPLICANT_TOWN, _APPLICANT_KINDS = "canton", ("noi", "street-opening")


def _day(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def _password() -> str:
    return "-".join(secrets.token_hex(3) for _ in range(3))


def seed_demo_users(users: Users) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Add the demo users; returns (email, password, role, towns) of each."""
    out = []
    for email, role, towns in DEMO_USERS:
        password = _password()
        users.add(email, password, role, towns)
        out.append((email, password, role, towns))
    return out


def seed_demo_applicant(store: Store, as_of: date) -> tuple[str, str, list[str]]:
    """The demo applicant, invited to one Canton filing of each of
    ``_APPLICANT_KINDS`` and accepting each invitation; returns (email,
    password, the filings' ids).  Of each kind, the first filing by id whose
    next deadline is on or after ``as_of`` (something to follow), else the
    newest.  With no such filing in the store, an account with no filing."""
    rows = store.list_filings(town=_APPLICANT_TOWN)
    chosen = []
    for kind in _APPLICANT_KINDS:
        of_kind = [r for r in rows if r.kind == kind]
        ahead = [r for r in of_kind if r.next_deadline_date is not None and _day(r.next_deadline_date) >= as_of]
        if ahead or of_kind:
            chosen.append(ahead[0].id if ahead else of_kind[-1].id)
    applicants, password = Applicants(store), _password()
    if not chosen:
        applicants.register(DEMO_APPLICANT, password, verified=True)
    for fid in chosen:
        applicants.accept(applicants.invite(fid, DEMO_APPLICANT, by="permits demo"), password)
    return DEMO_APPLICANT, password, chosen
