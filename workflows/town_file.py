"""A town as a data file: its facts in TOML, read into the same typed
:class:`~workflows.rulebook.TownProfile` the engine uses, every problem
named by its key path.

TOML, not YAML: Python reads it without a dependency (``tomllib``), it has
dates, and it has no implicit types ("no" is not false, 010 is not 8), so
a town clerk's typing means what it says.

What a file declares (``docs/guide/a-new-town.md`` walks through one):

- ``id``, ``name``, ``county``, ``code`` (the letters of its record ids),
  ``saturday_closure`` (the town meeting's vote under M.G.L. c.41 §110A);
- ``[permits.noi]``, ``[permits.rda]``: ``follows = "state"`` (the Act's
  clocks, M.G.L. c.131 §40 and 310 CMR 10.05, :mod:`workflows.towns.wpa`)
  and ``bylaw``, what the filing is heard under, cited.  A town whose by-law
  sets its own clocks declares them in a module of ``workflows/towns/``
  (a change of law, reviewed as code);
- ``[offices.<department>]``: the letterhead, the signer and the members,
  the meeting place and the newspaper (:class:`~workflows.offices.Office`);
- ``[clerk]``, ``[court]``: where a ticket is paid and answered;
- ``[fines.<bylaw>]``: a fine schedule (:class:`~workflows.fines.FineSchedule`),
  an amount the town's copy lost written ``"lost"``;
- ``[closures]``: a day the town's offices close, with why.

Pure: :func:`read_town` takes the file's text and its name (for the
messages) and reads nothing else.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from datetime import date

from .errors import PermitsError

__all__ = ["TownFileError", "read_town", "town_problems", "new_town", "town_id_of", "FOLLOWS", "KNOWN_KEYS", "MAX_BYTES"]

#: what ``follows`` may name: the rule books a data file's permit kind adopts
FOLLOWS = ("state",)
#: the keys a town file may hold at its top level
KNOWN_KEYS = ("id", "name", "county", "code", "saturday_closure", "permits", "offices", "clerk", "court", "fines", "closures")
_OFFICE_KEYS = (
    "name",
    "address",
    "signer",
    "signer_name",
    "telephone",
    "hours",
    "hours_citation",
    "meeting_place",
    "newspaper",
    "boards",
    "boards_citation",
    "members",
    "demonstration",
)
_PLACE_KEYS = ("name", "address", "telephone", "hours", "citation", "demonstration")
_FINE_KEYS = (
    "bylaw",
    "citation",
    "offenses",
    "amounts",
    "ceiling",
    "agents",
    "lost",
    "order_rule",
    "each_day",
    "each_provision",
    "window_months",
    "no_tickets",
    "up_to",
)
#: a town file is a page of facts, not a database
MAX_BYTES = 256 * 1024


class TownFileError(PermitsError):
    """A town file that cannot be read as a town: one line per problem,
    each naming the file, the key path and the rule broken."""

    def __init__(self, source: str, problems: list[str]):
        self.source, self.problems = source, problems
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


def town_problems(text: str, source: str) -> list[str]:
    """Every problem of the town file ``text`` (named ``source``), one line
    each (``key.path: what is wrong (the rule)``); [] when it reads."""
    try:
        read_town(text, source)
    except TownFileError as exc:
        return exc.problems
    return []


def read_town(text: str, source: str):
    """The :class:`~workflows.rulebook.TownProfile` the town file ``text``
    declares; TownFileError naming every problem found."""
    from .rulebook import TownProfile

    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise TownFileError(source, [f"the file is over {MAX_BYTES // 1024} KB: a town file is a page of facts"])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TownFileError(source, [f"not TOML: {exc}"]) from None
    r = _Reader()
    for key in sorted(set(data) - set(KNOWN_KEYS)):
        r.problem(key, f"unknown key; a town file has {', '.join(KNOWN_KEYS)}")
    town_id = r.text(data, "id", required=True)
    if town_id and (not town_id.replace("-", "").isalnum() or town_id != town_id.lower()):
        r.problem("id", "lower-case letters, digits and dashes (the town's name: 'manchester-by-the-sea')")
    name = r.text(data, "name", required=True)
    county = r.text(data, "county", required=True)
    code = r.text(data, "code")
    if code and (not code.isalpha() or not code.isupper() or not 2 <= len(code) <= 4):
        r.problem("code", "two to four capital letters (the letters of the town's record ids: MBS-NOI-2026-000001)")
    permits = _permits(r, data.get("permits"), town_id or "?")
    offices = {d: o for d, o in _tables(r, data, "offices", _office).items()}
    clerk = _place(r, data["clerk"], "clerk") if "clerk" in data else None
    court = _place(r, data["court"], "court") if "court" in data else None
    fines = _tables(r, data, "fines", _fines)
    closures = _closures(r, data.get("closures", {}))
    if r.problems:
        raise TownFileError(source, r.problems)
    try:
        return TownProfile(
            id=town_id,
            name=name,
            county=county,
            code=code,
            permits=permits,
            offices=offices,
            clerk=clerk,
            court=court,
            fines=fines,
            closures=closures,
            saturday_closure=r.text(data, "saturday_closure"),
        )
    except PermitsError as exc:  # the rule book's own checks, said once
        raise TownFileError(source, [str(exc)]) from None


class _Reader:
    def __init__(self):
        self.problems: list[str] = []

    def problem(self, path: str, what: str) -> None:
        self.problems.append(f"{path}: {what}")

    def text(self, table: dict, key: str, path: str = "", *, required: bool = False) -> str:
        where = f"{path}.{key}" if path else key
        value = table.get(key, "")
        if not isinstance(value, str):
            self.problem(where, f"text in quotes, not {type(value).__name__}")
            return ""
        if any(ord(ch) < 32 and ch not in "\t" for ch in value):
            self.problem(where, "one line, with no control characters")
            return ""
        if required and not value.strip():
            self.problem(where, "required, and empty" if key in table else "required, and missing")
        return value.strip()

    def texts(self, table: dict, key: str, path: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(f"{path}.{key}", "a list of texts in quotes")
            return ()
        return tuple(v.strip() for v in value)

    def unknown(self, table: dict, known, path: str) -> None:
        for key in sorted(set(table) - set(known)):
            self.problem(f"{path}.{key}", f"unknown key; known: {', '.join(known)}")


def _tables(r: _Reader, data: dict, key: str, read) -> dict:
    tables = data.get(key, {})
    if not isinstance(tables, dict):
        r.problem(key, "a table of tables ([" + key + ".<name>])")
        return {}
    out = {}
    for name, table in tables.items():
        if not isinstance(table, dict):
            r.problem(f"{key}.{name}", "a table")
            continue
        got = read(r, table, f"{key}.{name}", name)
        if got is not None:
            out[name] = got
    return out


def _permits(r: _Reader, permits, town_id: str) -> dict:
    from .rulebook import KINDS
    from .towns import wpa

    state = {"noi": wpa.NOI, "rda": wpa.RDA}
    if not isinstance(permits, dict) or not permits:
        r.problem("permits", 'the permit kinds the town runs, each a table ([permits.noi] follows = "state")')
        return {}
    out = {}
    for kind, table in permits.items():
        path = f"permits.{kind}"
        if kind not in KINDS:
            r.problem(path, f"unknown permit kind; known: {', '.join(KINDS)}")
            continue
        if not isinstance(table, dict):
            r.problem(path, "a table")
            continue
        r.unknown(table, ("follows", "bylaw"), path)
        follows = r.text(table, "follows", path, required=True)
        if follows and follows not in FOLLOWS:
            r.problem(f"{path}.follows", f"one of {', '.join(FOLLOWS)}; a by-law's own clocks are a module of workflows/towns/")
            continue
        if follows and kind not in state:
            r.problem(path, f"the state's rules run {', '.join(state)} only (M.G.L. c.131 §40)")
            continue
        bylaw = r.text(table, "bylaw", path) or state.get(kind, wpa.NOI).bylaw
        if not any(ch.isdigit() for ch in bylaw):
            r.problem(f"{path}.bylaw", "a citation with its section (a number): what the filing is heard under")
        if follows:
            out[kind] = replace(state[kind], bylaw=bylaw)
    return out


def _office(r: _Reader, table: dict, path: str, department: str):
    from .departments import DEPARTMENTS
    from .offices import Office, Signer

    if department not in set(DEPARTMENTS.values()):
        r.problem(path, f"unknown department; known: {', '.join(sorted(set(DEPARTMENTS.values())))}")
        return None
    r.unknown(table, _OFFICE_KEYS, path)
    members = []
    for i, m in enumerate(table.get("members", [])):
        if not isinstance(m, dict) or set(m) != {"name", "title"}:
            r.problem(f"{path}.members[{i}]", 'a member is { name = "...", title = "..." }')
            continue
        members.append(Signer(r.text(m, "name", f"{path}.members[{i}]"), r.text(m, "title", f"{path}.members[{i}]")))
    return Office(
        name=r.text(table, "name", path, required=True),
        address=r.text(table, "address", path, required=True),
        signer=r.text(table, "signer", path, required=True),
        signer_name=r.text(table, "signer_name", path),
        telephone=r.text(table, "telephone", path),
        hours=r.text(table, "hours", path),
        hours_citation=r.text(table, "hours_citation", path),
        meeting_place=r.text(table, "meeting_place", path),
        newspaper=r.text(table, "newspaper", path),
        boards=r.texts(table, "boards", path),
        boards_citation=r.text(table, "boards_citation", path),
        members=tuple(members),
        demonstration=r.texts(table, "demonstration", path),
    )


def _place(r: _Reader, table, path: str):
    from .offices import Place

    if not isinstance(table, dict):
        r.problem(path, "a table")
        return None
    r.unknown(table, _PLACE_KEYS, path)
    return Place(
        name=r.text(table, "name", path, required=True),
        address=r.text(table, "address", path, required=True),
        telephone=r.text(table, "telephone", path),
        hours=r.text(table, "hours", path),
        citation=r.text(table, "citation", path),
        demonstration=r.texts(table, "demonstration", path),
    )


def _fines(r: _Reader, table: dict, path: str, bylaw_id: str):
    from .fines import FineSchedule

    r.unknown(table, _FINE_KEYS, path)
    amounts: list[int | None] = []
    for i, a in enumerate(table.get("amounts", [])):
        if a == "lost":
            amounts.append(None)
        elif isinstance(a, int) and not isinstance(a, bool) and 0 <= a <= 100_000:
            amounts.append(a)
        else:
            r.problem(f"{path}.amounts[{i}]", 'whole dollars from 0 to 100000, or "lost" where the by-law\'s copy lost it')
    ceiling = table.get("ceiling", 0)
    if not isinstance(ceiling, int) or isinstance(ceiling, bool) or not 1 <= ceiling <= 100_000:
        r.problem(f"{path}.ceiling", "the most the by-law allows, whole dollars from 1 to 100000 (M.G.L. c.40 §21D: $300)")
        ceiling = 1
    window = table.get("window_months")
    if window is not None and (not isinstance(window, int) or not 1 <= window <= 120):
        r.problem(f"{path}.window_months", "months from 1 to 120, or left out where the by-law sets no period")
        window = None
    schedule = FineSchedule(
        id=bylaw_id,
        bylaw=r.text(table, "bylaw", path, required=True),
        citation=r.text(table, "citation", path, required=True),
        amounts=tuple(amounts),
        ceiling=ceiling,
        offenses=r.text(table, "offenses", path),
        each_day=r.text(table, "each_day", path),
        each_provision=r.text(table, "each_provision", path),
        window_months=window,
        agents=r.texts(table, "agents", path),
        lost=r.text(table, "lost", path),
        order_rule=r.text(table, "order_rule", path),
        no_tickets=r.text(table, "no_tickets", path),
        up_to=r.text(table, "up_to", path),
    )
    try:
        schedule.check("?")
    except PermitsError as exc:
        r.problem(path, str(exc).split(": ", 2)[-1])
    return schedule


def _closures(r: _Reader, table) -> dict:
    if not isinstance(table, dict):
        r.problem("closures", 'a table of days: 2026-12-24 = "the Select Board\'s vote of ..."')
        return {}
    out = {}
    for key, reason in table.items():
        try:
            day = date.fromisoformat(str(key))
        except ValueError:
            r.problem(f"closures.{key}", "a day written 2026-12-24")
            continue
        if not isinstance(reason, str) or not reason.strip():
            r.problem(f"closures.{key}", "why the offices close that day, cited")
            continue
        out[day] = reason.strip()
    return out


def town_id_of(name: str) -> str:
    """A town's id from its name: "Manchester-by-the-Sea" is
    ``manchester-by-the-sea``, "West Springfield" ``west-springfield``."""
    words = "".join(ch.lower() if ch.isalnum() else " " for ch in name).split()
    return "-".join(words)


def new_town(name: str, county: str, code: str = "") -> str:
    """The text of a new town file for ``name``: the state's rules alone
    (M.G.L. c.131 §40, 310 CMR 10.05), with every choice a by-law may make
    asked as a commented question, and demonstration values marked as such
    for the office's facts the town replaces."""
    town_id = town_id_of(name)
    code = code or town_id.replace("-", "")[:3].upper()
    q = '"'
    return f"""# {name}: a town file (docs/guide/a-new-town.md).  It starts as the
# state's rules alone: the Wetlands Protection Act, M.G.L. c.131 §40, and
# 310 CMR 10.05.  Answer each question below from the town's by-laws; check
# the file with `permits towns check FILE` after each change.

id = {q}{town_id}{q}
name = {q}{name}{q}
# The letters of the town's record ids ({code}-NOI-2026-000001): two to four capitals.
code = {q}{code}{q}
county = {q}{county}{q}
# Does the town meeting close the offices on Saturdays (M.G.L. c.41 §110A)?
# If so, cite the vote; a by-law's last day then moves off a Saturday too (c.4 §9).
# saturday_closure = "Town Meeting vote of May 2, 1994, Art. 12 (M.G.L. c.41 §110A)"

# Does the town have a wetlands by-law of its own?  If it sets its own hearing
# period, decision period, filing rules or fees, those are clocks of its own:
# a module in workflows/towns/ (docs/engineering/how-to.md, "Add a town").
# If not, or until then, its filings follow the state:
[permits.noi]
follows = "state"
bylaw = "M.G.L. c.131 §40; 310 CMR 10.05"

[permits.rda]
follows = "state"
bylaw = "M.G.L. c.131 §40; 310 CMR 10.05(3)"

# Who signs the Commission's letters, and where is it?  Every value below is
# a demonstration value until the town gives its own: remove a fact's name
# from `demonstration` once it is the town's.
[offices.conservation]
name = "Conservation Commission"
address = "Town Hall, {name}, MA"
telephone = "(000) 555-0100"
hours = "Monday to Friday, 9:00 a.m. to 4:00 p.m."
signer = "Conservation Agent"
signer_name = ""
# The members who sign its decisions (WPA Forms 2, 5 and 8B: a majority):
# members = [{{ name = "...", title = "Chair" }}, {{ name = "...", title = "Member" }}]
meeting_place = "Town Hall, {name}"
# Where do its legal notices run (M.G.L. c.131 §40: a newspaper of general circulation)?
newspaper = "the local newspaper"
demonstration = ["address", "telephone", "hours", "meeting_place", "newspaper"]

# Does a by-law enforce the wetlands rules by tickets (non-criminal
# disposition, M.G.L. c.40 §21D)?  Then give its fine schedule, the Town
# Clerk's office where a fine is paid, and the District Court:
# [fines.wetlands]
# bylaw = "{name} Wetlands By-law"
# citation = "{name} General By-laws Art. ..., §..."
# amounts = [100, 200, 300]     # first, second, third and later offenses; "lost" where the copy lost one
# ceiling = 300
# order_rule = "310 CMR 10.08"
# each_day = "each day a violation continues is a separate offense (cite the section)"
# [clerk]
# name = "Town Clerk"
# address = "..."
# [court]
# name = "... District Court"
# address = "..."

# Does the town close its offices on days besides the legal holidays?
# [closures]
# 2026-12-24 = "Christmas Eve, by the Select Board's vote of ..."
"""
