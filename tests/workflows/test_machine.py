"""A machine is checked when it is built: a bad table fails at import."""

import importlib
from enum import Enum

import pytest

from workflows.errors import RuleBookError
from workflows.machine import ANY, START, Machine
from workflows.machine import Transition as T
from workflows.replay import MACHINES


class Door(str, Enum):
    SHUT = "shut"
    OPEN = "open"
    GONE = "gone"


def build(*transitions, final=("gone",), **kw):
    return Machine(kind="door", states=Door, final=frozenset(final), transitions=transitions, **kw)


GOOD = (T("made", (START,), "shut"), T("opened", ("shut",), "open"), T("closed", ("open",), "shut"), T("removed", (ANY,), "gone"))


def test_a_good_machine_builds():
    assert build(*GOOD).allowed("shut") == ["opened", "removed"]


def test_an_unreachable_state_fails_when_the_machine_is_built():
    with pytest.raises(RuleBookError, match=r"machine door.*unreachable states: open"):
        build(T("made", (START,), "shut"), T("closed", ("open",), "shut"), T("removed", (ANY,), "gone"))


def test_a_transition_to_nowhere_fails_when_the_machine_is_built():
    with pytest.raises(RuleBookError, match=r"opened: transition to nowhere \('ajar' is not a state\)"):
        build(*GOOD, T("opened", ("shut",), "ajar"))


def test_a_source_that_is_not_a_state_fails():
    with pytest.raises(RuleBookError, match=r"source 'ajar' is not a state"):
        build(*GOOD, T("opened", ("ajar",), "open"))


def test_a_state_with_no_way_out_fails():
    with pytest.raises(RuleBookError, match=r"state 'open' is not final and has no way out"):
        build(T("made", (START,), "shut"), T("opened", ("shut",), "open"), T("removed", ("shut",), "gone"))


def test_an_unknown_guard_fails():
    with pytest.raises(RuleBookError, match=r"unknown guard 'has_key'"):
        build(*GOOD[:1], T("opened", ("shut",), "open", guards=("has_key",)), *GOOD[2:])


def test_every_permit_machine_loads_and_reaches_each_state():
    for kind in ("noi", "rda", "land_disturbance", "street_opening"):
        module = importlib.import_module(f"workflows.{kind}")
        assert module.MACHINE is MACHINES[module.MACHINE.kind]
