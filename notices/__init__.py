"""Notices: abutter notices, hearing postings, decisions and DPW letters,
rendered from a filing's record and its replayed clocks with Jinja and
WeasyPrint; the logs that record what was sent (in memory, a JSON file, or
on the filing in the store: :mod:`services.notice_log`); the wording of every
email (:mod:`notices.email`, the applicant's word at each step in
:mod:`notices.step_email`), an email of the outbox in words for whoever
reads it where it waits (:mod:`notices.outbox_words`) and its delivery by
SMTP (:mod:`notices.smtp`);
the ICS writer of calendar feeds (:mod:`notices.ics`); a board's annual
report (:mod:`notices.annual_report`), its bar charts in SVG
(:mod:`notices.charts`) and the XLSX writer of its tables (:mod:`notices.xlsx`).

May import: :mod:`models`, :mod:`workflows`, :mod:`calendars`, Jinja2,
WeasyPrint, icalendar, openpyxl.  Never the settings, the sweep, the service layer or
an interface: what they need (a sender, an SMTP URL) is handed in.

Public names load lazily, so ``permits`` sub-commands that produce no
notice never import Jinja or WeasyPrint.
"""

from __future__ import annotations

import importlib

__all__ = [
    "produce",
    "refusal",
    "RenderedNotice",
    "FORMATS",
    "NOTICE_KINDS",
    "NoticeKind",
    "notice_kind",
    "NoticeLog",
    "SentNotice",
    "Delivery",
    "MemoryNoticeLog",
    "JsonNoticeLog",
    "read_abutters",
    "read_abutter_bytes",
    "parse_abutters",
    "merge_same_owner",
    "certified_mail_csv",
    "build_context",
    "NoticeError",
    "NoticeRefused",
    "MissingField",
    "AbutterListError",
    "TemplateProblem",
]

_WHERE = {
    "produce": "produce",
    "refusal": "produce",
    "RenderedNotice": "produce",
    "FORMATS": "produce",
    "NOTICE_KINDS": "kinds",
    "NoticeKind": "kinds",
    "notice_kind": "kinds",
    "NoticeLog": "log",
    "SentNotice": "log",
    "Delivery": "log",
    "MemoryNoticeLog": "log",
    "JsonNoticeLog": "log",
    "read_abutters": "abutters",
    "read_abutter_bytes": "abutters",
    "parse_abutters": "abutters",
    "merge_same_owner": "abutters",
    "certified_mail_csv": "abutters",
    "build_context": "context",
    "NoticeError": "errors",
    "NoticeRefused": "errors",
    "MissingField": "errors",
    "AbutterListError": "errors",
    "TemplateProblem": "errors",
}


def __getattr__(name):
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
