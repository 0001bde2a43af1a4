"""Every notice the engine produces, as data: which permit kinds it serves,
in which states of the filing, what it needs from the record and the rule
book, and who receives it.

A notice applies to a town's permit kind when the kind is listed and the
town's rule book has the clocks the notice prints (``needs_clocks_any``):
Saugus hears no RDA, so it has no RDA hearing notices; only Canton and
Mansfield have a board memo.  Pure data, no Jinja.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from workflows.errors import UnknownChoice

__all__ = [
    "NoticeKind",
    "NOTICE_KINDS",
    "MEETING_NOTICE_KINDS",
    "notice_kind",
    "WETLANDS",
    "CaseNoticeKind",
    "CASE_NOTICE_KINDS",
    "case_notice_kind",
]

WETLANDS = ("noi", "rda", "land-disturbance")


@dataclass(frozen=True)
class NoticeKind:
    """One notice.

    ``states``: the filing states (``Replay.state``) it may be produced in;
    ``needs_events``: event types that must be on the record (any of each
    tuple); ``needs_clocks_any``: the town must declare at least one of these
    clocks for the notice to apply; ``recipients``: ``abutters`` (one letter
    per abutter, needs ``--abutters``), ``applicant``, ``applicant+owner``
    (the owner gets a copy when not the applicant), ``public``, ``boards``,
    ``holder`` (the street-opening permit holder)."""

    id: str
    title: str
    permit_kinds: tuple[str, ...]
    states: frozenset[str]
    recipients: str
    needs_events: tuple[tuple[str, ...], ...] = ()
    needs_clocks_any: tuple[str, ...] = ()
    summary: str = ""

    @property
    def template(self) -> str:
        return f"{self.id}.html.j2"

    def applies(self, profile, permit_kind: str) -> bool:
        """Does this notice exist for this town's permit kind?  Its events
        must be steps of the town's permit (Canton's inspections and
        deposits are no steps of Mansfield's street permit)."""
        if permit_kind not in self.permit_kinds or permit_kind not in profile.permits:
            return False
        from workflows.replay import machine_for

        steps = set(machine_for(profile.permits[permit_kind]).events)
        if any(not steps & set(group) for group in self.needs_events):
            return False
        if not self.needs_clocks_any:
            return True
        declared = {c.id for c in profile.permits[permit_kind].clocks}
        return bool(declared & set(self.needs_clocks_any))


#: Wetlands and stormwater: a hearing is scheduled but not yet held.
_PRE_HEARING = frozenset({"hearing-scheduled"})
#: A street opening permit in force (workflows.street_opening LIVE); a suspension does not change the state.
_ST_LIVE = frozenset({"issued", "excavating", "backfilled", "temporary-patch", "permanent-patch", "final-inspected"})

_KINDS = (
    NoticeKind(
        "abutter-notice",
        "Notice to abutters",
        WETLANDS,
        _PRE_HEARING,
        "abutters",
        needs_clocks_any=("hearing-open",),
        summary="what is proposed, where, where to see the plans, when and where the hearing is, under which by-law",
    ),
    NoticeKind(
        "affidavit-of-service",
        "Affidavit of service",
        WETLANDS,
        _PRE_HEARING | {"hearing-open"},
        "applicant",
        needs_events=(("abutters-notified",),),
        needs_clocks_any=("hearing-open",),
        summary="the applicant's sworn statement that every abutter on the list was notified",
    ),
    NoticeKind(
        "legal-notice",
        "Newspaper legal notice",
        WETLANDS,
        _PRE_HEARING,
        "public",
        needs_clocks_any=("newspaper-notice", "hearing-notice"),
        summary="the hearing notice for the newspaper, with the last day it may appear",
    ),
    NoticeKind(
        "hearing-posting",
        "Town Hall posting",
        WETLANDS,
        _PRE_HEARING,
        "public",
        needs_clocks_any=("hearing-posting",),
        summary="the meeting posting, stamped with its date and time, checked against 48 business hours (M.G.L. c.30A §20(b))",
    ),
    NoticeKind(
        "board-memo",
        "Memo to other boards",
        WETLANDS,
        frozenset({"filed", "hearing-scheduled"}),
        "boards",
        needs_events=(("boards-notified",),),
        needs_clocks_any=("board-comment", "board-reports"),
        summary="the application to the other boards, with their comment or report date",
    ),
    NoticeKind(
        "permit",
        "Permit / Order of Conditions",
        ("noi", "land-disturbance"),
        frozenset({"issued", "renewed"}),
        "applicant+owner",
        needs_events=(("permit-issued",),),
        summary="the permit with its conditions, appeal period and expiry",
    ),
    NoticeKind(
        "denial",
        "Denial",
        ("noi", "land-disturbance"),
        frozenset({"denied"}),
        "applicant+owner",
        needs_events=(("permit-denied",),),
        summary="the denial with the by-law's reasons",
    ),
    NoticeKind(
        "determination",
        "Determination of Applicability",
        ("rda",),
        frozenset({"positive-determination", "negative-determination"}),
        "applicant+owner",
        needs_events=(("determination-issued",),),
        summary="positive (an NOI is required) or negative determination",
    ),
    NoticeKind(
        "certificate-of-compliance",
        "Certificate of Compliance",
        ("noi",),
        frozenset({"certified", "completed", "issued", "renewed"}),
        "applicant+owner",
        needs_events=(("certificate-issued",),),
        needs_clocks_any=("certificate-decision",),
        summary="WPA Form 8B's sections: the Order, the certification (all the work or a part), the conditions that continue, its recording",
    ),
    NoticeKind(
        "certificate-denial",
        "Denial of a Certificate of Compliance",
        ("noi",),
        frozenset({"issued", "renewed"}),
        "applicant+owner",
        needs_events=(("certificate-denied",),),
        needs_clocks_any=("certificate-decision",),
        summary="the written denial with its reasons, within 21 days of the request; the Order stays in force",
    ),
    NoticeKind(
        "certificate-of-completion",
        "Certificate of completion",
        ("land-disturbance",),
        frozenset({"completed"}),
        "applicant+owner",
        needs_events=(("certificate-issued",),),
        summary="the letter certifying that all the work of the permit is completed (Mansfield Ch. 25 Part B §15), and the surety's release",
    ),
    NoticeKind(
        "street-permit",
        "Street Opening Permit",
        ("street-opening",),
        _ST_LIVE,
        "holder",
        needs_events=(("permit-issued",),),
        summary="the permit with its conditions and term",
    ),
    NoticeKind(
        "street-refusal",
        "Refusal of a Street Opening Permit",
        ("street-opening",),
        frozenset({"denied"}),
        "holder",
        needs_events=(("permit-denied",),),
        summary="the refusal with its reasons in writing",
    ),
    NoticeKind(
        "inspection-result",
        "Inspection result",
        ("street-opening",),
        _ST_LIVE,
        "holder",
        needs_events=(("inspected",),),
        summary="the latest inspection, its result and what comes next",
    ),
    NoticeKind(
        "settlement-answer",
        "Settlement inspection answer",
        ("street-opening",),
        _ST_LIVE,
        "holder",
        needs_events=(("inspected",),),
        needs_clocks_any=("settlement-answer",),
        summary="whether the permanent patch may go in, answered within 7 days of the inspection",
    ),
    NoticeKind(
        "certification-answer",
        "Answer to a certification request",
        ("street-opening",),
        _ST_LIVE,
        "holder",
        needs_events=(("certification-answered",),),
        needs_clocks_any=("certification-answer",),
        summary="whether the temporary patch is certified as permanent",
    ),
    NoticeKind(
        "suspension",
        "Suspension of a Street Opening Permit",
        ("street-opening",),
        _ST_LIVE,
        "holder",
        needs_events=(("suspended",),),
        needs_clocks_any=("suspension-ends",),
        summary="suspension on Default, and when it ends",
    ),
    NoticeKind(
        "revocation-hearing",
        "Notice of revocation hearing",
        ("street-opening",),
        _ST_LIVE,
        "holder",
        needs_events=(("revocation-hearing-scheduled",),),
        needs_clocks_any=("revocation-notice",),
        summary="the hearing on revoking the permit, with at least 5 days' written notice",
    ),
    NoticeKind(
        "after-hours-invoice",
        "Invoice for after-hours inspection",
        ("street-opening",),
        _ST_LIVE | {"closed", "revoked"},
        "holder",
        needs_events=(("after-hours-billed",),),
        needs_clocks_any=("after-hours-payment",),
        summary="inspection outside working hours, due in 15 days",
    ),
    NoticeKind(
        "deposit-refund",
        "Deposit refund",
        ("street-opening",),
        frozenset({"closed"}),
        "holder",
        needs_events=(("deposit-refunded",),),
        summary="the refundable deposit returned after the final inspection",
    ),
)

NOTICE_KINDS: Mapping[str, NoticeKind] = MappingProxyType({k.id: k for k in _KINDS})

#: Notices of a meeting, not of one filing (notices/meeting_posting.py): the
#: Open Meeting Law posting listing every hearing and other business.
MEETING_NOTICE_KINDS: Mapping[str, NoticeKind] = MappingProxyType(
    {
        "meeting-posting": NoticeKind(
            "meeting-posting",
            "Open Meeting Law posting",
            (),
            frozenset(),
            "public",
            summary="the meeting's notice and agenda, every hearing and other business, stamped with its date and time "
            "and checked against 48 hours not counting Saturdays, Sundays and legal holidays (M.G.L. c.30A §20(b))",
        )
    }
)


def notice_kind(kind_id: str) -> NoticeKind:
    try:
        return NOTICE_KINDS[kind_id]
    except KeyError:
        raise UnknownChoice("notice kind", kind_id, NOTICE_KINDS) from None


@dataclass(frozen=True)
class CaseNoticeKind:
    """A notice of an enforcement case (:mod:`notices.enforcement`): the
    step it speaks for (``needs_event``, the latest one on record) and
    whether the by-law must recover the town's costs for it to exist.  It
    goes to the violator, and to the owner of the site when the by-law bills
    the owner too."""

    id: str
    title: str
    needs_event: str
    summary: str
    needs_costs: bool = False

    @property
    def template(self) -> str:
        return f"{self.id}.html.j2"


CASE_NOTICE_KINDS: Mapping[str, CaseNoticeKind] = MappingProxyType(
    {
        k.id: k
        for k in (
            CaseNoticeKind(
                "violation-notice",
                "Notice of violation",
                "violation-observed",
                "the violations seen, the by-law and provision, and what may follow: an order, tickets and their fines",
            ),
            CaseNoticeKind(
                "enforcement-order",
                "Enforcement Order",
                "order-issued",
                "WPA Form 9's parts: the violation, what the order requires and the date to comply by",
            ),
            CaseNoticeKind(
                "ticket",
                "Notice of non-criminal disposition",
                "ticket-issued",
                "M.G.L. c.40 §21D: each offense (provision, day), its number and fine, and 21 days to appear or pay",
            ),
            CaseNoticeKind(
                "cost-notice",
                "Notice of the town's costs",
                "costs-noticed",
                "Mansfield Ch. 25 Part B §14.B.3: the costs of the town's abatement, the protest, the lien and interest",
                needs_costs=True,
            ),
        )
    }
)


def case_notice_kind(kind_id: str) -> CaseNoticeKind:
    try:
        return CASE_NOTICE_KINDS[kind_id]
    except KeyError:
        raise UnknownChoice("enforcement notice", kind_id, CASE_NOTICE_KINDS) from None
