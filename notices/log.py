"""Which notice went to whom, and when: so a notice can be shown, and is
never sent twice by accident.

A notice's identity is its kind, its occasion (the clock date or event the
sweep makes it for, ``""`` when none) and its recipient.  Rendering it
again, in another format or the same one to print, is not sending it:
:meth:`NoticeLog.deliver` records only the recipients not yet recorded for
that occasion, with the files the caller writes once it returns
(:func:`services.notices.produce_notice`); ``again`` records a second
sending on purpose.

:class:`MemoryNoticeLog` serves tests, :class:`JsonNoticeLog` a filing JSON
file (``FILE.notices.json`` beside it) and
:class:`services.notice_log.StoreNoticeLog` the store.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

__all__ = [
    "NoticeLog",
    "SentNotice",
    "Delivery",
    "MemoryNoticeLog",
    "JsonNoticeLog",
    "WAYS",
    "recorded_copies",
    "wanted_copies",
]

#: how a notice staff recorded as sent went, by its word in the record: the
#: ways M.G.L. c.131 §40 and the by-laws name (certified mail, hand
#: delivery, first-class mail to the abutters' addresses, posting, publication)
WAYS = {
    "certified-mail": "by certified mail",
    "mail": "by first-class mail",
    "hand": "by hand",
    "email": "by email",
    "posted": "posted",
    "published": "published in the newspaper",
}


@dataclass(frozen=True)
class SentNotice:
    filing_id: str
    kind: str
    recipient: str  # a recipient key (owner|street|city|zip), or "public" / "boards"
    at: str  # ISO date and time the notice is dated (a posting's stamp)
    files: tuple[str, ...] = ()
    occasion: str = ""


@dataclass(frozen=True)
class Delivery:
    """What :meth:`NoticeLog.deliver` did: the files it recorded, the
    recipients it recorded as sent now, and the recordings of those that
    had the notice already (rendered again, not sent again)."""

    files: tuple[str, ...]
    sent: tuple[str, ...]
    already: tuple[SentNotice, ...]


class NoticeLog(Protocol):
    def entries(self, filing_id: str) -> list[SentNotice]: ...

    def deliver(
        self,
        filing_id: str,
        outputs: Sequence,
        at: datetime,
        files: Sequence[str],
        *,
        occasion: str = "",
        again: bool = False,
    ) -> Delivery: ...


def wanted_copies(outputs: Sequence) -> list[tuple[str, str]]:
    """(kind, recipient) of every copy the rendered ``outputs`` address, once each."""
    return list(dict.fromkeys((o.kind, r) for o in outputs for r in o.recipients))


def recorded_copies(entries: Iterable[SentNotice], kind: str, occasion: str, recipients: Iterable[str]) -> dict[str, SentNotice]:
    """The recordings, by recipient, of notice ``kind`` for ``occasion`` to
    any of ``recipients`` (the first recording of each)."""
    wanted = set(recipients)
    out: dict[str, SentNotice] = {}
    for e in entries:
        if e.kind == kind and e.occasion == occasion and e.recipient in wanted:
            out.setdefault(e.recipient, e)
    return out


class MemoryNoticeLog:
    def __init__(self):
        self._entries: list[SentNotice] = []

    def record(self, entry: SentNotice) -> None:
        self._entries.append(entry)

    def entries(self, filing_id) -> list[SentNotice]:
        return [e for e in self._entries if e.filing_id == filing_id]

    def deliver(self, filing_id, outputs, at, files, *, occasion="", again=False) -> Delivery:
        """Record the copies not yet recorded (all of them with ``again``, as
        a sending of its own), naming ``files``."""
        if again:
            occasion = f"again:{datetime.now(UTC).isoformat(timespec='microseconds')}"  # an identity, not a stamp
        wanted = wanted_copies(outputs)
        entries = self.entries(filing_id)
        already, sent = [], []
        for kind, r in wanted:
            seen = recorded_copies(entries, kind, occasion, [r]).get(r)
            if seen is not None:
                already.append(seen)
            else:
                sent.append((kind, r))
        files = tuple(str(f) for f in files)
        for kind, r in sent:
            self.record(SentNotice(filing_id, kind, r, at.isoformat(timespec="minutes"), files, occasion))
        return Delivery(files, tuple(r for _, r in sent), tuple(already))


class JsonNoticeLog(MemoryNoticeLog):
    """The log as a JSON list in one file, rewritten atomically on record."""

    def __init__(self, path: str | Path):
        super().__init__()
        self.path = Path(path)
        if self.path.exists():
            for raw in json.loads(self.path.read_text(encoding="utf-8")):
                self._entries.append(SentNotice(**{**raw, "files": tuple(raw.get("files", ()))}))

    def record(self, entry: SentNotice) -> None:
        super().record(entry)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps([asdict(e) for e in self._entries], indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)
