"""No request body reaches the disk unasked (web/bodies.py): a body over
the limit is refused (413) by its Content-Length before a byte is read, or
while it streams; a multipart body whose first field is not the session's
CSRF token is refused (403) before any file part begins; and a refused
request leaves the temporary directory as it found it, counted in files
and in bytes, open-but-deleted spool files included.  Against uvicorn on
127.0.0.1, over raw sockets, so the test sends what a browser never would."""

from __future__ import annotations

import os
import re
import select
import socket
import tempfile
import time
from pathlib import Path

import pytest
from kit import report_row
from webkit import PASSWORD, TODAY, serving

from web.app import create_app
from web.deps import context_of

BOUNDARY = "----permitsBoundary7MA"
GB = 1024**3


def spool_usage(folder: Path) -> tuple[int, int]:
    """(files, bytes) the process holds in ``folder``: entries of the folder
    and open files under it, deleted or not (a spooled upload is unlinked as
    soon as it is made: only /proc/self/fd shows it)."""
    files = size = 0
    for entry in os.scandir(folder):
        files += 1
        size += entry.stat().st_size
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)) and "(deleted)" in target:
            files += 1
            try:
                size += os.stat(f"/proc/self/fd/{fd}").st_size
            except OSError:
                pass
    return files, size


class Raw:
    """One HTTP/1.1 request over a socket: headers, then the body as the test
    sends it, watching for the server's answer between chunks."""

    def __init__(self, port: int, method: str, path: str, headers: dict[str, str]):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sent = 0
        self.answer = b""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
        self.sock.sendall("\r\n".join(lines).encode("latin-1"))

    def answered(self, wait: float = 0.0) -> bool:
        ready, _, _ = select.select([self.sock], [], [], wait)
        if ready:
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                data = b""
            self.answer += data
            return True
        return bool(self.answer)

    def send(self, data: bytes) -> bool:
        """Send ``data`` unless the server has answered; False once it has."""
        if self.answered():
            return False
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            return False
        self.sent += len(data)
        return True

    def status(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while b"\r\n" not in self.answer and time.monotonic() < deadline:
            if not self.answered(0.2) and self.sock.fileno() < 0:
                break
        self.sock.close()
        m = re.match(rb"HTTP/1.1 (\d{3})", self.answer)
        assert m, self.answer[:200]
        return int(m.group(1))


def part(name: str, value: bytes, filename: str | None = None) -> bytes:
    disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    head = f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n"
    head += "Content-Type: application/pdf\r\n" if filename else ""
    return head.encode() + b"\r\n" + value + b"\r\n"


def chunked(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


MULTIPART = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}


@pytest.fixture
def spool(tmp_path, monkeypatch):
    """The temporary directory of the server (in this process): empty."""
    folder = tmp_path / "spool"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    assert spool_usage(folder) == (0, 0)
    return folder


@pytest.fixture
def server(store, spool):
    app = create_app(store, secret="bodies-test", today=lambda: TODAY)
    with serving(app) as port:
        yield port, app


def session_of(port: int, path: str = "/login") -> tuple[str, str]:
    """(the Cookie header, the CSRF token) of a fresh anonymous session."""
    import httpx

    r = httpx.get(f"http://127.0.0.1:{port}{path}")
    token = re.search(r'name="csrf" value="([^"]+)"', r.text).group(1)
    return f"permits_session={r.cookies['permits_session']}", token


def applicant_session(port: int, store) -> tuple[str, str]:
    import httpx
    from webkit import emailed_link

    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/register").text).group(1)
        data = {"csrf": token, "email": "ann@example.org", "password": PASSWORD, "password2": PASSWORD}
        assert c.post("/register", data=data).status_code == 200
        link = emailed_link(store, "ann@example.org", "/confirm/")
        token = re.search(r'name="csrf" value="([^"]+)"', c.get(link).text).group(1)
        assert c.post(link, data={"csrf": token, "password": PASSWORD}).status_code == 303
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/my/apply?kind=noi").text).group(1)
        return f"permits_session={c.cookies['permits_session']}", token


def test_a_gigabyte_announced_by_its_content_length_is_refused_before_a_byte_is_read(server, spool):
    port, _ = server
    start = time.perf_counter()
    raw = Raw(port, "POST", "/login", {**MULTIPART, "Content-Length": str(GB)})
    assert raw.status() == 413
    took = time.perf_counter() - start
    assert took < 5 and raw.sent == 0
    assert spool_usage(spool) == (0, 0)
    report_row(f"1 GB body by Content-Length: 413 in {took:.2f} s, 0 bytes read or spooled", 1)


def test_a_chunked_body_past_the_limit_is_refused_while_it_streams_and_never_reaches_the_disk(server, spool, store):
    port, app = server
    cookie, token = session_of(port)
    raw = Raw(
        port,
        "POST",
        "/login",
        {"Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked", "Cookie": cookie},
    )
    raw.send(chunked(f"csrf={token}&email=".encode()))
    start = time.perf_counter()
    block = chunked(b"a" * 65536)
    while raw.sent < GB and raw.send(block):
        pass
    assert raw.status() == 413
    took = time.perf_counter() - start
    limit = context_of(app).settings.form_max_bytes
    # refused once the body passed the form's limit (what the kernel's socket buffers held besides)
    assert raw.sent < limit + 32 * 1024 * 1024, raw.sent
    assert took < 10, took
    assert spool_usage(spool) == (0, 0)
    report_row(f"chunked body past the form limit: 413 in {took:.2f} s, 0 bytes spooled", 1)


@pytest.mark.parametrize(
    "first",
    [
        pytest.param(lambda token: part("email", b"x@example.org"), id="another field first"),
        pytest.param(lambda token: part("csrf", b"not-the-token"), id="a wrong token"),
        pytest.param(lambda token: part("csrf", token.encode(), filename="csrf.pdf"), id="the token as a file"),
        pytest.param(lambda token: part("plan", b"%PDF-1.7" + b"x" * 100, filename="p.pdf"), id="a file first"),
    ],
)
def test_a_multipart_body_without_the_token_first_is_refused_before_any_file_reaches_the_temporary_directory(
    server, spool, first, request
):
    port, _ = server
    cookie, token = session_of(port)
    raw = Raw(port, "POST", "/login", {**MULTIPART, "Transfer-Encoding": "chunked", "Cookie": cookie})
    raw.send(chunked(first(token)))
    head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="plan"; filename="big.pdf"\r\n\r\n'.encode()
    raw.send(chunked(head))
    block = chunked(b"%" * 65536)
    while raw.sent < 256 * 1024 * 1024 and raw.send(block):
        pass
    assert raw.status() == 403
    assert raw.sent < 64 * 1024 * 1024, raw.sent
    assert spool_usage(spool) == (0, 0)
    report_row(f"multipart, {request.node.callspec.id}: 403, 0 files, 0 bytes spooled", 1)


def test_the_same_plan_sent_with_the_token_first_does_spool_and_leaves_nothing_after(server, spool, store):
    """The control: the measurement sees a spooled upload while it is sent,
    and nothing once the request is answered."""
    port, app = server
    cookie, token = applicant_session(port, store)
    fields = {
        "town": "saugus",
        "address": "9 Central St",
        "parcel": "C-12-7",
        "description": "a deck",
        "applicant_name": "Ann Lee",
        "applicant_street": "9 Central St",
        "applicant_city": "Saugus",
        "applicant_state": "MA",
        "applicant_zip": "01906",
        "owner_is_applicant": "yes",
    }
    body = part("csrf", token.encode()) + b"".join(part(k, v.encode()) for k, v in fields.items())
    body += f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="plan"; filename="site.pdf"\r\nContent-Type: application/pdf\r\n\r\n'.encode()
    body += b"%PDF-1.7\n" + b"%" * (3 * 1024 * 1024)  # past the 1 MB the parser keeps in memory
    tail = f"\n%%EOF\n\r\n--{BOUNDARY}--\r\n".encode()
    raw = Raw(port, "POST", "/my/apply/noi", {**MULTIPART, "Content-Length": str(len(body) + len(tail)), "Cookie": cookie})
    assert raw.send(body)
    deadline = time.monotonic() + 20
    during = (0, 0)
    while during[0] == 0 and time.monotonic() < deadline:
        during = spool_usage(spool)
        time.sleep(0.02)
    assert during[0] >= 1 and during[1] >= 1024 * 1024, during
    assert raw.send(tail)
    assert raw.status() == 303
    deadline = time.monotonic() + 10
    while spool_usage(spool) != (0, 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert spool_usage(spool) == (0, 0)


def test_a_form_that_takes_no_file_refuses_one_even_with_its_token_first(server, spool, store):
    import httpx

    port, _ = server
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
        data = {"csrf": token, "email": "agent@canton.example", "password": PASSWORD, "next": "/today"}
        assert c.post("/login", data=data).status_code == 303
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/today").text).group(1)
        r = c.post(
            "/filings/CAN-NOI-2026-001/events",
            data={"csrf": token, "seq": "2", "type": "withdrawn", "f_date": "2026-12-02"},
            files={"plan": ("p.pdf", b"%PDF" + b"x" * (100 * 1024), "application/pdf")},  # within the form's limit
        )
    assert r.status_code == 400 and "could not be read" in r.text
    assert store.history("CAN-NOI-2026-001")[-1]["seq"] == 2
    assert spool_usage(spool) == (0, 0)


def test_each_form_has_its_own_limit_and_says_so_in_words(web):
    token = re.search(r'name="csrf" value="([^"]+)"', web.get("/login").text).group(1)
    r = web.post("/login", data={"csrf": token, "email": "x@example.org", "password": "p" * (600 * 1024)})
    assert r.status_code == 413 and "larger than the 512 KB this form takes" in r.text
    assert "Traceback" not in r.text and r.headers["connection"] == "close"


def test_a_plan_over_the_upload_limit_is_refused_before_it_is_read(store, monkeypatch, tmp_path):
    from webkit import client, register

    monkeypatch.setenv("PERMITS_UPLOAD_MAX_MB", "1")
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    ann = client(store)
    token = register(ann, "ann@example.org")
    r = ann.post(
        "/my/apply/noi",
        data={"csrf": token, "town": "saugus"},
        files={"plan": ("p.pdf", b"%PDF" + b"x" * (2 * 1024 * 1024), "application/pdf")},
    )
    assert r.status_code == 413 and "The file is larger than the 1 MB this form takes" in r.text
    assert not (tmp_path / "uploads").exists() or list((tmp_path / "uploads").iterdir()) == []


def test_a_nul_character_in_a_form_or_a_query_is_refused_in_words(web, store):
    from webkit import login

    token = login(web, "canton-agent")
    r = web.post("/filings/CAN-NOI-2026-001/void", data={"csrf": token, "seq": "2", "voids": "1", "reason": "typo\x00"})
    assert r.status_code == 400 and "NUL character" in r.text
    assert web.get("/filings?q=a%00b").status_code == 400
    assert store.history("CAN-NOI-2026-001")[-1]["seq"] == 2


def test_a_csrf_field_with_any_character_is_a_refusal_not_a_500(web):
    for sent in ("é", "\u202e", "x" * 5000, ""):
        r = web.post("/login", data={"csrf": sent, "email": "x@example.org", "password": "p"})
        assert r.status_code == 403 and "out of date" in r.text
