"""What an interface holds to reach the record: the store's handle and the
account and upload repositories over it, made once when the interface
starts (``permits serve``'s workers, a ``permits`` command) and handed to
the services it calls.  Model: cosmicpython/code, ``bootstrap.py``.

The interfaces type what they hold by :class:`Backends` (and its
repositories' classes, named here) and never make a repository themselves,
so they import no writer of the record; what they call on a repository is
a read, the writes are the services'.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from models.accounts.account_links import AccountLinks
from models.accounts.applicants import Applicants
from models.accounts.sessions import Sessions
from models.accounts.throttle import Throttle
from models.accounts.users import Users
from models.handle import Store
from models.store.uploads import Uploads

__all__ = ["Backends", "backends", "Store", "Users", "Sessions", "Throttle", "Applicants", "Uploads", "AccountLinks"]


@dataclass(frozen=True)
class Backends:
    """The store and the repositories over it, on one engine."""

    store: Store
    users: Users
    sessions: Sessions
    throttle: Throttle
    applicants: Applicants
    uploads: Uploads
    account_links: AccountLinks


def backends(store: Store, *, uploads_dir: Path, upload_max_bytes: int, tidy: bool = False) -> Backends:
    """The repositories over ``store``, its clock theirs; uploads in
    ``uploads_dir``, each at most ``upload_max_bytes``.  ``tidy``: first
    remove the plans an application killed before its commit left
    (:meth:`models.store.uploads.Uploads.tidy`; the workbench at start)."""
    made = Backends(
        store=store,
        users=Users(store.engine, now=store.now),
        sessions=Sessions(store.engine, now=store.now),
        throttle=Throttle(store.engine, now=store.now),
        applicants=Applicants(store),
        uploads=Uploads(store, uploads_dir, upload_max_bytes),
        account_links=AccountLinks(store.engine, now=store.now),
    )
    if tidy:
        made.uploads.tidy()
    return made
