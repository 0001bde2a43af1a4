"""Mansfield: Wetlands By-Law Ch. 15 (which defers to the state, §4.1), the
Stormwater By-Law Ch. 25 Part B, Land Disturbance Permit, with its
enforcement (§14), and the street excavation permit of Ch. 5 §IV-V.
Source: the by-law text the town publishes (mansfield.txt) lines 1367-1530,
2450-2870 and 365-385, and its Enforcement Appendix (lines 3060-3180)."""

from dataclasses import replace

from calendars import (
    NO_ROLL,
    BusinessHours,
    CalendarDays,
    CalendarDaysBackward,
    Months,
)
from calendars import (
    ROLL_PAST_SUNDAY_AND_HOLIDAY as C4S9,
)
from workflows.abutter_rules import AbutterRule
from workflows.fees import STATE_FEE, FeeRule
from workflows.fines import CostRecovery, FineSchedule
from workflows.rulebook import Clock, Office, PermitRules, Place, Signer, TownProfile, adopting
from workflows.towns import wpa

WETLANDS = "Mansfield Wetlands By-Law Ch. 15 §4.1"
HEARINGS = "Mansfield Wetlands By-Law Ch. 15 §4.4 (public hearings for all applications)"
STORMWATER = "Mansfield Stormwater By-Law Ch. 25 Part B"
ACTION = ("permit-issued", "permit-denied")

LAND_DISTURBANCE = PermitRules(
    kind="land-disturbance",
    bylaw=f"{STORMWATER} (Land Disturbance Permit)",
    # §4: "Except as permitted by the Conservation Commission ... no person shall perform any activity that
    # results in disturbance of an acre or more of land"
    work_without_permit=f"{STORMWATER} §4",
    # §2: "ABUTTER: The owner(s) of land abutting the activity"; §7.G: the
    # applicant notifies "abutting property owners, by certified mail"
    abutters=AbutterRule(
        f"{STORMWATER} §2 (abutter), §7.G",
        within_feet=0,
        note="the owners of land abutting the activity, by certified mail, return receipt requested",
    ),
    clocks=(
        Clock(
            "board-reports",
            CalendarDays(41, NO_ROLL),
            "boards-notified",
            f"{STORMWATER} §7.E",
            met_by=("hearing-opened",),
            note="no hearing until every board has reported or has been allowed forty days to elapse after receipt: from day 41",
        ),
        Clock(
            "hearing-open",
            CalendarDays(60, C4S9),
            "complete-application",
            f"{STORMWATER} §7.G",
            met_by=("hearing-opened",),
            note="hearing within 60 days of receipt of a complete application",
        ),
        Clock(
            "hearing-notice",
            CalendarDaysBackward(14),
            "hearing-date",
            f"{STORMWATER} §7.G",
            met_by=("notice-published", "notice-posted", "abutters-notified"),
            met_when="all",
            note="newspaper, Town Hall posting and certified mail to abutters at least 14 days before the hearing",
        ),
        wpa.HEARING_POSTING,
        Clock(
            "decision",
            CalendarDays(60, C4S9),
            "hearing-closed",
            f"{STORMWATER} §7.G",
            met_by=ACTION,
            note="final action within 60 days of the close, unless both sides agree to extend",
        ),
        Clock(
            "construction-notice",
            CalendarDaysBackward(7),
            "construction-start",
            f"{STORMWATER} §11",
            met_by=("construction-noticed",),
            note="notice one week before construction starts",
        ),
    ),
)

STREETS = "Mansfield General By-Laws Ch. 5 (Streets and Sidewalks)"
DIG_SAFE = "M.G.L. c.82 §40A"

#: Ch. 5 §IV-V (mansfield.txt 365-385): a written permit from the Board of
#: Selectmen or the Town Manager; barriers and lighted lanterns while the
#: street is open; the street restored immediately on completion; the
#: permittee pays for repairs the digging makes necessary "and accruing
#: within one year thereafter".  Dig Safe is the state's, for every
#: excavation.  Canton 16-12's patches, inspections, deposits, suspension
#: and revocation are Canton's: the machine refuses them here.
STREET_OPENING = PermitRules(
    kind="street-opening",
    bylaw=f"{STREETS} §IV-V (street excavation permit)",
    machine="street-excavation",
    clocks=(
        Clock(
            "dig-safe-wait",
            BusinessHours(72),
            "dig-safe-notice",
            DIG_SAFE,
            met_by=("excavation-started",),
            note="excavation at least 72 hours after the Dig Safe notice, not counting Saturdays, Sundays and legal holidays",
        ),
        Clock(
            "dig-safe-expiry",
            CalendarDays(30, NO_ROLL),
            "dig-safe-notice",
            f"{DIG_SAFE}; 220 CMR 99.07(2)",
            note="excavation at most 30 days after the notice; the ticket is valid 30 calendar days",
        ),
        Clock(
            "repair-liability",
            Months(12),
            "restoration",
            f"{STREETS} §V",
            note="the permittee pays for repairs the digging makes necessary and accruing within one year after the restoration",
        ),
    ),
    standing_conditions=(
        (
            "A rail or other sufficient barriers enclose the part of the street dug up, with lighted lanterns "
            "attached from the beginning of twilight through the whole of every night while it remains open.",
            f"{STREETS} §IV",
        ),
        ("The street is restored immediately upon completion of the work.", f"{STREETS} §V"),
        (
            "The permittee pays the expense of repairs the digging makes necessary and accruing within one year after.",
            f"{STREETS} §V",
        ),
    ),
)

#: Ch. 25 Part B §14 (mansfield.txt 2795-2841): orders with a deadline, the
#: town's costs noticed within 30 days of its abatement, protest within 30
#: days of receipt, then a lien; $300 per violation by non-criminal
#: disposition, each day a separate offense.
STORMWATER_FINES = FineSchedule(
    id="stormwater",
    bylaw=f"{STORMWATER} (Land Disturbance)",
    citation=f"{STORMWATER} §14.C (non-criminal disposition)",
    offenses="any provision of the by-law, regulation, order or permit issued under it",
    amounts=(300,),
    ceiling=300,
    each_day=f"{STORMWATER} §14.C: each day or part thereof that a violation occurs or continues is a separate offense",
    # the Enforcement Appendix's enforcing person for the Conservation Commission's by-laws
    agents=("Conservation Commission", "its authorized agent (Conservation Commission Agent)"),
    order_rule=f"{STORMWATER} §14.B",
    costs=CostRecovery(citation=f"{STORMWATER} §14.B.3", protest_to="the Conservation Commission"),
)
#: Ch. 15 is "Not Applicable" in the Enforcement Appendix (line 3166): no
#: non-criminal disposition; its Orders are enforced as the state's are.
WETLANDS_FINES = FineSchedule(
    id="wetlands",
    bylaw=WETLANDS,
    citation="Mansfield General By-Laws, Appendix - Enforcement, Chapter 15",
    amounts=(),
    ceiling=300,
    no_tickets="the Enforcement Appendix lists Chapter 15 as 'Not Applicable' for non-criminal disposition",
    order_rule="310 CMR 10.08 (Ch. 15 §4.1 adopts the state's procedures)",
)

FEE_SCHEDULE = "Mansfield Wetlands By-Law Ch. 15 §5.1"
#: Ch. 15 §5.1: "Fees may be set and amended from time to time by a vote of a
#: majority of the Conservation Commission ... in addition to the fees
#: established by Mass. DEP"; Ch. 25 §7.B: "Application fees shall be
#: established by the Conservation Commission"; Ch. 5 §IV: a written permit,
#: with no fee named.
FEES = {
    "noi": FeeRule("noi", "filing fee", FEE_SCHEDULE, setting="noi", state_fee=STATE_FEE),
    "rda": FeeRule("rda", "filing fee", FEE_SCHEDULE, setting="rda"),
    "land-disturbance": FeeRule("land-disturbance", "application fee", f"{STORMWATER} §7.B", setting="land-disturbance"),
    "street-opening": FeeRule(
        "street-opening", "application fee", f"{STREETS} §IV", none="the by-law names no fee for the permit"
    ),
}

PROFILE = TownProfile(
    id="mansfield",
    name="Mansfield",
    county="Bristol",
    permits={
        "noi": adopting(wpa.NOI, WETLANDS),
        # Ch. 15 §4.4: "The Commission shall conduct public hearings for all applications"
        "rda": replace(
            adopting(wpa.RDA, WETLANDS), hearing_required=True, bylaw=f"{adopting(wpa.RDA, WETLANDS).bylaw}; {HEARINGS}"
        ),
        "land-disturbance": LAND_DISTURBANCE,
        "street-opening": STREET_OPENING,
    },
    # The boards are those the Stormwater By-Law sends an application to; the
    # by-laws give no address, telephone, hours or person ("regular business
    # hours", Ch. 25 §7.G), so those are demonstration values the town
    # replaces (docs/reference/town-offices.md).
    offices={
        "conservation": Office(
            name="Conservation Commission",
            address="Town Hall, 6 Park Row, Mansfield, MA 02048",
            telephone="(508) 555-0340",
            hours="Monday to Thursday, 8:00 a.m. to 4:30 p.m.; Friday, 8:00 a.m. to 12:00 p.m.",
            signer="Conservation Agent",
            signer_name="Jordan Pike",
            members=(
                Signer("Helen Marsh", "Chair"),
                Signer("David Amaral", "Vice Chair"),
                Signer("Rita Gomes", "Member"),
                Signer("Owen Burke", "Member"),
                Signer("Nadia Haddad", "Member"),
            ),
            meeting_place="Town Hall, 6 Park Row, Mansfield",
            newspaper="The Sun Chronicle",
            boards=("Planning Board", "Department of Public Works", "Board of Health", "Engineering", "Building Department"),
            boards_citation=f"{STORMWATER} §7.E",
            demonstration=("address", "telephone", "hours", "signer_name", "members", "meeting_place", "newspaper"),
        ),
        # Ch. 5 §IV: "a written permit therefor" from the Board of Selectmen or the Town Manager
        "dpw": Office(
            name="Office of the Town Manager",
            address="Town Hall, 6 Park Row, Mansfield, MA 02048",
            telephone="(508) 555-0300",
            hours="Monday to Thursday, 8:00 a.m. to 4:30 p.m.; Friday, 8:00 a.m. to 12:00 p.m.",
            signer="Town Manager",
            signer_name="Leslie Moran",
            meeting_place="Town Hall, 6 Park Row, Mansfield",
            demonstration=("address", "telephone", "hours", "signer_name", "meeting_place"),
        ),
    },
    # Where a ticket (Ch. 25 Part B §14, M.G.L. c.40 §21D) is paid by mail and
    # answered: Ch. 6 §VI names "the District Court of Bristol County, Attleboro".
    clerk=Place(
        "Town Clerk",
        "Town Hall, 6 Park Row, Mansfield, MA 02048",
        telephone="(508) 555-0301",
        hours="Monday to Thursday, 8:00 a.m. to 4:30 p.m.; Friday, 8:00 a.m. to 12:00 p.m.",
        demonstration=("address", "telephone", "hours"),
    ),
    court=Place(
        "Attleboro District Court (Bristol County)",
        "88 North Main Street, Attleboro, MA 02703",
        citation="Mansfield General By-Laws Ch. 6 §VI (the District Court of Bristol County, Attleboro)",
        demonstration=("address",),
    ),
    fines={"stormwater": STORMWATER_FINES, "wetlands": WETLANDS_FINES},
    # The Commission's fees (Ch. 15 §5.1, Ch. 25 §7.B), in dollars: the town fills them in; None until it does.
    settings={"commission_fees": {"noi": None, "rda": None, "land-disturbance": None}},
    fees=FEES,
)
