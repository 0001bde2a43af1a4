"""The demo's emails can be read, and their links followed (issue 32, item
5): ``permits demo --port P`` serves on P and its emails link to P (the
base URL is the address served, not port 8000); with no mail server set, a
new applicant registers through the link an admin reads on the Emails page
(Playwright driving Debian's Chromium against the demo in a process of its
own), which ``permits outbox show ID`` prints too; axe-core finds nothing
serious on the Emails pages at a desktop's width or a phone's (390 px),
where nothing scrolls sideways.  A second demo on the same data directory
is refused while the first runs, naming the data directory."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from axekit import serious_violations
from test_web_browser import CHROMIUM
from webkit import PASSWORD

from cli.main import main

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")
PERMITS = str(Path(sys.executable).parent / "permits")
NEWCOMER = "new.applicant@example.org"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """``permits demo --port P`` over a data directory of its own, in its
    own process group (stopped at the end); (P, its data directory, what it
    printed up to serving)."""
    data = tmp_path_factory.mktemp("demo-data")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PERMITS_BASE_URL", "PERMITS_SMTP_URL", "PERMITS_DATABASE_URL")}
    env.update(PERMITS_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    args = [PERMITS, "demo", "--port", str(port), "--count", "30", "--no-prefect", "--notices", "1", "--as-of", "2026-12-03"]
    args += ["--out", str(data / "out")]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    printed = []
    try:
        deadline = time.monotonic() + 300
        for line in proc.stdout:
            printed.append(line)
            if line.startswith("Workbench at "):
                break
            assert time.monotonic() < deadline, "the demo did not start serving"
        out = "".join(printed)
        assert f"Workbench at http://127.0.0.1:{port}/" in out, out[-2000:]
        while True:  # the workers answer
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the demo's workers never answered"
                time.sleep(0.2)
        yield port, data, out
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # the demo and its workers: a process group of this test's own
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _password_of(out: str, email: str) -> str:
    return re.search(rf"^  {re.escape(email)}\s+password (\S+)", out, re.M).group(1)


def _accessible(page, name: str) -> None:
    assert serious_violations(page) == [], name
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways"


def test_the_demo_names_its_data_directory_and_serves_where_it_says(demo):
    port, data, out = demo
    assert f"The demo's data directory: {data} (PERMITS_DATA_DIR)" in out
    assert f"its store: sqlite:///{data / 'demo' / 'permits.db'}" in out
    assert f"open http://127.0.0.1:{port}/ and log in" in out
    assert f"the links open this demo, http://127.0.0.1:{port}/." in out


def test_a_new_applicant_registers_through_the_link_read_on_the_emails_page(demo, browser, tmp_path):
    port, data, out = demo
    base = f"http://127.0.0.1:{port}"
    newcomer = browser.new_context(viewport={"width": 1280, "height": 900})
    p = newcomer.new_page()
    p.goto(base + "/register")
    p.fill('input[name="email"]', NEWCOMER)
    p.fill('input[name="password"]', PASSWORD)
    p.fill('input[name="password2"]', PASSWORD)
    p.click('button:has-text("Register")')
    assert f"We have sent an email to {NEWCOMER}" in p.inner_text("#answer")

    for width in (1280, 390):
        admin = browser.new_context(viewport={"width": width, "height": 900})
        a = admin.new_page()
        a.goto(base + "/login")
        a.fill('input[name="email"]', "admin@permits.example")
        a.fill('input[name="password"]', _password_of(out, "admin@permits.example"))
        a.click('button:has-text("Log in")')
        a.wait_for_url("**/today")
        a.click('nav a:has-text("Emails")')
        a.wait_for_url("**/emails")
        a.fill('input[name="address"]', "new.applicant")
        a.click('button:has-text("Show")')
        row = a.locator("#emails tbody tr", has_text=NEWCOMER)
        assert row.count() == 1 and "Finish your registration" in row.inner_text()
        assert "no mail server is set" in row.inner_text()
        _accessible(a, f"the Emails page at {width} px")
        row.locator("a", has_text="Finish your registration").click()
        a.wait_for_selector("#body")
        assert a.inner_text("#headers").count(NEWCOMER) == 1
        _accessible(a, f"an email at {width} px")
        link = a.locator(f'#body a[href^="{base}/confirm/"]')
        assert link.count() == 1  # the link opens this demo, on its own port
        href = link.get_attribute("href")
        admin.close()

    p.goto(href)  # the newcomer follows the link the admin read
    p.fill('input[name="password"]', PASSWORD)
    p.click('button:has-text("Finish registering")')
    p.wait_for_url("**/my")
    newcomer.close()


def test_permits_outbox_show_prints_the_demos_email_with_its_link(demo, capsys):
    """The registration's email of the test above (a module's tests run in order)."""
    port, data, _ = demo
    url = f"sqlite:///{data / 'demo' / 'permits.db'}"
    assert main(["outbox", "--all", "--db", url]) == 0
    listed = capsys.readouterr().out
    number = re.search(rf"^\s*(\d+)\s.*{re.escape(NEWCOMER)}", listed, re.M).group(1)
    assert main(["outbox", "show", number, "--db", url]) == 0
    shown = capsys.readouterr().out
    assert f"To:       {NEWCOMER}" in shown and "Subject:  Finish your registration" in shown
    assert re.search(r"^Date:     \w+day, \w+ \d+, \d{4}, \d+:\d\d [ap]\.m\.$", shown, re.M), shown
    assert re.search(rf"http://127\.0\.0\.1:{port}/confirm/[A-Za-z0-9_-]+", shown)


def test_a_second_demo_on_the_same_data_directory_is_refused_while_the_first_runs(demo, monkeypatch, capsys):
    _, data, _ = demo
    monkeypatch.setenv("PERMITS_DATA_DIR", str(data))
    assert main(["demo", "--port", str(_free_port()), "--no-prefect", "--count", "5"]) == 2
    err = capsys.readouterr().err
    assert f"a demo is already running on the data directory {data}" in err and "PERMITS_DATA_DIR=" in err
