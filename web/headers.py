"""The headers every response of the workbench carries, added by one
middleware (:class:`PageHeaders`), so a route added later has them too (a
test checks every route of the app).

- ``Content-Security-Policy`` (:data:`CSP`): scripts, styles, images and
  requests from the app itself only (htmx is served from ``/static``), no
  inline script or style, no framing, forms posted only here.  The
  templates carry no ``<script>`` of their own, no ``style=`` and no
  ``on…=`` attribute (a test reads them).  A response that sets its own
  policy keeps it (a notice's preview: nothing but its inline styles).
- ``X-Frame-Options``, ``X-Content-Type-Options``, ``Referrer-Policy``
  (no Referer to other sites: a calendar URL holds a secret) and
  ``Permissions-Policy`` (no camera, microphone, location, payment...).
- ``Cache-Control: no-store`` on everything but ``/static/`` and the open
  data's files (``/open-data/...``, public records a cache may keep an hour): the pages
  show a person's filings, and a shared computer's cache must not keep
  them; the login page's CSRF token neither.
- ``Strict-Transport-Security`` when the deployment says it is served over
  HTTPS (``PERMITS_HTTPS=yes``; the session cookie is then ``Secure``).
- ``Server-Timing: app;dur=MS``: the time the app took, without the network
  or the client (what the benchmarks read), only when the deployment turns
  it on (``PERMITS_SERVER_TIMING=yes``): otherwise anyone could time the
  server's work (a login's hashing, a search) to the fraction of a
  millisecond.
"""

from __future__ import annotations

import time

__all__ = ["PageHeaders", "CSP", "policy", "tile_origin", "PERMISSIONS_POLICY", "HSTS", "SECURITY_HEADERS"]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def policy(img_origin: str | None = None) -> str:
    """:data:`CSP`, with one more image source: the origin of a town's own
    tile server (``PERMITS_MAP_TILES_URL``), the one place the map's
    browser fetches from; nothing else is ever added."""
    if not img_origin:
        return CSP
    return CSP.replace("img-src 'self';", f"img-src 'self' {img_origin};")


def tile_origin(url: str | None) -> str | None:
    """``scheme://host[:port]`` of a tile URL (checked by the settings)."""
    if not url:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.replace('{s}', '*')}"  # {s}: Leaflet's subdomains


PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), display-capture=()"
#: a year, the subdomains left alone (a town's other sites may not be HTTPS)
HSTS = "max-age=31536000"

#: sent with every response
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
]


class PageHeaders:
    """The outermost middleware: adds the headers above to every HTTP
    response; ``https`` adds HSTS, ``timing`` the Server-Timing header."""

    def __init__(self, app, *, https: bool = False, img_origin: str | None = None, timing: bool = False):
        self.app, self.https, self.timing = app, https, timing
        self.csp = policy(img_origin).encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start = time.perf_counter()
        static = scope.get("path", "").startswith("/static/")
        # the public's open data files set their own Cache-Control (a day's copy of a public record); a refusal does not
        open_data = scope.get("path", "").startswith("/open-data/")

        async def with_headers(message):
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - start) * 1000
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if self.timing:
                    headers.append((b"server-timing", f"app;dur={ms:.2f}".encode()))
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in names)
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", self.csp))
                if not static and not (open_data and b"cache-control" in names):
                    headers = [h for h in headers if h[0].lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                if self.https:
                    headers.append((b"strict-transport-security", HSTS.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
