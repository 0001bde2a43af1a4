"""Declared state machines: states as an enum, transitions as a table,
guards and conditions by name.

A :class:`Machine` is checked when it is built (at import of its module):
every source and target is a declared state, every guard and condition
name is known, every state is reachable from the start and every state that
is not final has a way out.  A bad table fails at import, not at run time.

    Transition("permit-issued", (APPLIED,), ISSUED, guards=("dig_safe_number_given",))

- ``sources``: the states the event is allowed in (``ANY`` = every state
  that is not final);
- ``target``: the new state, or ``None`` to stay where it is;
- ``cond``: the name of a condition that *selects* this row (rows for the
  same event and source are tried in order; a row whose condition is false
  is passed over silently);
- ``guards``: names of rules that *refuse* the event, with a message that
  cites the rule, when they are not met.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from .errors import RuleBookError, TransitionRefused

__all__ = ["START", "ANY", "Transition", "Guard", "Machine"]

START = "(start)"
ANY = "*"


@dataclass(frozen=True)
class Transition:
    event: str
    sources: tuple[str, ...]
    target: str | None
    cond: str | None = None
    guards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Guard:
    """A rule that may refuse an event.  ``check(ctx, event)`` returns None
    when the event may happen, else the reason, which names the rule."""

    name: str
    check: Callable
    citation: str = ""


@dataclass
class Machine:
    kind: str
    states: type[Enum]
    final: frozenset
    transitions: tuple[Transition, ...]
    guards: Mapping[str, Guard] = field(default_factory=dict)
    conds: Mapping[str, Callable] = field(default_factory=dict)

    def __post_init__(self):
        values = {s.value for s in self.states}
        problem = lambda msg: RuleBookError(f"machine {self.kind}", None, msg)  # noqa: E731
        for t in self.transitions:
            for s in t.sources:
                if s not in values and s not in (START, ANY):
                    raise problem(f"{t.event}: source {s!r} is not a state of {self.states.__name__}")
            if t.target is not None and t.target not in values:
                raise problem(f"{t.event}: transition to nowhere ({t.target!r} is not a state)")
            if START in t.sources and t.target is None:
                raise problem(f"{t.event}: a first event must lead to a state")
            for g in t.guards:
                if g not in self.guards:
                    raise problem(f"{t.event}: unknown guard {g!r}")
            if t.cond is not None and t.cond not in self.conds:
                raise problem(f"{t.event}: unknown condition {t.cond!r}")
        for f in self.final:
            if f not in values:
                raise problem(f"final state {f!r} is not a state")
        # reachability from the start, to a fixed point
        reached, changed = {START}, True
        while changed:
            changed = False
            for t in self.transitions:
                if t.target is None or t.target in reached:
                    continue
                open_reached = any(r != START and r not in self.final for r in reached)
                if any(s in reached for s in t.sources) or (ANY in t.sources and open_reached):
                    reached.add(t.target)
                    changed = True
        reached.discard(START)
        unreachable = values - reached
        if unreachable:
            raise problem(f"unreachable states: {', '.join(sorted(unreachable))}")
        for s in values - set(self.final):
            if not any(s in t.sources or ANY in t.sources for t in self.transitions if t.target not in (None, s)):
                raise problem(f"state {s!r} is not final and has no way out")
        self._by_event: dict[str, list[Transition]] = {}
        self._rows: dict[tuple[str, str], tuple] = {}  # (state, event type) -> compiled rows, see step()
        #: (state, event type) -> the next state, for the pairs whose first
        #: row has no condition and no guard: step() would answer it without
        #: asking anything (filled as step() meets each pair)
        self.unguarded: dict[tuple[str, str], str] = {}
        for t in self.transitions:
            self._by_event.setdefault(t.event, []).append(t)

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(self._by_event)

    def allowed(self, state: str) -> list[str]:
        return sorted({t.event for t in self.transitions if self._applies(t, state)})

    def _applies(self, t: Transition, state: str) -> bool:
        return state in t.sources or (ANY in t.sources and state != START and state not in self.final)

    def step(self, state: str, event, ctx) -> str:
        """The state after ``event``; raises TransitionRefused naming the
        guard's rule, or the states the event is allowed in."""
        etype = event.type
        rows = self._rows.get((state, etype))
        if rows is None:  # which transitions apply depends only on the state and the event type
            rows = self._rows[(state, etype)] = self._compile(state, etype)
            if rows and rows[0][0] is None and not rows[0][1]:
                self.unguarded[(state, etype)] = rows[0][2]
        if not rows:
            where = sorted({s for t in self._by_event.get(etype, ()) for s in t.sources} - {ANY})
            shown = "before the first event" if state == START else f"when the filing is {state!r}"
            hint = f"; it is allowed in: {', '.join(w if w != START else 'the first event' for w in where)}" if where else ""
            if ANY in {s for t in self._by_event.get(etype, ()) for s in t.sources}:
                hint = "; it is allowed in any state that is not final"
            if etype not in self._by_event and getattr(ctx, "rules", None) is not None:
                hint = f": it is no step of a {self.kind} under {ctx.rules.bylaw}"
            raise TransitionRefused(
                f"{etype} is not allowed {shown}{hint}",
                filing=ctx.filing_id,
                position=event.position,
                event=etype,
                state=state,
            )
        for cond, guards, target in rows:
            if cond is not None and not cond(ctx, event):
                continue
            for check, rule in guards:
                reason = check(ctx, event)
                if reason:
                    raise TransitionRefused(
                        reason, filing=ctx.filing_id, position=event.position, event=etype, rule=rule, state=state
                    )
            return target
        raise TransitionRefused(
            f"{etype} does not fit the filing's record when it is {state!r}",
            filing=ctx.filing_id,
            position=event.position,
            event=etype,
            state=state,
        )

    def _compile(self, state: str, etype: str) -> tuple:
        """The rows of ``etype`` that apply in ``state``, in order, each as
        (condition or None, ((guard check, rule cited), ...), next state)."""
        return tuple(
            (
                self.conds[t.cond] if t.cond is not None else None,
                tuple((self.guards[g].check, self.guards[g].citation or g) for g in t.guards),
                t.target if t.target is not None else state,
            )
            for t in self._by_event.get(etype, ())
            if self._applies(t, state)
        )

    def table(self) -> list[tuple[str, str, str, str]]:
        """(event, from, to, guards) rows, for `permits machines`."""
        rows = []
        for t in self.transitions:
            src = ", ".join("any open state" if s == ANY else s for s in t.sources)
            to = t.target or "(stays)"
            notes = [f"if {t.cond}"] if t.cond else []
            notes += [f"{g} ({self.guards[g].citation})" if self.guards[g].citation else g for g in t.guards]
            rows.append((t.event, src, to, "; ".join(notes)))
        return rows
