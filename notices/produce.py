"""Produce a notice from a filing and its replay.

:func:`produce` is pure apart from reading the templates: it checks that the
notice fits the filing (:func:`refusal`: its kind, its town, its state, the
events it needs), renders every copy in memory and returns them; nothing is
written.  Writing the files and recording the sending is the notice log's
(:meth:`notices.log.NoticeLog.deliver`), which :mod:`services.notices` calls.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import jinja2
from jinja2.exceptions import SecurityError

from workflows.ids import safe_child
from workflows.towns import town

from .abutters import certified_mail_csv
from .bounded import TemplateLimit
from .context import Party, Record, build_context, parties_differ, party_from_record
from .errors import MissingField, NoticeRefused, TemplateProblem
from .kinds import NoticeKind, notice_kind
from .render import environment, html_to_pdf, html_to_text

__all__ = ["RenderedNotice", "produce", "refusal", "FORMATS", "recipients_for", "render_page", "merged_pdf"]

FORMATS = ("pdf", "html", "txt")
_MEDIA = {"pdf": "application/pdf", "html": "text/html", "txt": "text/plain", "csv": "text/csv"}


@dataclass(frozen=True)
class RenderedNotice:
    """One output file: ``content`` is ``str`` for html/txt/csv, ``bytes``
    for pdf.  ``recipients`` are the keys the notice log records."""

    kind: str
    filename: str
    fmt: str
    content: str | bytes
    recipients: tuple[str, ...] = ()

    @property
    def media_type(self) -> str:
        return _MEDIA[self.fmt]

    def write(self, folder) -> Path:
        """Write the file into ``folder`` (made if need be); its path.  The
        name is checked to stay inside ``folder`` (workflows.ids.safe_child)."""
        path = safe_child(folder, self.filename)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(self.content, bytes):
            path.write_bytes(self.content)
        else:
            path.write_text(self.content, encoding="utf-8")
        return path


def _slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "x"


def refusal(filing, replay, kind: NoticeKind, profile) -> NoticeRefused | None:
    """Why notice ``kind`` does not fit the filing now (its town and permit
    kind, its state, the events it needs on record), or None when it fits:
    the one rule of which notices fit, for :func:`produce` and for the
    lists of notices the workbench offers (:mod:`services.notices`)."""
    if not kind.applies(profile, filing.kind):
        return NoticeRefused(
            f"{profile.name} has no {kind.id} for a {filing.kind} filing (see 'permits notices --list')",
            filing=filing.id,
            notice=kind.id,
        )
    if replay.state not in kind.states:
        return NoticeRefused(
            f"the filing is {replay.state!r}; a {kind.id} fits only a filing that is "
            f"{' or '.join(repr(s) for s in sorted(kind.states))}",
            filing=filing.id,
            notice=kind.id,
            state=replay.state,
        )
    types = {e.type for e in filing.events}
    for group in kind.needs_events:
        if not types & set(group):
            return NoticeRefused(
                f"no {' or '.join(group)} event on the record", filing=filing.id, notice=kind.id, state=replay.state
            )
    if kind.id == "settlement-answer" and not any(
        e.type == "inspected" and e.get("stage") == "settlement" for e in filing.events
    ):
        return NoticeRefused("no settlement inspection on the record", filing=filing.id, notice=kind.id)
    return None


def recipients_for(filing, kind: NoticeKind, abutters: Sequence[Party] | None) -> list[tuple[Party | None, str]]:
    """(party, recipient key) for every copy of the notice."""
    if kind.recipients == "abutters":
        if not abutters:
            raise MissingField(filing.id, kind.id, "an abutter list", "give it with --abutters FILE")
        return [(p, p.key) for p in abutters]
    if kind.recipients in ("public", "boards"):
        return [(None, kind.recipients)]
    extra = filing.extra
    if "applicant" not in extra:
        raise MissingField(filing.id, kind.id, "field filing.applicant")
    for role in ("applicant", "owner") if kind.recipients == "applicant+owner" else ("applicant",):
        if isinstance(extra.get(role), str):  # a name without its mailing address
            raise MissingField(
                filing.id,
                kind.id,
                f"the {role}'s mailing address (filing.{role}.address)",
                f"the filing names {extra[role]!r} only",
            )
    try:
        applicant = party_from_record(Record(extra["applicant"], "filing.applicant"), "applicant")
        out = [(applicant, applicant.key)]
        if kind.recipients == "applicant+owner" and parties_differ(extra):
            owner = party_from_record(Record(extra["owner"], "filing.owner"), "owner")
            out.append((owner, owner.key))
    except AttributeError as exc:  # Record names the full path of the missing field
        raise MissingField(filing.id, kind.id, f"field {exc.args[0]}") from None
    return out


def _posting_check(filing, replay, kind, dated: datetime) -> None:
    """The posting is stamped ``dated``; the Open Meeting Law wants it 48
    business hours before the meeting (M.G.L. c.30A §20(b))."""
    clock = replay.clock("hearing-posting")
    if clock is None:
        raise NoticeRefused("the replay has no hearing-posting clock", filing=filing.id, notice=kind.id)
    deadline = getattr(clock, "at", None)
    if deadline is None:
        raise MissingField(
            filing.id,
            kind.id,
            "the hearing's time",
            "give 'at' on the hearing-scheduled event: 48 business hours are counted from it",
        )
    if dated > deadline:
        raise NoticeRefused(
            f"a posting stamped {dated.isoformat(timespec='minutes')} is too late: "
            f"it must be up by {deadline.isoformat(timespec='minutes')}, 48 hours before the hearing "
            f"not counting Saturdays, Sundays and legal holidays ({clock.rule})",
            filing=filing.id,
            notice=kind.id,
        )


def _render(template, variables, filing, kind) -> str:
    try:
        return template.render(variables)
    except jinja2.UndefinedError as exc:
        raise MissingField(filing.id, kind.id, str(exc)) from None
    except TemplateLimit as exc:  # a town template over its bounds: the message names it and its line
        raise TemplateProblem(str(exc)) from None
    except SecurityError as exc:  # a town template reaching outside the sandbox
        raise TemplateProblem(f"template {template.filename}: refused by the sandbox: {_first_line(exc)}") from None
    except jinja2.TemplateError as exc:
        raise TemplateProblem(f"template {template.filename}: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return (text.splitlines() or [type(exc).__name__])[0][:200]


def produce(
    filing,
    replay,
    notice_kind_id: str,
    *,
    abutters: Sequence[Party] | None = None,
    fmt: str = "html",
    town_templates_dir: str | Path | None = None,
    dated: datetime,
) -> list[RenderedNotice]:
    """Render one notice of a filing, every copy, in memory.

    ``dated`` is the notice's date and time (a posting's stamp); the edge
    passes "now", or the recorded date of a notice rendered again.  Raises a NoticeError (or UnknownChoice) before anything is
    returned when the notice does not fit the filing."""
    if fmt not in FORMATS:
        raise TemplateProblem(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    kind = notice_kind(notice_kind_id)
    profile = town(filing.town)
    refused = refusal(filing, replay, kind, profile)
    if refused is not None:
        raise refused
    if kind.id == "hearing-posting":
        _posting_check(filing, replay, kind, dated)
    env = environment(filing.town, town_templates_dir)
    try:
        template = env.get_template(kind.template)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateProblem(f"template {exc.name or kind.template}, line {exc.lineno}: {exc.message}") from None
    ctx = build_context(filing, replay, profile, kind, dated=dated)
    if kind.id == "affidavit-of-service" and not abutters:
        raise MissingField(filing.id, kind.id, "the abutter list that was served", "give it with --abutters FILE")
    parties = recipients_for(filing, kind, abutters)
    base = ctx.variables(abutters=list(abutters or ()))
    pages = []
    for i, (party, key) in enumerate(parties, start=1):
        copy_for = party.role if party is not None else kind.recipients
        pages.append(
            (
                party,
                key,
                _render(
                    template,
                    {**base, "recipient": party, "copy_for": copy_for, "copy_number": i, "copies": len(parties)},
                    filing,
                    kind,
                ),
            )
        )
    stem = f"{filing.id}-{kind.id}"
    out: list[RenderedNotice] = []
    if fmt == "pdf":
        out.append(
            RenderedNotice(kind.id, f"{stem}.pdf", "pdf", _merged_pdf([h for _, _, h in pages]), tuple(k for _, k, _ in pages))
        )
    else:
        for i, (party, key, html) in enumerate(pages, start=1):
            suffix = "" if len(pages) == 1 else f"-{i:03d}-{_slug(party.name if party else key)}"
            content = html if fmt == "html" else html_to_text(html)
            out.append(RenderedNotice(kind.id, f"{stem}{suffix}.{fmt}", fmt, content, (key,)))
    if kind.recipients == "abutters":
        out.append(RenderedNotice(kind.id, f"{stem}-certified-mail.csv", "csv", certified_mail_csv(abutters)))
        if fmt != "txt":
            labels = _render(env.get_template("labels.html.j2"), {**base, "recipient": None}, filing, kind)
            out.append(RenderedNotice(kind.id, f"{stem}-labels.{fmt}", fmt, html_to_pdf(labels) if fmt == "pdf" else labels))
    return out


def _merged_pdf(documents: list[str]) -> bytes:
    """One PDF of every copy, each starting on a new page, for printing."""
    if len(documents) == 1:
        return html_to_pdf(documents[0])
    import weasyprint

    from .render import DEFAULT_DIR

    rendered = [weasyprint.HTML(string=h, base_url=str(DEFAULT_DIR)).render() for h in documents]
    pages = [p for doc in rendered for p in doc.pages]
    return rendered[0].copy(pages).write_pdf()


def render_page(template, variables, record, kind) -> str:
    """One copy of a notice from ``template`` (``record`` and ``kind`` name
    what a missing field or a broken template is reported against): the
    rendering :func:`produce` does, for the enforcement notices too."""
    return _render(template, variables, record, kind)


def merged_pdf(documents: list[str]) -> bytes:
    """One PDF of every copy (:func:`produce`'s), each on a new page."""
    return _merged_pdf(documents)
