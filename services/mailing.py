"""The mailing of a notice sent to the abutters: its certified-mail list
(the firm book's columns, USPS PS Form 3877) and its mailing labels, the
same files ``permits notices --kind abutter-notice`` writes beside the
letters, for the filing page to download.

Rendering them records nothing: the letters are sent (and recorded) when
the notice itself is produced (:func:`services.notices.produce_notice`).
"""

from __future__ import annotations

from datetime import date, datetime

from workflows.errors import PermitsError

__all__ = ["MAILINGS", "NoMailing", "mailing_kinds", "mailing"]

#: what of a notice's mailing a user may download: the name in the file, and its format
MAILINGS = {"certified-mail": "csv", "labels": "pdf"}


class NoMailing(PermitsError):
    """The notice is not mailed to abutters, or the filing has no abutter list yet."""

    def __init__(self, filing_id: str, kind: str, why: str):
        self.filing, self.kind = filing_id, kind
        super().__init__(f"{filing_id}: no mailing for the {kind}: {why}")


def mailing_kinds(fitting) -> list:
    """The notices among ``fitting`` (notice kinds) that go by mail to each abutter."""
    return [k for k in fitting if k.recipients == "abutters"]


def mailing(store, filing_id: str, kind: str, which: str, *, as_of: date, now: datetime):
    """The certified-mail list (``which`` = ``certified-mail``, CSV) or the
    mailing labels (``labels``, PDF) of notice ``kind`` with the abutter
    list kept on the filing: a :class:`notices.produce.RenderedNotice`.
    NoMailing when the notice is not mailed to abutters or there is no
    list; the notices' own errors when the notice does not fit now."""
    from notices.kinds import notice_kind
    from services.notice_log import StoreNoticeLog

    from .abutters import stored_abutters
    from .notices import render_notice

    if which not in MAILINGS:
        raise NoMailing(filing_id, kind, f"choose one of {', '.join(MAILINGS)}")
    if notice_kind(kind).recipients != "abutters":
        raise NoMailing(filing_id, kind, "it is not mailed to the abutters")
    abutters = stored_abutters(store, filing_id)
    if not abutters:
        raise NoMailing(filing_id, kind, "upload the assessors' abutter list first")
    filing, _ = store.load(filing_id)
    fmt = "txt" if which == "certified-mail" else "pdf"  # the list is the same in every format; txt renders fastest
    _, _, outputs, _ = render_notice(filing, kind, as_of=as_of, now=now, fmt=fmt, abutters=abutters, log=StoreNoticeLog(store))
    suffix = f"-{which}.{MAILINGS[which]}"
    return next(o for o in outputs if o.filename.endswith(suffix))
