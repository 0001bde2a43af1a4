"""The workbench's routes as the app itself lists them (``app.routes``),
and the forms its pages draw, found by visiting the pages as each kind of
user: what the header, form-fuzz, threadpool and CSV tests go over, so a
route added later is covered without editing them.

- :func:`routes`: every route of the app (path, methods, endpoint), the
  static mount left out.
- :func:`fill`: a route's path with its parameters filled from a table of
  values for the web kit's store (a parameter nobody has named yet gets a
  word, and the route its 404).
- :func:`crawl`: the pages a client reaches from its start pages by links
  and by GET forms (each option of each select), with every form on them.
- :func:`world`: the web kit's store with an applicant, an online
  application sent back to them, and an open invitation; a client logged
  in for each role.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode, urljoin, urlsplit

import storekit
from starlette.routing import Mount, compile_path

ROLES = ("admin", "canton-agent", "canton-dpw", "applicant", "anonymous")
APPLICANT_EMAIL = "ann@example.org"
PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
_PARAM = re.compile(r"{([a-zA-Z_][a-zA-Z0-9_]*)(?::[a-z]+)?}")


@dataclass(frozen=True)
class AppRoute:
    path: str
    methods: frozenset[str]
    endpoint: object
    route: object

    def matches(self, path: str) -> bool:
        return compile_path(self.path)[0].fullmatch(path) is not None


def _walk(items, prefix: str = ""):
    for r in items:
        if isinstance(r, Mount):
            continue
        if hasattr(r, "original_router"):  # FastAPI's included router: its routes under its prefix
            yield from _walk(r.original_router.routes, prefix + r.include_context.prefix)
        elif hasattr(r, "path") and hasattr(r, "endpoint"):
            yield AppRoute(prefix + r.path, frozenset(getattr(r, "methods", None) or ()), r.endpoint, r)


def routes(app) -> list[AppRoute]:
    """Every route of the app but the static files' mount."""
    return list(_walk(app.routes))


def params(path: str) -> list[str]:
    return _PARAM.findall(path)


def fill(path: str, values: dict[str, str]) -> str:
    """``path`` with each ``{name}`` replaced by ``values[name]`` (a word
    when there is none)."""
    return _PARAM.sub(lambda m: values.get(m.group(1), "unnamed-value"), path)


def route_of(app_routes: list[AppRoute], path: str, method: str) -> AppRoute | None:
    return next((r for r in app_routes if method in r.methods and r.matches(path)), None)


@dataclass
class Form:
    who: str
    page: str
    method: str
    action: str
    enctype: str
    fields: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list)  # name, value, type, options

    @property
    def path(self) -> str:
        return urlsplit(self.action).path

    @property
    def files(self) -> list[str]:
        return [n for n, _, t, _ in self.fields if t == "file"]


class _Page(HTMLParser):
    def __init__(self, url: str):
        super().__init__(convert_charrefs=True)
        self.url, self.links, self.forms = url, [], []
        self._form: Form | None = None
        self._select: list | None = None
        self._textarea: list | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(urljoin(self.url, a["href"]))
        elif tag == "form":
            action = urljoin(self.url, a.get("action") or self.url)
            self._form = Form("", self.url, (a.get("method") or "get").lower(), action, a.get("enctype", ""))
            self.forms.append(self._form)
        elif self._form is not None and tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                value = a.get("value", "on")
                self._form.fields.append((a["name"], "", kind, (value,)))
            else:
                self._form.fields.append((a["name"], a.get("value", ""), kind, ()))
        elif self._form is not None and tag == "select" and a.get("name"):
            self._select = [a["name"], None, []]
        elif self._select is not None and tag == "option":
            self._select[2].append(a.get("value", ""))
            if "selected" in a:
                self._select[1] = a.get("value", "")
        elif self._form is not None and tag == "textarea" and a.get("name"):
            self._textarea = [a["name"], ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None and self._form is not None:
            name, chosen, options = self._select
            value = chosen if chosen is not None else (options[0] if options else "")
            self._form.fields.append((name, value, "select", tuple(options)))
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            self._form.fields.append((self._textarea[0], self._textarea[1], "textarea", ()))
            self._textarea = None


def parse_page(url: str, html: str) -> tuple[list[str], list[Form]]:
    page = _Page(url)
    page.feed(html)
    return page.links, page.forms


_NOT_PAGES = (".pdf", ".csv", ".ics")


def _local(url: str, base: str) -> str | None:
    parts = urlsplit(url)
    if parts.netloc and parts.netloc != urlsplit(base).netloc:
        return None
    if parts.path.startswith("/static/") or parts.path.endswith(_NOT_PAGES) or parts.path.startswith("/my/files/"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def crawl(client, who: str, starts: list[str], *, limit: int = 150) -> tuple[list[str], list[Form]]:
    """The pages ``client`` reaches from ``starts`` (links and GET forms,
    each select's options one at a time), at most ``limit``, and every form
    on them (POST forms keep the values the page gave)."""
    base = str(client.base_url)
    seen, queue, pages, forms = set(), deque(starts), [], []
    while queue and len(pages) < limit:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        r = client.get(url)
        if r.status_code != 200 or "text/html" not in r.headers.get("content-type", ""):
            continue
        pages.append(url)
        links, found = parse_page(urljoin(base, url), r.text)
        for link in links:
            local = _local(link, base)
            if local and local not in seen:
                queue.append(local)
        for form in found:
            form.who = who
            if form.method == "post":
                forms.append(form)
                continue
            defaults = {n: v for n, v, _, _ in form.fields}
            for name, _, kind, options in form.fields:
                for option in options[:8] if kind == "select" else ():
                    local = _local(form.action, base)
                    if local:
                        queue.append(local.split("?")[0] + "?" + urlencode({**defaults, name: option}))
    return pages, forms


# -- the store the tests go over ------------------------------------------------


def world(store):
    """Fill the web kit's store with what the applicant's routes need, and
    return (the values to fill route parameters with, a logged-in client
    for each role, with its CSRF token)."""
    from webkit import USERS, client, csrf_of, login, register

    clients = {}
    for who in ("admin", "canton-agent", "canton-dpw"):
        c = client(store)
        login(c, who)
        clients[who] = c
    ann = client(store)
    token = register(ann, APPLICANT_EMAIL)
    form = {
        "csrf": token,
        "town": "canton",
        "address": "9 Elm St",
        "parcel": "C-12-7",
        "description": "a deck within the 100-foot buffer zone",
        "applicant_name": "Ann Lee",
        "applicant_street": "9 Elm St",
        "applicant_city": "Canton",
        "applicant_state": "MA",
        "applicant_zip": "02021",
        "owner_is_applicant": "yes",
    }
    r = ann.post("/my/apply/noi", data=form, files={"plan": ("site-plan.pdf", PDF, "application/pdf")})
    assert r.status_code == 303, r.text
    applied = r.headers["location"].rsplit("/", 1)[1]
    agent = clients["canton-agent"]
    t = csrf_of(agent.get(f"/filings/{applied}").text)
    r = agent.post(f"/filings/{applied}/incomplete", data={"csrf": t, "seq": "1", "reasons": "the plan is not stamped"})
    assert r.status_code == 303, r.text
    clients["applicant"] = ann
    clients["anonymous"] = client(store)
    invitation = storekit.applicants(store).invite("CAN-NOI-2026-001", "builder@example.org", by="agent")
    admin = storekit.users(store).list()
    calendar = next(u.calendar_token for u in admin if u.email == USERS["admin"][0])
    values = {
        "fid": "CAN-NOI-2026-001",
        "kind": "abutter-notice",
        "token": calendar,
        "notice_id": "1",
    }
    extra = {"applied": applied, "invitation": invitation}
    return values, clients, extra


def values_for(route_path: str, who: str, values: dict, extra: dict) -> dict:
    """The parameter values that make ``route_path`` a page ``who`` may see."""
    out = dict(values)
    if route_path.startswith("/my/"):
        out["fid"] = extra["applied"]
        out["kind"] = "noi"
    if route_path.startswith("/invitation/"):
        out["token"] = extra["invitation"]
    return out
