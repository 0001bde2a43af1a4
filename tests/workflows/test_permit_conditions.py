"""A permit's conditions given with the decision: the ``permit-issued``
event of a Notice of Intent or a Land Disturbance Permit may carry
``conditions``, a list of non-empty strings (one condition each); a bad
value is refused naming the field, and the conditions survive a write
and a read of the record."""

import pytest
from _filings import ev, filing

from workflows.errors import MalformedEvent
from workflows.event_fields import MAX_LINES
from workflows.filing import parse_filing
from workflows.inputs import MAX_FIELD_CHARS, BadInput

OPEN = (ev("filed", "2026-06-01"),)


def _issued(kind="noi", **fields):
    return parse_filing(
        filing("canton" if kind != "land-disturbance" else "mansfield", kind, *OPEN, ev("permit-issued", "2026-07-01", **fields))
    )


@pytest.mark.parametrize("kind", ["noi", "land-disturbance"])
def test_a_permit_issued_event_carries_its_conditions_in_order(kind):
    f = _issued(kind, conditions=["Erosion controls first.", "No work within 25 feet of the wetland."])
    assert f.events[-1].get("conditions") == ("Erosion controls first.", "No work within 25 feet of the wetland.")
    assert parse_filing(f.to_json()).events[-1].get("conditions") == f.events[-1].get("conditions")


@pytest.mark.parametrize(
    "value, message",
    [
        ("Erosion controls first.", r"field 'conditions' is 'Erosion controls first.', not a list"),
        ([], r"field 'conditions' is empty"),
        (["Erosion controls first.", "  "], r"field 'conditions': item 2 \('  '\) is not a non-empty string"),
        (["Erosion controls first.", 7], r"field 'conditions': item 2 \(7\) is not a non-empty string"),
        (["a condition"] * (MAX_LINES + 1), rf"field 'conditions' has {MAX_LINES + 1} items; the limit is {MAX_LINES}"),
    ],
)
def test_conditions_that_are_not_a_list_of_non_empty_strings_are_refused_naming_the_field(value, message):
    with pytest.raises(MalformedEvent, match=message):
        _issued(conditions=value)


def test_a_condition_over_the_length_limit_is_refused_naming_its_place():
    with pytest.raises(BadInput, match=rf"'events\[2\]\.conditions\[2\]' is {MAX_FIELD_CHARS + 1:,} characters long"):
        _issued(conditions=["short", "x" * (MAX_FIELD_CHARS + 1)])


def test_two_hundred_conditions_of_two_thousand_characters_each_are_accepted():
    assert len(_issued(conditions=["x" * MAX_FIELD_CHARS] * MAX_LINES).events[-1].get("conditions")) == MAX_LINES


def test_an_rda_has_no_permit_conditions_so_the_field_is_refused_as_unknown():
    with pytest.raises(MalformedEvent, match=r"unknown field 'conditions' on a permit-issued event; known: type, date, voted"):
        _issued("rda", conditions=["Erosion controls first."])


def test_conditions_on_another_event_are_refused_as_unknown():
    with pytest.raises(MalformedEvent, match=r"unknown field 'conditions' on a permit-denied event"):
        parse_filing(filing("canton", "noi", *OPEN, ev("permit-denied", "2026-07-01", conditions=["x"])))


def test_the_command_line_records_one_condition_per_conditions_argument_in_order(tmp_path, capsys):
    import json

    from cli.main import main
    from models.handle import Store

    db = f"sqlite:///{tmp_path / 'permits.db'}"
    heard = filing(
        "canton",
        "noi",
        *OPEN,
        ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16T19:00"),
        ev("hearing-opened", "2026-06-16"),
        ev("hearing-closed", "2026-06-16"),
    )
    (tmp_path / "f.json").write_text(json.dumps(heard), encoding="utf-8")
    assert main(["init", "--db", db]) == 0
    assert main(["import", "--db", db, str(tmp_path / "f.json")]) == 0
    argv = ["record", "TEST-1", "permit-issued", "--date", "2026-06-20", "--as-of", "2026-06-30", "--db", db]
    assert main([*argv, "conditions=Erosion controls first.", "conditions=No work within 25 feet of the wetland."]) == 0
    assert "recorded event 5 (permit-issued)" in capsys.readouterr().out
    last = Store(db).history("TEST-1")[-1]["raw"]
    assert last["conditions"] == ["Erosion controls first.", "No work within 25 feet of the wetland."]
