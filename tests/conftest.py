import os

# Unit tests must never start a Prefect server by accident (TECH-NOTES.md).
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
