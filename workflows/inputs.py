"""What any JSON a user hands the engine must be, before its meaning is read.

:func:`load_json` turns the bytes of a file into Python values, or refuses
them with one line naming the rule:

- UTF-8, with or without a byte-order mark; UTF-16 or UTF-32 (by their
  mark) and bytes that are not UTF-8 (Latin-1...) are named and refused;
- ``NaN`` and ``Infinity`` are refused at parse time (they are not JSON, and
  PostgreSQL's ``jsonb`` refuses them where SQLite would store them);
- nesting deeper than :data:`MAX_DEPTH`.

:func:`check_values` walks parsed values (whatever their source: a file, a
stored row, a web form) and refuses strings a database or a PDF cannot
carry: a NUL character, a lone surrogate (``"\\ud800"``), or more than
:data:`MAX_FIELD_CHARS` characters (a 1 MB name stalled PDF rendering for
minutes), and float values that are not finite.

Pure: bytes in, values out.
"""

from __future__ import annotations

import codecs
import json
import math
import re

from .errors import MalformedEvent

__all__ = [
    "MAX_DEPTH",
    "MAX_FIELD_CHARS",
    "MAX_FILE_MB",
    "ONE_LINE",
    "not_one_line",
    "one_line_problem",
    "BadInput",
    "load_json",
    "check_values",
]

#: the deepest nesting of objects and lists a filing may have
MAX_DEPTH = 32
#: the largest JSON file read (a filing is a few kilobytes: 64 MB is more than
#: 10,000 of them; a 126 MB file took 609 MB of memory to import)
MAX_FILE_MB = 64
#: the longest string (a name, an address, a description) a filing may carry
MAX_FIELD_CHARS = 2000

_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


class BadInput(MalformedEvent):
    """A document that is not JSON the engine reads (encoding, syntax, depth, values)."""


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


#: what a field of one line (a name, an address, a parcel id) may not hold:
#: a line break (CR, LF, the Unicode line and paragraph separators), a tab
#: or another control character (C0, DEL, C1), which would split a letter's
#: address block, an email's header or a CSV row
ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def not_one_line(text: str) -> str | None:
    """What in ``text`` a field of one line may not hold ("a line break",
    "a tab", "a control character"); None when it holds none."""
    found = ONE_LINE.search(text or "")
    if found is None:
        return None
    c = found.group(0)
    return "a line break" if c in "\r\n\u2028\u2029\x0b\x0c" else "a tab" if c == "\t" else "a control character"


def one_line_problem(text: str) -> str | None:
    """Why ``text`` cannot be a field of one line, in people's words; None when it can."""
    what = not_one_line(text)
    return None if what is None else f"holds {what}: give it on one line, in letters, digits and punctuation"


def load_json(data: bytes, where: str):
    """The JSON value in ``data`` (a file's bytes); BadInput naming ``where``
    and the rule otherwise."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    for mark, name in _MARKS:
        if data.startswith(mark):
            raise BadInput(f"{where} is encoded as {name}; save it as UTF-8")
    if len(data) >= 2 and (data[0] == 0 or data[1] == 0):
        raise BadInput(f"{where} looks like UTF-16 without a byte-order mark; save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(
            f"{where} is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}; Latin-1 or Windows-1252?); save it as UTF-8"
        ) from None
    _check_depth(text, where)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:  # NaN, Infinity
        raise BadInput(f"{where} is not valid JSON: {exc}") from None
    except RecursionError:  # pragma: no cover - _check_depth comes first
        raise BadInput(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    check_values(value, where)
    return value


def _check_depth(text: str, where: str) -> None:
    """Refuse nesting over MAX_DEPTH before parsing (the parser would recurse)."""
    depth, in_string, escaped = 0, False, False
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise BadInput(f"{where}: nested deeper than {MAX_DEPTH} levels")
        elif ch in "]}":
            depth -= 1


def _bad_string(s: str) -> str | None:
    if len(s) > MAX_FIELD_CHARS:
        return f"is {len(s):,} characters long; the limit is {MAX_FIELD_CHARS:,}"
    if "\x00" in s:
        return "contains a NUL character"
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            return "contains a lone surrogate (not a character)"
    return None


def check_values(value, where: str = "", filing: str | None = None) -> None:
    """Refuse a string with NUL, a lone surrogate or over MAX_FIELD_CHARS,
    a float that is not finite, or nesting over MAX_DEPTH, anywhere in
    ``value``; BadInput names the path to it.  A fast pass finds whether
    anything is wrong; only then is the path looked for."""
    if not is_clean(value, 0):
        explain_clock(value, where, filing)


def is_clean(v, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    t = type(v)
    if t is str:
        return len(v) <= MAX_FIELD_CHARS and "\x00" not in v and (v.isascii() or _encodable(v))
    if t is dict:
        for k, item in v.items():
            if type(k) is str and not (len(k) <= MAX_FIELD_CHARS and "\x00" not in k and (k.isascii() or _encodable(k))):
                return False
            if type(item) not in _SCALARS and not is_clean(item, depth + 1):
                return False
        return True
    if t is list:
        return all(type(item) in _SCALARS or is_clean(item, depth + 1) for item in v)
    if t is float:
        return math.isfinite(v)
    return True


_SCALARS = frozenset({int, bool, type(None)})


def _encodable(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def explain_clock(value, where: str, filing: str | None) -> None:
    """Raise BadInput naming the first bad value's path (the slow pass)."""
    stack = [(value, "", 0)]
    who = filing or where or None
    while stack:
        v, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadInput(f"{where + ': ' if where else ''}nested deeper than {MAX_DEPTH} levels", filing=filing)
        if isinstance(v, str):
            problem = _bad_string(v)
            if problem:
                raise BadInput(f"field {path or 'value'!r} {problem}", filing=who)
        elif isinstance(v, dict):
            for k, item in v.items():
                if isinstance(k, str) and (problem := _bad_string(k)):
                    raise BadInput(f"a field name {problem}", filing=who)
                stack.append((item, f"{path}.{k}" if path else str(k), depth + 1))
        elif isinstance(v, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(v, start=1))
        elif isinstance(v, float) and not math.isfinite(v):
            raise BadInput(f"field {path or 'value'!r} is {v}, not a number JSON can carry", filing=who)
    raise AssertionError("check_values: the fast pass refused what the slow pass accepts")  # pragma: no cover
