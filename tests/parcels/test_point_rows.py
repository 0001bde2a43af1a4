"""The map's points written from one template (parcels.geo.point_rows) are
the text the json encoder writes for the same features
(parcels.geo.point_collection), whatever the strings and the coordinates;
where a value is not one the template writes (None, a number, NaN), the
encoder writes the whole."""

import json
import math

from hypothesis import given
from hypothesis import strategies as st

from parcels.geo import point_collection, point_rows

NAMES = ("id", "url", "kind", "kind_label", "state", "status", "site", "parcel")
coordinate = st.floats(allow_nan=False, allow_infinity=False)
row = st.tuples(*[st.text() for _ in NAMES])


@given(st.lists(st.tuples(st.tuples(coordinate, coordinate), row), max_size=20))
def test_the_template_writes_what_the_encoder_writes(features):
    points, rows = [f[0] for f in features], [f[1] for f in features]
    written = point_rows(points, NAMES, rows)
    assert written == point_collection(points, [dict(zip(NAMES, r)) for r in rows])
    assert [f["properties"] for f in json.loads(written)["features"]] == [dict(zip(NAMES, r)) for r in rows]


def test_strings_a_browser_must_read_escaped_are_escaped_as_the_encoder_escapes_them():
    rows = [('a"b\\c', "</script>", "\u2028\u2029", "\x00\x1f\x7f", "é 北", "\ud800", "%s %%", "")]
    assert point_rows([(-71.1, 42.2)], NAMES, rows) == point_collection([(-71.1, 42.2)], [dict(zip(NAMES, rows[0]))])


def test_what_the_template_does_not_write_is_left_to_the_encoder():
    one = ("CAN-1", "/filings/CAN-1", "noi", "Notice of Intent", "filed", "due", "1 Main St", "1-2")
    for points, rows in (
        ([(-71.1, 42.2)], [(*one[:-1], None)]),  # a value that is not a string
        ([(-71, 42)], [one]),  # integer coordinates
        ([(None, 42.2)], [one]),
        ([(math.nan, 42.2)], [one]),
        ([(math.inf, 42.2), (-math.inf, 42.2)], [one, one]),
        ([(-71.1, 42.2)], [one[:-1]]),  # a row shorter than the names
    ):
        expected = point_collection(points, [dict(zip(NAMES, r)) for r in rows])
        assert point_rows(points, NAMES, rows) == expected


def test_no_points_is_an_empty_collection():
    assert point_rows([], NAMES, []) == point_collection([], []) == '{"type":"FeatureCollection","features":[]}'
