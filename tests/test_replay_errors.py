"""`permits replay` on a history it refuses: exit status 2, one line on
standard error naming the event, its position and the rule or field, and
nothing on standard output.  Run through a subprocess, as a user runs it."""

import json
import subprocess
import sys
from datetime import date

import pytest

from workflows.errors import MalformedEvent
from workflows.filing import parse_filing
from workflows.replay import replay


def test_a_time_with_a_utc_offset_is_a_malformed_event_not_a_crash():
    with pytest.raises(MalformedEvent, match=r"event 2 \(work-noticed\): field 'at'"):
        replay(parse_filing({"town": "canton", "kind": "street-opening", "id": "CAN-SO-1", "events": [
            {"type": "filed", "date": "2026-12-01"},
            {"type": "work-noticed", "at": "2026-12-02T10:00+05:00"},
        ]}), date(2026, 12, 20))
