"""What every ``permits`` command shares: the argument parser whose mistakes
are one line, the parsers of dates and years, reading a filing JSON file,
"today" and the user at the edge, opening the store, and the progress bar.

Every other module of this package imports from here; nothing here imports
them back.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import threading
from datetime import date, datetime

from workflows.errors import PermitsError

__all__ = [
    "EXIT_BAD_INPUT",
    "UsageError",
    "Parser",
    "parse_day",
    "parse_moment",
    "parse_year",
    "read_filing_file",
    "as_of",
    "user",
    "open_store",
    "ProgressBar",
]

EXIT_BAD_INPUT = 2


class UsageError(PermitsError):
    pass


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit status 2."""

    def error(self, message):  # noqa: D401 - argparse's hook
        raise UsageError(f"{message} (see '{self.prog} --help')")


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


def read_filing_file(path: str):
    """Read and parse a filing JSON file; a bad file is a UsageError."""
    from workflows.filing import parse_filing

    try:
        with open(path, encoding="utf-8") as fh:
            obj = json.load(fh)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return parse_filing(obj)


def as_of(args) -> date:
    """``--as-of``, else today: the edge is where today is read."""
    return parse_day(args.as_of, "--as-of date") if args.as_of else date.today()


def user(args) -> str:
    return args.by or os.environ.get("PERMITS_USER") or os.environ.get("USER") or getpass.getuser()


def open_store(args, *, check: bool = True):
    """The store at ``--db`` (else ``PERMITS_DATABASE_URL``, else the data
    directory's file).  Imports the database code only when called, so the
    commands that need no store stay light."""
    from models.db import resolve_url
    from models.service import Store

    store = Store(resolve_url(getattr(args, "db", None)))
    if check:
        store.check_schema()
    return store


class ProgressBar:
    """A one-line progress bar on standard error, shown only on a terminal
    and only for runs of at least ``minimum`` filings."""

    def __init__(self, total: int, label: str, stream=None, minimum: int = 1000, force: bool = False):
        self.total, self.label, self.done = total, label, 0
        self.stream = stream or sys.stderr
        self.enabled = force or (total >= minimum and getattr(self.stream, "isatty", lambda: False)())
        self._lock = threading.Lock()

    def update(self, n: int) -> None:
        if not self.enabled:
            return
        with self._lock:
            self.done += n
            width = 30
            filled = int(width * self.done / self.total) if self.total else width
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
