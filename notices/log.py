"""Which notice went to whom, and when: so a notice can be shown and is
never sent twice by accident.

:class:`NoticeLog` is the interface the store will implement on its
database; :class:`MemoryNoticeLog` serves tests and :class:`JsonNoticeLog`
the command line until then (a JSON file beside the filing).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

__all__ = ["NoticeLog", "SentNotice", "MemoryNoticeLog", "JsonNoticeLog"]


@dataclass(frozen=True)
class SentNotice:
    filing_id: str
    kind: str
    recipient: str  # a recipient key (owner|street|city|zip), or "public" / "boards"
    at: str  # ISO date and time the notice was produced
    files: tuple[str, ...] = ()


class NoticeLog(Protocol):
    def already_sent(self, filing_id: str, kind: str, recipient: str) -> bool: ...
    def record(self, entry: SentNotice) -> None: ...
    def entries(self, filing_id: str) -> list[SentNotice]: ...


class MemoryNoticeLog:
    def __init__(self):
        self._entries: list[SentNotice] = []

    def already_sent(self, filing_id, kind, recipient) -> bool:
        return any((e.filing_id, e.kind, e.recipient) == (filing_id, kind, recipient) for e in self._entries)

    def record(self, entry: SentNotice) -> None:
        self._entries.append(entry)

    def entries(self, filing_id) -> list[SentNotice]:
        return [e for e in self._entries if e.filing_id == filing_id]


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
