"""The synchronous app host (``connect_sync``): the asyncio ``Session`` run on a private event
loop in a daemon thread, driven from any thread. Exported by ``wirecontract.graphmind.session``.

Why this shape: the asyncio host already owns the socket, the limits, the reconnects and the
action pump, and every core input must come from one thread in order. Running that same host
on a loop of its own makes every guarantee and limit of ``connect`` hold here unchanged; each
call of this class is handed to that loop (``asyncio.run_coroutine_threadsafe``) and the caller
waits for its result. So:

- ``emit``, ``run`` and ``close`` return when the loop has done them (tens of microseconds),
  in the order each thread called them; frames of several threads interleave as they arrive;
- ``gate`` blocks only the calling thread while the pause is held; the loop keeps sending the
  other threads' events and reading the viewer;
- a call from the loop's own thread (an ``on_warn`` callback) would wait for itself and raises
  ``RuntimeError`` instead.

No protocol rule lives here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import secrets
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from wirecontract.graphmind._app_host import Session
from wirecontract.graphmind._cores import CONTINUE, AppSession, Decision, GateNode, Warn
from wirecontract.graphmind._host_base import Clock, RunAborted, _error_info

if TYPE_CHECKING:
    import collections

T = TypeVar("T")


_current_run: contextvars.ContextVar[SyncRun | None] = contextvars.ContextVar("wirecontract_sync_run", default=None)


class SyncRun:
    """One run of a ``SyncSession`` (from ``SyncSession.run``)."""

    def __init__(self, session: SyncSession, run_id: str, name: str) -> None:
        self.session, self.run_id, self.name = session, run_id, name

    @property
    def aborted(self) -> bool:
        """Whether the viewer aborted this run."""
        return self.session.is_aborted(self.run_id)

    def emit(self, type: str, payload: Any) -> int | None:
        """``SyncSession.emit`` in this run."""
        return self.session.emit(type, payload, run=self)

    def push_token(self, node_id: str, channel: str, value: str) -> None:
        """``SyncSession.push_token`` in this run."""
        self.session.push_token(node_id, channel, value, run=self)

    def gate(self, point: str, node: GateNode) -> Decision:
        """``SyncSession.gate`` in this run."""
        return self.session.gate(point, node, run=self)


class SyncSession:
    """The synchronous, thread-safe host of one ``AppSession`` (made by ``connect_sync``).

    Takes ``connect``'s keywords (``AppSession``'s configuration, ``on_warn``,
    ``flush_timeout_ms``, ``max_frame_bytes``, ``max_queue_bytes``, ``write_stall_timeout_ms``)
    and has its semantics: lazy connection, fail-open while detached, reconnect and replay.
    Every method may be called from any thread; ``gate`` blocks only its caller.
    ``on_warn`` runs on the host's own thread and must not call back into the session."""

    def __init__(self, url: str | None = None, **config: Any) -> None:
        self._loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(started,), name="wirecontract-session", daemon=True)
        self._thread.start()
        started.wait()
        self._closed = False
        self._close_lock = threading.Lock()
        try:
            # Any: the host reaches into the Session's private pump (the stub declares none of it).
            self._session: Any = self._call(self._make(url, config))
        except BaseException:
            self._stop()
            raise

    def _serve(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.call_soon(started.set)
        self._loop.run_forever()
        # Whatever close left (a cancelled attempt's last callbacks) finishes before the loop closes.
        self._loop.run_until_complete(self._loop.shutdown_asyncgens())
        self._loop.close()

    @staticmethod
    async def _make(url: str | None, config: dict[str, Any]) -> Session:
        return Session(url, **config)

    def _call(self, coro: Coroutine[Any, Any, T], closed: Any = None) -> T:
        """Runs ``coro`` on the host's loop and waits for its result in this thread; once the
        host's thread has stopped (after ``close``), returns ``closed`` instead, as a closed
        ``Session`` answers (``None`` seq, ``CONTINUE``, ``False``)."""
        if threading.get_ident() == self._thread.ident:
            coro.close()
            raise RuntimeError("a SyncSession method was called from the session's own thread (an on_warn callback?); it would wait for itself")
        try:
            future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        except RuntimeError:  # the loop is closed
            coro.close()
            return closed  # type: ignore[no-any-return]
        while True:
            try:
                return future.result(timeout=0.5)
            except concurrent.futures.TimeoutError:
                # A held gate may wait for ever; a stopped loop (close from another thread)
                # never finishes the call.
                if not self._thread.is_alive():
                    return closed  # type: ignore[no-any-return]

    def _on_loop(self, fn: Callable[[], T], closed: Any = None) -> T:
        async def body() -> T:
            return fn()

        return self._call(body(), closed)

    # -- the session's state ------------------------------------------------------------------

    @property
    def core(self) -> AppSession:
        """The ``AppSession`` (state, seq, buffered frames); feed it inputs only through this host."""
        return self._session.core

    @property
    def clock(self) -> Clock:
        return self._session.clock

    @property
    def warnings(self) -> collections.deque[Warn]:
        """The latest ``MAX_WARNINGS`` warnings, oldest first (a snapshot is ``list(...)``)."""
        return self._session.warnings

    def is_aborted(self, run_id: str) -> bool:
        """Whether the viewer aborted ``run_id``."""
        return self._on_loop(lambda: run_id in self._session._aborted, False)

    # -- inputs ---------------------------------------------------------------------------------

    def emit(self, type: str, payload: Any, *, run: str | SyncRun | None = None) -> int | None:
        """``Session.emit`` from any thread: returns the seq taken (``None`` after close); raises
        ``BuildError``/``ValueError`` as ``Session.emit`` does. ``run`` defaults to the run of
        the enclosing ``run`` block in this thread (or context), else the implicit run."""
        run_id = self._run_id(run)
        return self._on_loop(lambda: self._session.emit(type, payload, run=run_id))

    def push_token(self, node_id: str, channel: str, value: str, *, run: str | SyncRun | None = None) -> None:
        """``Session.push_token`` from any thread: one streamed delta, batched by the core into
        ``node.token`` frames (a node's batch goes out before its ``node.finished``). ``run``
        defaults as for ``emit``."""
        run_id = self._run_id(run)
        self._on_loop(lambda: self._session.push_token(node_id, channel, value, run=run_id))

    def gate(self, point: str, node: GateNode, *, run: str | SyncRun | None = None) -> Decision:
        """``Session.gate``, blocking the calling thread (only it) until the ``Decision``:
        ``CONTINUE`` at once when nothing pauses or the session is detached; else the viewer's
        answer, the pause timeout, a disconnect (fail-open) or ``close``. On ``abort`` raise
        ``RunAborted`` from the node."""
        return self._call(self._session.gate(point, node, run=self._run_id(run)), CONTINUE)

    def ready(self, timeout_ms: int | None = None) -> bool:
        """``Session.ready``: ``True`` once attached, ``False`` after ``timeout_ms`` (default the
        session's ``ready_timeout_ms``) or when closed; blocks the calling thread."""
        return self._call(self._session.ready(timeout_ms), False)

    @contextlib.contextmanager
    def run(self, name: str, *, meta: Mapping[str, Any] | None = None, run_id: str | None = None) -> Iterator[SyncRun]:
        """A run, as ``Session.run``: ``run.started`` on entry; ``run.finished`` on exit, ``ok``,
        ``error`` with the exception (re-raised) or ``aborted`` for this run's ``RunAborted``
        (not re-raised). Inside the block, in this thread or context, ``emit``/``gate`` use the
        run by default (a ``contextvars`` variable: ``contextvars.copy_context().run`` carries
        it into a pool's worker)."""
        run = SyncRun(self, run_id or f"run_{secrets.token_hex(6)}", name)
        if isinstance(meta, Mapping) and not isinstance(meta, dict):
            meta = dict(meta)
        session = self._session

        def start() -> None:
            session.core.start_run(run.run_id, name, session.clock.now_ms(), meta)
            session._pump()

        self._on_loop(start)
        token = _current_run.set(run)
        try:
            yield run
        except RunAborted as e:
            if e.run_id not in (None, run.run_id):
                self._finish(run, error=_error_info(e))
                raise
            self._finish(run, aborted=True)
        except BaseException as e:
            self._finish(run, error=_error_info(e))
            raise
        else:
            self._finish(run)
        finally:
            _current_run.reset(token)

    def _finish(self, run: SyncRun, *, error: Mapping[str, Any] | None = None, aborted: bool = False) -> None:
        session = self._session

        def finish() -> None:
            session.core.finish_run(run.run_id, session.clock.now_ms(), error, aborted)
            session._pump()

        self._on_loop(finish)

    def close(self) -> None:
        """``Session.close`` (held gates continue, the implicit run finishes, queued frames get
        ``flush_timeout_ms``), then stops the host's thread. Idempotent; any thread."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._call(self._session.close())
        finally:
            self._stop()

    def _stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            if threading.get_ident() != self._thread.ident:
                self._thread.join()

    def __enter__(self) -> SyncSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run_id(self, run: str | SyncRun | None) -> str | None:
        if isinstance(run, SyncRun):
            return run.run_id
        if run is not None:
            return run
        current = _current_run.get()
        return current.run_id if current is not None and current.session is self else None


def connect_sync(url: str | None = None, **config: Any) -> SyncSession:
    """``with connect_sync(url, app=...) as s``: a ``SyncSession``, for synchronous and threaded
    code (no event loop needed). Keywords are ``connect``'s. The host runs ``connect``'s asyncio
    host on a private loop in a daemon thread; close it (or leave the ``with`` block) to flush."""
    return SyncSession(url, **config)


__all__ = ["SyncSession", "SyncRun", "connect_sync"]
