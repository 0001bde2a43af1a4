"""A real ``prefect server`` on 127.0.0.1 for the few tests that run real
flows: started once per session by the ``prefect_api`` fixture
(tests/conftest.py), with a bounded wait for health, and killed at the end.

Its database is PostgreSQL: the cluster of ``PERMITS_TEST_POSTGRES_URL``
(.ci/run starts one for the store's tests) or else a throwaway cluster of its
own, with a fresh database for Prefect; SQLite in a temporary PREFECT_HOME
only when PostgreSQL is not installed."""

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


class ThrowawayPostgres:
    """A PostgreSQL cluster in a temporary folder, reachable only through a
    unix socket there (as .ci/postgres.sh starts one for the store); as root
    the server runs as ``postgres``, since initdb refuses root."""

    def __init__(self, folder: Path):
        import shutil

        initdb = shutil.which("initdb")
        if not initdb:
            raise FileNotFoundError("initdb")
        self.bin = Path(os.path.realpath(initdb)).parent
        self.dir = folder
        self.port = free_port()
        as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.as_pg = as_pg
        folder.chmod(0o755)
        if as_pg:
            shutil.chown(folder, "postgres")
        subprocess.run(
            as_pg
            + [str(self.bin / "initdb"), "-D", str(folder / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        subprocess.run(
            as_pg
            + [
                str(self.bin / "pg_ctl"),
                "-D",
                str(folder / "data"),
                "-l",
                str(folder / "server.log"),
                "-w",
                "-t",
                "60",
                "-o",
                f"-p {self.port} -k {folder} -c listen_addresses='' -c fsync=off",
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=90,
        )
        self.url = f"postgresql+psycopg://postgres@/postgres?host={folder}&port={self.port}"

    def stop(self) -> None:
        subprocess.run(
            self.as_pg + [str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop"],
            capture_output=True,
            timeout=60,
        )


def _postgres_for_prefect(url: str | None) -> str | None:
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
    """``postgres``: ``"auto"`` uses PERMITS_TEST_POSTGRES_URL (.ci/run) or
    else a throwaway cluster when initdb is on PATH, else SQLite;
    ``None``: SQLite."""

    def __init__(self, home: Path, postgres: str | None = "auto"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/api"
        self.log = home / "server.log"
        env = dict(
            os.environ,
            PREFECT_HOME=str(home),
            DO_NOT_TRACK="1",
            PREFECT_SERVER_ANALYTICS_ENABLED="false",
            PREFECT_SERVER_UI_ENABLED="false",
            PREFECT_LOGGING_LEVEL="WARNING",
        )
        env.pop("PREFECT_API_URL", None)
        self.cluster = None
        pg_url = None
        if postgres == "auto":
            pg_url = os.environ.get("PERMITS_TEST_POSTGRES_URL")
            if not pg_url:
                import tempfile

                try:  # under /tmp itself: the postgres user must reach the socket
                    self.cluster = ThrowawayPostgres(Path(tempfile.mkdtemp(prefix="permits-prefect-pg.")))
                    pg_url = self.cluster.url
                except FileNotFoundError:  # PostgreSQL is not installed
                    self.cluster = None
        self.database = _postgres_for_prefect(pg_url)
        if self.database:
            env["PREFECT_SERVER_DATABASE_CONNECTION_URL"] = self.database
        prefect = Path(sys.executable).with_name("prefect")
        self.proc = subprocess.Popen(
            [str(prefect), "server", "start", "--host", "127.0.0.1", "--port", str(self.port)],
            env=env,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

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
        if self.cluster is not None:
            import shutil

            self.cluster.stop()
            shutil.rmtree(self.cluster.dir, ignore_errors=True)
            self.cluster = None
