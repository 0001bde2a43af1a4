"""Layer 4, notices: abutter notices, hearing postings, decisions and DPW
letters, rendered from a filing's record and its replayed clocks with Jinja
and WeasyPrint, and the logs that record what was sent (in memory, a JSON
file, or on the filing in the store: :mod:`notices.store_log`).

May import: :mod:`models`, :mod:`workflows`, :mod:`calendars`.  Never the
sweep or an interface.

Public names load lazily, so ``permits`` sub-commands that produce no
notice never import Jinja or WeasyPrint.
"""

from __future__ import annotations

import importlib

__all__ = [
    "produce",
    "RenderedNotice",
    "check_not_sent",
    "record_sent",
    "FORMATS",
    "NOTICE_KINDS",
    "NoticeKind",
    "notice_kind",
    "NoticeLog",
    "SentNotice",
    "MemoryNoticeLog",
    "JsonNoticeLog",
    "read_abutters",
    "parse_abutters",
    "merge_same_owner",
    "certified_mail_csv",
    "build_context",
    "load_filing",
    "NoticeError",
    "NoticeRefused",
    "MissingField",
    "AbutterListError",
    "TemplateProblem",
    "AlreadySent",
]

_WHERE = {
    "produce": "service",
    "RenderedNotice": "service",
    "check_not_sent": "service",
    "record_sent": "service",
    "FORMATS": "service",
    "NOTICE_KINDS": "kinds",
    "NoticeKind": "kinds",
    "notice_kind": "kinds",
    "NoticeLog": "log",
    "SentNotice": "log",
    "MemoryNoticeLog": "log",
    "JsonNoticeLog": "log",
    "read_abutters": "abutters",
    "parse_abutters": "abutters",
    "merge_same_owner": "abutters",
    "certified_mail_csv": "abutters",
    "build_context": "context",
    "load_filing": "cli",
    "NoticeError": "errors",
    "NoticeRefused": "errors",
    "MissingField": "errors",
    "AbutterListError": "errors",
    "TemplateProblem": "errors",
    "AlreadySent": "errors",
}


def __getattr__(name):
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
