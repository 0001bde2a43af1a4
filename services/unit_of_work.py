"""The unit of work: the one place a write's transaction begins and ends.

A service opens one for each action a user takes, hands its connection
(``uow.conn``) to the store's functions (:mod:`models.store`,
:mod:`models.accounts`), and leaves the block: the transaction commits once,
or, if anything raised, rolls back once.  Nothing below the service layer
begins, commits or rolls back (``tests/architecture/test_unit_of_work.py``
searches the sources), and nothing below it calls back up into a service.

What must leave the building is asked for inside the block and done only
after the commit (zulip's ``send_event_on_commit``): an email is a row of
the outbox written in the transaction, and its delivery, when the caller
wants it at once, is :meth:`UnitOfWork.on_commit`; a file is written beside
its place and moved into it on commit, or removed on a rollback
(:meth:`UnitOfWork.on_rollback`).  So a service that raises after queueing
an email leaves the outbox as it was, and sends nothing.

A unit of work is durable (zulip's ``transaction.atomic(durable=True)``):
opening one inside another in the same thread is a programming error
(:class:`NestedUnitOfWork`), since the inner one's commit would not be one.
A service that is part of a larger action takes the caller's unit of work
instead of opening its own (the ``*_in(uow, ...)`` functions).

    with UnitOfWork(store) as uow:
        seq, state, filing = append_event(uow.conn, store, "CAN-NOI-2026-000096", raw, ...)
        queue_emails(uow.conn, ...)
        uow.on_commit(lambda: outbox.deliver(send, ids=ids))

Model: cosmicpython/code, ``src/allocation/service_layer/unit_of_work.py``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from workflows.errors import PermitsError

if TYPE_CHECKING:  # the handle's type only
    from sqlalchemy.engine import Connection

    from models.handle import Store

__all__ = ["UnitOfWork", "NestedUnitOfWork"]

_log = logging.getLogger(__name__)
_open = threading.local()


class NestedUnitOfWork(PermitsError):
    """A unit of work opened inside another in the same thread."""

    def __init__(self):
        super().__init__("a unit of work was opened inside another: pass the outer one down (a service's *_in function)")


class UnitOfWork:
    """One transaction on ``store``, with what to do once it has committed
    or rolled back."""

    def __init__(self, store: Store):
        self.store = store
        self.conn: Connection | None = None
        self._tx = None
        self._committed: list[Callable[[], object]] = []
        self._rolled_back: list[Callable[[], object]] = []
        self._discarding = False

    def on_commit(self, fn: Callable[[], object]) -> None:
        """Call ``fn()`` once the transaction has committed (an email handed
        to the SMTP server, a file moved into place); never on a rollback.
        An ``fn`` that raises is logged, not raised: what it failed to do is
        on the record to be done again (an email stays queued)."""
        self._committed.append(fn)

    def on_rollback(self, fn: Callable[[], object]) -> None:
        """Call ``fn()`` if the transaction rolls back (a staged file
        removed)."""
        self._rolled_back.append(fn)

    def discard(self) -> None:
        """Roll back at the end of the block instead of committing (a dry
        run: everything checked and written, nothing kept)."""
        self._discarding = True

    def __enter__(self) -> UnitOfWork:
        if getattr(_open, "uow", None) is not None:
            raise NestedUnitOfWork()
        self._discarding = False
        conn = self.store.engine.connect()
        try:
            self._tx = conn.begin()
        except BaseException:
            conn.close()
            raise
        self.conn = conn
        _open.uow = self
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        _open.uow = None
        conn, tx = self.conn, self._tx
        self.conn = self._tx = None
        committed = False
        try:
            if exc_type is None and not self._discarding:
                tx.commit()
                committed = True
            else:
                tx.rollback()
        finally:
            conn.close()
            self._run(self._committed if committed else self._rolled_back, "commit" if committed else "rollback")
        return False

    @staticmethod
    def _run(callbacks: list[Callable[[], object]], after: str) -> None:
        for fn in callbacks:
            try:
                fn()
            except Exception:  # the record is committed (or not): the rest still runs
                _log.exception("after the %s: %r failed", after, fn)
        callbacks.clear()
