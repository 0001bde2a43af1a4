"""Mansfield: Wetlands By-Law Ch. 15 (which defers to the state, §4.1) and
the Stormwater By-Law Ch. 25 Part B, Land Disturbance Permit.
Source: the by-law text the town publishes (mansfield.txt) lines 1367-1530 and 2450-2870."""

from dataclasses import replace

from calendars import (
    NO_ROLL,
    CalendarDays,
    CalendarDaysBackward,
)
from calendars import (
    ROLL_PAST_SUNDAY_AND_HOLIDAY as C4S9,
)
from workflows.abutter_rules import AbutterRule
from workflows.rulebook import Clock, Office, PermitRules, TownProfile, adopting
from workflows.towns import wpa

WETLANDS = "Mansfield Wetlands By-Law Ch. 15 §4.1"
HEARINGS = "Mansfield Wetlands By-Law Ch. 15 §4.4 (public hearings for all applications)"
STORMWATER = "Mansfield Stormwater By-Law Ch. 25 Part B"
ACTION = ("permit-issued", "permit-denied")

LAND_DISTURBANCE = PermitRules(
    kind="land-disturbance",
    bylaw=f"{STORMWATER} (Land Disturbance Permit)",
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
    },
    # Names and addresses are placeholders the town edits; the boards are
    # those the Stormwater By-Law sends an application to.
    offices={
        "conservation": Office(
            name="Conservation Commission",
            address="Town Hall, 6 Park Row, Mansfield, MA 02048",
            signer="Conservation Agent",
            meeting_place="Town Hall, 6 Park Row, Mansfield",
            newspaper="The Sun Chronicle",
            boards=("Planning Board", "Department of Public Works", "Board of Health", "Engineering", "Building Department"),
            boards_citation=f"{STORMWATER} §7.E",
        ),
    },
)
