"""What every ``permits`` command shares: the argument parser whose mistakes
are one line, the parsers of dates and years, reading a filing JSON file,
"today" and the user at the edge, opening the store, and the progress bar
(:mod:`cli.progress`).

Every other module of this package imports from here; nothing here imports
them back.
"""

from __future__ import annotations

import argparse
import os
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path

from cli.progress import ProgressBar
from workflows.errors import PermitsError

__all__ = [
    "EXIT_BAD_INPUT",
    "UsageError",
    "Parser",
    "Commands",
    "Sketch",
    "command_asked",
    "parse_day",
    "parse_moment",
    "parse_year",
    "read_json_file",
    "read_filing_file",
    "writable_file",
    "writable_folder",
    "check_id",
    "check_choice",
    "as_of",
    "now",
    "today",
    "in_town",
    "settings",
    "user",
    "store_url",
    "open_store",
    "reading_store",
    "ProgressBar",
    "record_parents",
]

EXIT_BAD_INPUT = 2


class UsageError(PermitsError):
    pass


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit status 2."""

    #: a parser that is built (see :class:`Sketch`)
    sketch = False

    def error(self, message):  # noqa: D401 - argparse's hook
        raise UsageError(f"{message} (see '{self.prog} --help')")


class Sketch:
    """A command's parser left unbuilt because another command was asked
    for: it keeps the command's name (and :class:`Commands` its one line of
    help, for ``permits --help``) and takes every call a command module
    makes to build its parser (arguments, defaults, sub-commands) and does
    nothing.  A module whose parser needs something heavy to build (the
    rule book's kinds as choices) asks ``p.sketch`` first."""

    sketch = True

    def __init__(self, name: str):
        self.name = name

    def _ignored(self, *args, **kwargs) -> Sketch:
        return self

    add_argument = add_argument_group = add_mutually_exclusive_group = _ignored
    add_subparsers = add_parser = set_defaults = _ignored


class Commands(argparse._SubParsersAction):
    """The sub-commands of ``permits``, built only for the command asked
    for (``wanted``; None: every one, as the tests and the reference read
    them): the others are :class:`Sketch` es with their line of help.  So a
    command starts without building some 300 options it will not read."""

    def __init__(self, *args, wanted: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.wanted = wanted

    def add_parser(self, name, **kwargs):
        if self.wanted is None or name == self.wanted:
            return super().add_parser(name, **kwargs)
        if name in self._name_parser_map:
            raise argparse.ArgumentError(self, f"conflicting subparser: {name}")
        if "help" in kwargs:
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), kwargs["help"]))
        sketch = self._name_parser_map[name] = Sketch(name)
        return sketch


def command_asked(argv: list[str]) -> str:
    """The command ``argv`` names (its first word that is not an option),
    or "" when it names none (``permits --help``)."""
    return next((word for word in argv if not word.startswith("-")), "")


def parse_day(text: str, what: str = "date") -> date:
    try:
        if not (len(text) == 10 and text[4] == "-" and text[7] == "-"):
            raise ValueError("not in the form YYYY-MM-DD")
        return date.fromisoformat(text)
    except ValueError as exc:
        raise UsageError(f"invalid {what} {text!r}: {exc} (use YYYY-MM-DD)") from None


def parse_moment(text: str, what: str = "date") -> date | datetime:
    """A date, or a date and time (YYYY-MM-DDTHH:MM) for clocks in hours."""
    if "T" in text or " " in text.strip():
        try:
            return datetime.fromisoformat(text)
        except ValueError as exc:
            raise UsageError(f"invalid {what} {text!r}: {exc} (use YYYY-MM-DD or YYYY-MM-DDTHH:MM)") from None
    return parse_day(text, what)


def parse_year(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"invalid year {text!r}: a whole number such as 2027") from None


def read_json_file(path: str):
    """The JSON value in the file at ``path`` (UTF-8, with or without a
    byte-order mark; workflows.inputs names anything else); a file that
    cannot be read is a UsageError naming it and why."""
    from workflows.inputs import MAX_FILE_MB, load_json

    cap = MAX_FILE_MB * 1024 * 1024
    try:
        with open(path, "rb") as fh:
            data = fh.read(cap + 1)  # a pipe or a growing file too: never more than the cap
    except IsADirectoryError:
        raise UsageError(f"cannot read {path}: it is a folder, not a file") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > cap:
        raise UsageError(f"{path}: over {MAX_FILE_MB} MB, the most a filings file may be; split it into smaller files")
    return load_json(data, path)


def read_filing_file(path: str):
    """Read and parse a filing JSON file; a bad file is one PermitsError."""
    from workflows.filing import parse_filing

    return parse_filing(read_json_file(path))


def writable_file(path: str, what: str = "--out") -> str:
    """``path`` if a file can be written there: not a folder, its folder
    exists or can be made and is writable.  UsageError otherwise, before
    anything is computed or written."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{what} {path!r} is a folder; name a file")
    parent = p.parent if str(p.parent) else Path(".")
    _writable_folder(parent, what, path)
    return path


def writable_folder(path: str, what: str = "--out") -> str:
    """``path`` if it is, or can be made as, a writable folder; UsageError
    naming it otherwise (a file, no permission)."""
    _writable_folder(Path(path), what, path)
    return path


def _writable_folder(folder: Path, what: str, shown: str) -> None:
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise UsageError(f"{what} {shown!r}: {str(probe)!r} is a file, not a folder")
    if probe.exists() and not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {shown!r}: no permission to write in {str(probe)!r}")


def check_id(text: str) -> str:
    """A filing id typed on the command line, held to workflows.ids' rule."""
    from workflows.ids import check_filing_id

    return check_filing_id(text)


def check_choice(what: str, value: str | None, choices) -> str | None:
    """``value`` if it is one of ``choices`` (or None); UnknownChoice naming
    the valid ones otherwise: a misspelled filter must not match nothing."""
    from workflows.errors import UnknownChoice

    if value is not None and value not in choices:
        raise UnknownChoice(what, value, choices)
    return value


def as_of(args) -> date:
    """``--as-of``, else today: the edge is where today is read."""
    return parse_day(args.as_of, "--as-of date") if args.as_of else today()


def today() -> date:
    """Today in the town's zone (``PERMITS_TIMEZONE``), read at this edge."""
    from config.clock import town_today

    return town_today(settings().timezone)


def now() -> datetime:
    """The moment, read at this edge, to the minute, as the town's wall
    time (``PERMITS_TIMEZONE``): a notice's stamp, an email's date."""
    from config.clock import town_now

    return town_now(settings().timezone)


def in_town(moment: datetime) -> datetime:
    """A moment the store stamped (UTC) in the town's zone, aware: what the
    command line prints for "recorded at" and "sent at"."""
    from config.clock import in_town as _in_town

    return _in_town(moment, settings().timezone)


def settings():
    """The settings (:func:`config.load`), read from the environment at this
    edge and handed down to what the command calls."""
    import config

    return config.load()


def user(args) -> str:
    """``--by``, else ``PERMITS_USER``, else the login name."""
    return args.by or settings().user


def store_url(args) -> str:
    """``--db``, else ``PERMITS_DATABASE_URL``, else the data directory's file."""
    return settings().store_url(getattr(args, "db", None))


def open_store(args, *, check: bool = True):
    """The store at ``--db`` (else ``PERMITS_DATABASE_URL``, else the data
    directory's file).  Imports the database code only when called, so the
    commands that need no store stay light."""
    from models.handle import Store

    store = Store(store_url(args))
    if check:
        store.check_schema()
    return store


@contextmanager
def reading_store(args):
    """The store for a command that only reads (``show``, ``docket``): on a
    SQLite file at the current schema, the standard library's driver
    (:mod:`models.read.sqlite_reader`: the same queries, without importing
    SQLAlchemy); otherwise (PostgreSQL, or a store the schema check has
    something to say about) the Store, as :func:`open_store` opens it."""
    from models.read.sqlite_reader import open_sqlite_reader

    reader = open_sqlite_reader(store_url(args))
    if reader is None:
        yield open_store(args)
        return
    try:
        yield reader
    finally:
        reader.close()


def record_parents() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The parent parsers of the record's commands: ``--db URL``, and
    ``--by NAME`` for those that write."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: $PERMITS_DATABASE_URL, else "
        "permits.db in the data directory, ~/.local/share/permits); postgresql+psycopg://... for PostgreSQL",
    )
    writer = argparse.ArgumentParser(add_help=False)
    writer.add_argument("--by", help="who records it (default: $PERMITS_USER, else the login name)")
    return common, writer
