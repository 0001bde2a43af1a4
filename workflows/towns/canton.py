"""Canton: Wetlands By-Law (General By-Laws Art. XV, 15-4..15-7) and the
Street Opening By-Law 16-12 with its fee and deposit schedule.
Source: the by-law text the town publishes (canton.txt) lines 1-233 and 633-1500."""

from dataclasses import replace

from calendars import (
    NO_ROLL,
    BusinessDays,
    BusinessDaysBackward,
    BusinessHours,
    CalendarDays,
    CalendarDaysBackward,
    DayBefore,
    Hours,
    Months,
)
from calendars import (
    ROLL_PAST_SUNDAY_AND_HOLIDAY as C4S9,
)
from calendars import (
    ROLL_TO_NEXT_BUSINESS_DAY as NEXT,
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

WETLANDS = "Canton Wetlands By-Law"
DIG_SAFE = "M.G.L. c.82 §40A"
STREETS = "Canton Street Opening By-Law 16-12"

_wetlands_hearing = (
    Clock(
        "hearing-open",
        CalendarDays(21, NEXT),
        "complete-application",
        f"{WETLANDS} 15-5",
        met_by=("hearing-opened",),
        note="hearing within 21 days from receipt of a completed application",
    ),
    Clock(
        "newspaper-notice",
        BusinessDaysBackward(5),
        "hearing-date",
        f"{WETLANDS} 15-5",
        met_by=("notice-published",),
        note="five working days prior to the hearing, at the applicant's expense",
    ),
    HEARING_POSTING,
)

#: 15-5: notice "to all abutters according to the most recent records of the
#: Assessors, including those across a traveled way or body of water".  No
#: distance: the abutters, and the owners first met across a way or water.
ABUTTERS = AbutterRule(
    f"{WETLANDS} 15-5",
    within_feet=0,
    opposite_on_ways=True,
    across_water=True,
    note="all abutters on the Assessors' records, including those across a traveled way or body of water",
)

EMERGENCY = f"{WETLANDS} 15-3 (emergency projects)"  # the text before Section 4 (canton.txt lines 6-17)

NOI = PermitRules(
    kind="noi",
    bylaw=f"{WETLANDS} (Art. XV)",
    objection_closes_hearing=f"{WETLANDS} 15-5",
    abutters=ABUTTERS,
    # "No activities shall commence without receiving and complying with a permit issued pursuant to this by-law"
    work_without_permit=f"{WETLANDS} 15-4",
    clocks=_wetlands_hearing
    + (
        Clock(
            "emergency-notice",
            Hours(24),
            "emergency-start",
            EMERGENCY,
            met_by=("emergency-noticed",),
            note="advance notice, oral or written, before the work starts or within 24 hours after",
        ),
        Clock(
            "emergency-filing",
            CalendarDays(21, NEXT),
            "emergency-start",
            EMERGENCY,
            met_by=("filed",),
            note="a permit application within 21 days of the start of an emergency project",
        ),
        Clock(
            "board-comment",
            CalendarDays(15, NO_ROLL),
            "boards-notified",
            f"{WETLANDS} 15-6",
            met_by=FINAL_ACTION,
            note="no final action until the boards have had 14 days from receipt of notice: from day 15",
        ),
        Clock(
            "decision",
            CalendarDays(31, NEXT),
            "hearing-closed",
            f"{WETLANDS} 15-5, 15-7",
            met_by=FINAL_ACTION,
            note="permit issued or denied in writing within 31 days of the close",
        ),
        Clock("permit-expiry", Months(36), "issuance", f"{WETLANDS} 15-7", note="expires three years from the date of issuance"),
        Clock(
            "renewal-request",
            CalendarDaysBackward(0),
            "expiry",
            f"{WETLANDS} 15-7",
            met_by=("renewal-requested",),
            optional=True,
            note="renewal asked in writing prior to expiration",
        ),
        # the state's, for every Order (the by-law sets no certificate of its own)
        CERTIFICATE_DECISION,
        # "only for the time & place certified by the Conservation Commission" (15-3), at most 30 days (10.06(3))
        replace(EMERGENCY_CERTIFICATION, citation=f"{EMERGENCY}; {EMERGENCY_CERTIFICATION.citation}"),
        EMERGENCY_CONTINUATION,
    ),
    renewal=Months(12),
    renewals_allowed=1,
    renewal_citation=f"{WETLANDS} 15-7",
    # "a permit expiring five years from the date of issuance for recurring or continuous maintenance work,
    # provided that annual notification of time and location of work is given to the Commission"
    maintenance_years=5,
    maintenance_citation=f"{WETLANDS} 15-7",
    # the by-law sets no recording rule; a Canton Order is the state's Order too (docs/reference/readings.md)
    recording_before_work=RECORDING,
)

RDA = PermitRules(
    kind="rda",
    bylaw=f"{WETLANDS} (Art. XV)",
    objection_closes_hearing=f"{WETLANDS} 15-5",
    abutters=ABUTTERS,
    # "No activities shall commence without receiving and complying with a permit issued pursuant to this by-law"
    work_without_permit=f"{WETLANDS} 15-4",
    clocks=_wetlands_hearing
    + (
        Clock(
            "decision",
            CalendarDays(31, NEXT),
            "hearing-closed",
            f"{WETLANDS} 15-5",
            met_by=DETERMINATION,
            note="determination in writing within 31 days of the close",
        ),
    ),
)

STREET_OPENING = PermitRules(
    kind="street-opening",
    bylaw=STREETS,
    # §10.9: "An open trench may not exceed three hundred (300) feet unless specifically permitted";
    # §10.13: "No open un-plated trenches are permitted overnight"
    trench_limits=f"{STREETS} §10.9, §10.13",
    clocks=(
        Clock(
            "emergency-filing",
            BusinessDays(1),
            "emergency-start",
            f"{STREETS} §7",
            met_by=("filed",),
            note="statement, application, fee and deposit on the next business day",
        ),
        Clock("permit-expiry", CalendarDays(30, NO_ROLL), "issuance", f"{STREETS} §10.1", note="valid for thirty days"),
        Clock(
            "renewal-request",
            CalendarDaysBackward(0),
            "expiry",
            f"{STREETS} §10.1",
            met_by=("renewal-requested",),
            optional=True,
            note="renewal asked in writing before the permit expires",
        ),
        Clock(
            "work-notice",
            BusinessHours(72),
            "work-noticed",
            f"{STREETS} §10.3; M.G.L. c.82 §40A",
            met_by=("excavation-started",),
            note="72 hours' notice, not counting Saturdays, Sundays and holidays",
        ),
        Clock(
            "dig-safe-wait",
            BusinessHours(72),
            "dig-safe-notice",
            f"{DIG_SAFE}; {STREETS} §10.4",
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
            "cdf-cure",
            Hours(24),
            "cdf-backfill",
            f"{STREETS} §11.2",
            met_by=("permanent-patch-placed",),
            note="steel plate and a 24-hour cure, then the permanent patch",
        ),
        Clock(
            "temporary-patch-maintenance",
            Months(12),
            "temporary-patch",
            f"{STREETS} §11.3(b)",
            note="temporary patch maintained smooth for at least one year",
        ),
        Clock(
            "permanent-patch-window-opens",
            Months(12),
            "temporary-patch",
            f"{STREETS} §2, §11.4",
            met_by=("permanent-patch-placed",),
            note="permanent patch from 12 months after the temporary patch",
        ),
        Clock(
            "permanent-patch-window-closes",
            Months(18, C4S9),
            "temporary-patch",
            f"{STREETS} §2, §11.4",
            met_by=("permanent-patch-placed",),
            note="... and within 18 months of it",
        ),
        Clock(
            "winter-patch",
            DayBefore(12, 1),
            "open-work",
            f"{STREETS} §11.3(c)",
            met_by=("winter-patch-placed", "permanent-patch-placed"),
            note="work over 30 ft not permanently patched gets a Winter Preparation Patch prior to December 1st (by November 30, whatever the day); missing it is a Default",
        ),
        Clock(
            "patch-notice",
            Hours(72),
            "patch-noticed",
            f"{STREETS} §11.4",
            met_by=("permanent-patch-placed",),
            note="a public utility or town department placing its own permanent patches gives not less than 72 hours' notice",
        ),
        Clock(
            "settlement-answer",
            CalendarDays(7, C4S9),
            "settlement-inspection",
            f"{STREETS} §11.4",
            met_by=("settlement-answered",),
            note="answer within 7 days of the settlement inspection",
        ),
        Clock(
            "certification-answer",
            CalendarDays(30, C4S9),
            "certification-requested",
            f"{STREETS} §11.4(d)",
            met_by=("certification-answered",),
            note="answer within 30 days of the request",
        ),
        Clock(
            "suspension-ends",
            CalendarDays(21, NO_ROLL),
            "suspended",
            f"{STREETS} §12",
            max_count=21,
            note="suspended at once on Default, for up to 21 days",
        ),
        Clock(
            "revocation-notice",
            CalendarDaysBackward(5),
            "revocation-hearing",
            f"{STREETS} §12",
            met_by=("revocation-hearing-scheduled",),
            note="at least 5 days' written notice of the hearing",
        ),
        Clock(
            "after-hours-payment",
            CalendarDays(15, C4S9),
            "billed",
            f"{STREETS} §6 and fee schedule",
            met_by=("after-hours-paid",),
            note="after-hours inspection at $50/hour, due 15 days after billing",
        ),
        # §10.2: "Inspections may take place at the following events" (a-d);
        # each is listed from its day until an inspection is on record
        # (docs/reference/readings.md, "Inspections on the schedule")
        Clock(
            "trench-inspection",
            CalendarDays(0, NO_ROLL),
            "trench-open",
            f"{STREETS} §10.2(a)",
            met_by=("inspected", "backfilled"),
            open_ended=True,
            note="inspection prior to backfilling the trench",
        ),
        Clock(
            "patch-inspection",
            CalendarDays(0, NEXT),
            "temporary-patch",
            f"{STREETS} §10.2(b)",
            met_by=("inspected",),
            open_ended=True,
            note="inspection following completion of the Temporary Patch, from the first business day",
        ),
        Clock(
            "final-inspection",
            CalendarDays(0, NEXT),
            "permanent-patch",
            f"{STREETS} §10.2(d), §11.4(f)",
            met_by=("inspected",),
            open_ended=True,
            note="final inspection following completion of the Permanent Patch",
        ),
        Clock(
            "re-inspection",
            CalendarDays(0, NO_ROLL),
            "reinspection",
            f"{STREETS} §10.2",
            met_by=("inspected",),
            note="the second look the inspector set when an inspection failed",
        ),
    ),
    renewal=CalendarDays(30, NO_ROLL),
    renewals_allowed=1,
    renewal_citation=f"{STREETS} §10.1",
    patch_inspection=f"{STREETS} §10.2",
    dig_safe_before_issue=f"{STREETS} §10.4",
)

#: canton.txt lines 205-215 (Section 11, Enforcement)
WETLANDS_FINES = FineSchedule(
    id="wetlands",
    bylaw=f"{WETLANDS} (Art. XV)",
    citation=f"{WETLANDS} 15-11",
    offenses="any provision of the by-law, its regulations, or permits issued under it",
    # "shall be punished by a fine of not more that $300.00": a maximum, the amount the board's choice up to it;
    # $300 is the usual amount offered (a demonstration value the town sets: docs/reference/readings.md)
    amounts=(300,),
    ceiling=300,
    up_to=f'{WETLANDS} 15-11: "a fine of not more that $300.00"',
    each_day=f"{WETLANDS} 15-11: each day or portion thereof during which a violation continues is a separate offense",
    each_provision=f"{WETLANDS} 15-11: each provision of the by-law, regulations, or permit violated is a separate offense",
    agents=("Conservation Commission", "its agents"),
    order_rule=f"{WETLANDS} 15-11 (violation notices, administrative orders); 310 CMR 10.08",
)

#: Canton 15-4: "a filing fee specified in regulations of the Commission ...
#: in addition to that required by the Wetlands Protection Act"; the Commission
#: "shall waive them for a request for determination filed by a person having
#: no financial connection with the property" (a government agency's "may" is
#: the Commission's choice, not a rule).  16-12 §4 and its Fee Schedule: the
#: Application Fee and the Refundable Deposit (§5-6 exemptions, workflows/deposits.py).
FEES = {
    "noi": FeeRule("noi", "filing fee", f"{WETLANDS} 15-4", setting="noi", state_fee=STATE_FEE),
    "rda": FeeRule(
        "rda",
        "filing fee",
        f"{WETLANDS} 15-4",
        setting="rda",
        exempt={
            "no-financial-connection": f"{WETLANDS} 15-4: waived for a requester with no financial connection to the property"
        },
    ),
    "street-opening": FeeRule("street-opening", "application fee", f"{STREETS} §4 and Fee Schedule", schedule=True),
}

PROFILE = TownProfile(
    id="canton",
    name="Canton",
    county="Norfolk",
    permits={"noi": NOI, "rda": RDA, "street-opening": STREET_OPENING},
    # The boards and the rate are fixed by the by-laws cited, the DPW's hours
    # by 16-12 §2; the by-laws give no address, telephone or person, so those
    # are demonstration values the town replaces (docs/reference/town-offices.md).
    offices={
        "conservation": Office(
            name="Conservation Commission",
            address="Memorial Hall, 801 Washington Street, Canton, MA 02021",
            telephone="(781) 555-0140",
            hours="Monday to Friday, 8:30 a.m. to 4:30 p.m.",
            signer="Conservation Agent",
            signer_name="Dana Whitfield",
            members=(
                Signer("Robert Ng", "Chair"),
                Signer("Maria Costa", "Vice Chair"),
                Signer("Alan Brooks", "Member"),
                Signer("Janet Okafor", "Member"),
                Signer("Luis Ferreira", "Member"),
            ),
            meeting_place="Memorial Hall, 801 Washington Street, Canton",
            newspaper="The Canton Citizen",
            boards=(
                "Select Board",
                "Planning Board",
                "Zoning Board of Appeals",
                "Board of Health",
                "Town Engineer",
                "Fire Chief",
                "Building Inspector",
            ),
            boards_citation=f"{WETLANDS} 15-6",
            demonstration=("address", "telephone", "hours", "signer_name", "members", "meeting_place", "newspaper"),
        ),
        "dpw": Office(
            name="Department of Public Works",
            address="Memorial Hall, 801 Washington Street, Canton, MA 02021",
            telephone="(781) 555-0150",
            # "Normal Working Hours – 7:30 am to 3:30 pm Monday through Friday excluding holidays" (canton.txt line 719)
            hours="Monday to Friday, 7:30 a.m. to 3:30 p.m., holidays excepted",
            hours_citation=f"{STREETS} §2 (Normal Working Hours)",
            signer="Superintendent of Public Works",
            signer_name="Chris Delaney",
            meeting_place="Memorial Hall, 801 Washington Street, Canton",
            rates={"after-hours-inspection": (50, f"{STREETS} §6, fee schedule")},
            demonstration=("address", "telephone", "signer_name", "meeting_place"),
        ),
    },
    # Where a ticket under 15-11 (M.G.L. c.40 §21D) is paid by mail and answered:
    # the by-law names neither, so both are demonstration values.
    clerk=Place(
        "Town Clerk",
        "Memorial Hall, 801 Washington Street, Canton, MA 02021",
        telephone="(781) 555-0100",
        hours="Monday to Friday, 8:30 a.m. to 4:30 p.m.",
        demonstration=("address", "telephone", "hours"),
    ),
    court=Place(
        "Stoughton District Court",
        "1288 Central Street, Stoughton, MA 02072",
        demonstration=("name", "address"),
    ),
    fines={"wetlands": WETLANDS_FINES},
    settings={
        # From the DPW's published season, not the by-law: a town setting the town edits.
        "street_season": {"applications": ("04-01", "10-31"), "last_excavation": "11-15", "last_trench_repair": "11-30"},
        # The Commission's filing fees by regulation (15-4), in dollars ("125.00"): the town fills them in; None until it does.
        "commission_fees": {"noi": None, "rda": None},
    },
    fees=FEES,
)
