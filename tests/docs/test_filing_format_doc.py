"""docs/reference/filing-format.md is kept true: every JSON example in it parses and
replays as it says, and its event tables name every event type the engine
knows, with each type's required fields."""

import json
import re
from datetime import date
from pathlib import Path

import pytest

from workflows.event_fields import OPTIONAL_FIELDS
from workflows.filing import EVENT_FIELDS, parse_filing
from workflows.replay import replay
from workflows.rulebook import CLOCK_TYPES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "reference" / "filing-format.md"
TEXT = DOC.read_text(encoding="utf-8")
EXAMPLE = re.compile(r"<!-- example: (?P<what>[\w-]+)(?P<args>[^>]*)-->\s*```json\n(?P<body>.*?)```", re.S)


def _examples(what):
    out = []
    for m in EXAMPLE.finditer(TEXT):
        if m.group("what") == what:
            args = dict(a.split("=", 1) for a in m.group("args").split())
            out.append((args, json.loads(m.group("body"))))
    return out


def _section(title: str) -> str:
    start = TEXT.index(f"### {title}")
    end = TEXT.find("\n## ", start)
    nxt = TEXT.find("\n### ", start + 1)
    ends = [e for e in (end, nxt) if e != -1]
    return TEXT[start : min(ends) if ends else len(TEXT)]


def _rows(section: str) -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z-]+)` \|.*$", section, re.M)}


def test_every_json_block_in_the_doc_is_a_tagged_example_that_parses():
    blocks = re.findall(r"```json\n(.*?)```", TEXT, re.S)
    assert blocks and len(blocks) == len(EXAMPLE.findall(TEXT))
    for body in blocks:
        json.loads(body)


@pytest.mark.parametrize("args, obj", _examples("filing"))
def test_each_filing_example_parses_and_replays_to_the_state_it_claims(args, obj):
    filing = parse_filing(obj)
    result = replay(filing, date.fromisoformat(args["as-of"]))
    assert result.state == args["state"]


def test_the_replay_output_example_is_what_replay_prints_for_the_first_filing():
    ((args, shown),) = _examples("replay-output")
    (fargs, obj) = _examples("filing")[0]
    printed = replay(parse_filing(obj), date.fromisoformat(fargs["as-of"])).as_dict()
    assert {k: printed[k] for k in ("town", "kind", "id", "state")} == {k: shown[k] for k in ("town", "kind", "id", "state")}
    by_id = {c["id"]: c for c in printed["clocks"]}
    assert shown["clocks"], "the example shows at least one clock"
    for clock in shown["clocks"]:
        assert by_id[clock["id"]] == clock


@pytest.mark.parametrize(
    "section, kinds",
    [
        ("Wetlands and stormwater", ("noi", "rda", "land-disturbance")),
        ("Street openings", ("street-opening",)),
    ],
)
def test_the_event_tables_name_every_event_type_with_its_required_fields(section, kinds):
    rows = {**_rows(_section(section)), **_rows(_section("Any kind"))}
    for kind in kinds:
        for etype, fields in EVENT_FIELDS[kind].items():
            assert etype in rows, f"docs/reference/filing-format.md: {section} lacks the event {etype!r}"
            for name in fields:
                assert f"`{name}`" in rows[etype], f"docs/reference/filing-format.md: {etype} lacks its field {name!r}"


@pytest.mark.parametrize(
    "section, kinds",
    [
        ("Wetlands and stormwater", ("noi", "rda", "land-disturbance")),
        ("Street openings", ("street-opening",)),
    ],
)
def test_the_event_tables_name_each_events_optional_fields_too(section, kinds):
    rows = {**_rows(_section("Any kind")), **_rows(_section(section))}
    for kind in kinds:
        for (of_kind, etype), fields in OPTIONAL_FIELDS.items():
            if of_kind not in ("*", kind) or etype not in EVENT_FIELDS[kind]:
                continue
            for name in fields:
                assert f"`{name}`" in rows[etype], (
                    f"docs/reference/filing-format.md: {section}: {etype} lacks its optional field {name!r}"
                )


@pytest.mark.parametrize("args, obj", _examples("case"))
def test_each_enforcement_case_example_parses_and_replays_to_the_state_it_claims(args, obj):
    from workflows.enforcement import parse_case
    from workflows.enforcement_replay import replay_case

    assert replay_case(parse_case(obj), date.fromisoformat(args["as-of"])).state == args["state"]


def test_the_case_tables_name_every_case_event_with_its_fields_and_every_case_clock():
    from workflows.enforcement_replay import CASE_CLOCK_TYPES
    from workflows.event_fields import ENFORCEMENT

    rows = _rows(_section("Case events"))
    for etype, fields in EVENT_FIELDS[ENFORCEMENT].items():
        assert etype in rows, f"docs/reference/filing-format.md: Case events lacks {etype!r}"
        optional = OPTIONAL_FIELDS.get((ENFORCEMENT, etype), {})
        for name in [*fields, *optional]:
            assert f"`{name}`" in rows[etype], f"docs/reference/filing-format.md: {etype} lacks its field {name!r}"
    clocks = _rows(_section("Case clocks"))
    assert set(clocks) == set(CASE_CLOCK_TYPES)
    for clock_id, kind in CASE_CLOCK_TYPES.items():
        assert f"| {kind} |" in clocks[clock_id]


def test_the_clock_table_lists_every_clock_id_with_its_type():
    rows = _rows(TEXT[TEXT.index("## Clock ids") :])
    assert set(rows) == set(CLOCK_TYPES)
    for clock_id, kind in CLOCK_TYPES.items():
        assert f"| {kind} |" in rows[clock_id]


def test_the_repository_points_to_its_own_documentation_not_to_a_folder_a_clone_lacks():
    root = ROOT
    offenders = []
    for path in root.rglob("*"):
        if path.suffix not in (".py", ".md", ".j2", ".toml", ".yaml") or ".venv" in path.parts or path == Path(__file__):
            continue
        if "../shared" in path.read_text(encoding="utf-8", errors="replace"):
            offenders.append(str(path.relative_to(root)))
    assert offenders == []
