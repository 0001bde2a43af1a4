"""The sweep's outputs: the docket digest (JSON and HTML), the DPW inspection
schedule, the reminders, the notices list and the ICS feeds, written into
one output folder.  An edge: Jinja and the disk live here.

:func:`build_digest` and :func:`build_schedule` are pure (a
:class:`~sweep.run.SweepResult` in, JSON-ready dicts out) and give
the same dicts for the same store and ``as_of``: the golden-file tests read
them.  Nothing here reads the clock.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import TextIO

import jinja2

from sweep.agenda import DUE_WITHIN_DAYS, SCHEDULE_DAYS
from sweep.ics import build_feed, feed_name
from sweep.run import SweepResult

__all__ = ["build_digest", "build_schedule", "write_outputs", "write_report", "print_docket", "CATEGORIES"]

CATEGORIES = ("overdue", "due", "waiting", "expiring", "late")
_ORDER = {c: i for i, c in enumerate(CATEGORIES)}


def _town_name(town_id: str) -> str:
    from workflows.towns import registry

    profile = registry().get(town_id)
    return profile.name if profile else town_id


def build_digest(result: SweepResult) -> dict:
    """The docket per town and department, the failures, and the counts."""
    groups: dict[tuple[str, str], dict] = {}

    def group(town, dept):
        key = (town, dept)
        if key not in groups:
            groups[key] = {
                "town": town,
                "town_name": _town_name(town),
                "department": dept,
                "open_filings": 0,
                "states": Counter(),
                **{c: [] for c in CATEGORIES},
                "reminders": [],
                "notices": [],
            }
        return groups[key]

    failures = []
    for o in result.outcomes:
        if o.error:
            failures.append({"filing": o.filing, "town": o.town, "kind": o.kind, "department": o.department, "error": o.error})
            continue
        if not o.open:
            continue
        g = group(o.town, o.department)
        g["open_filings"] += 1
        g["states"][f"{o.kind}: {o.state}"] += 1
        for e in o.docket:
            g[e.category].append(e.as_dict())
        g["reminders"].extend({k: v for k, v in r.items() if k != "new"} for r in o.reminders)
        g["notices"].extend({k: v for k, v in n.items() if k not in ("status", "files")} for n in o.notices)
    dockets = []
    for key in sorted(groups):
        g = groups[key]
        g["states"] = dict(sorted(g["states"].items()))
        for c in CATEGORIES:
            g[c].sort(key=lambda e: (e["date"], e["filing"], e["what"]))
        g["reminders"].sort(key=lambda r: (r["date"], r["filing"], r["key"]))
        g["notices"].sort(key=lambda n: (n["filing"], n["key"]))
        dockets.append(g)
    counts = result.counts()
    stable = {k: counts[k] for k in ("filings", "open", "closed", "failed", "overdue")}
    return {
        "as_of": result.as_of.isoformat(),
        "due_within_days": DUE_WITHIN_DAYS,
        "counts": stable,
        "dockets": dockets,
        "failures": sorted(failures, key=lambda f: f["filing"]),
    }


def build_schedule(result: SweepResult) -> dict:
    """The DPW inspection schedule, every town, in date order."""
    items = [
        {**e.as_dict(), "street": o.street, "contractor": o.contractor}
        for o in result.outcomes
        if not o.error and o.open
        for e in o.schedule
    ]
    items.sort(key=lambda e: (e["date"], e["town"], e["filing"], e["what"]))
    return {"as_of": result.as_of.isoformat(), "within_days": SCHEDULE_DAYS, "items": items}


_ENV = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)

_DIGEST_HTML = _ENV.from_string("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Permit docket, {{ d.as_of }}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}
.overdue{color:#a00;font-weight:bold}.late{color:#a60}</style></head><body>
<h1>Permit docket, {{ d.as_of }}</h1>
<p>{{ d.counts.open }} open filings of {{ d.counts.filings }}; {{ d.counts.overdue }} overdue clocks;
{{ d.counts.failed }} filings could not be read.</p>
{% for g in d.dockets %}
<h2>{{ g.town_name }}: {{ g.department }}</h2>
<p>{{ g.open_filings }} open filings.</p>
{% for cat in categories %}{% if g[cat] %}
<h3 class="{{ cat }}">{{ titles[cat] }} ({{ g[cat]|length }})</h3>
<table><tr><th>date</th><th>filing</th><th>state</th><th>clock</th><th>status</th><th>rule</th><th>how</th></tr>
{% for e in g[cat] %}<tr class="{{ cat }}"><td>{{ e.date }}</td><td>{{ e.filing }}</td><td>{{ e.state }}</td>
<td>{{ e.what }}</td><td>{{ e.status }}</td><td>{{ e.rule }}</td><td>{{ e.explanation }}</td></tr>
{% endfor %}</table>
{% endif %}{% endfor %}
{% if g.reminders %}<h3>Reminders ({{ g.reminders|length }})</h3><ul>
{% for r in g.reminders %}<li>{{ r.filing }}: {{ r.text }} ({{ r.rule }})</li>{% endfor %}</ul>{% endif %}
{% if g.notices %}<h3>Notices due ({{ g.notices|length }})</h3><ul>
{% for n in g.notices %}<li>{{ n.filing }}: {{ n.kind }}: {{ n.reason }}</li>{% endfor %}</ul>{% endif %}
{% endfor %}
{% if d.failures %}<h2 class="overdue">Filings that could not be swept ({{ d.failures|length }})</h2>
<table><tr><th>filing</th><th>town</th><th>kind</th><th>error</th></tr>
{% for f in d.failures %}<tr><td>{{ f.filing }}</td><td>{{ f.town }}</td><td>{{ f.kind }}</td><td>{{ f.error }}</td></tr>
{% endfor %}</table>{% endif %}
</body></html>
""")

_SCHEDULE_HTML = _ENV.from_string("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>DPW inspection schedule from {{ s.as_of }}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left}.overdue{color:#a00;font-weight:bold}</style>
</head><body><h1>DPW inspection schedule, {{ s.as_of }} and the next {{ s.within_days }} days</h1>
<table><tr><th>date</th><th>town</th><th>filing</th><th>street</th><th>contractor</th><th>what</th><th>status</th><th>rule</th></tr>
{% for e in s["items"] %}<tr class="{{ e.status }}"><td>{{ e.date }}</td><td>{{ e.town }}</td><td>{{ e.filing }}</td>
<td>{{ e.street or "" }}</td><td>{{ e.contractor or "" }}</td><td>{{ e.what }}</td><td>{{ e.status }}</td><td>{{ e.rule }}</td></tr>
{% endfor %}</table></body></html>
""")

_TITLES = {
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
    path.write_text(json.dumps(obj, indent=1, sort_keys=False, default=str) + "\n", encoding="utf-8")


def write_feeds(result: SweepResult, folder: Path, town: str | None = None, department: str | None = None) -> list[Path]:
    """One ICS feed per town and department (or the one asked for)."""
    folder.mkdir(parents=True, exist_ok=True)
    buckets = defaultdict(list)
    for o in result.outcomes:
        if o.error or not o.open:
            continue
        for item in o.calendar:
            if (town is None or item.town == town) and (department is None or item.department == department):
                buckets[(item.town, item.department)].append(item)
    paths = []
    for (t, d), items in sorted(buckets.items()):
        path = folder / f"{feed_name(t, d)}.ics"
        path.write_bytes(build_feed(items, result.as_of, feed_name(t, d)))
        paths.append(path)
    return paths


def write_report(result: SweepResult, out_dir: str | Path) -> dict:
    """Write every output and return ``{"counts", "digest", "paths"}``, the
    digest built once (at 100,000 filings it is the biggest thing made)."""
    digest = build_digest(result)
    paths = write_outputs(result, out_dir, digest)
    return {"counts": result.counts(), "digest": digest, "paths": {k: str(v) for k, v in paths.items()}}


def write_outputs(result: SweepResult, out_dir: str | Path, digest: dict | None = None) -> dict[str, Path]:
    """Write every output of the sweep into ``out_dir``; returns them by name."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    digest = digest if digest is not None else build_digest(result)
    schedule = build_schedule(result)
    paths = {
        "digest.json": out / "digest.json",
        "digest.html": out / "digest.html",
        "inspection-schedule.json": out / "inspection-schedule.json",
        "inspection-schedule.html": out / "inspection-schedule.html",
        "reminders.json": out / "reminders.json",
        "notices.json": out / "notices.json",
    }
    _dump(paths["digest.json"], digest)
    paths["digest.html"].write_text(render_digest_html(digest), encoding="utf-8")
    _dump(paths["inspection-schedule.json"], schedule)
    paths["inspection-schedule.html"].write_text(render_schedule_html(schedule), encoding="utf-8")
    reminders = sorted(
        (r for o in result.outcomes if not o.error for r in o.reminders), key=lambda r: (r["date"], r["filing"], r["key"])
    )
    _dump(
        paths["reminders.json"],
        {"as_of": result.as_of.isoformat(), "reminders": [{k: v for k, v in r.items() if k != "new"} for r in reminders]},
    )
    notices = sorted((n for o in result.outcomes if not o.error for n in o.notices), key=lambda n: (n["filing"], n["key"]))
    _dump(
        paths["notices.json"],
        {
            "as_of": result.as_of.isoformat(),
            "notices": [{k: v for k, v in n.items() if k not in ("status", "files")} for n in notices],
        },
    )
    for p in write_feeds(result, out / "ics"):
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
    for g in digest["dockets"]:
        print(
            f"\n{g['town_name']} — {g['department']}: {g['open_filings']} open, "
            f"{len(g['overdue'])} overdue, {len(g['due'])} due within {digest['due_within_days']} days, "
            f"{len(g['reminders'])} reminders, {len(g['notices'])} notices due",
            file=out,
        )
        for cat in ("overdue", "due"):
            rows = g[cat]
            for e in rows[:limit]:
                print(f"  {cat:<8} {e['date']}  {e['filing']:<22} {e['what']:<30} {e['rule']}", file=out)
            if len(rows) > limit:
                print(f"  {cat:<8} ... and {len(rows) - limit} more (see the digest)", file=out)
    for f in digest["failures"][:limit]:
        print(f"  FAILED   {f['filing']}: {f['error']}", file=out)
    if len(digest["failures"]) > limit:
        print(f"  FAILED   ... and {len(digest['failures']) - limit} more (see the digest)", file=out)
