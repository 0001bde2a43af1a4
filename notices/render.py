"""Jinja2 environment, town template folders, and the three output formats.

Templates live in ``notices/templates/default/``; a town overrides any of
them by putting a file of the same name in ``notices/templates/<town>/`` (or
in ``<town_templates_dir>/<town>/``).  Rendering uses a ``StrictUndefined``
that names the missing filing field; HTML is autoescaped.

A town's templates (``notices/templates/<town>/`` and ``--templates DIR``)
are edited by town staff, so they render in Jinja's
``SandboxedEnvironment``: a template reaching for ``__globals__``,
``__class__``, ``mro`` or a method that mutates is refused at render time
with one line naming the template (TemplateProblem), where the ordinary
environment ran ``cycler.__init__.__globals__.os.popen(...)``; and within
bounds of output, loops and time (:mod:`notices.bounded`), where
``{{ "a" * 4000000000 }}`` took the machine's memory.  The default
templates (the project's own, reviewed code) keep the ordinary environment:
``benchmarks/bench_sandbox.py`` measures the difference.  Text is derived
from the same HTML, so a notice is one template.  WeasyPrint is imported
only when a PDF is asked for.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import jinja2

from .bounded import BoundedSandbox
from .context import Record
from .errors import TemplateProblem

__all__ = [
    "DEFAULT_DIR",
    "TEMPLATES_ROOT",
    "environment",
    "html_to_text",
    "html_to_pdf",
    "template_names",
    "FieldUndefined",
    "template_environment",
]

TEMPLATES_ROOT = Path(__file__).parent / "templates"
DEFAULT_DIR = TEMPLATES_ROOT / "default"


class FieldUndefined(jinja2.StrictUndefined):
    """StrictUndefined whose message names the filing field: ``field
    filing.applicant.name``, not ``'dict object' has no attribute``."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        obj = self._undefined_obj
        if isinstance(obj, Record):
            return f"field {obj._path}.{self._undefined_name}"
        return super()._undefined_message


def longdate(d) -> str:
    """Tuesday, December 15, 2026"""
    if isinstance(d, datetime):
        d = d.date()
    if not isinstance(d, date):
        raise TypeError(f"longdate: not a date: {d!r}")
    from workflows.written import day_written  # the one way a day is written, pages and notices alike

    return day_written(d)


def shortdate(d) -> str:
    """December 15, 2026"""
    if isinstance(d, datetime):
        d = d.date()
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def clocktime(t) -> str:
    """7:00 p.m."""
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'a.m.' if t.hour < 12 else 'p.m.'}"


_ISO = re.compile(r"\b(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::\d{2})?)?\b")


def explained(text, kind: str = "*") -> str:
    """A clock's explanation (the engine's account of how its date was
    counted) as a notice prints it: every event and clock id in its name
    (:func:`workflows.vocabulary.in_words`), every ISO day or moment as
    people write them (:mod:`workflows.written`)."""
    from workflows.vocabulary import in_words
    from workflows.written import day_written, moment_written

    def written(m) -> str:
        return moment_written(m.group(0)) if m.group(2) else day_written(m.group(1))

    return _ISO.sub(written, in_words(str(text or ""), kind))


def money(x) -> str:
    return f"${x:,.2f}"


def template_names() -> set[str]:
    return {p.name for p in DEFAULT_DIR.glob("*.j2")}


def _town_dir(town: str, root: Path | None) -> Path | None:
    base = Path(root) if root is not None else TEMPLATES_ROOT
    folder = base / town
    if not folder.is_dir():
        if root is not None and not base.is_dir():
            raise TemplateProblem(f"town template folder {base} does not exist")
        return None
    known = template_names()
    for p in sorted(folder.iterdir()):
        if p.name.startswith(".") or p.is_dir():
            continue
        if p.name not in known:
            raise TemplateProblem(
                f"unknown town template {folder.name}/{p.name}: it overrides no notice; known: {', '.join(sorted(known))}"
            )
    return folder


@lru_cache(maxsize=32)
def template_environment(town_dir: str | None, sandboxed: bool | None = None) -> jinja2.Environment:
    """The environment over ``town_dir`` then the defaults; sandboxed when
    there is a town folder (``sandboxed`` overrides, for the benchmark)."""
    paths = ([town_dir] if town_dir else []) + [str(DEFAULT_DIR)]
    if sandboxed is None:
        sandboxed = town_dir is not None
    env = (BoundedSandbox if sandboxed else jinja2.Environment)(
        loader=jinja2.FileSystemLoader(paths),
        undefined=FieldUndefined,
        autoescape=True,  # every template is HTML; text is derived from it
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(longdate=longdate, shortdate=shortdate, clocktime=clocktime, money=money)
    from workflows import vocabulary

    # the human names (workflows/vocabulary.py), for a template that prints an event, clock or state
    env.filters.update(
        event_name=lambda etype, kind="*": vocabulary.event_name(kind, etype),
        clock_name=vocabulary.clock_name,
        state_name=lambda state, kind="*": vocabulary.state_name(kind, str(state)),
        in_words=lambda text, kind="*": vocabulary.in_words(text, kind),
        explained=explained,
        value_name=vocabulary.value_name,
    )
    if isinstance(env, BoundedSandbox):
        env.bound_filters()
    return env


def environment(town: str, town_templates_dir: str | Path | None = None, *, checked_only: bool = True) -> jinja2.Environment:
    """The environment for one town: its own templates first, then the
    defaults.  Raises TemplateProblem for a file in the town's folder that
    overrides no known template, and for one of the installed folder
    (``notices/templates/<town>/``, used without ``town_templates_dir``)
    not checked as it is now (:mod:`notices.checked`)."""
    folder = _town_dir(town, Path(town_templates_dir) if town_templates_dir is not None else None)
    if folder is not None and town_templates_dir is None and checked_only:
        from .checked import require_checked

        require_checked(folder)
    return template_environment(str(folder) if folder else None)


# -- text ---------------------------------------------------------------------------

_BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "tr", "section", "header", "footer", "address", "table", "ul", "ol"}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "head"):
            self.skip += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag == "li":
            self.out.append("\n  - ")
        elif tag in ("td", "th"):
            self.out.append("  ")
        elif tag == "hr":
            self.out.append("\n" + "-" * 60 + "\n")
        elif tag in _BLOCKS:
            self.out.append("\n\n")
        if tag == "div" and ("class", "page") in attrs:
            self.out.append("\f")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head"):
            self.skip -= 1
        elif tag in _BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(re.sub(r"\s+", " ", data))


def html_to_text(markup: str) -> str:
    """Plain text of a notice: paragraphs separated by a blank line, list
    items as dashes, a form feed between pages.  Entities are unescaped."""
    parser = _Text()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.out)
    lines = [ln.strip() if not ln.startswith("  - ") else ln.rstrip() for ln in text.split("\n")]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return text + "\n"


def html_to_pdf(markup: str) -> bytes:
    import weasyprint  # heavy: only when a PDF is asked for

    return weasyprint.HTML(string=markup, base_url=str(DEFAULT_DIR)).write_pdf()
