"""Prefect's environment for the embedded run, set before Prefect is imported.

No Prefect import here: the CLI calls :func:`configure_embedded` first.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["configure_embedded"]


def configure_embedded(data_dir: Path) -> dict[str, str]:
    """Environment for running flows in this process without a server of
    our own (TECH-NOTES.md).  Only sets what the user has not set; returns
    what it set."""
    wanted = {
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
        "PREFECT_LOGGING_LEVEL": "WARNING",
        "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
    }
    if not os.environ.get("PREFECT_API_URL"):
        wanted["PREFECT_HOME"] = str(Path(data_dir) / "prefect")
    done = {}
    for k, v in wanted.items():
        if k not in os.environ:
            os.environ[k] = v
            done[k] = v
    return done
