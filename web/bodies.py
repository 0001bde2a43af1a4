"""What a request may send, checked before its body is read: the size
limit, the CSRF token, and the posted form every route takes as a
dependency (:data:`PostedForm`, :data:`PlanForm`, :data:`AbutterListForm`).

- **A limit before parsing.**  :class:`RequestGuard`, the middleware, refuses
  a body larger than the largest any route takes (413) by its
  Content-Length before reading a byte of it, and counts the bytes of a
  body sent without one (chunked), refusing it as soon as it passes.  Each
  route's form then has its own, smaller limit: a form without a file
  ``PERMITS_FORM_MAX_KB``, a form with a plan that and
  ``PERMITS_UPLOAD_MAX_MB``, the abutter list's its own
  (:data:`services.abutters.MAX_LIST_BYTES`).
- **The CSRF token first.**  A multipart body (the forms with a file) is
  read only as far as its first field until that field is the session's
  CSRF token (every form of the workbench sends it first: a hidden input
  at the top of the form); otherwise 403 before any file part is begun, so
  nothing reaches the temporary directory.  A url-encoded form is read in
  memory (at most its limit) and its token checked before the route sees
  it.  A form without a file may not carry one (400).
- **Clean text.**  A form or query value holding a NUL character is
  refused (400): no browser sends one, and PostgreSQL cannot store it.

A refused request leaves nothing behind: the parser's spooled files are
closed (deleted) when parsing stops, and a form's files when the response
has been sent.
"""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator, Callable
from typing import Annotated

from fastapi import Depends, Request
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.formparsers import FormParser, MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect

from .deps import web_context
from .values import whole_number

__all__ = [
    "RequestGuard",
    "read_form",
    "csrf_matches",
    "posted_form",
    "upload_form",
    "upload_limit",
    "PostedForm",
    "PlanForm",
    "AbutterListForm",
    "MAX_FIELDS",
    "FIRST_FIELD_MAX",
    "too_large_detail",
    "seq_of",
]

#: the most fields a form may have (the largest, an application, has ~30)
MAX_FIELDS = 300
#: how far into a multipart body its first field (the CSRF token) must end
FIRST_FIELD_MAX = 4096
OUT_OF_DATE = "This form is out of date or did not come from this site: reload the page and try again."
UNREADABLE = "The form could not be read: reload the page and try again."
NUL_FIELD = "A field of the form holds a NUL character, which no form sends: nothing was changed."


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def too_large_detail(limit: int, file_limit: int | None = None) -> str:
    """The refusal of a body over ``limit`` bytes, in words: the file's own
    limit when the form takes one."""
    if file_limit:
        return f"The file is larger than the {_size(file_limit)} this form takes: send a smaller one."
    return f"What was sent is larger than the {_size(limit)} this form takes: send less text."


def csrf_matches(request: Request, sent: object) -> bool:
    """Whether ``sent`` is the session's CSRF token (compared as bytes:
    ``hmac.compare_digest`` refuses a str with a non-ASCII character)."""
    expected = request.session.get("csrf")
    if not (isinstance(sent, str) and isinstance(expected, str) and expected):
        return False
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def _declared_length(request_headers) -> int | None:
    """The Content-Length, or None when the body is sent in chunks; 400 for
    a header that is not a number."""
    text = request_headers.get("content-length")
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise HTTPException(400, UNREADABLE)
    return int(text)


async def _limited(stream: AsyncIterator[bytes], limit: int, detail: str) -> AsyncIterator[bytes]:
    total = 0
    async for chunk in stream:
        total += len(chunk)
        if total > limit:
            raise HTTPException(413, detail)
        yield chunk


class _FirstField:
    """Reads a multipart body's first part only: its name, whether it is a
    file, its value, and whether it has ended."""

    def __init__(self, boundary: bytes):
        self.name: bytes | None = None
        self.is_file = False
        self.value = bytearray()
        self.ended = False
        self._header, self._field, self._disposition = bytearray(), bytearray(), b""
        self._parser = MultipartParser(
            boundary,
            {
                "on_header_field": lambda d, s, e: self._field.extend(d[s:e]),
                "on_header_value": lambda d, s, e: self._header.extend(d[s:e]),
                "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished,
                "on_part_data": self._data,
                "on_part_end": self._part_end,
            },
        )

    def _header_end(self):
        if bytes(self._field).lower() == b"content-disposition":
            self._disposition = bytes(self._header)
        self._header.clear()
        self._field.clear()

    def _headers_finished(self):
        if self.name is None:
            _, options = parse_options_header(self._disposition)
            self.name, self.is_file = options.get(b"name", b""), b"filename" in options

    def _data(self, data: bytes, start: int, end: int):
        if not self.ended and len(self.value) <= FIRST_FIELD_MAX:
            self.value.extend(data[start:end][: FIRST_FIELD_MAX + 1])

    def _part_end(self):
        self.ended = True

    def write(self, chunk: bytes) -> None:
        if not self.ended:
            self._parser.write(chunk)


async def _token_first(stream: AsyncIterator[bytes], boundary: bytes, request: Request) -> AsyncIterator[bytes]:
    """The body's chunks, released only once its first field has been read
    and is the session's CSRF token (403 otherwise, before any file part
    reaches the parser that spools files)."""
    first, held, size = _FirstField(boundary), [], 0
    async for chunk in stream:
        if held is None:
            yield chunk
            continue
        held.append(chunk)
        size += len(chunk)
        try:
            first.write(chunk)
        except Exception:  # python-multipart's errors: not a multipart body
            raise HTTPException(400, UNREADABLE) from None
        if first.name is not None and (first.name != b"csrf" or first.is_file):
            raise HTTPException(403, OUT_OF_DATE)
        if first.ended:
            if not csrf_matches(request, first.value.decode("utf-8", "replace")):
                raise HTTPException(403, OUT_OF_DATE)
            for c in held:
                yield c
            held = None
        elif size > FIRST_FIELD_MAX:
            raise HTTPException(403, OUT_OF_DATE)
    if held is not None:  # the body ended before its first field did
        raise HTTPException(403, OUT_OF_DATE)


async def read_form(request: Request, *, max_bytes: int, files: int = 0, file_limit: int | None = None) -> FormData:
    """The posted form, within ``max_bytes`` and at most ``files`` files
    (``file_limit``: a file's own limit, for the refusal's words), once its
    CSRF token matches the session's; 413, 403 or 400 otherwise, with
    nothing left on disk.  The caller closes the form (:func:`posted_form`
    does, after the response)."""
    detail = too_large_detail(max_bytes, file_limit)
    length = _declared_length(request.headers)
    if length is not None and length > max_bytes:
        raise HTTPException(413, detail)
    content_type, params = parse_options_header(request.headers.get("content-type"))
    stream = _limited(request.stream(), max_bytes, detail)
    part_max = max(1024, min(max_bytes, 1024 * 1024))
    if content_type == b"multipart/form-data":
        if not params.get(b"boundary"):
            raise HTTPException(400, UNREADABLE)
        stream = _token_first(stream, params[b"boundary"], request)
        parser = MultiPartParser(request.headers, stream, max_files=files, max_fields=MAX_FIELDS, max_part_size=part_max)
    elif content_type == b"application/x-www-form-urlencoded":
        parser = FormParser(request.headers, stream, max_fields=MAX_FIELDS, max_part_size=part_max)
    else:
        raise HTTPException(403, OUT_OF_DATE)  # no form, so no token
    try:
        form = await parser.parse()
    except MultiPartException:
        raise HTTPException(400, UNREADABLE) from None
    except ClientDisconnect:  # nobody is left to answer
        raise HTTPException(400, UNREADABLE) from None
    if not csrf_matches(request, form.get("csrf")):
        await form.close()
        raise HTTPException(403, OUT_OF_DATE)
    if any(isinstance(v, str) and "\x00" in v for _, v in form.multi_items()):
        await form.close()
        raise HTTPException(400, NUL_FIELD)
    return form


def _form_limit(request: Request) -> int:
    return web_context(request).settings.form_max_bytes


async def posted_form(request: Request) -> AsyncIterator[FormData]:
    """The dependency of every form without a file: read within
    ``PERMITS_FORM_MAX_KB``, its token checked; closed after the response."""
    form = await read_form(request, max_bytes=_form_limit(request))
    try:
        yield form
    finally:
        await form.close()


def upload_form(file_limit: Callable[[Request], int], files: int = 1) -> Callable:
    """The dependency of a form with up to ``files`` files of at most
    ``file_limit(request)`` bytes in all (the form's text fields may add
    ``PERMITS_FORM_MAX_KB``)."""

    async def posted_upload(request: Request) -> AsyncIterator[FormData]:
        limit = file_limit(request)
        form = await read_form(request, max_bytes=limit + _form_limit(request), files=files, file_limit=limit)
        try:
            yield form
        finally:
            await form.close()

    return posted_upload


def upload_limit(request: Request) -> int:
    """The largest plan or photos a form takes, in all (PERMITS_UPLOAD_MAX_MB)."""
    return web_context(request).uploads.limit


def _abutter_list_limit(request: Request) -> int:
    from services.abutters import MAX_LIST_BYTES

    return MAX_LIST_BYTES


#: a posted form without a file
PostedForm = Annotated[FormData, Depends(posted_form)]
#: a posted form with the plans (a PDF within PERMITS_UPLOAD_MAX_MB)
PlanForm = Annotated[FormData, Depends(upload_form(upload_limit))]
#: a posted form with the assessors' abutter list
AbutterListForm = Annotated[FormData, Depends(upload_form(_abutter_list_limit))]


class RequestGuard:
    """The middleware under the session: a body over ``cap`` bytes is refused
    (413) by its Content-Length before it is read, or as soon as its chunks
    pass ``cap``; a query string holding a NUL is refused (400).  ``cap`` is
    the largest body any route takes; each route's form has its own limit
    (:func:`read_form`).  ``page(request, status, detail)`` draws the
    refusal."""

    def __init__(self, app, cap: int, page: Callable):
        self.app, self.cap, self.page = app, cap, page

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        query = scope.get("query_string", b"").lower()
        if b"%00" in query or b"\x00" in query:
            return await self._refuse(scope, receive, send, 400, "A value of the address holds a NUL character.")
        try:
            length = _declared_length(dict((k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]))
        except HTTPException:
            return await self._refuse(scope, receive, send, 400, UNREADABLE)
        if length is not None and length > self.cap:
            return await self._refuse(scope, receive, send, 413, too_large_detail(self.cap))
        total = 0

        async def counted():
            nonlocal total
            message = await receive()
            if message["type"] == "http.request":
                total += len(message.get("body", b""))
                if total > self.cap:
                    raise HTTPException(413, too_large_detail(self.cap))
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, scope, receive, send, status: int, detail: str):
        response = self.page(Request(scope, receive), status, detail)
        response.headers["Connection"] = "close"
        await response(scope, receive, send)


def seq_of(form: FormData) -> int:
    """The filing's sequence number the form was drawn at (every form that
    changes a filing carries it); 400 when it is missing or not a number."""
    try:
        return whole_number(str(form.get("seq") or ""))
    except ValueError:
        raise HTTPException(400, "The form has no sequence number: reload the page.") from None
