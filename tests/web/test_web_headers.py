"""Every response of every route says how it may be framed, cached and
scripted: a Content-Security-Policy (scripts and styles from the app only,
no inline script), Permissions-Policy, no framing or sniffing, and
``Cache-Control: no-store`` on everything but the static files; HSTS and a
``Secure`` cookie only when the deployment says it is served over HTTPS.
The routes come from the app (tests/routekit.py), so a route added later
is checked too; and the templates carry no inline script or style that
the policy would block."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from routekit import ROLES, fill, routes, values_for, world
from webkit import TODAY, login

from web.headers import CSP, HSTS, PERMISSIONS_POLICY

ROOT = Path(__file__).resolve().parents[2]
#: every template of the web: the shared ones (web/templates/) and each room's (web/<room>/templates/)
TEMPLATES = sorted(p for p in (ROOT / "web").rglob("*.html") if p.parent.name == "templates")
#: a route that sets a stricter policy of its own: a notice's preview (its inline styles, no script at all)
OWN_POLICY = {"/filings/{fid}/notices/{kind}": "default-src 'none'; style-src 'unsafe-inline'"}


def _check(r, path: str, template: str) -> list[str]:
    h = r.headers
    wrong = []
    own = r.request.method == "GET" and r.status_code == 200 and template in OWN_POLICY
    expected = OWN_POLICY[template] if own else CSP
    if h.get("content-security-policy") != expected:
        wrong.append(f"CSP {h.get('content-security-policy')!r}")
    if "script-src 'unsafe-inline'" in h.get("content-security-policy", ""):
        wrong.append("inline script allowed")
    for name, value in (
        ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "same-origin"),
        ("permissions-policy", PERMISSIONS_POLICY),
        ("cache-control", "no-store"),
    ):
        if h.get(name) != value:
            wrong.append(f"{name}: {h.get(name)!r}")
    if "strict-transport-security" in h:
        wrong.append("HSTS on a plain-HTTP deployment")
    if "server-timing" in h:  # only when PERMITS_SERVER_TIMING=yes (tests/web/test_web_serving.py)
        wrong.append("Server-Timing sent to anyone")
    return [f"{r.request.method} {path} ({r.status_code}): {w}" for w in wrong]


@pytest.fixture
def kit(store):
    values, clients, extra = world(store)
    return values, clients, extra


def test_every_route_of_the_app_sends_the_policy_headers_to_every_kind_of_user(kit):
    values, clients, extra = kit
    app = clients["admin"].app
    wrong, seen, ok_pages = [], 0, 0
    for route in routes(app):
        for who in ROLES:
            c = clients[who]
            path = fill(route.path, values_for(route.path, who, values, extra))
            for method in sorted(route.methods - {"HEAD"}):
                if method == "GET":
                    r = c.get(path)
                else:  # a post without its form: refused, or sent to log in; headers all the same
                    r = c.post(path, data={})
                seen += 1
                ok_pages += r.status_code == 200 and "text/html" in r.headers.get("content-type", "")
                wrong += _check(r, path, route.path)
    assert wrong == [], "\n".join(wrong)
    assert seen > 100 and ok_pages > 20, (seen, ok_pages)  # the sweep reached real pages, not only refusals


def test_every_page_answers_head_as_it_answers_get_with_no_body(kit):
    """HEAD of every GET route, for every kind of user: GET's status and
    headers (its length among them), and no body (issue 35: it was 405)."""
    values, clients, extra = kit
    app = clients["admin"].app
    wrong, seen = [], 0
    for route in routes(app):
        if "GET" not in route.methods:
            continue
        for who in ROLES:
            c = clients[who]
            path = fill(route.path, values_for(route.path, who, values, extra))
            got, head = c.get(path), c.head(path)
            seen += 1
            if head.status_code != got.status_code or head.content != b"":
                wrong.append(f"HEAD {path} as {who}: {head.status_code} with {len(head.content)} bytes, GET {got.status_code}")
            elif head.headers.get("content-type") != got.headers.get("content-type"):
                wrong.append(f"HEAD {path} as {who}: {head.headers.get('content-type')}")
    assert wrong == [], "\n".join(wrong)
    assert seen > 50
    assert clients["admin"].head("/login").headers["content-length"] == str(len(clients["admin"].get("/login").content))
    assert clients["admin"].head("/logout").status_code == 405  # a POST-only route, as for GET


def test_the_static_files_may_be_cached_but_still_carry_the_policy(web):
    r = web.get("/static/htmx.min.js")
    assert r.status_code == 200 and r.headers["content-security-policy"] == CSP
    assert r.headers.get("cache-control") != "no-store" and r.headers["x-content-type-options"] == "nosniff"


def test_a_refusal_before_any_route_carries_the_headers_too(web):
    r = web.post("/login", content=b"x" * 10, headers={"content-length": str(10**12), "content-type": "text/plain"})
    assert r.status_code == 413
    assert _check(r, "/login", "/login") == []


def test_over_https_the_cookie_is_secure_and_browsers_are_told_to_stay_on_https(store):
    import os

    from fastapi.testclient import TestClient

    import config
    from web.app import create_app

    settings = config.load({**os.environ, "PERMITS_HTTPS": "yes"})
    c = TestClient(create_app(store, settings=settings, secret="s", today=lambda: TODAY), base_url="https://testserver")
    c.follow_redirects = False
    r = c.get("/login")
    assert r.headers["strict-transport-security"] == HSTS
    cookie = r.headers["set-cookie"]
    assert "secure" in cookie.lower() and "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    login(c, "canton-agent")
    assert c.get("/today").status_code == 200  # a login works over HTTPS with the Secure cookie


def test_a_towns_tile_server_is_the_one_image_source_the_policy_adds(store):
    """PERMITS_MAP_TILES_URL: the map's browser fetches tiles from the town's
    server, so the app's own policy must allow that origin for images, and
    only for images; without the setting the policy is the plain one."""
    import os

    from fastapi.testclient import TestClient

    import config
    from web.app import create_app

    url = "https://{s}.gis.canton.example:8443/tiles/{z}/{x}/{y}.png"
    settings = config.load({**os.environ, "PERMITS_MAP_TILES_URL": url})
    c = TestClient(create_app(store, settings=settings, secret="s", today=lambda: TODAY))
    policy = c.get("/login").headers["content-security-policy"]
    assert "img-src 'self' https://*.gis.canton.example:8443;" in policy
    assert policy.replace(" https://*.gis.canton.example:8443", "") == CSP
    assert "gis.canton" not in c.get("/login").headers.get("content-security-policy", "").split("img-src")[0]


def test_on_plain_http_the_cookie_is_not_secure_and_there_is_no_hsts(web):
    r = web.get("/login")
    assert "strict-transport-security" not in r.headers
    assert "secure" not in r.headers["set-cookie"].lower()


def _blocked(text: str) -> list[str]:
    """What in a template the policy would block: an inline script, a
    <style> element, a style= or on...= attribute, a javascript: URL."""
    found = [f"inline {m.group(0)}" for m in re.finditer(r"<script\b[^>]*>", text, re.I) if "src=" not in m.group(0)]
    found += ["a <style> element" for _ in re.finditer(r"<style\b", text, re.I)]
    found += [f"a {m.group(1)}= attribute" for m in re.finditer(r"\s(style|on[a-z]+)\s*=", text, re.I)]
    found += ["a javascript: URL" for _ in re.finditer(r"(href|src|action)\s*=\s*[\"']\s*javascript:", text, re.I)]
    return found


def test_the_templates_carry_no_inline_script_or_style_that_the_policy_would_block():
    assert {p.parent.parent.name for p in TEMPLATES} >= {"web", "staff", "applicant", "account"}  # every room's were read
    found = [f"{p.relative_to(ROOT)}: {what}" for p in TEMPLATES for what in _blocked(p.read_text(encoding="utf-8"))]
    assert found == [], "\n".join(found)


def test_the_template_check_finds_each_kind_of_planted_inline_code():
    planted = (
        '<p onclick="x()">a</p><script>alert(1)</script><div style="color:red"></div><style>p{}</style><a href="javascript:x()">'
    )
    assert len(_blocked(planted)) == 5
    assert _blocked('<script src="/static/htmx.min.js" defer></script>') == []
