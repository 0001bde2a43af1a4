"""Canton's Street Opening Fee Schedule as data (Canton 16-12 §4, §6 and
the Fee Schedule, canton.txt line ~1469): the Nominal Schedule of
Refundable Deposits and the fees, in cents, each line with its citation.
:func:`workflows.deposits.charge` prices them for an applicant.  Pure."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ScheduleItem", "SCHEDULE", "FEES", "SCHEDULE_CITATION"]

SCHEDULE_CITATION = "Canton 16-12 Fee Schedule (Nominal Schedule of Refundable Deposits)"


@dataclass(frozen=True)
class ScheduleItem:
    id: str
    description: str
    cents: int
    unit: str  # "each", "linear ft", "sq yd", "hour"
    citation: str
    fee: bool = False


SCHEDULE: dict[str, ScheduleItem] = {
    i.id: i
    for i in (
        ScheduleItem("center-public-way", "opening to the center of a public way", 300_00, "each", SCHEDULE_CITATION),
        ScheduleItem("across-public-way", "opening across a public way", 600_00, "each", SCHEDULE_CITATION),
        ScheduleItem("center-state-highway", "opening to the center of a state highway", 1_500_00, "each", SCHEDULE_CITATION),
        ScheduleItem("across-state-highway", "opening across a state highway", 2_000_00, "each", SCHEDULE_CITATION),
        ScheduleItem(
            "trench-unpaved-shoulder", "trench in unpaved shoulder, parallel to street", 10_00, "linear ft", SCHEDULE_CITATION
        ),
        ScheduleItem("trench-paved-way", "trench in paved public way, parallel to street", 25_00, "linear ft", SCHEDULE_CITATION),
        ScheduleItem("curb-cut-driveway", "curb cut for a private driveway", 200_00, "each", SCHEDULE_CITATION),
        ScheduleItem("curb-cut-subdivision", "curb cut for a subdivision street", 500_00, "each", SCHEDULE_CITATION),
        ScheduleItem("newly-paved-center", "newly paved road (infra-red), to the center", 700_00, "each", SCHEDULE_CITATION),
        ScheduleItem("newly-paved-across", "newly paved road (infra-red), across", 1_400_00, "each", SCHEDULE_CITATION),
        ScheduleItem(
            "sidewalk-bituminous", "sidewalk opening up to 3 sq yd, bituminous concrete", 300_00, "each", SCHEDULE_CITATION
        ),
        ScheduleItem("sidewalk-concrete", "sidewalk opening up to 3 sq yd, concrete", 600_00, "each", SCHEDULE_CITATION),
        ScheduleItem(
            "sidewalk-excavation-bituminous",
            "sidewalk excavation over 3 sq yd, bituminous concrete",
            15_00,
            "sq yd",
            SCHEDULE_CITATION,
        ),
        ScheduleItem(
            "sidewalk-excavation-concrete", "sidewalk excavation over 3 sq yd, concrete", 25_00, "sq yd", SCHEDULE_CITATION
        ),
    )
}

FEES: dict[str, ScheduleItem] = {
    i.id: i
    for i in (
        ScheduleItem("application", "application fee", 50_00, "each", "Canton 16-12 §4 and Fee Schedule", fee=True),
        ScheduleItem(
            "after-hours", "inspection after normal working hours", 50_00, "hour", "Canton 16-12 §6 and Fee Schedule", fee=True
        ),
    )
}
