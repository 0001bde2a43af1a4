"""Manchester-by-the-Sea: the General Wetlands By-law (Art. XVII), of which
the town's published copy of its General By-laws (revised through April
2015) keeps only the fine schedule (manchester-by-the-sea.txt line 11,
Art. I §4B item 1).  Its procedures are not in that copy, so its Notices of
Intent and Requests for Determination follow the state's clocks, M.G.L.
c.131 §40 and 310 CMR 10.05 (docs/reference/readings.md); its enforcement
follows the schedule (:mod:`workflows.fines`), with the amounts the copy
lost left for the town to give."""

from dataclasses import replace

from workflows.fines import FineSchedule
from workflows.rulebook import Office, Place, Signer, TownProfile
from workflows.towns import wpa

TOWN = "Manchester-by-the-Sea"
GENERAL_BYLAWS = f"{TOWN} General By-laws"
#: Art. I §4B lists the by-laws enforced by non-criminal disposition, each
#: with its fine, enforcing agents and schedule; the wetlands by-law is item 1.
FINE_SCHEDULE = f"{GENERAL_BYLAWS} Art. I §4B, item 1 (General Wetlands By-law)"
STATE_CLOCKS = (
    f"M.G.L. c.131 §40; 310 CMR 10.05, the state's procedures ({TOWN}'s General Wetlands By-law, Art. XVII, "
    "survives in the town's copy only as its fine schedule)"
)

WETLANDS_FINES = FineSchedule(
    id="wetlands",
    bylaw=f"{TOWN} General Wetlands By-law (Art. XVII)",
    citation=FINE_SCHEDULE,
    offenses="Non-compliance with an Order of Resource Conditions, Enforcement Order or Buffer Zone Area Violation Notice",
    # "First offense Warning ($0) $ $ Second offense $ $ $ Third and subsequent offenses $ $ $":
    # the first offense is a warning; the copy lost every later amount
    amounts=(0, None, None),
    ceiling=300,
    agents=("Conservation Administrator", "Police Officers"),
    lost=(
        "the town's copy of its General By-laws (Art. I §4B, item 1) prints the second and the third and "
        "subsequent offenses' fines as '$' with no amount"
    ),
    order_rule="310 CMR 10.08",
    each_day=f"{GENERAL_BYLAWS} Art. I §4B: each day on which any violation exists is a separate offense",
)

PROFILE = TownProfile(
    id="manchester-by-the-sea",
    name=TOWN,
    code="MBS",
    county="Essex",
    permits={
        "noi": replace(wpa.NOI, bylaw=STATE_CLOCKS),
        "rda": replace(wpa.RDA, bylaw=STATE_CLOCKS),
    },
    # The enforcing agent's title is the fine schedule's (Art. I §4B); the copy
    # gives no address, telephone, hours or person, so those are demonstration
    # values the town replaces (docs/reference/town-offices.md).
    offices={
        "conservation": Office(
            name="Conservation Commission",
            address="Town Hall, 10 Central Street, Manchester-by-the-Sea, MA 01944",
            telephone="(978) 555-0440",
            hours="Monday to Friday, 8:00 a.m. to 4:00 p.m.",
            signer="Conservation Administrator",
            signer_name="Morgan Ellis",
            members=(
                Signer("Claire Whitney", "Chair"),
                Signer("Frank Russo", "Vice Chair"),
                Signer("Eleanor Price", "Member"),
                Signer("Hugh Bennett", "Member"),
                Signer("Sofia Marino", "Member"),
            ),
            meeting_place="Town Hall, 10 Central Street, Manchester-by-the-Sea",
            newspaper="The Manchester Cricket",
            demonstration=("address", "telephone", "hours", "signer_name", "members", "meeting_place", "newspaper"),
        ),
    },
    # Where a ticket (Art. I §4B, M.G.L. c.40 §21D) is paid by mail and answered.
    clerk=Place(
        "Town Clerk",
        "Town Hall, 10 Central Street, Manchester-by-the-Sea, MA 01944",
        telephone="(978) 555-0400",
        hours="Monday to Friday, 8:00 a.m. to 4:00 p.m.",
        demonstration=("address", "telephone", "hours"),
    ),
    court=Place("Gloucester District Court", "197 Main Street, Gloucester, MA 01930", demonstration=("name", "address")),
    fines={"wetlands": WETLANDS_FINES},
)
