"""The state defaults: the Wetlands Protection Act, M.G.L. c.131 §40, and
its regulations, 310 CMR 10.00.  A town that defers to the state (Mansfield
Ch. 15 §4.1) adopts these; a filing heard under both (``also: ["wpa"]``) runs
them beside the town's."""

from calendars import (
    ROLL_TO_NEXT_BUSINESS_DAY as NEXT,
)
from calendars import (
    BusinessDays,
    BusinessDaysBackward,
    BusinessHoursBackward,
    CalendarDays,
    CalendarDaysBackward,
    Months,
)
from workflows.abutter_rules import AbutterRule
from workflows.rulebook import Clock, PermitRules, TownProfile

OPEN_MEETING = "M.G.L. c.30A §20(b) (Open Meeting Law)"
FINAL_ACTION = ("permit-issued", "permit-denied")
DETERMINATION = ("determination-issued",)

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
    ),
    renewal=Months(36),
    renewals_allowed=None,  # "for one or more periods of up to three years each"
    renewal_citation="310 CMR 10.05(8)(a)",
)

RDA = PermitRules(
    kind="rda",
    bylaw="M.G.L. c.131 §40; 310 CMR 10.05(3)",
    hearing_required=False,
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
