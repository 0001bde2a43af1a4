"""The demonstration store's users: one of each role the workbench knows,
each with a fresh random password that ``permits demo`` prints."""

from __future__ import annotations

import secrets

from models.users import Users

__all__ = ["DEMO_USERS", "seed_demo_users"]

#: (email, role, towns)
DEMO_USERS = (
    ("agent@canton.example", "agent", ("canton",)),
    ("agent@mansfield.example", "agent", ("mansfield",)),
    ("dpw@canton.example", "dpw", ("canton",)),
    ("admin@permits.example", "admin", ()),
)


def seed_demo_users(users: Users) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Add the demo users; returns (email, password, role, towns) of each."""
    out = []
    for email, role, towns in DEMO_USERS:
        password = "-".join(secrets.token_hex(3) for _ in range(3))
        users.add(email, password, role, towns)
        out.append((email, password, role, towns))
    return out
