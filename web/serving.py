"""The HTTP connection ``permits serve`` runs (uvicorn's h11 protocol),
with deadlines on what a client sends (issue 35: 2,500 idle half-open
connections were still open after 25 s).

uvicorn closes a kept-alive connection after ``timeout_keep_alive``
seconds of silence, but any byte received cancels that timer, and a new
connection has none until its first response: a client that connects and
says nothing, or sends a byte every few seconds, holds a connection (and
a file descriptor) for ever.  :class:`TimedH11Protocol` adds two deadlines:

- **the request's head** (its line and headers) must arrive within
  :data:`HEAD_SECONDS` of the connection opening, or of the previous
  response ending; trickling bytes does not extend it;
- **its body** may fall silent for at most :data:`BODY_SILENCE_SECONDS`
  between two chunks (a slow upload keeps going while bytes come).

Past either, the connection is closed.  While the app works on a request
no deadline runs.  The head's size is bounded by h11 (16 KiB,
uvicorn's ``h11_max_incomplete_event_size``), the body's by the app
(web/bodies.py).
"""

from __future__ import annotations

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEAD_SECONDS", "BODY_SILENCE_SECONDS", "KEEP_ALIVE_SECONDS", "TimedH11Protocol"]

#: the time a client has to send a request's line and headers
HEAD_SECONDS = 10.0
#: the longest silence within a request's body
BODY_SILENCE_SECONDS = 30.0
#: uvicorn's keep-alive: an idle connection after a response is closed after this
KEEP_ALIVE_SECONDS = 5


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 connection, with the deadlines above."""

    _deadline = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(HEAD_SECONDS)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        state = self.conn.their_state
        if state is h11.IDLE:
            return  # the head is still coming: its deadline stands
        if state is h11.SEND_BODY:
            self._arm(BODY_SILENCE_SECONDS)  # each chunk of the body gives the next its time
        else:
            self._disarm()  # the request is whole: the app has it

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm(HEAD_SECONDS)

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)
