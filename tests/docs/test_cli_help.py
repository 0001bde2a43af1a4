"""Every `permits` sub-command and every option says what it is for."""

import argparse

from cli.main import build_parser


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name), sub


def _all_subparsers(parser, prefix=""):
    """Every sub-command, and every sub-command of one (``enforcement open``)."""
    for name, summary, sub in _subparsers(parser):
        yield f"{prefix}{name}", summary, sub
        yield from _all_subparsers(sub, f"{prefix}{name} ")


def test_every_sub_command_and_option_has_help_text():
    missing = []
    for name, summary, sub in _all_subparsers(build_parser()):
        if not summary or not sub.description:
            missing.append(f"{name}: no help or description")
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help:
                missing.append(f"{name} {action.option_strings or action.dest}: no help")
    assert missing == []


def test_the_record_commands_are_registered():
    names = {name for name, _, _ in _subparsers(build_parser())}
    assert {"init", "db", "import", "export", "record", "void", "show", "list", "docket", "deposits"} <= names
