"""What a long command says while it works, on standard error: a counted
stage as a bar (:class:`ProgressBar`: the count, the time taken and an
estimate of the time left, redrawn in place on a terminal; one line when it
starts and one when it ends otherwise).

``permits import``, ``permits sweep`` and ``permits demo`` draw it; the
services are handed it as the :class:`services.sweep.Progress` protocol
(``start(total)``, ``update(n)``), and tell a stage without a count
(Prefect's server starting) through their ``say`` callback.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

__all__ = ["ProgressBar", "duration"]

#: a bar is redrawn at most this often (seconds), and when it completes
REDRAW = 0.1
WIDTH = 30


def duration(seconds: float) -> str:
    """``0.4 s``, ``12 s``, ``3 min 05 s``, ``1 h 02 min``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _is_terminal(stream) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())


class ProgressBar:
    """The progress of a counted stage (``import``, ``sweep``) on standard
    error, for runs of at least ``minimum`` items: :meth:`start` with the
    total (or give it here), then :meth:`update` with each step's count
    (the :class:`services.sweep.Progress` a sweep tells).

    On a terminal, one line redrawn in place::

        sweep [#########.....................] 3,000/10,000 filings  4.1 s, about 9.6 s left

    and, when the count is reached, the time it took (and ``then``, what
    the command does next).  Not on a terminal (a log, a pipe), one line
    when the stage starts and one when it ends.  ``force``: draw the bar
    whatever the stream and the total (tests)."""

    def __init__(
        self,
        label: str,
        total: int | None = None,
        stream=None,
        minimum: int = 1000,
        force: bool = False,
        unit: str = "filings",
        then: str = "",
        clock: Callable[[], float] = time.monotonic,
    ):
        self.label, self.unit, self.then = label, unit, then
        self.stream = stream or sys.stderr
        self.minimum, self.force, self.clock = minimum, force, clock
        self.total, self.done, self.enabled, self.terminal = 0, 0, False, False
        self._started = self._drawn = 0.0
        self._finished = False
        self._lock = threading.Lock()
        if total is not None:
            self.start(total)

    def start(self, total: int, label: str | None = None) -> None:
        """A new count of ``total`` items (``label``: under a new name)."""
        self.label = label or self.label
        self.total, self.done, self._finished = total, 0, False
        self.terminal = self.force or _is_terminal(self.stream)
        self.enabled = self.force or total >= self.minimum
        self._started = self._drawn = self.clock()
        if self.enabled and not self.terminal:
            self._line(f"{self.label}: {total:,} {self.unit}...")
        elif self.enabled:
            self._draw()

    def update(self, n: int) -> None:
        if not self.enabled or self._finished:
            return
        with self._lock:
            self.done += n
            now = self.clock()
            if self.done >= self.total:
                self._finish(now)
            elif self.terminal and now - self._drawn >= REDRAW:
                self._drawn = now
                self._draw(now)

    def _finish(self, now: float) -> None:
        self._finished = True
        took = duration(now - self._started)
        then = f"; {self.then}..." if self.then else ""
        if self.terminal:
            self.stream.write(f"\r{self._bar(self.total)} {self.total:,}/{self.total:,} {self.unit} in {took}{then}\x1b[K\n")
            self.stream.flush()
        else:
            self._line(f"{self.label}: {self.total:,} {self.unit} in {took}{then}")

    def _bar(self, done: int) -> str:
        filled = int(WIDTH * done / self.total) if self.total else WIDTH
        return f"{self.label} [{'#' * filled}{'.' * (WIDTH - filled)}]"

    def _draw(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        elapsed = now - self._started
        text = f"\r{self._bar(self.done)} {self.done:,}/{self.total:,} {self.unit}"
        if self.done:
            left = elapsed * (self.total - self.done) / self.done
            text += f"  {duration(elapsed)}, about {duration(left)} left"
        self.stream.write(text + "\x1b[K")
        self.stream.flush()

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()
