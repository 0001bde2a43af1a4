"""Demonstration filings and enforcement cases at each stage of a permit's
later life, written by hand beside the generated ones (:mod:`demo.generate`):
a Certificate of Compliance asked for, issued, recorded and denied; work
begun inside the appeal period and before the Order was recorded; work on
an expired Order; an emergency certification outrun with no filing; an
appeal pending; Manchester-by-the-Sea's filings on the state's clocks;
Mansfield street openings (restored, with the repair year running; dug with
no Dig Safe notice); a Land Disturbance Permit's certificate of completion;
and an enforcement case in every town with a fine schedule, from a violation
just seen to tickets and the town's costs.

Every date counts back from ``as_of`` (town acts on business days), so the
stage each shows is the same whatever the day of the demo.  Pure: no clock,
no disk.
"""

from __future__ import annotations

from datetime import date, timedelta

from calendars import BusinessCalendar

__all__ = ["stage_filings", "stage_cases", "STAGE_IDS"]

_CAL = BusinessCalendar("massachusetts")


class _Days:
    def __init__(self, as_of: date):
        self.as_of = as_of

    def ago(self, n: int, business: bool = True) -> str:
        """``n`` days before ``as_of``, rolled back to a business day for a town's act."""
        day = self.as_of - timedelta(days=n)
        return (_CAL.roll_backward(day) if business else day).isoformat()


def _party(name, street, city, zip_code):
    return {"name": name, "address": {"street": street, "city": city, "state": "MA", "zip": zip_code}}


def _wetlands(town, fid, address, parcel, applicant, description, events, **more):
    return {
        "town": town,
        "kind": more.pop("kind", "noi"),
        "id": fid,
        "address": address,
        "site": {"address": address, "parcel": parcel},
        "applicant": applicant,
        "owner": applicant,
        "project": {"description": description},
        "events": events,
        **more,
    }


def _order(d: _Days, issued_ago: int, *, heard_ago: int | None = None) -> list[dict]:
    """A Notice of Intent filed, heard and issued ``issued_ago`` days ago."""
    heard = heard_ago if heard_ago is not None else issued_ago + 14
    return [
        {"type": "filed", "date": d.ago(heard + 18)},
        {"type": "abutters-notified", "date": d.ago(heard + 18)},
        {"type": "hearing-scheduled", "date": d.ago(heard + 16), "hearing": d.ago(heard), "at": f"{d.ago(heard)}T19:00"},
        {"type": "notice-published", "date": d.ago(heard + 12)},
        {"type": "notice-posted", "at": f"{d.ago(heard + 6)}T09:00"},
        {"type": "hearing-opened", "date": d.ago(heard)},
        {"type": "hearing-closed", "date": d.ago(heard)},
        {
            "type": "permit-issued",
            "date": d.ago(issued_ago),
            "conditions": ["Erosion controls installed and inspected before any work."],
        },
    ]


def stage_filings(as_of: date) -> list[dict]:
    """The stage filings, as filing JSON (docs/reference/filing-format.md)."""
    d = _Days(as_of)
    builder = _party("Neponset Builders LLC", "200 Turnpike St", "Canton", "02021")
    owner = _party("Ellen Oakes", "14 Pratt St", "Mansfield", "02048")
    trust = _party("Ocean Road Realty Trust", "3 Ocean Rd", "Manchester-by-the-Sea", "01944")
    out = [
        # the Certificate of Compliance: asked ten days ago, due in eleven (310 CMR 10.05)
        _wetlands(
            "mansfield",
            "MAN-NOI-2026-S01",
            "14 Pratt St",
            "17-031",
            owner,
            "a deck and a rain garden in the buffer zone",
            _order(d, 420)
            + [
                {"type": "permit-recorded", "date": d.ago(400)},
                {"type": "work-started", "date": d.ago(380)},
                {"type": "certificate-requested", "date": d.ago(10), "requested_by": "Ellen Oakes", "scope": "complete"},
            ],
        ),
        # issued complete with a condition that continues, to be recorded
        _wetlands(
            "saugus",
            "SAU-NOI-2026-S02",
            "88 Lincoln Ave",
            "5-101",
            builder,
            "a single-family house within 100 feet of the marsh",
            _order(d, 500)
            + [
                {"type": "permit-recorded", "date": d.ago(480)},
                {"type": "recording-certified", "date": d.ago(478)},
                {"type": "work-started", "date": d.ago(470)},
                {
                    "type": "certificate-requested",
                    "date": d.ago(30),
                    "requested_by": "Neponset Builders LLC",
                    "scope": "complete",
                },
                {
                    "type": "certificate-issued",
                    "date": d.ago(16),
                    "scope": "complete",
                    "continuing": ["The 25-foot no-disturb zone along the marsh stays unmowed, in perpetuity."],
                },
            ],
        ),
        # recorded: the filing's life ends there
        _wetlands(
            "canton",
            "CAN-NOI-2026-S03",
            "9 Sherman St",
            "12-202",
            builder,
            "a garage addition in the buffer zone",
            _order(d, 700)
            + [
                {"type": "permit-recorded", "date": d.ago(690)},
                {"type": "work-started", "date": d.ago(660)},
                {
                    "type": "certificate-requested",
                    "date": d.ago(60),
                    "requested_by": "Neponset Builders LLC",
                    "scope": "complete",
                },
                {"type": "certificate-issued", "date": d.ago(45), "scope": "complete"},
                {"type": "certificate-recorded", "date": d.ago(40), "book": "41234", "page": "12"},
            ],
        ),
        # denied with reasons, late: the Order stays in force
        _wetlands(
            "canton",
            "CAN-NOI-2026-S04",
            "31 Chapman St",
            "9-077",
            builder,
            "a wetland crossing for a driveway",
            _order(d, 800)
            + [
                {"type": "permit-recorded", "date": d.ago(790)},
                {"type": "work-started", "date": d.ago(760)},
                {
                    "type": "certificate-requested",
                    "date": d.ago(50),
                    "requested_by": "Neponset Builders LLC",
                    "scope": "complete",
                },
                {
                    "type": "certificate-denied",
                    "date": d.ago(24),
                    "reasons": ["The replication area has under 75% cover of wetland plants."],
                },
            ],
        ),
        # work begun on day 9 of the appeal period, before the Order was recorded
        _wetlands(
            "mansfield",
            "MAN-NOI-2026-S05",
            "5 Spring St",
            "20-004",
            owner,
            "a pond dredge and a new outfall",
            _order(d, 20) + [{"type": "work-started", "date": _day9(as_of, d.ago(20))}],
        ),
        # work seen on an Order that expired
        _wetlands(
            "saugus",
            "SAU-NOI-2023-S06",
            "12 Ballard St",
            "3-310",
            builder,
            "a retaining wall along the river",
            _order(d, 1130)
            + [
                {"type": "permit-recorded", "date": d.ago(1120)},
                {"type": "recording-certified", "date": d.ago(1118)},
                {"type": "work-started", "date": d.ago(1100)},
                {
                    "type": "act-not-applied",
                    "date": d.ago(1000),
                    "act": "pea-2024",
                    "reason": "the holder elected not to take the extension",
                },
                {"type": "work-observed", "date": d.ago(6), "what": "a new wall footing poured"},
            ],
        ),
        # an emergency certification outrun: work seen after it with no Notice of Intent (a violation, 310 CMR 10.06)
        _wetlands(
            "mansfield",
            "MAN-NOI-2026-S07",
            "Route 106 at the Wading River",
            "29-001",
            owner,
            "a collapsed culvert replaced",
            [
                {
                    "type": "emergency-certified",
                    "date": d.ago(40),
                    "days": 20,
                    "work": "replace the collapsed culvert under Route 106",
                },
                {"type": "work-observed", "date": d.ago(30), "what": "culvert set"},
                {"type": "work-observed", "date": d.ago(8), "what": "headwalls still being poured"},
            ],
        ),
        # an appeal of the Order pending, and work under way
        _wetlands(
            "mansfield",
            "MAN-NOI-2026-S08",
            "2 Hope St",
            "8-150",
            owner,
            "a house on a lot with a vernal pool",
            _order(d, 40)
            + [
                {"type": "permit-recorded", "date": d.ago(35)},
                {"type": "appeal-requested", "date": d.ago(33), "by": "ten residents"},
                {"type": "work-started", "date": d.ago(12)},
            ],
        ),
        # Manchester-by-the-Sea on the state's clocks: a hearing to open, an RDA decided
        _wetlands(
            "manchester-by-the-sea",
            "MBS-NOI-2026-S09",
            "3 Ocean Rd",
            "44-12",
            trust,
            "a seawall repair on the coastal bank",
            [
                {"type": "filed", "date": d.ago(9)},
                {"type": "abutters-notified", "date": d.ago(9)},
                {"type": "hearing-scheduled", "date": d.ago(7), "hearing": (as_of + timedelta(days=9)).isoformat()},
            ],
        ),
        _wetlands(
            "manchester-by-the-sea",
            "MBS-RDA-2026-S10",
            "7 Summer St",
            "38-2",
            trust,
            "a fence within 100 feet of the harbor",
            kind="rda",
            events=[{"type": "filed", "date": d.ago(30)}, {"type": "determination-issued", "date": d.ago(14), "positive": False}],
        ),
        # a Land Disturbance Permit's certificate of completion, and the surety released after it
        _wetlands(
            "mansfield",
            "MAN-LDP-2026-S11",
            "400 Chauncy St",
            "31-9",
            builder,
            "a 3-acre warehouse site",
            kind="land-disturbance",
            events=[
                {"type": "filed", "date": d.ago(400)},
                {"type": "boards-notified", "date": d.ago(400)},
                *(
                    {"type": "board-reported", "date": d.ago(380), "board": b}
                    for b in ("building", "dpw", "engineering", "health", "planning")
                ),
                {"type": "hearing-scheduled", "date": d.ago(378), "hearing": d.ago(355)},
                {"type": "notice-published", "date": d.ago(372)},
                {"type": "notice-posted", "date": d.ago(372)},
                {"type": "abutters-notified", "date": d.ago(372)},
                {"type": "mail-receipts-submitted", "date": d.ago(370)},
                {"type": "hearing-opened", "date": d.ago(355)},
                {"type": "hearing-closed", "date": d.ago(355)},
                {"type": "permit-issued", "date": d.ago(330)},
                {"type": "surety-required", "date": d.ago(330)},
                {"type": "surety-posted", "date": d.ago(320)},
                {"type": "construction-noticed", "date": d.ago(318), "start": d.ago(300)},
                {"type": "work-started", "date": d.ago(300)},
                {"type": "surety-released", "date": d.ago(120), "phase": "Phase 1: the access road and basin"},
                {"type": "final-report-filed", "date": d.ago(35)},
                {"type": "certificate-issued", "date": d.ago(21), "scope": "complete"},
                {"type": "surety-released", "date": d.ago(14)},
            ],
        ),
    ]
    out += _mansfield_streets(d)
    return out


def _day9(as_of: date, issued: str) -> str:
    """The ninth business day after ``issued``: inside the appeal period."""
    return _CAL.add_business_days(date.fromisoformat(issued), 9).isoformat()


def _mansfield_streets(d: _Days) -> list[dict]:
    """Mansfield street excavation permits (Ch. 5 §IV-V)."""
    base = {
        "town": "mansfield",
        "kind": "street-opening",
        "applicant": "Columbia Gas",
        "contractor": {"name": "Bay State Paving"},
    }

    def street(fid, address, events):
        return {
            **base,
            "id": fid,
            "address": address,
            "site": {"address": address},
            "project": {"description": "a gas service trench"},
            "events": events,
        }

    return [
        street(
            "MAN-SOP-2026-S12",
            "22 North Main St",
            [
                {"type": "filed", "date": d.ago(150), "applicant": "utility", "length_ft": 40},
                {"type": "dig-safe-obtained", "date": d.ago(148), "ticket": "20264401234"},
                {"type": "permit-issued", "date": d.ago(145)},
                {"type": "excavation-started", "date": d.ago(140)},
                {"type": "backfilled", "date": d.ago(138), "material": "gravel"},
                {"type": "street-restored", "date": d.ago(137)},
                {"type": "repair-required", "date": d.ago(20), "what": "the trench settled by two inches"},
            ],
        ),
        street(
            "MAN-SOP-2026-S13",
            "5 West St",
            [
                {"type": "filed", "date": d.ago(12), "applicant": "private", "length_ft": 12},
                {"type": "permit-issued", "date": d.ago(8)},
                {"type": "excavation-started", "date": d.ago(5)},
            ],
        ),
    ]


#: the stage filings' ids (the demo's tests find them by these)
STAGE_IDS = tuple(f["id"] for f in stage_filings(date(2026, 12, 1)))


def stage_cases(as_of: date) -> list[dict]:
    """Enforcement cases (workflows/enforcement.py) in every town with a
    fine schedule, at each step, with their tickets numbered and priced as
    the town's schedule prices them."""
    d = _Days(as_of)
    lincoln = _party("Lynn Fells LLC", "500 Broadway", "Saugus", "01906")
    devco = _party("Rumford Devco LLC", "1 Main St", "Mansfield", "02048")
    return [
        {  # Saugus, on a filing: the notice, an order, four days ticketed (a fourth offense: $200)
            "town": "saugus",
            "id": "SAU-ENF-2026-0001",
            "bylaw": "wetlands",
            "filing": "SAU-NOI-2026-S02",
            "site": {"address": "88 Lincoln Ave", "parcel": "5-101"},
            "violator": lincoln,
            "events": [
                {
                    "type": "violation-observed",
                    "date": d.ago(20),
                    "provision": "Saugus 508.08 §9.5, the Order's no-disturb condition",
                    "description": "the 25-foot no-disturb zone mowed and filled",
                },
                {"type": "violation-noticed", "date": d.ago(19), "delivered": "in-hand"},
                {
                    "type": "order-issued",
                    "date": d.ago(18),
                    "comply_by": (as_of + timedelta(days=10)).isoformat(),
                    "requires": ["Remove the fill from the no-disturb zone.", "Replant it with native shrubs."],
                },
                *(
                    {
                        "type": "ticket-issued",
                        "date": d.ago(9),
                        "provision": "the Order's no-disturb condition",
                        "offense_day": d.ago(19 - i, business=False),
                        "offense": i + 1,
                        "fine": (25, 50, 100, 200)[i],
                        "delivered": "in-hand",
                    }
                    for i in range(4)
                ),
            ],
        },
        {  # Mansfield stormwater, on a parcel with no filing: the order missed, the town abated, its costs noticed
            "town": "mansfield",
            "id": "MAN-ENF-2026-0001",
            "bylaw": "stormwater",
            "site": {"address": "200 Rumford Ave", "parcel": "22-14"},
            "violator": devco,
            "events": [
                {
                    "type": "violation-observed",
                    "date": d.ago(75),
                    "provision": "Ch. 25 Part B §4 (land disturbed without a permit)",
                    "description": "two acres cleared and graded with no erosion controls",
                },
                {
                    "type": "order-issued",
                    "date": d.ago(74),
                    "comply_by": d.ago(68),
                    "requires": ["Install a silt fence along the brook.", "Stabilize the slope."],
                },
                {
                    "type": "ticket-issued",
                    "date": d.ago(58),
                    "provision": "the Enforcement Order",
                    "offense_day": d.ago(64, business=False),
                    "offense": 1,
                    "fine": 300,
                    "delivered": "mailed",
                },
                {"type": "town-abated", "date": d.ago(40)},
                {"type": "costs-noticed", "date": d.ago(20), "amount": 4200},
            ],
        },
        {  # Manchester-by-the-Sea: a first offense is a warning
            "town": "manchester-by-the-sea",
            "id": "MBS-ENF-2026-0001",
            "bylaw": "wetlands",
            "filing": "MBS-NOI-2026-S09",
            "site": {"address": "3 Ocean Rd", "parcel": "44-12"},
            "violator": _party("Ocean Road Realty Trust", "3 Ocean Rd", "Manchester-by-the-Sea", "01944"),
            "events": [
                {
                    "type": "violation-observed",
                    "date": d.ago(5),
                    "provision": "General Wetlands By-law (Buffer Zone Area)",
                    "description": "stone stockpiled on the coastal bank",
                },
                {
                    "type": "ticket-issued",
                    "date": d.ago(4),
                    "provision": "General Wetlands By-law (Buffer Zone Area)",
                    "offense_day": d.ago(5),
                    "offense": 1,
                    "fine": 0,
                    "delivered": "in-hand",
                },
            ],
        },
        {  # Canton, just seen, on a parcel with no filing
            "town": "canton",
            "id": "CAN-ENF-2026-0001",
            "bylaw": "wetlands",
            "site": {"address": "Behind 600 Washington St", "parcel": "14-88"},
            "violator": _party("J. Doe", "600 Washington St", "Canton", "02021"),
            "events": [
                {
                    "type": "violation-observed",
                    "date": d.ago(2),
                    "provision": "Canton Wetlands By-Law 15-4 (work without a permit)",
                    "description": "brush cut and dumped into the bordering vegetated wetland",
                },
            ],
        },
    ]
