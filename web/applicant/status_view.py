"""What an applicant's status page shows of a filing (``/my/filings/{id}``):
where it stands in words and whose turn it is (:func:`workflows.standing.standing_of`,
the same replay the staff page reads), the site, the hearing's day, time
and place (the meeting whose agenda has it, else the board's usual place),
the decisions with their conditions, the notices to download, the emails
sent to the applicant (when, in town time), the plans, and, when the town
has sent the application back, the correction form with the fields as
they stand.  Routes are web/applicant/my_filings.py's.
"""

from __future__ import annotations

from datetime import date

__all__ = ["status_context", "sent_to"]


def _hearing_place(store, filing, standing) -> str:
    from models.read.meetings import hearing_meeting
    from workflows.towns import town

    if standing.hearing is not None:
        with store.reader.connect() as conn:
            held = hearing_meeting(conn, filing.id, standing.hearing)
        if held is not None:
            return held.place
    office = town(filing.town).office(filing.kind)
    return office.meeting_place if office is not None and office.meeting_place else ""


def sent_to(store, filing_id: str, address: str) -> list[dict]:
    """The emails queued to ``address`` on the filing, oldest first: what
    each is, when it was queued (a moment of UTC, shown in town time) and
    whether it has gone, and whether a PDF went with it."""
    from models.read.outbox import Outbox
    from notices.step_email import email_title

    outbox, out = Outbox(store), []
    for e in outbox.entries(filing_id=filing_id):
        if e.address == address:
            pdf = b"application/pdf" in (outbox.message(e.id) or b"")
            out.append(
                {"id": e.id, "kind": e.kind, "title": email_title(e.kind), "at": e.produced_at, "status": e.status, "pdf": pdf}
            )
    return out


def status_context(store, uploads, today: date, account, fid: str) -> dict:
    """The status page's context as of ``today`` (the caller found the
    filing the account's)."""
    from notices.kinds import NOTICE_KINDS
    from services.notice_log import StoreNoticeLog
    from services.notices import APPLICANT_RECIPIENTS, fitting_notices
    from services.parcels import site_match
    from workflows.corrections import CORRECTABLE, current_values
    from workflows.particulars import particulars
    from workflows.replay import MACHINES
    from workflows.standing import standing_of
    from workflows.submission import submission_of

    from ..forms import KIND_LABELS

    filing, row = store.load(fid)
    result = store.replayer(filing, today)
    standing = standing_of(filing, result, today)
    renewal = result.clock("renewal-request")
    can_renew = (
        "renewal-requested" in MACHINES[filing.kind].allowed(result.state)
        and renewal is not None
        and renewal.status == "open"
        and not any(e.type == "renewal-requested" for e in filing.events)
    )
    sent = [
        n
        for n in StoreNoticeLog(store).entries(fid)
        if n.kind in NOTICE_KINDS and NOTICE_KINDS[n.kind].recipients in APPLICANT_RECIPIENTS and ":" not in n.recipient
    ]
    facts = particulars(filing)
    site = filing.extra.get("site") if isinstance(filing.extra.get("site"), dict) else {}
    sent_back = submission_of(filing).awaiting_applicant
    return {
        "filing": filing,
        "seq": row.last_seq,
        "result": result,
        "standing": standing,
        "kind_label": KIND_LABELS[filing.kind],
        "site": facts.site,
        "hearing_place": _hearing_place(store, filing, standing),
        "documents": fitting_notices(filing, result, for_applicant=True),
        "sent": sent,
        "emailed": sent_to(store, fid, account.email),
        "plans": uploads.of_filing(fid),
        "particulars": facts,
        "can_renew": can_renew,
        "sent_back": sent_back,
        "correctable": [(n, label, req) for n, label, _, req in CORRECTABLE] if sent_back else [],
        "current": current_values(filing.extra) if sent_back else {},
        "renewal": renewal,
        "site_warning": site_match(
            store, filing.town, address=filing.extra.get("address"), parcel=filing.extra.get("parcel") or site.get("parcel")
        ).warning,
    }
