"""The sweep's outputs: the docket digest (JSON and HTML), the DPW inspection
schedule, the reminders, the notices list and the ICS feeds, written into
one output folder.  An edge: Jinja and the disk live here.

The files are written from the sweep's :class:`~sweep.spool.ReportSpool`
as they are read from it, a list at a time, never the whole report in
memory.  :func:`build_digest` and :func:`build_schedule` give the same
content as dicts in memory (the golden-file tests read them; a test holds
the files byte for byte to their layout).  Nothing here reads the clock.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import jinja2

from notices.ics import FEED_END, feed_head, feed_name
from sweep.agenda import DUE_WITHIN_DAYS, SCHEDULE_DAYS
from sweep.run import SweepResult
from sweep.spool import CATEGORIES, ReportSpool, Rows

__all__ = ["build_digest", "build_schedule", "write_outputs", "write_report", "print_docket", "CATEGORIES", "json_layout"]

#: How many lines of each list the summary :func:`write_report` returns
#: holds (what ``print_docket`` prints); the files hold them all.
SUMMARY_ROWS = 8


def _town_name(town_id: str) -> str:
    from workflows.towns import registry

    profile = registry().get(town_id)
    return profile.name if profile else town_id


def build_digest(result: SweepResult) -> dict:
    """The docket per town and department, the failures, and the counts:
    every list in full, in memory (the report's files are written from
    the spool without it; the golden-file tests read this)."""
    return _digest(result.spool, Rows.materialize)


def build_schedule(result: SweepResult) -> dict:
    """The DPW inspection schedule, every town, in date order."""
    return _schedule(result.spool, Rows.materialize)


def _digest(spool: ReportSpool, take: Callable[[Rows], Any]) -> dict:
    """The digest's shape, each list of records given as ``take(rows)``:
    the records themselves, the spool's :class:`Rows` (written as they are
    read) or the first few (:class:`Head`)."""
    dockets = []
    for town, dept, open_filings, states in spool.groups():
        group = {
            "town": town,
            "town_name": _town_name(town),
            "department": dept,
            "open_filings": open_filings,
            "states": states,
        }
        for c in CATEGORIES:
            group[c] = take(spool.docket(town, dept, c))
        group["reminders"] = take(spool.group_reminders(town, dept))
        group["notices"] = take(spool.group_notices(town, dept))
        dockets.append(group)
    counts = spool.counts()
    return {
        "as_of": spool.as_of.isoformat(),
        "due_within_days": DUE_WITHIN_DAYS,
        "counts": {k: counts[k] for k in ("filings", "open", "closed", "failed", "overdue")},
        "dockets": dockets,
        "enforcement": take(spool.enforcement()),
        "failures": take(spool.failures()),
    }


def _schedule(spool: ReportSpool, take: Callable[[Rows], Any]) -> dict:
    return {"as_of": spool.as_of.isoformat(), "within_days": SCHEDULE_DAYS, "items": take(spool.schedule())}


@dataclass(frozen=True)
class Head:
    """The first records of a list, and how many the list has: ``len()``
    is the whole list's length, indexing and slicing reach the first ones."""

    rows: list
    size: int

    @classmethod
    def of(cls, rows: Rows, n: int = SUMMARY_ROWS) -> Head:
        return cls(rows.head(n), len(rows))

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index):
        return self.rows[index]


_ENV = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)

_DIGEST_HTML = _ENV.from_string("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Permit docket, {{ d.as_of }}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
.overdue,.violation{color:#a00;font-weight:bold}.late{color:#a60}</style></head><body>
<h1>Permit docket, {{ d.as_of }}</h1>
<p>{{ d.counts.open }} open filings of {{ d.counts.filings }}; {{ d.counts.overdue }} overdue clocks;
{{ d.counts.failed }} filings could not be read.</p>
{% for g in d.dockets %}
<h2>{{ g.town_name }}: {{ g.department }}</h2>
<p>{{ g.open_filings }} open filings.</p>
{% for cat in categories %}{% if g[cat] %}
<h3 class="{{ cat }}">{{ titles[cat] }} ({{ g[cat]|length }})</h3>
<table><tr><th>date</th><th>filing</th><th>state</th><th>clock</th><th>status</th><th>rule</th><th>how</th></tr>
{% for e in g[cat] %}<tr class="{{ cat }}"><td>{{ e["date"] }}</td><td>{{ e["filing"] }}</td><td>{{ e["state"] }}</td>
<td>{{ e["what"] }}</td><td>{{ e["status"] }}</td><td>{{ e["rule"] }}</td><td>{{ e["explanation"] }}</td></tr>
{% endfor %}</table>
{% endif %}{% endfor %}
{% if g.reminders %}<h3>Reminders ({{ g.reminders|length }})</h3><ul>
{% for r in g.reminders %}<li>{{ r["filing"] }}: {{ r["text"] }} ({{ r["rule"] }})</li>{% endfor %}</ul>{% endif %}
{% if g.notices %}<h3>Notices due ({{ g.notices|length }})</h3><ul>
{% for n in g.notices %}<li>{{ n["filing"] }}: {{ n["kind"] }}: {{ n["reason"] }}</li>{% endfor %}</ul>{% endif %}
{% endfor %}
{% if d.enforcement %}<h2>Enforcement cases ({{ d.enforcement|length }})</h2>
<table><tr><th>date</th><th>town</th><th>case</th><th>state</th><th>clock</th><th>status</th><th>rule</th><th>how</th></tr>
{% for e in d.enforcement %}<tr class="{{ e["category"] }}"><td>{{ e["date"] }}</td><td>{{ e["town"] }}</td><td>{{ e["filing"] }}</td><td>{{ e["state"] }}</td>
<td>{{ e["what"] }}</td><td>{{ e["status"] }}</td><td>{{ e["rule"] }}</td><td>{{ e["explanation"] }}</td></tr>
{% endfor %}</table>{% endif %}
{% if d.failures %}<h2 class="overdue">Filings that could not be swept ({{ d.failures|length }})</h2>
<table><tr><th>filing</th><th>town</th><th>department</th><th>kind</th><th>error</th></tr>
{% for f in d.failures %}<tr><td>{{ f.filing }}</td><td>{{ f.town }}</td><td>{{ f.department }}</td><td>{{ f.kind }}</td><td>{{ f.error }}</td></tr>
{% endfor %}</table>{% endif %}
</body></html>
""")

_SCHEDULE_HTML = _ENV.from_string("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>DPW inspection schedule from {{ s.as_of }}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left}.overdue{color:#a00;font-weight:bold}</style>
</head><body><h1>DPW inspection schedule, {{ s.as_of }} and the next {{ s.within_days }} days</h1>
<table><tr><th>date</th><th>town</th><th>filing</th><th>street</th><th>contractor</th><th>what</th><th>status</th><th>rule</th></tr>
{% for e in s["items"] %}<tr class="{{ e["status"] }}"><td>{{ e["date"] }}</td><td>{{ e["town"] }}</td><td>{{ e["filing"] }}</td>
<td>{{ e.get("street") or "" }}</td><td>{{ e.get("contractor") or "" }}</td><td>{{ e["what"] }}</td><td>{{ e["status"] }}</td><td>{{ e["rule"] }}</td></tr>
{% endfor %}</table></body></html>
""")

_TITLES = {
    "violation": "Violations on record",
    "overdue": "Overdue",
    "due": f"Due within {DUE_WITHIN_DAYS} days",
    "waiting": "No action before",
    "expiring": "Expiring soon",
    "late": "Met late",
}


def render_digest_html(digest: dict) -> str:
    return _DIGEST_HTML.render(d=digest, categories=CATEGORIES, titles=_TITLES)


def render_schedule_html(schedule: dict) -> str:
    return _SCHEDULE_HTML.render(s=schedule)


def _dump(path: Path, obj) -> None:
    """JSON with one record a line: dicts and lists that hold containers
    are laid out, a record of plain values is one line.  (``indent=`` makes
    json use its pure-Python encoder, which was a third of the report.)
    The spool's :class:`Rows` are written as they are read."""
    with path.open("w", encoding="utf-8") as fh:
        _write_layout(obj, "", fh.write)
        fh.write("\n")


def json_layout(obj, pad: str) -> str:
    """The layout of an object in memory: what :func:`_dump` writes."""
    inner = pad + " "
    if isinstance(obj, dict) and any(isinstance(v, (dict, list)) and v for v in obj.values()):
        body = ",\n".join(f"{inner}{json.dumps(str(k))}: {json_layout(v, inner)}" for k, v in obj.items())
        return "{\n" + body + "\n" + pad + "}"
    if isinstance(obj, list) and any(isinstance(v, (dict, list)) for v in obj):
        return "[\n" + ",\n".join(inner + json_layout(v, inner) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj, default=str)


def _write_layout(obj, pad: str, write: Callable[[str], Any]) -> None:
    """:func:`json_layout`, written piece by piece, the spool's rows read one
    at a time: a stored record is its one-line JSON unless it holds a
    container, which is laid out as :func:`json_layout` would."""
    inner = pad + " "
    if isinstance(obj, Rows):
        if not obj:
            write("[]")
            return
        sep = "[\n"
        for line in obj.lines():
            write(sep + inner + (line if "[" not in line and "{" not in line[1:] else json_layout(json.loads(line), inner)))
            sep = ",\n"
        write("\n" + pad + "]")
    elif isinstance(obj, dict) and any(isinstance(v, (dict, list, Rows)) and v for v in obj.values()):
        sep = "{\n"
        for k, v in obj.items():
            write(f"{sep}{inner}{json.dumps(str(k))}: ")
            _write_layout(v, inner, write)
            sep = ",\n"
        write("\n" + pad + "}")
    elif isinstance(obj, list) and any(isinstance(v, (dict, list)) for v in obj):
        sep = "[\n"
        for v in obj:
            write(sep + inner)
            _write_layout(v, inner, write)
            sep = ",\n"
        write("\n" + pad + "]")
    else:
        write(json_layout(obj, pad))


def _render(template: jinja2.Template, path: Path, **context) -> None:
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(template.generate(**context))


def write_feeds(spool: ReportSpool, folder: Path) -> list[Path]:
    """One ICS feed per town and department, each event's lines as the
    spool holds them, in (day, UID) order."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for town, dept in spool.feeds():
        name = feed_name(town, dept)
        path = folder / f"{name}.ics"
        with path.open("wb") as fh:
            fh.write(feed_head(name, spool.feed_timed(town, dept)))
            fh.writelines(spool.feed_blocks(town, dept))
            fh.write(FEED_END)
        paths.append(path)
    return paths


def write_report(result: SweepResult, out_dir: str | Path) -> dict:
    """Write every output and return ``{"counts", "digest", "paths"}``: the
    digest as a summary (every count, the first :data:`SUMMARY_ROWS` lines
    of each list, all the failures), the files hold it whole."""
    spool = result.spool
    paths = write_outputs(result, out_dir)
    summary = _digest(spool, Head.of)
    summary["failures"] = spool.failures().materialize()
    return {"counts": spool.counts(), "digest": summary, "paths": {k: str(v) for k, v in paths.items()}}


def write_outputs(result: SweepResult, out_dir: str | Path) -> dict[str, Path]:
    """Write every output of the sweep into ``out_dir``, streamed from the
    spool; returns them by name."""
    spool = result.spool
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "digest.json": out / "digest.json",
        "digest.html": out / "digest.html",
        "inspection-schedule.json": out / "inspection-schedule.json",
        "inspection-schedule.html": out / "inspection-schedule.html",
        "reminders.json": out / "reminders.json",
        "notices.json": out / "notices.json",
    }
    digest = _digest(spool, lambda rows: rows)
    _dump(paths["digest.json"], digest)
    _render(_DIGEST_HTML, paths["digest.html"], d=digest, categories=CATEGORIES, titles=_TITLES)
    schedule = _schedule(spool, lambda rows: rows)
    _dump(paths["inspection-schedule.json"], schedule)
    _render(_SCHEDULE_HTML, paths["inspection-schedule.html"], s=schedule)
    day = spool.as_of.isoformat()
    _dump(paths["reminders.json"], {"as_of": day, "reminders": spool.reminders()})
    _dump(paths["notices.json"], {"as_of": day, "notices": spool.notices()})
    for p in write_feeds(spool, out / "ics"):
        paths[f"ics/{p.name}"] = p
    return paths


def print_docket(digest: dict, out: TextIO, limit: int = 8) -> None:
    """The docket as text: per town and department, what is overdue and due."""
    c = digest["counts"]
    read = f" ({c['filings']} read, {c['closed']} closed)" if c["closed"] else ""
    print(
        f"Permit docket for {digest['as_of']}: {c['open']} open filings{read}, "
        f"{c['overdue']} overdue clocks, {c['failed']} unreadable",
        file=out,
    )
    failures: dict[tuple, list] = defaultdict(list)
    for f in digest["failures"]:
        failures[(f["town"], f["department"])].append(f)
    for g in digest["dockets"]:
        print(
            f"\n{g['town_name']} — {g['department']}: {g['open_filings']} open, "
            f"{len(g['overdue'])} overdue, {len(g['due'])} due within {digest['due_within_days']} days, "
            f"{len(g['reminders'])} reminders, {len(g['notices'])} notices due",
            file=out,
        )
        for cat in ("violation", "overdue", "due"):
            rows = g[cat]
            for e in rows[:limit]:
                print(f"  {cat:<8} {e['date']}  {e['filing']:<22} {e['what']:<30} {e['rule']}", file=out)
            if len(rows) > limit:
                print(f"  {cat:<8} ... and {len(rows) - limit} more (see the digest)", file=out)
        _print_failures(failures.pop((g["town"], g["department"]), []), out, limit)
    cases = digest.get("enforcement") or []
    if len(cases):
        print(f"\nEnforcement cases: {len(cases)} line(s) due, overdue or in violation", file=out)
        for e in cases[:limit]:
            print(f"  {e['category']:<8} {e['date']}  {e['filing']:<22} {e['what']:<30} {e['rule']}", file=out)
        if len(cases) > limit:
            print(f"  ... and {len(cases) - limit} more (see the digest)", file=out)
    for (town, department), rows in sorted(failures.items()):  # no open filing of theirs replayed
        print(f"\n{_town_name(town)} — {department}: {len(rows)} filings could not be swept", file=out)
        _print_failures(rows, out, limit)


def _print_failures(rows: list, out: TextIO, limit: int) -> None:
    """Under its own department: each filing that failed, and why."""
    for f in rows[:limit]:
        print(f"  FAILED   {f['filing']}: {f['error']}", file=out)
    if len(rows) > limit:
        print(f"  FAILED   ... and {len(rows) - limit} more (see the digest)", file=out)
