"""The ``permits`` command line: one parser over the commands of this
package, and the edge where the project's errors become one line on
standard error with exit status 2.

Each command module registers its own sub-commands and imports only
:mod:`cli.args` from this package; the heavy layers (the store, Jinja,
Prefect) are imported inside the commands that use them.
"""

from __future__ import annotations

import sys

from cli.args import EXIT_BAD_INPUT, Commands, Parser, command_asked
from workflows.errors import PermitsError

__all__ = ["main", "build_parser"]


def build_parser(argv: list[str] | None = None) -> Parser:
    """The parser of ``permits``: with ``argv``, only the command it names
    is built (the others are sketches that give their line of help,
    :class:`cli.args.Commands`); without, every command, whole."""
    from cli import (
        backup,
        check,
        enforcement,
        fees,
        mail,
        meetings,
        notices,
        open_data,
        parcels,
        payments,
        reading,
        rederive,
        report,
        rules,
        schedule,
        store,
        sweep,
        towns,
        web,
    )

    parser = Parser(prog="permits", description="Permit workflow engine for Massachusetts towns.")
    wanted = None if argv is None else command_asked(argv)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser, action=Commands, wanted=wanted)
    rules.add_commands(sub)
    store.add_store_commands(sub, Parser)
    reading.add_commands(sub)
    notices.add_parser(sub)
    sweep.add_demo_command(sub)
    sweep.add_commands(sub)
    schedule.add_commands(sub)
    enforcement.add_commands(sub)
    mail.add_commands(sub)
    web.add_commands(sub)
    parcels.add_commands(sub)
    meetings.add_commands(sub)
    rederive.add_commands(sub)
    check.add_commands(sub)
    payments.add_commands(sub)
    backup.add_commands(sub)
    towns.add_commands(sub)
    fees.add_commands(sub)
    report.add_commands(sub)
    open_data.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        if argv is None:
            argv = sys.argv[1:]
        args = build_parser(argv).parse_args(argv)
        if getattr(args, "needs_calendar", True):
            from cli.args import settings
            from cli.holiday_cache import install_holiday_cache

            install_holiday_cache(settings().data_dir)
        return args.func(args)
    except PermitsError as exc:
        print(f"permits: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `permits ... | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
