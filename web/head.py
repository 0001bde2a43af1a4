"""``HEAD`` answered for every page that answers ``GET`` (issue 35: a
``HEAD`` got 405, which link checkers and monitors read as a broken site).

FastAPI routes a ``GET`` route for ``GET`` only; :class:`HeadAsGet`, a
middleware outside the routes, hands a ``HEAD`` request to the app as the
``GET`` it stands for and sends back the status and headers that ``GET``
would (its ``Content-Length`` among them) with no body, as RFC 9110
§9.3.2 says.  A route that answers only ``POST`` still answers ``HEAD``
with 405, as it answers ``GET``.
"""

from __future__ import annotations

__all__ = ["HeadAsGet"]


class HeadAsGet:
    """Answer ``HEAD`` as ``GET``, without the body."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def headers_only(message):
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # the body's chunks are dropped; the last one ends the answer
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
