"""Hypothesis strategies for malformed filings and events: a valid filing
with its values replaced, removed or nested by hostile ones, then encoded
in the ways files arrive (UTF-8 with or without a BOM, UTF-16, Latin-1).

``FUZZ_EXAMPLES`` (env ``PERMITS_FUZZ_EXAMPLES``) is the examples per fuzz
test: 550 by default, so the CI run makes 2,200 across replay, import
and record; ``make reliability`` sets 2,500 (10,000 in all).
"""

from __future__ import annotations

import copy
import json
import os
import sys

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ_EXAMPLES = int(os.environ.get("PERMITS_FUZZ_EXAMPLES", "550"))

FUZZ_SETTINGS = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

HOSTILE = [
    "",
    " ",
    "2026-12-01",
    "2026-02-30",
    "9999-12-31",
    "0001-01-01",
    "1999-12-31",
    "2026-12-01T19:00",
    "2026-12-01T25:00",
    "2026-12-01T19:00+05:00",
    "\ud800",
    "x\udfff",
    "nul\x00",
    "../../escape/trav",
    "/abs/path",
    "two\nlines",
    "=cmd|' /C calc'!A0",
    "filed",
    "hearing-scheduled",
    "clock-extended",
    "event-voided",
    "newspaper-notice",
    "canton",
    "noi",
    "street-opening",
    "x" * 3000,
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(HOSTILE),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(["type", "date", "id"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def _nodes(obj, path=()):
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _nodes(v, (*path, i))


def _set(obj, path, value):
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


def _drop(obj, path):
    for p in path[:-1]:
        obj = obj[p]
    del obj[path[-1]]


@st.composite
def malformed_filing(draw, base: dict):
    """``base`` with 1-4 of its values replaced by hostile ones, removed, or
    buried under deep nesting."""
    obj = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p, _ in _nodes(obj) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "replace", "drop", "nest"]))
        if op == "replace":
            _set(obj, path, draw(values))
        elif op == "drop":
            _drop(obj, path)
        else:
            deep = "x"
            for _ in range(draw(st.integers(30, 1200))):
                deep = [deep]
            _set(obj, path, deep)
    return obj


@st.composite
def encoded(draw, obj):
    """The bytes of a file holding ``obj``, as it might arrive.  A value
    nested 1,200 deep is written with room to spare: the test's own encoder
    must not be what fails (the product refuses such nesting by name)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        text = json.dumps(obj, ensure_ascii=draw(st.booleans()), allow_nan=True)
    finally:
        sys.setrecursionlimit(limit)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    return text.encode(encoding, errors="surrogatepass" if encoding.startswith("utf") else "replace")
