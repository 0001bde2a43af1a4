"""Notice dispatch for the sweep: how the sweep asks :mod:`notices` for a
notice now due.

:func:`notice_hook` returns the :data:`~sweep.run.NoticeHook` the sweep
calls for each notice now due.  Past the hook's ``limit`` (a demonstration
makes a sample) it makes nothing: the notice stays *pending*, unmarked, so a
later sweep makes it.

With ``email=True`` (the sweep records on the store, whose outbox keeps
email) the hook also builds the notice's emails to the applicant and owner
(:func:`notices.email.notice_emails`), which the output log queues with the
notice, and carries ``reminders``: the applicant's reminder emails due for a
filing (:func:`notices.email.reminder_emails`), which the sweep makes once each.

A notice the notices module refuses for this filing (``NoticeRefused``: the
state or the record does not fit it) is not an error of the filing: it is
listed as refused and not marked.  Anything else it raises (a template
error, a missing field) fails the filing, which the digest reports.
"""

from __future__ import annotations

import threading
from datetime import date, datetime, time

from workflows.ids import safe_child

__all__ = ["notice_hook", "NoticeNotApplicable", "MadeNotice"]


class NoticeNotApplicable(Exception):
    """The notice does not fit the filing now; not a failure."""


class MadeNotice(list):
    """The files a notice was written to (what the sweep's hook returns),
    with ``record``: what the output log records beside them, the
    recipients the notices module addressed and the notice's own date."""

    def __init__(self, files, recipients=(), dated: datetime | None = None, emails=()):
        super().__init__(files)
        self.record = {"recipients": list(recipients), "dated": dated.isoformat(timespec="minutes") if dated else None}
        if emails:
            self.record["emails"] = list(emails)


def notice_hook(as_of: date, fmt: str = "pdf", limit: int | None = None, email: bool = False, mail_from: str | None = None):
    """The hook for a run on ``as_of``; after ``limit`` notices it returns
    ``None`` (not made now: the notice stays pending for the next run), and
    ``hook.left()`` says how many it will still make (None: no limit).
    ``mail_from`` (``PERMITS_MAIL_FROM``) sends the emails."""
    if email and not mail_from:
        raise ValueError("notice_hook: email=True needs the sender (mail_from)")
    from notices.errors import NoticeRefused
    from notices.produce import produce

    dated = datetime.combine(as_of, time(8, 0))
    made = [0]
    lock = threading.Lock()

    def hook(filing, replay, due, out_dir) -> list[str] | None:
        with lock:
            if limit is not None and made[0] >= limit:
                return None
            made[0] += 1
        try:
            rendered = produce(filing, replay, due.kind, fmt=fmt, dated=dated)
        except NoticeRefused as exc:
            raise NoticeNotApplicable(str(exc)) from None
        recipients = list(dict.fromkeys(k for r in rendered for k in r.recipients))
        emails = _emails(filing, due.kind, rendered, dated, mail_from) if email else ()
        if out_dir is None:
            return MadeNotice([r.filename for r in rendered], recipients, dated, emails)
        # Paths relative to the output folder: the record does not depend
        # on where this run wrote.
        folder = safe_child(out_dir, "notices", filing.id)
        paths = [str(r.write(folder).relative_to(out_dir)) for r in rendered]
        return MadeNotice(paths, recipients, dated, emails)

    def left() -> int | None:
        """How many more notices this hook will make (None: no limit)."""
        with lock:
            return None if limit is None else max(0, limit - made[0])

    hook.left = left
    if email:
        from notices.email import reminder_emails

        hook.reminders = lambda filing, replay, day: reminder_emails(filing, replay, day, dated, mail_from=mail_from)
    return hook


def _emails(filing, kind: str, rendered, dated: datetime, mail_from: str) -> list[dict]:
    from notices.email import EMAIL_NOTICES, notice_emails
    from notices.kinds import notice_kind

    pdf = next((r for r in rendered if r.fmt == "pdf"), None)
    if kind not in EMAIL_NOTICES or pdf is None:
        return []
    return notice_emails(filing, kind, notice_kind(kind).title, pdf.filename, pdf.content, dated, mail_from=mail_from)
