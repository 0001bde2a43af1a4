"""docs/reference/commands.md names every `permits` sub-command, each under
its own heading `### permits NAME`, with every option the sub-command takes."""

import argparse
import re
from pathlib import Path

from cli.main import build_parser

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "commands.md"
TEXT = DOC.read_text(encoding="utf-8")


def _sub_commands() -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def _sections() -> dict[str, str]:
    """Each `### permits NAME` heading and its text, up to the next heading."""
    found = {}
    for m in re.finditer(r"^### permits ([a-z-]+)\n(.*?)(?=^##)", TEXT + "\n##", re.S | re.M):
        found[m.group(1)] = m.group(2)
    return found


def test_every_sub_command_has_its_heading_in_the_command_reference():
    missing = sorted(set(_sub_commands()) - set(_sections()))
    assert missing == [], f"docs/reference/commands.md lacks '### permits NAME' for: {', '.join(missing)}"


def test_the_command_reference_names_no_sub_command_that_does_not_exist():
    assert sorted(set(_sections()) - set(_sub_commands())) == []


def test_each_sub_commands_section_names_every_one_of_its_options():
    sections = _sections()
    missing = []
    for name, sub in _sub_commands().items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            for option in action.option_strings:
                if option.startswith("--") and not re.search(rf"{re.escape(option)}(?![\w-])", sections.get(name, "")):
                    missing.append(f"permits {name} {option}")
    assert missing == [], "docs/reference/commands.md lacks: " + ", ".join(missing)


def test_no_sub_command_has_two_headings():
    headings = re.findall(r"^### permits ([a-z-]+)$", TEXT, re.M)
    assert len(headings) == len(set(headings))


def test_the_enforcement_section_names_each_of_its_steps_and_their_options():
    """`permits enforcement STEP`: each step, and each option it takes, is on
    the page under `### permits enforcement`."""
    (action,) = [a for a in _sub_commands()["enforcement"]._actions if isinstance(a, argparse._SubParsersAction)]
    section = _sections()["enforcement"]
    missing = []
    for step, sub in action.choices.items():
        if not re.search(rf"`{step}\b", section):
            missing.append(step)
        for a in sub._actions:
            if isinstance(a, argparse._HelpAction):
                continue
            for option in a.option_strings:
                if option.startswith("--") and option not in section:
                    missing.append(f"{step} {option}")
    assert missing == [], "docs/reference/commands.md, permits enforcement, lacks: " + ", ".join(missing)
