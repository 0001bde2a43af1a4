"""The email outbox, read: what waits, what was sent, what the server
refused, and one message whole (``permits outbox``, the applicant's status
page), or made readable (:meth:`Outbox.readable`: its headers and body as
text, its attachments named: the admins' Emails page and ``permits outbox
show``).  Queuing and delivery are writes: :mod:`models.store.outbox` and
:mod:`services.mail`.
"""

from dataclasses import dataclass
from datetime import datetime
from email import message_from_bytes
from email.message import EmailMessage as Message
from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import parsedate_to_datetime

from sqlalchemy import func, select

from models.handle import Store
from models.schema.tables import EmailMessage, Notice

__all__ = ["EMAIL", "MAX_ATTEMPTS", "OutboxEntry", "Outbox", "Listed", "Attachment", "Readable", "PAGE", "HEAD_BYTES"]

EMAIL = "email"
#: deliveries tried before a message is given up as failed
MAX_ATTEMPTS = 5
NOTICE, MESSAGE = Notice.__table__, EmailMessage.__table__


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    filing_id: str | None  # None: an account's own email
    kind: str
    address: str
    produced_at: datetime
    sent_at: datetime | None
    attempts: int
    last_error: str | None

    @property
    def status(self) -> str:
        if self.sent_at is not None:
            return "sent"
        if self.attempts >= MAX_ATTEMPTS:
            return "failed"
        return "queued" if not self.attempts else "retrying"


#: emails on a page of the Emails list
PAGE = 50
#: the start of a message read for its headers in a list (the body and its
#: attachments are read only when the message is opened)
HEAD_BYTES = 4096


@dataclass(frozen=True)
class Listed:
    """An email as a list shows it: the outbox's entry and its subject."""

    entry: OutboxEntry
    subject: str


@dataclass(frozen=True)
class Attachment:
    name: str
    media_type: str
    size: int


@dataclass(frozen=True)
class Readable:
    """An email as a person reads it: who from, to whom, the subject, the
    date it carries (aware, or None), the body as text, the attachments."""

    entry: OutboxEntry
    sender: str
    to: str
    subject: str
    dated: datetime | None
    body: str
    attachments: tuple[Attachment, ...]


def _dated(value) -> datetime | None:
    try:
        return parsedate_to_datetime(str(value)) if value else None
    except (TypeError, ValueError):
        return None


def _body(msg: Message) -> str:
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    try:
        return str(part.get_content())
    except (LookupError, ValueError):  # an unknown charset: the bytes as they decode
        return part.get_payload(decode=True).decode("utf-8", "replace")


_COLUMNS = (
    NOTICE.c.id,
    NOTICE.c.filing_id,
    NOTICE.c.kind,
    NOTICE.c.address,
    NOTICE.c.produced_at,
    NOTICE.c.sent_at,
    NOTICE.c.attempts,
    NOTICE.c.last_error,
)


class Outbox:
    """The outbox of ``store``, read."""

    def __init__(self, store: Store):
        self.store = store

    def entries(self, *, pending_only: bool = False, filing_id: str | None = None) -> list[OutboxEntry]:
        query = select(*_COLUMNS).where(NOTICE.c.channel == EMAIL)
        if pending_only:
            query = query.where(NOTICE.c.sent_at.is_(None))
        if filing_id is not None:
            query = query.where(NOTICE.c.filing_id == filing_id)
        with self.store.reader.connect() as conn:
            return [OutboxEntry(*r) for r in conn.execute(query.order_by(NOTICE.c.id))]

    def page(
        self, *, filing_id: str | None = None, address: str | None = None, before: int | None = None, limit: int | None = None
    ) -> tuple[list[Listed], int | None]:
        """The emails newest first, ``limit`` a page, each with its subject
        (read from the message's first :data:`HEAD_BYTES`): only the
        filing's (``filing_id``), only those to an address containing
        ``address`` (any case), only those before the id ``before``; and
        the id to continue before, or None on the last page (``limit``
        default :data:`PAGE`)."""
        limit = limit or PAGE
        head = func.substr(MESSAGE.c.message, 1, HEAD_BYTES)
        query = select(*_COLUMNS, head).join(MESSAGE, MESSAGE.c.notice_id == NOTICE.c.id).where(NOTICE.c.channel == EMAIL)
        if filing_id:
            query = query.where(NOTICE.c.filing_id == filing_id)
        if address:
            escaped = address.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(func.lower(NOTICE.c.address).like(f"%{escaped}%", escape="\\"))
        if before is not None:
            query = query.where(NOTICE.c.id < before)
        with self.store.reader.connect() as conn:
            rows = conn.execute(query.order_by(NOTICE.c.id.desc()).limit(limit + 1)).all()
        parser = BytesHeaderParser(policy=default)
        listed = [Listed(OutboxEntry(*r[:-1]), str(parser.parsebytes(bytes(r[-1]))["Subject"] or "")) for r in rows[:limit]]
        return listed, (listed[-1].entry.id if len(rows) > limit else None)

    def readable(self, notice_id: int) -> Readable | None:
        """The email ``notice_id`` made readable, or None if there is none."""
        with self.store.reader.connect() as conn:
            row = conn.execute(
                select(*_COLUMNS, MESSAGE.c.message)
                .join(MESSAGE, MESSAGE.c.notice_id == NOTICE.c.id)
                .where(NOTICE.c.id == notice_id, NOTICE.c.channel == EMAIL)
            ).first()
        if row is None:
            return None
        msg = message_from_bytes(bytes(row[-1]), policy=default)
        attachments = tuple(
            Attachment(part.get_filename() or "(unnamed)", part.get_content_type(), len(part.get_payload(decode=True) or b""))
            for part in msg.iter_attachments()
        )
        return Readable(
            OutboxEntry(*row[:-1]),
            str(msg["From"] or ""),
            str(msg["To"] or ""),
            str(msg["Subject"] or ""),
            _dated(msg["Date"]),
            _body(msg),
            attachments,
        )

    def message(self, notice_id: int) -> bytes | None:
        with self.store.reader.connect() as conn:
            return conn.execute(select(MESSAGE.c.message).where(MESSAGE.c.notice_id == notice_id)).scalar()

    def pending(self, *, limit: int | None = None, ids=None) -> list[int]:
        """The ids of the messages waiting to be delivered (not sent, tried
        fewer than :data:`MAX_ATTEMPTS` times), oldest first; ``ids``: only
        these."""
        query = select(NOTICE.c.id).where(NOTICE.c.channel == EMAIL, NOTICE.c.sent_at.is_(None), NOTICE.c.attempts < MAX_ATTEMPTS)
        if ids is not None:
            query = query.where(NOTICE.c.id.in_(list(ids)))
        with self.store.reader.connect() as conn:
            return list(conn.execute(query.order_by(NOTICE.c.id).limit(limit)).scalars())
