"""Prefect's environment for the embedded run, set before Prefect is imported.

No Prefect import here: :mod:`services.sweep` calls :func:`configure_embedded`
first.  What it sets follows what was measured on these machines: analytics
and telemetry off (the server would look up a telemetry host and log
errors), a startup timeout long enough for a loaded machine (Prefect's 20 s
default can time out), warnings only in the log.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["configure_embedded"]


def configure_embedded(prefect_home: Path) -> dict[str, str]:
    """Environment for running flows in this process on Prefect's temporary
    local server, with its database in ``prefect_home`` (made if need be)
    when no ``PREFECT_API_URL`` names a server.  Only sets what the user has
    not set; returns what it set."""
    wanted = {
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
        "PREFECT_LOGGING_LEVEL": "WARNING",
        "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
    }
    if not os.environ.get("PREFECT_API_URL"):
        home = Path(prefect_home)
        home.mkdir(parents=True, exist_ok=True)
        wanted["PREFECT_HOME"] = str(home)
    done = {}
    for k, v in wanted.items():
        if k not in os.environ:
            os.environ[k] = v
            done[k] = v
    return done
