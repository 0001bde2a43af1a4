"""Which notices fit a filing now, and producing one: ``permits notices``,
the filing page's notice list, its preview and download, and the
applicant's documents all call these.

A notice's identity is its kind, its occasion and its recipient
(:mod:`notices.log`).  :func:`produce_notice` renders the notice and hands
it to the log, which writes the files and records as sent only the copies
not yet recorded for that occasion.  Rendering a recorded notice again, in
another format or the same one to print, is dated as it was sent and is not
a second sending; ``again`` is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

__all__ = [
    "APPLICANT_RECIPIENTS",
    "Produced",
    "fitting_notices",
    "produce_notice",
    "record_sent",
    "render_notice",
    "already_sent_note",
]

#: notice recipients an applicant is sent (the abutters' letters and the
#: boards' memos are not theirs)
APPLICANT_RECIPIENTS = ("applicant", "applicant+owner", "holder", "public")
#: notices an applicant is not offered to download (a posting is the town's)
_NOT_THE_APPLICANTS = ("hearing-posting",)


@dataclass(frozen=True)
class Produced:
    """A notice produced: its rendered outputs, the files written, the
    recipients recorded as sent now, and the recordings of the copies that
    were sent before (rendered again, not sent again)."""

    kind: str
    outputs: tuple
    files: tuple[str, ...]
    sent: tuple[str, ...]
    already: tuple
    dated: datetime


def fitting_notices(filing, replay, *, for_applicant: bool = False, abutter_list: bool = True) -> list:
    """The notice kinds (:class:`notices.kinds.NoticeKind`) that fit the
    filing now (:func:`notices.produce.refusal`); ``for_applicant``: only
    those addressed to the applicant, owner or holder, or public, and not
    the Town Hall posting; without an ``abutter_list`` on the filing, none
    of those mailed to each abutter (they are waiting for it)."""
    from notices.kinds import NOTICE_KINDS
    from notices.produce import refusal
    from workflows.towns import town

    profile = town(filing.town)
    out = []
    for k in NOTICE_KINDS.values():
        if for_applicant and (k.recipients not in APPLICANT_RECIPIENTS or k.id in _NOT_THE_APPLICANTS):
            continue
        if not abutter_list and k.recipients == "abutters":
            continue
        if refusal(filing, replay, k, profile) is None:
            out.append(k)
    return out


def _recorded_date(log, filing, kind: str, occasion: str, recipients: Sequence[str]) -> datetime | None:
    """The date the notice was sent with, when every copy of it was
    recorded for this occasion: a notice rendered again is the same letter."""
    from notices.log import recorded_copies

    if log is None or not recipients:
        return None
    seen = recorded_copies(log.entries(filing.id), kind, occasion, recipients)
    if len(seen) < len(set(recipients)):
        return None
    return min(datetime.fromisoformat(e.at) for e in seen.values())


def render_notice(
    filing,
    kind: str,
    *,
    as_of: date,
    now: datetime,
    fmt: str = "pdf",
    abutters: Sequence | None = None,
    templates: str | None = None,
    log=None,
):
    """Render notice ``kind`` of the filing as it stands on ``as_of``,
    without recording anything (a preview, an applicant's copy): dated as it
    was sent when ``log`` records it for its occasion, else ``now``.
    Returns (replay, occasion, outputs, dated)."""
    from notices.errors import NoticeError
    from notices.kinds import notice_kind
    from notices.produce import produce, recipients_for
    from sweep.agenda import notice_occasion
    from workflows.replay import replay

    result = replay(filing, as_of)
    occasion = notice_occasion(result, kind, filing.events)
    try:
        keys = [key for _, key in recipients_for(filing, notice_kind(kind), abutters)]
    except NoticeError:  # produce names what is missing
        keys = []
    dated = _recorded_date(log, filing, kind, occasion, keys) or now
    outputs = produce(filing, result, kind, abutters=abutters, fmt=fmt, town_templates_dir=templates, dated=dated)
    return result, occasion, outputs, dated


def produce_notice(
    filing,
    kind: str,
    log,
    *,
    as_of: date,
    now: datetime,
    fmt: str = "pdf",
    abutters: Sequence | None = None,
    templates: str | None = None,
    again: bool = False,
    out: str | Path | None = None,
) -> Produced:
    """Produce notice ``kind`` of the filing and record it in ``log`` (the
    store's, or a JSON file's), naming the files written into the folder
    ``out`` once the log has recorded it (None: none, the caller sends the
    bytes): a recording that fails writes nothing.  The copies recorded
    before for the notice's occasion are rendered again as dated then and
    not recorded again; ``again`` records every copy as a second sending,
    dated ``now``."""
    from workflows.ids import safe_child

    result, occasion, outputs, dated = render_notice(
        filing, kind, as_of=as_of, now=now, fmt=fmt, abutters=abutters, templates=templates, log=None if again else log
    )
    files = [str(safe_child(out, o.filename)) for o in outputs] if out is not None else []
    delivery = log.deliver(filing.id, outputs, dated, files, occasion=occasion, again=again)
    if out is not None:  # after the recording has committed
        for o in outputs:
            o.write(out)
    return Produced(kind, tuple(outputs), delivery.files, delivery.sent, delivery.already, dated)


def record_sent(store, filing_id: str, kind: str, *, how: str, on: date, by: str, again: bool, as_of: date, now: datetime):
    """Record that notice ``kind`` of the filing was sent on ``on``, ``how``
    (a word of :data:`notices.log.WAYS`), by ``by``, to every one of its
    recipients (the abutter list kept on the filing for a notice mailed to
    the abutters): a sending is its own act, apart from producing or
    downloading the letter.  Refused when it does not fit the filing now,
    when it was already recorded for its occasion (unless ``again``), and
    on a day after ``as_of``.  The recipients recorded now."""
    from notices.errors import SendingRefused
    from notices.kinds import notice_kind
    from notices.log import WAYS

    from .abutters import stored_abutters
    from .notice_log import StoreNoticeLog

    if how not in WAYS:
        raise SendingRefused(f"say how the notice went: {', '.join(WAYS.values())}")
    if on > as_of:
        raise SendingRefused(f"a notice is recorded as sent on a day that has come, not {on.isoformat()}")
    log = StoreNoticeLog(store)
    filing, _ = store.load(filing_id)
    _, occasion, outputs, _ = render_notice(
        filing, kind, as_of=as_of, now=now, fmt="txt", abutters=stored_abutters(store, filing_id), log=None
    )
    at = datetime.combine(on, now.time()) if on != now.date() else now
    delivery = log.deliver(filing_id, outputs, at, [], occasion=occasion, again=again, how=how, by=by)
    if not delivery.sent:
        raise SendingRefused(
            f"{filing_id}: the {notice_kind(kind).title} was recorded as sent on {delivery.already[0].at[:10]}: "
            "to record a second sending, tick 'a second sending'"
        )
    return delivery.sent


def already_sent_note(produced: Produced) -> str | None:
    """What to tell the user of copies rendered again and not sent again
    (None when every copy was sent now)."""
    if not produced.already:
        return None
    first = produced.already[0]
    who = first.recipient.split("|")[0].title() if "|" in first.recipient else first.recipient
    more = f" and {len(produced.already) - 1} more" if len(produced.already) > 1 else ""
    return f"{produced.kind} was sent to {who}{more} on {first.at}: rendered again as it was sent, not sent a second time"
