"""The reliability suite: bad input, hostile ids and templates, concurrent
writers, kill -9.  Helpers shared with the rest of the suite live one folder
up (storekit, notice_fixtures)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
