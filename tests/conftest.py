import os

# Unit tests must never start a Prefect server by accident (TECH-NOTES.md).
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

# Commands run by the tests keep their data (the holidays cache, the default
# store) in a throw-away folder, never in the user's data directory.
import tempfile as _tempfile

os.environ.setdefault("PERMITS_DATA_DIR", _tempfile.mkdtemp(prefix="permits-test-data-"))
