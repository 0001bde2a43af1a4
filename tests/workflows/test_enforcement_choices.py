"""The board's own choices in an enforcement case (workflows/enforcement.py).

- An Enforcement Order's date to comply by is the board's: it may extend it
  by a vote of its own (``order-extended``, with the new date and the
  reason; 310 CMR 10.08 and the town's by-law), while the Permit Extension
  Acts never move it (St. 2010 c.240 §173 excludes enforcement orders).
- Canton 15-11 (canton.txt 208-209): "shall be punished by a fine of not
  more that $300.00": a maximum, the amount the board's choice up to it;
  Saugus's schedule ($25, $50, $100, $200; saugus.txt 563) fixes each.
"""

from datetime import date

import pytest
from _filings import ev

from workflows.enforcement import parse_case
from workflows.enforcement_replay import replay_case
from workflows.errors import TransitionRefused
from workflows.fines import FineNotAllowed, chosen_fine, fine_for
from workflows.towns import town

OBSERVED = ev("violation-observed", "2026-05-04", provision="508.08 §2", description="fill in the buffer zone")
ORDER = ev("order-issued", "2026-05-06", comply_by="2026-06-05", requires=["Remove the fill."])


def case(*events, town_id="saugus", as_of="2026-06-30"):
    obj = {
        "town": town_id,
        "id": "T-ENF-1",
        "bylaw": "wetlands",
        "violator": {"name": "Lynn Fells LLC"},
        "events": [OBSERVED, *events],
    }
    return replay_case(parse_case(obj), date.fromisoformat(as_of))


def test_the_board_extends_an_orders_date_to_comply_by_with_its_reason():
    r = case(ORDER, ev("order-extended", "2026-06-01", to="2026-07-15", reason="planting season"), as_of="2026-07-01")
    c = r.clock("compliance")
    assert (c.date, c.status) == (date(2026, 7, 15), "open")
    assert "extended by the board on 2026-06-01 (event 3) to 2026-07-15: planting season" in c.explanation
    met = case(
        ORDER,
        ev("order-extended", "2026-06-01", to="2026-07-15", reason="planting season"),
        ev("complied", "2026-07-10"),
    )
    assert met.clock("compliance").status == "met"


def test_an_extension_must_move_the_date_later_and_follow_an_order():
    with pytest.raises(TransitionRefused, match="is not after 2026-06-05"):
        case(ORDER, ev("order-extended", "2026-06-01", to="2026-06-05", reason="x"))
    with pytest.raises(TransitionRefused, match="it is allowed in: ordered"):
        case(ev("order-extended", "2026-06-01", to="2026-07-05", reason="x"))


def test_the_permit_extension_acts_still_never_move_an_order_extended_by_the_board():
    """St. 2024 c.238 §280 covers approvals in effect in 2023-2024; an
    Enforcement Order of 2024, extended by the board, is moved only by the
    board's own vote."""
    obj = {
        "town": "saugus",
        "id": "T-ENF-2",
        "bylaw": "wetlands",
        "violator": {"name": "Lynn Fells LLC"},
        "events": [
            ev("violation-observed", "2024-03-01", provision="§2", description="fill"),
            ev("order-issued", "2024-03-04", comply_by="2024-04-04", requires=["Remove the fill."]),
            ev("order-extended", "2024-04-01", to="2024-05-01", reason="wet spring"),
        ],
    }
    c = replay_case(parse_case(obj), date(2024, 6, 1)).clock("compliance")
    assert (c.date, c.status) == (date(2024, 5, 1), "overdue")
    assert "not extended by St. 2024 c.238 §280" in c.explanation


def test_cantons_ticket_is_the_boards_choice_up_to_the_300_maximum_and_refused_above():
    schedule = town("canton").fine_schedule("wetlands")
    usual = fine_for("Canton", schedule, 1)
    assert usual.dollars == 300 and "not more that $300.00" in schedule.up_to
    assert chosen_fine(schedule, usual, 150).dollars == 150
    with pytest.raises(FineNotAllowed, match=r"a fine is at most \$300, not \$301 \(Canton Wetlands By-Law 15-11"):
        chosen_fine(schedule, usual, 301)

    def canton(fine):
        obj = {
            "town": "canton",
            "id": "CAN-ENF-2026-0009",
            "bylaw": "wetlands",
            "violator": {"name": "Neponset Builders LLC"},
            "events": [
                ev("violation-observed", "2026-08-03", provision="15-4", description="work with no permit"),
                ev("ticket-issued", "2026-08-05", provision="15-4", offense_day="2026-08-03", offense=1, fine=fine),
            ],
        }
        return replay_case(parse_case(obj), date(2026, 8, 6))

    assert canton(100).fines == 100
    with pytest.raises(TransitionRefused, match=r"at most \$300, not \$500"):
        canton(500)


def test_a_fixed_schedule_refuses_another_amount():
    with pytest.raises(TransitionRefused, match=r"the first offense costs \$25, not \$40: the schedule fixes it"):
        case(ev("ticket-issued", "2026-05-06", provision="508.08 §2", offense_day="2026-05-05", offense=1, fine=40))
