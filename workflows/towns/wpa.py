"""The state defaults: the Wetlands Protection Act, M.G.L. c.131 §40, and
its regulations, 310 CMR 10.00.  A town that defers to the state (Mansfield
Ch. 15 §4.1) adopts these; a filing heard under both (``also: ["wpa"]``) runs
them beside the town's."""

from calendars import (
    NO_ROLL,
    BusinessDays,
    BusinessDaysBackward,
    BusinessHoursBackward,
    CalendarDays,
    CalendarDaysBackward,
    DayAfterBusinessDays,
    Months,
)
from calendars import (
    ROLL_TO_NEXT_BUSINESS_DAY as NEXT,
)
from workflows.abutter_rules import AbutterRule
from workflows.rulebook import Clock, PermitRules, TownProfile

OPEN_MEETING = "M.G.L. c.30A §20(b) (Open Meeting Law)"
#: The Act and its regulations as a notice names them beside a town's by-law.
ACT = "Wetlands Protection Act (M.G.L. c.131 §40; 310 CMR 10.00)"
FINAL_ACTION = ("permit-issued", "permit-denied")
DETERMINATION = ("determination-issued",)

#: Every state Order's general conditions: no work until the Order is
#: recorded at the Registry of Deeds (or registered in the Land Court).
RECORDING = "M.G.L. c.131 §40; WPA Form 5 (Order of Conditions), General Conditions"
#: The Certificate of Compliance: asked in writing (WPA Form 8A), issued
#: (Form 8B) or denied in writing with reasons within 21 days of receipt.
CERTIFICATES = "310 CMR 10.05 (Certificates of Compliance; WPA Forms 8A, 8B)"
EMERGENCIES = "310 CMR 10.06"
#: "No person shall remove, fill, dredge or alter any area subject to
#: protection under this section without the required authorization, or
#: cause, suffer or allow such activity ... without ... receiving and
#: complying with an order of conditions": work with no Order (or
#: Determination) in force is a violation (workflows/unpermitted.py).
WORK_WITHOUT_PERMIT = "M.G.L. c.131 §40"

#: Certificate of Compliance within 21 days of receiving the written request
#: (a period of more than ten days: calendar days, rolled off a closed last
#: day, 310 CMR 10.05(1)).  Every Order's, whatever the by-law adds.
CERTIFICATE_DECISION = Clock(
    "certificate-decision",
    CalendarDays(21, NEXT),
    "certificate-requested",
    CERTIFICATES,
    met_by=("certificate-issued", "certificate-denied", "completion-certified"),
    note="the Certificate of Compliance issued, or denied in writing with reasons, within 21 days of receipt of the request",
)
#: No work until the appeal periods have passed: the request for a
#: superseding order is due within 10 business days of issuance, and the
#: period ends at the close of business on the tenth.
APPEAL_BEFORE_WORK = Clock(
    "appeal-before-work",
    DayAfterBusinessDays(10),
    "issuance",
    "WPA Form 5 (Order of Conditions), General Conditions; 310 CMR 10.05(7)(c)",
    met_by=("work-started", "work-observed"),
    note="no work until the appeal periods from the Order have passed (and any appeal taken is decided)",
)
#: 310 CMR 10.06(1)-(3): an emergency certification describes the work it
#: allows, for at most 30 days unless the Commissioner approves more; its
#: length (``days``) is the certification's own.  Never rolled: a limit on
#: work, not a day for an act at the office (docs/reference/readings.md).
EMERGENCY_CERTIFICATION = Clock(
    "emergency-certification",
    CalendarDays(30, NO_ROLL),
    "emergency-certified",
    f"{EMERGENCIES}(1)-(3)",
    max_count=30,
    note="the certified work only, for the days certified, at most 30 unless the Commissioner approves more in writing",
)
#: Work that goes on after the certification ends needs a filing: counted
#: only once work is seen after the end with no Notice of Intent filed.
EMERGENCY_CONTINUATION = Clock(
    "emergency-continuation",
    CalendarDays(0, NO_ROLL),
    "emergency-ended",
    EMERGENCIES,
    met_by=("filed",),
    note="work beyond what the emergency certification allows needs a Notice of Intent, filed by the day it ends",
)

HEARING_POSTING = Clock(
    "hearing-posting",
    BusinessHoursBackward(48),
    "hearing-date",
    OPEN_MEETING,
    met_by=("notice-posted",),
    note="posted 48 hours before, not counting Saturdays, Sundays and legal holidays",
)

#: Who is notified of a filing: "all abutters within 100 feet of the property
#: line ..., including owners of land directly opposite on any public or
#: private street or way, and in another municipality or across a body of
#: water" (the 100 feet are measured across the water and the town line).
ABUTTERS = AbutterRule(
    "310 CMR 10.05(4)(a)",
    within_feet=100,
    opposite_on_ways=True,
    note="certified mail or hand delivery to owners within 100 ft of the property line, across ways, water and town lines",
)

NOI = PermitRules(
    kind="noi",
    bylaw="M.G.L. c.131 §40; 310 CMR 10.05",
    under_the_act=True,
    abutters=ABUTTERS,
    clocks=(
        Clock(
            "hearing-open",
            CalendarDays(21, NEXT),
            "complete-application",
            "310 CMR 10.05(5)(b); M.G.L. c.131 §40",
            met_by=("hearing-opened",),
        ),
        Clock(
            "newspaper-notice",
            BusinessDaysBackward(5),
            "hearing-date",
            "310 CMR 10.05(5)(b), counted as 10.05(1) counts periods of 10 days or less",
            met_by=("notice-published",),
            note="at least 5 business days before the hearing",
        ),
        HEARING_POSTING,
        Clock(
            "decision",
            CalendarDays(21, NEXT),
            "hearing-closed",
            "310 CMR 10.05(6)(a); M.G.L. c.131 §40",
            met_by=FINAL_ACTION,
            note="Order of Conditions within 21 days of the close of the hearing",
        ),
        Clock(
            "appeal-period",
            BusinessDays(10),
            "final-action",
            "310 CMR 10.05(7)(c)",
            note="request for a superseding order; no work until appeal periods end",
        ),
        Clock("permit-expiry", Months(36), "issuance", "310 CMR 10.05(6)(d)", note="an Order is valid for 3 years"),
        Clock(
            "renewal-request",
            CalendarDaysBackward(30),
            "expiry",
            "310 CMR 10.05(8)(a)",
            met_by=("renewal-requested",),
            optional=True,
            note="extension asked at least 30 days before expiry; an expired Order cannot be extended",
        ),
        CERTIFICATE_DECISION,
        APPEAL_BEFORE_WORK,
        EMERGENCY_CERTIFICATION,
        EMERGENCY_CONTINUATION,
    ),
    renewal=Months(36),
    renewals_allowed=None,  # "for one or more periods of up to three years each"
    renewal_citation="310 CMR 10.05(8)(a)",
    recording_before_work=RECORDING,
    work_without_permit=WORK_WITHOUT_PERMIT,
)

RDA = PermitRules(
    kind="rda",
    bylaw="M.G.L. c.131 §40; 310 CMR 10.05(3)",
    under_the_act=True,
    hearing_required=False,
    work_without_permit=WORK_WITHOUT_PERMIT,
    abutters=ABUTTERS,
    clocks=(
        Clock("hearing-open", CalendarDays(21, NEXT), "complete-application", "310 CMR 10.05(3)(a)", met_by=("hearing-opened",)),
        Clock(
            "newspaper-notice",
            BusinessDaysBackward(5),
            "hearing-date",
            "310 CMR 10.05(3)(a), counted as 10.05(1) counts periods of 10 days or less",
            met_by=("notice-published",),
        ),
        HEARING_POSTING,
        Clock(
            "decision",
            CalendarDays(21, NEXT),
            "complete-application",
            "310 CMR 10.05(3)(b); M.G.L. c.131 §40",
            met_by=DETERMINATION,
            note="determination within 21 days of receipt of the request",
        ),
        Clock("appeal-period", BusinessDays(10), "final-action", "310 CMR 10.05(7)(c)"),
        Clock("permit-expiry", Months(36), "issuance", "310 CMR 10.05(3)(b)", note="a determination is valid for 3 years"),
    ),
)

PROFILE = TownProfile(
    id="wpa",
    name="Wetlands Protection Act (state defaults)",
    county="",
    permits={"noi": NOI, "rda": RDA},
)
