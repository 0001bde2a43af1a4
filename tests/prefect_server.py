"""A real ``prefect server`` on 127.0.0.1 for the few tests that run real
flows: started once per session by the ``prefect_api`` fixture
(tests/conftest.py), with a bounded wait for health, and killed at the end.

Its database is PostgreSQL when one is at hand (``PERMITS_TEST_POSTGRES_URL``
from .ci/run, as the store's tests use; a fresh database is created in it
for Prefect), else SQLite in a temporary PREFECT_HOME."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

STARTUP_SECONDS = 90


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _postgres_for_prefect() -> str | None:
    url = os.environ.get("PERMITS_TEST_POSTGRES_URL")
    if not url:
        return None
    import asyncio

    import asyncpg
    from sqlalchemy.engine import make_url

    u = make_url(url)
    host, port = u.query.get("host") or u.host, int(u.query.get("port") or u.port or 5432)
    name = f"prefect_test_{os.getpid()}"

    async def create():
        conn = await asyncpg.connect(host=host, port=port, user=u.username, database=u.database)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create())
    return f"postgresql+asyncpg://{u.username}@/{name}?host={host}&port={port}"


class PrefectServer:
    def __init__(self, home: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/api"
        self.log = home / "server.log"
        env = dict(os.environ, PREFECT_HOME=str(home), DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false",
                   PREFECT_SERVER_UI_ENABLED="false", PREFECT_LOGGING_LEVEL="WARNING")
        env.pop("PREFECT_API_URL", None)
        self.database = _postgres_for_prefect()
        if self.database:
            env["PREFECT_SERVER_DATABASE_CONNECTION_URL"] = self.database
        prefect = Path(sys.executable).with_name("prefect")
        self.proc = subprocess.Popen([str(prefect), "server", "start", "--host", "127.0.0.1", "--port", str(self.port)],
                                     env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def wait_healthy(self, seconds: float = STARTUP_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"prefect server exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"prefect server not healthy after {seconds} s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
