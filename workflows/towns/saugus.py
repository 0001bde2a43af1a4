"""Saugus: Wetlands By-Law 508.00-508.12, the newer text 508.08 "Section
1-14".  Source: the by-law text the town publishes (saugus.txt) lines 387-565."""

from calendars import (
    ROLL_TO_NEXT_BUSINESS_DAY as NEXT,
)
from calendars import (
    CalendarDays,
    CalendarDaysBackward,
    Months,
)
from workflows.abutter_rules import AbutterRule
from workflows.fees import STATE_FEE, FeeRule
from workflows.fines import FineSchedule
from workflows.rulebook import Clock, Office, PermitRules, Place, Signer, TownProfile
from workflows.towns.wpa import (
    CERTIFICATE_DECISION,
    DETERMINATION,
    EMERGENCY_CERTIFICATION,
    EMERGENCY_CONTINUATION,
    FINAL_ACTION,
    HEARING_POSTING,
    RECORDING,
)

BYLAW = "Saugus Wetlands By-Law 508.08"

#: §5.4: notice of a NOI or an RDA "to all abutters ...  This shall include
#: owners of land directly opposite on any public or private street or way,
#: and abutters to the abutters within 300 feet of the property line of the
#: applicant, including any in another municipality or across a body of water."
ABUTTERS = AbutterRule(
    f"{BYLAW} §5.4",
    within_feet=0,
    opposite_on_ways=True,
    abutters_to_abutters_feet=300,
    note="abutters, those directly opposite on any way, and abutters to abutters within 300 ft, other towns and across water",
)

NOI = PermitRules(
    kind="noi",
    bylaw=BYLAW,
    abutters=ABUTTERS,
    # §3: "No person shall remove, fill, dredge ... without filing a Notice of Intent ... and receiving and
    # complying with an Order of Conditions issued by the Commission"
    work_without_permit=f"{BYLAW} §3",
    recording_before_work=f"{RECORDING}; {BYLAW} §7.9",
    recording_certified=f"{BYLAW} §7.9",
    clocks=(
        Clock(
            "hearing-open",
            CalendarDays(21, NEXT),
            "complete-application",
            f"{BYLAW} §5.2",
            met_by=("hearing-opened",),
            note="within 21 days of receipt of the completed NOI, unless the applicant extends in writing",
        ),
        Clock(
            "newspaper-notice",
            CalendarDaysBackward(5),
            "hearing-date",
            f"{BYLAW} §5.2",
            met_by=("notice-published",),
            note="not less than five days prior to the hearing",
        ),
        HEARING_POSTING,
        Clock(
            "decision",
            CalendarDays(21, NEXT),
            "hearing-closed",
            f"{BYLAW} §5.2, §7.1",
            met_by=FINAL_ACTION,
            note="Order of Conditions within 21 days of the close, unless the applicant extends in writing",
        ),
        Clock("permit-expiry", Months(36), "issuance", f"{BYLAW} §7.6", note="expires three years from the date of issuance"),
        Clock(
            "renewal-request",
            CalendarDaysBackward(30),
            "expiry",
            f"{BYLAW} §7.6",
            met_by=("renewal-requested",),
            optional=True,
            note="renewal asked in writing thirty days prior to the expiration date",
        ),
        CERTIFICATE_DECISION,
        # 508.09: certified work "in no case" beyond the time needed to abate the emergency; the state's 30 days
        EMERGENCY_CERTIFICATION,
        EMERGENCY_CONTINUATION,
    ),
    renewal=Months(12),
    renewals_allowed=1,
    renewal_citation=f"{BYLAW} §7.6",
    # "for a period up to five (5) years ... for recurring or continuous maintenance work, provided that
    # annual notification of time and location of work is given to the Commission"
    maintenance_years=5,
    maintenance_citation=f"{BYLAW} §7.6",
)

RDA = PermitRules(
    kind="rda",
    bylaw=BYLAW,
    abutters=ABUTTERS,
    # §3: "No person shall remove, fill, dredge ... without filing a Notice of Intent ... and receiving and
    # complying with an Order of Conditions issued by the Commission"
    work_without_permit=f"{BYLAW} §3",
    hearing_required=False,
    clocks=(
        Clock(
            "decision",
            CalendarDays(21, NEXT),
            "received",
            f"{BYLAW} §5.3",
            met_by=DETERMINATION,
            note="written determination within 21 days of the receipt of the written request, complete or not (contrast §5.2's completed NOI)",
        ),
    ),
)

#: saugus.txt line 563 (the non-criminal disposition paragraph after 508.11), and 508.08 §9.5
WETLANDS_FINES = FineSchedule(
    id="wetlands",
    bylaw=BYLAW,
    citation="Saugus Wetlands By-Law, non-criminal disposition (after 508.11)",
    offenses="any provision of the by-law",
    amounts=(25, 50, 100, 200),
    ceiling=300,  # 508.08 §9.5: "a fine of not more than three hundred dollars"
    each_day="Saugus Wetlands By-Law, non-criminal disposition: each day on which a violation exists is a separate offense",
    each_provision=f"{BYLAW} §9.5: each provision of the by-law, regulations, permits, or administrative orders violated",
    agents=("Conservation Commission", "its agent"),
    order_rule=f"{BYLAW} §9.2 (violation notices, orders to restore); 310 CMR 10.08",
)

#: §5.1: each NOI "shall be accompanied by a filing fee as specified by the
#: Commission's rules and regulations and shall be in addition to that required
#: by G.L. Ch. 131, 40.  No filing fee shall be required when the Town of Saugus
#: files"; §10.2: the Commission's regulations govern "the amount and filing of
#: fees" (an RDA's too; §5.3 names no fee of its own).
FEES = {
    "noi": FeeRule(
        "noi",
        "filing fee",
        f"{BYLAW} §5.1",
        setting="noi",
        state_fee=STATE_FEE,
        exempt={"municipal": f"{BYLAW} §5.1: no filing fee when the Town of Saugus files"},
    ),
    "rda": FeeRule("rda", "filing fee", f"{BYLAW} §10.2", setting="rda"),
}

#: 306.03: the work week of the town's office employees (saugus.txt line 140)
HOURS = "Monday 8:30 a.m. to 7:00 p.m.; Tuesday to Thursday 8:15 a.m. to 5:00 p.m. (4:00 p.m. in June, July and August); Friday 8:15 a.m. to 12:30 p.m."
HOURS_CITATION = "Saugus General By-Laws 306.03"

PROFILE = TownProfile(
    id="saugus",
    name="Saugus",
    county="Essex",
    permits={"noi": NOI, "rda": RDA},
    fines={"wetlands": WETLANDS_FINES},
    # The Commission's filing fees by regulation (§5.1, §10.2), in dollars: the town fills them in; None until it does.
    settings={"commission_fees": {"noi": None, "rda": None}},
    fees=FEES,
    # The office hours are the by-law's (306.03, the work week of the town's
    # office employees); the by-law gives no address, telephone or person, so
    # those are demonstration values the town replaces (docs/reference/town-offices.md).
    offices={
        "conservation": Office(
            name="Conservation Commission",
            address="Town Hall, 298 Central Street, Saugus, MA 01906",
            telephone="(781) 555-0240",
            hours=HOURS,
            hours_citation=HOURS_CITATION,
            signer="Conservation Agent",
            signer_name="Kim Sullivan",
            members=(
                Signer("Peter Karas", "Chair"),
                Signer("Ann Doherty", "Vice Chair"),
                Signer("Samuel Reyes", "Member"),
                Signer("Grace Lin", "Member"),
                Signer("Tom Walsh", "Member"),
            ),
            meeting_place="Town Hall, 298 Central Street, Saugus",
            newspaper="The Saugus Advertiser",
            demonstration=("address", "telephone", "signer_name", "members", "meeting_place", "newspaper"),
        ),
    },
    # Where a ticket (after 508.11, M.G.L. c.40 §21D) is paid by mail and answered.
    clerk=Place(
        "Town Clerk",
        "Town Hall, 298 Central Street, Saugus, MA 01906",
        telephone="(781) 555-0200",
        hours=HOURS,
        citation=HOURS_CITATION,
        demonstration=("address", "telephone"),
    ),
    court=Place("Lynn District Court", "580 Essex Street, Lynn, MA 01901", demonstration=("name", "address")),
)
