"""A refusal as the web says it: one sentence in people's words that names
what to do, whatever refused (the machine's guards, the store, a notice,
the fee).  The command line prints the project's errors as they are, with
their ids, flags and event numbers, for those who script it; a page says
"An Order of Conditions cannot be recorded while the filing is Hearing
open: …", never ``permit-issued`` or ``(event 4)`` or ``--abutters FILE``.

:func:`refusal` is the one way a route turns a
:class:`~workflows.errors.PermitsError` into the line it shows (a test reads
the web's sources for a route that shows the exception as it is): event and clock ids become their
names (:func:`workflows.vocabulary.in_words`), ISO days and moments are
written as people write them (:mod:`workflows.written`), a command line's
flag is replaced by what to do on the page.
"""

from __future__ import annotations

import re

from calendars.errors import PermitsError

__all__ = ["refusal", "in_peoples_words"]

_ISO = re.compile(r"\b(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2})?)?\b")
#: a parenthesis or clause pointing at the command line, and what the page says instead
_CLI_HINTS = (
    (re.compile(r"\s*\(give it with --abutters FILE\)"), ": upload the assessors' abutter list under Abutters first"),
    (re.compile(r"\s*\(see 'permits [^']*'\)"), ""),
    (re.compile(r"\s*\(see docs/reference/[^)]*\)"), ""),
)
#: a field named by its id ("field 'conditions'"): said by its label
_FIELD = re.compile(r"\bfield '([a-z_]+)'")
_QUOTED_ID = re.compile(r"'([a-z]+(?:-[a-z]+)*)'")


def _written(m) -> str:
    from workflows.written import day_written, moment_written

    return moment_written(m.group(0)) if m.group(2) else day_written(m.group(1))


def in_peoples_words(text: str, kind: str = "*") -> str:
    """``text`` with ids named, days written, command-line hints turned into
    what to do on the page, as one sentence ending with a full stop."""
    from workflows.vocabulary import in_words

    for pattern, instead in _CLI_HINTS:
        text = pattern.sub(instead, text)
    text = _FIELD.sub(lambda m: f"“{_field(m.group(1))}”", text)
    text = _QUOTED_ID.sub(lambda m: _state_or_id(m.group(1), kind), text)
    text = _ISO.sub(_written, in_words(text, kind))
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return "Nothing was recorded."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def _field(name: str) -> str:
    from workflows.vocabulary import field_name

    return field_name(name)


def _state_or_id(key: str, kind: str) -> str:
    from workflows.vocabulary import STATE_NAMES, in_words, state_name

    if any(k == key for _, k in STATE_NAMES):
        return state_name(kind, key)
    return in_words(key, kind)


def _entries(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def refusal(exc: PermitsError, kind: str = "*") -> str:
    """The sentence a page shows for ``exc``, a refusal of the filing of
    permit ``kind`` (nothing was written)."""
    from models.errors import DuplicateFiling, EventFromTheFuture, StaleFiling, UnknownFiling
    from notices.errors import MissingField, NoticeRefused
    from workflows.errors import FilingError, TransitionRefused
    from workflows.meetings import UnnoticedSession
    from workflows.vocabulary import event_name, state_name
    from workflows.written import day_written

    if isinstance(exc, TransitionRefused) and exc.rule is None and exc.state and exc.event:
        what, where = event_name(kind, exc.event), state_name(kind, exc.state)
        return (
            f"“{what}” cannot be recorded while the filing is {where}: choose what happened from the menu, "
            f"which lists only what fits the filing now."
        )
    if isinstance(exc, FilingError):
        what = f"“{event_name(kind, exc.event)}” was not recorded: " if exc.event else "Nothing was recorded: "
        return in_peoples_words(what + exc.reason, kind)
    if isinstance(exc, EventFromTheFuture):
        return (
            f"“{event_name(kind, exc.event)}” dated {day_written(exc.day)} has not happened yet (today is "
            f"{day_written(exc.today)}): record it once it has; a hearing to come is recorded as "
            f"“{event_name(kind, 'hearing-scheduled')}”, with its date."
        )
    if isinstance(exc, UnnoticedSession):
        noticed = ", ".join(day_written(d) for d in exc.sessions) or "none"
        return (
            f"No session of the hearing was noticed for {day_written(exc.day)} (noticed: {noticed}): a hearing opens "
            f"at a noticed session (M.G.L. c.30A §20(b)); tick the confirmation to record it anyway."
        )
    if isinstance(exc, StaleFiling) and exc.seen is not None:
        return (
            f"{exc.filing} changed since you opened it (it had {_entries(exc.seen)}, it now has {exc.now}), so nothing "
            f"was written: read the new history and try again."
        )
    if isinstance(exc, DuplicateFiling):
        return f"A filing numbered {exc.filing} is already recorded, so nothing was written: give this one another number."
    if isinstance(exc, UnknownFiling):
        return f"No filing numbered {exc.filing} is recorded: check the number on the Filings list."
    if isinstance(exc, MissingField):
        from notices.kinds import NOTICE_KINDS

        title = NOTICE_KINDS[exc.notice].title if exc.notice in NOTICE_KINDS else "The notice"
        if "abutter list" in exc.name:
            return f"{title} needs {exc.name}: upload the assessors' abutter list under Abutters first."
        return f"{title} needs {exc.name}, which the filing does not give: add it to the filing's record first."
    if isinstance(exc, NoticeRefused):
        from notices.kinds import NOTICE_KINDS

        title = NOTICE_KINDS[exc.notice].title if exc.notice in NOTICE_KINDS else "The notice"
        why = str(exc).split(": ", 2)[-1]
        for nid, known in NOTICE_KINDS.items():  # a notice's id is its title
            why = re.sub(rf"(?<![\w-])(?:an? )?{re.escape(nid)}(?![\w-])", known.title, why)
        return in_peoples_words(f"{title} does not fit the filing now: {why}", kind)
    return in_peoples_words(str(exc), kind)
