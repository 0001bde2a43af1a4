"""Applicants' accounts: registration, invitations, and which filings an
account may see.  One service for the web and the command line.

An applicant is a user of the workbench (``app_user``,
:mod:`models.accounts.users`) with the role ``applicant``: the same login, argon2
hash and lockout as staff, no towns and no permit kinds of its own.

- **Register** with an email address and a password (argon2, at least
  :data:`MIN_PASSWORD` characters): on the web, the account is made when
  the link emailed to the address is followed (models/accounts/account_links.py).
  A registered account sees the filings it submitted itself; nothing else
  until its address is proved.
- **Invitation**: staff invite an address from a filing; the invitation is a
  single-use link (a random token, of which only the SHA-256 is kept) that
  expires after :data:`INVITATION_DAYS` days.  Accepting it creates the
  account (or, for an existing one whose address is proved, asks its
  password; one whose address is not proved is taken over with the
  password given, its old password and sessions ended), proves the
  address (it came to that mailbox) and links the filing.  An expired or
  used link is refused.
- **What an account sees** (:meth:`Applicants.filings_visible_to`): the
  filings it submitted or was invited to, and, once its address is proved,
  every filing that names that address as the applicant's, the owner's or
  the contractor's (``applicant.email``, ``owner.email``,
  ``contractor.email``).  An unproved address sees no filing by its address
  alone: anyone can type someone else's address into a registration form.
  Anything else is "not found" to the caller (a 404, never a 403).
"""

import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import insert, select, union_all, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from models.accounts.users import APPLICANT, LoginRefused, replace_password
from models.errors import ApplicantError, InvitationRefused, UnknownFiling
from models.handle import Store
from models.schema.party_email import PARTY_EMAIL_ROLES, party_email
from models.schema.tables import AccountFiling, FilingRow, Invitation, UserRow
from models.types import Account

__all__ = [
    "MIN_PASSWORD",
    "INVITATION_DAYS",
    "Account",
    "Applicants",
    "ApplicantError",
    "LoginRefused",
    "InvitationRefused",
    "normal_email",
]

ACCOUNT, LINK, INVITE, FILING = UserRow.__table__, AccountFiling.__table__, Invitation.__table__, FilingRow.__table__
MIN_PASSWORD = 10
INVITATION_DAYS = 14
PARTY_ROLES = PARTY_EMAIL_ROLES
_EMAIL = re.compile(r"[^@\s<>,;]{1,64}@[^@\s<>,;]{1,190}\.[A-Za-z]{2,}")
_HASHER = PasswordHasher()


def normal_email(email) -> str:
    text = email.strip().lower() if isinstance(email, str) else ""
    if not _EMAIL.fullmatch(text):
        raise ApplicantError(f"{str(email)[:80]!r} is not an email address")
    return text


def _password(password) -> str:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise ApplicantError(f"the password must have at least {MIN_PASSWORD} characters")
    return password


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


class Applicants:
    def __init__(self, store: Store):
        self.store = store

    def _now(self) -> datetime:
        return _aware(self.store.now())

    def register(self, conn: Connection, email: str, password: str, *, verified: bool = False) -> Account:
        """A new account at once, its address not proved unless
        ``verified`` (an account made by whoever runs the server: the demo's).
        The web's registration does not come here: it waits for its emailed
        link (services/accounts.py).  An account whose address is not proved
        cannot log in."""
        address, secret = normal_email(email), _password(password)
        try:
            new_id = conn.execute(
                insert(ACCOUNT)
                .values(**self._new(address, secret), verified_at=self._now() if verified else None)
                .returning(ACCOUNT.c.id)
            ).scalar_one()
        except IntegrityError:
            raise ApplicantError(f"an account for {address} exists already: log in, or ask the town to invite you") from None
        return Account(new_id, address, verified)

    def _new(self, address: str, secret: str) -> dict:
        return {
            "email": address,
            "password_hash": _HASHER.hash(secret),
            "role": APPLICANT,
            "towns": [],
            "disabled": False,
            "failed_logins": 0,
            "locked_until": None,
            "calendar_token": secrets.token_urlsafe(24),
            "created_at": self._now(),
        }

    def account(self, account_id: int) -> Account | None:
        """The enabled applicant account with this id, else None."""
        if not isinstance(account_id, int):
            return None
        with self.store.reader.connect() as conn:
            row = conn.execute(select(ACCOUNT).where(ACCOUNT.c.id == account_id, ACCOUNT.c.role == APPLICANT)).first()
        if row is None or row.disabled:
            return None
        return Account(row.id, row.email, row.verified_at is not None)

    # -- invitations --------------------------------------------------------

    def invite(self, conn: Connection, filing_id: str, email: str, *, by: str, days: int = INVITATION_DAYS) -> str:
        """An invitation to ``email`` from the filing, on the unit of work's
        ``conn`` (the invitation's email is queued in it); returns the token
        for the link (shown once: only its digest is kept).  Only an
        applicant's address, or one with no account yet, is invited: a
        staff account's is ApplicantError (staff see the filing in the
        workbench, and an invitation could never be taken up by it)."""
        address = normal_email(email)
        token = secrets.token_urlsafe(32)
        now = self._now()
        if conn.execute(select(FILING.c.id).where(FILING.c.id == filing_id)).first() is None:
            raise UnknownFiling(filing_id)
        role = conn.execute(select(ACCOUNT.c.role).where(ACCOUNT.c.email == address)).scalar_one_or_none()
        if role is not None and role != APPLICANT:
            raise ApplicantError(
                f"{address} is a staff account's address: staff see the filing in the workbench; "
                "invite the applicant's, owner's or contractor's own address"
            )
        conn.execute(
            insert(INVITE).values(
                token_sha256=_digest(token),
                filing_id=filing_id,
                email=address,
                expires_at=now + timedelta(days=days),
                created_by=by,
                created_at=now,
            )
        )
        return token

    def invitation(self, token: str) -> tuple[str, str]:
        """(email, filing id) of a live invitation, for the acceptance form;
        InvitationRefused if it is unknown, used or expired."""
        row = self._live(None, token)
        return row.email, row.filing_id

    def _live(self, conn, token: str):
        if not isinstance(token, str) or not re.fullmatch(r"[A-Za-z0-9_-]{20,100}", token):
            raise InvitationRefused("this invitation link is not valid; ask the town for a new one")
        query = select(INVITE).where(INVITE.c.token_sha256 == _digest(token))
        if conn is None:
            with self.store.reader.connect() as c:
                row = c.execute(query).first()
        else:
            row = conn.execute(query.with_for_update()).first()
        if row is None:
            raise InvitationRefused("this invitation link is not valid; ask the town for a new one")
        if row.used_at is not None:
            raise InvitationRefused("this invitation has been used already; log in, or ask the town for a new one")
        if _aware(row.expires_at) <= self._now():
            raise InvitationRefused(
                f"this invitation expired on {_aware(row.expires_at).date().isoformat()}; ask the town for a new one"
            )
        return row

    def accept(self, conn: Connection, token: str, password: str) -> Account:
        """Use the invitation once: create the account for its address (or,
        if there is one, check its password), prove the address, link the
        filing."""
        secret = _password(password)
        now = self._now()
        inv = self._live(conn, token)
        row = conn.execute(select(ACCOUNT).where(ACCOUNT.c.email == inv.email).with_for_update()).first()
        if row is None:
            account_id = conn.execute(
                insert(ACCOUNT).values(**self._new(inv.email, secret), verified_at=now).returning(ACCOUNT.c.id)
            ).scalar_one()
        elif row.role != APPLICANT:
            raise InvitationRefused(f"{inv.email} is a staff account: staff see the filing in the workbench")
        elif row.verified_at is None:
            # an account whose address nobody proved (anyone may type an
            # address): the invitation came to the mailbox, so its owner
            # takes the account with their own password; the old
            # password and its sessions end
            account_id = row.id
            replace_password(conn, account_id, _HASHER.hash(secret), verified_at=now)
        else:
            try:
                _HASHER.verify(row.password_hash, secret)
            except (VerificationError, InvalidHashError):
                raise InvitationRefused(
                    f"an account for {inv.email} exists: give its password to accept the invitation"
                ) from None
            account_id = row.id
            if row.verified_at is None:
                conn.execute(update(ACCOUNT).where(ACCOUNT.c.id == account_id).values(verified_at=now))
        used = conn.execute(
            update(INVITE).where(INVITE.c.id == inv.id, INVITE.c.used_at.is_(None)).values(used_at=now, account_id=account_id)
        )
        if used.rowcount != 1:  # pragma: no cover - the row lock makes this unreachable
            raise InvitationRefused("this invitation has been used already")
        self._link(conn, account_id, inv.filing_id, "invited", now)
        return Account(account_id, inv.email, True)

    # -- what an account sees ----------------------------------------------

    def _link(self, conn, account_id: int, filing_id: str, how: str, now: datetime) -> None:
        known = conn.execute(select(LINK.c.how).where(LINK.c.account_id == account_id, LINK.c.filing_id == filing_id)).first()
        if known is None:
            conn.execute(insert(LINK).values(account_id=account_id, filing_id=filing_id, how=how, linked_at=now))

    def link(self, conn: Connection, account: Account, filing_id: str, how: str = "submitted") -> None:
        """Let ``account`` see ``filing_id`` (one it submitted), on ``conn``."""
        self._link(conn, account.id, filing_id, how, self._now())

    def _visible(self, account: Account):
        linked = select(LINK.c.filing_id).where(LINK.c.account_id == account.id)
        if not account.verified:
            return FILING.c.id.in_(linked)
        # one branch an index: the links, then each party's address (the
        # indexes of migration 0006); an OR of them would read every filing
        # on PostgreSQL
        dialect = self.store.engine.dialect.name
        named = [select(FILING.c.id).where(party_email(dialect, role) == account.email) for role in PARTY_ROLES]
        return FILING.c.id.in_(union_all(linked, *named))

    def filings_visible_to(self, account: Account | None) -> list:
        """The filings ``account`` may see, as rows (id, town, kind, state,
        address, next deadline), by id.  None (no account): none."""
        if account is None:
            return []
        query = select(
            FILING.c.id,
            FILING.c.town,
            FILING.c.kind,
            FILING.c.state,
            FILING.c.address,
            FILING.c.next_deadline_date,
            FILING.c.next_deadline_clock,
        ).where(self._visible(account))
        with self.store.reader.connect() as conn:
            return conn.execute(query.order_by(FILING.c.id)).all()

    def may_see(self, account: Account | None, filing_id: str) -> bool:
        if account is None or not isinstance(filing_id, str):
            return False
        query = select(FILING.c.id).where(FILING.c.id == filing_id, self._visible(account))
        with self.store.reader.connect() as conn:
            return conn.execute(query).first() is not None
