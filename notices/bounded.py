"""Town templates render within bounds: Jinja's sandbox keeps a template
from Python's internals, and this keeps it from the machine's memory and
time (issue 35: ``{{ "a" * 4000000000 }}`` exhausted memory, two nested
loops over ``range(100000)`` ran until killed, in the CLI and in a web
worker).

:class:`BoundedSandbox` refuses, with :class:`TemplateLimit` naming the
template and its line:

- a product, power, ``%`` format or ``~`` join whose result would be over
  :data:`MAX_OUTPUT` characters (or items), a ``range`` over
  :data:`MAX_RANGE` items, a filter or method given a number over
  :data:`MAX_ARGUMENT` (``center(4000000000)``);
- more than :data:`MAX_ITERATIONS` turns of its loops in one rendering
  (every ``{% for %}`` counts, nested ones too);
- output over :data:`MAX_OUTPUT` characters (rendered with ``generate()``
  and counted);
- a rendering past :data:`RENDER_SECONDS` of wall clock (checked at each
  turn of a loop and each piece of output).

A notice of the project's own templates, for a town's largest abutter
list, is far inside every bound.
"""

from __future__ import annotations

import contextvars
import functools
import re
import time
import types
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.runtime import markup_join
from jinja2.sandbox import SandboxedEnvironment, SecurityError

__all__ = [
    "MAX_OUTPUT",
    "MAX_RANGE",
    "MAX_ITERATIONS",
    "MAX_ARGUMENT",
    "RENDER_SECONDS",
    "TemplateLimit",
    "BoundedSandbox",
]

#: the most characters a town template's rendering may produce (a notice is
#: a few thousand; labels for 2,000 abutters a few hundred thousand)
MAX_OUTPUT = 2_000_000
#: the most items a ``range`` may have
MAX_RANGE = 10_000
#: the most turns of loops in one rendering
MAX_ITERATIONS = 200_000
#: the largest number a filter or method may be given (a width, a count)
MAX_ARGUMENT = 10_000
#: the longest a rendering may take (seconds of wall clock)
RENDER_SECONDS = 5.0


class TemplateLimit(SecurityError):
    """A town template over one of the bounds; the message names it."""


class _Budget:
    __slots__ = ("turns", "deadline")

    def __init__(self) -> None:
        self.turns = 0
        self.deadline = time.monotonic() + RENDER_SECONDS

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise TemplateLimit(f"its rendering took more than {RENDER_SECONDS:g} seconds")


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("template_budget", default=None)


def _budget() -> _Budget:
    budget = _BUDGET.get()
    if budget is None:  # a rendering begun outside BoundedTemplate.render (generate, stream): its own
        budget = _Budget()
        _BUDGET.set(budget)
    return budget


def _bounded_loop(iterable):
    """Every turn of a template's loop, counted against the rendering's
    budget (the ``for`` tags are rewritten to pass through this)."""
    budget = _budget()
    for item in iterable:
        budget.turns += 1
        if budget.turns > MAX_ITERATIONS:
            raise TemplateLimit(f"its loops turn more than {MAX_ITERATIONS:,} times")
        budget.tick()
        yield item


def _sized(value) -> int | None:
    return len(value) if isinstance(value, str | list | tuple | bytes) else None


def _bounded_join(*parts) -> str:
    """The ``~`` operator (escaping as Jinja's own join does), refused when
    its result would be over MAX_OUTPUT."""
    joined = markup_join(parts)
    if len(joined) > MAX_OUTPUT:  # each part is at most MAX_OUTPUT: this is bounded by their number
        raise TemplateLimit(f"a text joined with ~ is over {MAX_OUTPUT:,} characters")
    return joined


_WIDE = re.compile(r"(?:%[-#0 +]*|\{[^{}]*?[:!][^{}]*?)\d{5,}")


def _bounded_range(*args):
    rng = range(*args)
    if len(rng) > MAX_RANGE:
        raise TemplateLimit(f"range of {len(rng):,} items, over the {MAX_RANGE:,} a template may ask for")
    return rng


def _check_arguments(args, kwargs, what: str) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ARGUMENT:
            raise TemplateLimit(f"{what} given {value:,}, over the {MAX_ARGUMENT:,} a template may give")
        if isinstance(value, str) and _WIDE.search(value):
            raise TemplateLimit(f"{what} given a format wider than {MAX_ARGUMENT:,} characters")


def _bounded_filter(name: str, f, *, has_value: bool = True):
    """``f`` refusing an argument over the bounds (not the value it filters)."""
    passed = (jinja2.runtime.Context, jinja2.nodes.EvalContext, jinja2.Environment)

    @functools.wraps(f)
    def bounded(*args, **kwargs):
        given = list(args)
        while given and isinstance(given[0], passed):
            given.pop(0)
        _check_arguments(given[1:] if has_value else given, kwargs, name)
        if name == "format" and given:  # the value is the format: "%4000000000s"|format("a")
            _check_arguments(given[:1], {}, name)
        return f(*args, **kwargs)

    return bounded


class BoundedTemplate(jinja2.Template):
    """A template whose ``render`` counts its output, under a fresh budget."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        token = _BUDGET.set(_Budget())
        try:
            out, size = [], 0
            for piece in self.generate(*args, **kwargs):
                size += len(piece)
                if size > MAX_OUTPUT:
                    raise TemplateLimit(f"its output is over {MAX_OUTPUT:,} characters")
                _BUDGET.get().tick()
                out.append(piece)
            return "".join(out)
        except TemplateLimit as exc:
            raise TemplateLimit(f"{_where(exc, self)}: refused, {exc.args[0]}") from None
        finally:
            _BUDGET.reset(token)


def _where(exc: BaseException, template: jinja2.Template) -> str:
    """``template canton/legal-notice.html.j2, line 3``: the last frame of the
    traceback that is a template's (Jinja rewrites them to its lines); the
    template alone when the bound is met outside its code (its output's
    size, counted as it comes)."""
    name, line = _short(template.filename or template.name or "?"), None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            name, line = _short(filename), tb.tb_lineno
        tb = tb.tb_next
    return f"template {name}" + (f", line {line}" if line else "")


def _short(filename: str) -> str:
    parts = filename.replace("\\", "/").split("/")
    return "/".join(parts[-2:])


class BoundedSandbox(SandboxedEnvironment):
    """Jinja's sandbox with the bounds of this module (see its docstring)."""

    template_class = BoundedTemplate
    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.globals["range"] = _bounded_range
        self.globals["lipsum"] = _bounded_filter("lipsum", self.globals["lipsum"], has_value=False)
        self.filters["_bounded_loop"] = _bounded_loop
        self.filters["_bounded_join"] = _bounded_join

    def bound_filters(self) -> None:
        """Wrap every filter in the argument check (after the caller added its own)."""
        for name, f in list(self.filters.items()):
            if not name.startswith("_bounded"):
                self.filters[name] = _bounded_filter(name, f)

    def _generate(self, source, name, filename, defer_init=False):
        for node in source.find_all(nodes.For):
            node.iter = nodes.Filter(node.iter, "_bounded_loop", [], [], None, None, lineno=node.lineno)
        for parent in source.find_all(nodes.Node):
            for field in parent.fields:
                value = getattr(parent, field, None)
                if isinstance(value, nodes.Concat):
                    setattr(parent, field, _join(value))
                elif isinstance(value, list):
                    setattr(parent, field, [_join(v) if isinstance(v, nodes.Concat) else v for v in value])
        return super()._generate(source, name, filename, defer_init)

    def call_binop(self, context, operator: str, left, right):
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                size = _sized(seq)
                if size is not None and isinstance(n, int) and size * n > MAX_OUTPUT:
                    raise TemplateLimit(f"a text or list repeated to {size * n:,} characters, over {MAX_OUTPUT:,}")
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 64:
                raise TemplateLimit(f"a power of {right:,}, over the 64 a template may raise to")
        elif operator == "%":
            if isinstance(left, str) and _WIDE.search(left):
                raise TemplateLimit(f"a format wider than {MAX_ARGUMENT:,} characters")
        elif operator == "+":
            a, b = _sized(left), _sized(right)
            if a is not None and b is not None and a + b > MAX_OUTPUT:
                raise TemplateLimit(f"a text or list joined to {a + b:,} characters, over {MAX_OUTPUT:,}")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's own signature
        method = getattr(__obj, "__wrapped__", __obj)  # str.format comes wrapped by the sandbox
        if isinstance(method, types.BuiltinFunctionType | types.BuiltinMethodType):  # "a".ljust(4000000000)
            _check_arguments(args, kwargs, getattr(method, "__name__", "a method"))
            if method.__name__ in ("format", "format_map") and isinstance(getattr(method, "__self__", None), str):
                _check_arguments((method.__self__,), {}, "format")
        return super().call(__context, __obj, *args, **kwargs)


def _join(concat: nodes.Concat) -> nodes.Node:
    return nodes.Filter(concat.nodes[0], "_bounded_join", concat.nodes[1:], [], None, None, lineno=concat.lineno)
