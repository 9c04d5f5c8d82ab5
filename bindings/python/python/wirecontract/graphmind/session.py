"""The GraphMind session runtime for Python (spec graphmind-session.md).

Two layers:

- the **sans-IO cores**, native classes of the contract crate: ``AppSession`` (the app side:
  seq, handshake, replay ring with gap markers, controls, gates, fail-open, ``heldMs``) and
  ``ViewerSession`` (the viewer side: handshake, de-duplication, pause bookkeeping, routing).
  They own no socket, no thread and no clock: feed them inputs stamped with ``now_ms``
  (milliseconds, an ``int`` or a ``float`` with fractions, as a monotonic clock gives them) and
  carry out the actions they return (``Connect``, ``Send``, ``Close``, ``Release``, ...);
- two **asyncio hosts** over the ``websockets`` package (``pip install 'wirecontract[session]'``):
  ``connect(url)`` for an instrumented app and ``serve(...)`` for a viewer. They own the
  sockets, the clock and the waiting, and add no protocol rule;
- a **synchronous app host**, ``connect_sync(url)`` (``SyncSession``): ``connect``'s host on a
  private event loop in a daemon thread, callable from plain functions and any thread (a
  ``gate`` blocks only its caller), with ``connect``'s keywords, limits and semantics.

An adapter::

    async with connect("ws://127.0.0.1:4747/ingest", app="my-agent") as s:
        async with s.run("answer") as run:
            run.emit("node.started", {"nodeId": "tool:search", "kind": "tool", "name": "search",
                                      "instanceId": "call_1", "input": {"q": "x"}})
            decision = await run.gate("before", GateNode("tool:search", "tool", "search", "call_1"))

Times are integers in milliseconds. The hosts are single-loop: call them from the event loop
that created them.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import json
import logging
import os
import secrets
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import typing as _typing

import wirecontract.graphmind as _gm
from wirecontract._native import session as _native

# ---- the sans-IO cores and their values (native) -------------------------------------------

AppSession = _native.AppSession
ViewerSession = _native.ViewerSession
GateNode = _native.GateNode
Decision = _native.Decision
Received = _native.Received
ResumeError = _native.ResumeError
# App-side actions.
Connect = _native.Connect
Send = _native.Send
Close = _native.Close
Release = _native.Release
AbortRun = _native.AbortRun
ReadySettled = _native.ReadySettled
Warn = _native.Warn
# Viewer-side actions.
ViewerSend = _native.ViewerSend
ViewerClose = _native.ViewerClose
AppAttached = _native.AppAttached
FrameAccepted = _native.FrameAccepted
PauseOpened = _native.PauseOpened
PauseClosed = _native.PauseClosed
PauseReleased = _native.PauseReleased
ResumeRefused = _native.ResumeRefused
ResumeTimedOut = _native.ResumeTimedOut
RunAbandoned = _native.RunAbandoned
ViewerWarn = _native.ViewerWarn

# Type aliases the stub declares, as runtime objects (so annotations evaluate and
# typing.get_type_hints works); the Literal values are the stub's (scripts/gen/src/pyi_session.rs).
ConnState = _typing.Literal["idle", "connecting", "awaiting-ack", "attached", "disposed"]
ReleaseCause = _typing.Literal["resume", "timeout", "disconnect", "dispose", "cancel"]
ReceivedKind = _typing.Literal["hello", "accepted", "duplicate", "wildcard", "rejected"]
MatcherLike = _typing.Union[_gm.BreakpointMatcher, Mapping[str, Any]]
"""A breakpoint matcher: a `BreakpointMatcher` or a wire-shaped dict (`{"kind": "tool"}`)."""
Action = _typing.Union[Connect, Send, Close, Release, AbortRun, ReadySettled, Warn]
ViewerEvent = _typing.Union[
    AppAttached, FrameAccepted, PauseOpened, PauseClosed, PauseReleased, ResumeRefused, ResumeTimedOut, RunAbandoned, ViewerWarn
]
ViewerAction = _typing.Union[ViewerSend, ViewerClose, ViewerEvent]

CONTINUE = _native.CONTINUE
APP_DEFAULTS = _native.APP_DEFAULTS
env_config = _native.env_config
DEFAULT_URL = _native.DEFAULT_URL
SESSION_CAPABILITIES = _native.SESSION_CAPABILITIES
INGEST_PATH = "/ingest"

__all__ = [
    "AppSession", "ViewerSession", "GateNode", "Decision", "Received", "ResumeError",
    "Connect", "Send", "Close", "Release", "AbortRun", "ReadySettled", "Warn",
    "ViewerSend", "ViewerClose", "AppAttached", "FrameAccepted", "PauseOpened", "PauseClosed",
    "PauseReleased", "ResumeRefused", "ResumeTimedOut", "RunAbandoned", "ViewerWarn",
    "CONTINUE", "APP_DEFAULTS", "env_config", "DEFAULT_URL", "SESSION_CAPABILITIES", "INGEST_PATH",
    "Clock", "RunAborted", "Session", "Run", "connect", "Viewer", "FrameLog", "serve",
    "MAX_FRAME_BYTES", "MAX_QUEUE_BYTES", "WRITE_STALL_TIMEOUT_MS", "HELLO_TIMEOUT_MS", "IDLE_TIMEOUT_MS",
    "MAX_CONNECTIONS", "MAX_EVENTS", "MAX_WARNINGS", "SyncSession", "SyncRun", "connect_sync",
]

log = logging.getLogger("wirecontract.session")

# ---- resource limits of the hosts (docs/robustness.md "Resource limits") ----------------------

MAX_FRAME_BYTES = _gm.DEFAULT_MAX_FRAME_BYTES
"""Default ``max_frame_bytes`` of both hosts: the contract's frame limit (16 MiB). A larger
incoming message is refused by ``websockets`` before it is buffered: the connection closes
with 1009."""
MAX_QUEUE_BYTES = 16 * 1024 * 1024
"""Default ``max_queue_bytes``: frame text (in characters) a host queues for a peer that does
not read. Past it the connection is dropped with 1013."""
WRITE_STALL_TIMEOUT_MS = 30_000
"""Default ``write_stall_timeout_ms`` of both hosts (as ``listen --slow-reader-timeout``): a
single write not finished by then means the peer reads too slowly; the connection is dropped
with 1013 as for a full queue. ``0``: no limit."""
HELLO_TIMEOUT_MS = 10_000
"""Default ``hello_timeout_ms`` of ``serve``: a connection that has not completed its WebSocket
upgrade by then is closed, and one that has not sent a valid ``hello`` that long after its
upgrade is closed with 1008."""
IDLE_TIMEOUT_MS = 600_000
"""Default ``idle_timeout_ms`` of ``serve`` (as ``listen --idle-timeout``): a connection that
sends no frame for this long is closed with 1008. ``0``: no limit."""
MAX_CONNECTIONS = 128
"""Default ``max_connections`` of ``serve`` (as ``listen --max-connections``): app connections
open at once, handshaking or attached; a further one is answered HTTP 503 at the upgrade."""
MAX_EVENTS = 10_000
"""Default ``max_events`` of ``serve``: events kept for ``Viewer.events()`` before the oldest
unread one is dropped (``Viewer.events_dropped`` counts them)."""
MAX_WARNINGS = 1000
"""``Session.warnings`` keeps the latest this many."""
LOG_BURST, LOG_INTERVAL_S = 20, 10.0
"""At most ``LOG_BURST`` warning lines per ``LOG_INTERVAL_S`` per host; the rest are counted
and summed up in the next line that is written."""

_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)]}


def _printable(text: str) -> str:
    """Peer text for a log line: control characters (C0, DEL, C1) escaped as ``\\xNN``, so a
    newline or an ANSI escape from the peer cannot forge lines or reach a terminal."""
    return text.translate(_CONTROL)


class _LogLimit:
    """A token bucket for warning lines: ``LOG_BURST`` per ``LOG_INTERVAL_S``."""

    def __init__(self, burst: int = LOG_BURST, interval_s: float = LOG_INTERVAL_S) -> None:
        self._burst, self._interval = burst, interval_s
        self._window = time.monotonic()
        self._used = 0
        self.suppressed = 0

    def warning(self, fmt: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self._window >= self._interval:
            self._window, self._used = now, 0
        if self._used >= self._burst:
            self.suppressed += 1
            return
        self._used += 1
        if self.suppressed:
            log.warning(fmt + " (%d earlier warnings not logged: rate limit)", *args, self.suppressed)
            self.suppressed = 0
        else:
            log.warning(fmt, *args)

    def flush(self, host: str) -> None:
        """At close: the warnings held back since the last line are counted, not lost."""
        if self.suppressed:
            log.warning("%s: %d warnings not logged: rate limit", host, self.suppressed)
            self.suppressed = 0


def _too_big(ws: Any) -> bool:
    """Whether this side closed ``ws`` with 1009 (a message over ``max_size``)."""
    sent = getattr(getattr(ws, "protocol", None), "close_sent", None)
    return getattr(sent, "code", None) == 1009


def _websockets() -> Any:
    try:
        import websockets.asyncio.client
        import websockets.asyncio.server
        import websockets.exceptions
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError("the asyncio session hosts need websockets>=16: pip install 'wirecontract[session]'") from e
    return websockets


class Clock:
    """Epoch milliseconds read from a monotonic clock, fractions kept: ``now_ms()`` never
    steps back (hold times and deadlines stay right when the wall clock is adjusted), resolves
    sub-millisecond holds for ``heldMs`` (two decimals, graphmind-session §3.9) and its whole
    part still makes sensible frame ``ts`` values."""

    def __init__(self) -> None:
        self._epoch_ms = time.time() * 1000.0
        self._mono = time.perf_counter()

    def now_ms(self) -> float:
        return self._epoch_ms + (time.perf_counter() - self._mono) * 1000.0


class RunAborted(Exception):
    """A gate answered ``abort`` (the viewer aborted the run, graphmind-session §3.7). Raise
    it from the node; ``Session.run`` finishes the run ``aborted`` and does not re-raise it."""

    def __init__(self, run_id: str | None) -> None:
        super().__init__(f"run {run_id} was aborted by the viewer")
        self.run_id = run_id


def _error_info(e: BaseException) -> dict[str, str]:
    """The ``run.finished`` ``error`` of a run that ended by ``e``: its class name, message
    and formatted traceback (an ErrorInfo, graphmind-v1 `run.finished`)."""
    return {"name": type(e).__name__, "message": str(e), "stack": "".join(traceback.format_exception(e))}


class _Timer:
    """One ``loop.call_at`` handle following a core's ``poll_timeout()``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, clock: Clock, fire: Callable[[float], None]) -> None:
        self._loop, self._clock, self._fire = loop, clock, fire
        self._handle: asyncio.TimerHandle | None = None
        self._at: float | None = None

    def follow(self, deadline: float | None) -> None:
        if deadline == self._at:
            return
        self.cancel()
        self._at = deadline
        if deadline is not None:
            delay = max(0.0, (deadline - self._clock.now_ms()) / 1000.0)
            self._handle = self._loop.call_later(delay, self._due)

    def _due(self) -> None:
        self._handle, self._at = None, None
        self._fire(self._clock.now_ms())

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self._at = None, None


class _Close:
    def __init__(self, code: int, reason: str) -> None:
        self.code, self.reason = code, reason


class _Link:
    """One WebSocket with an ordered outbox: frames are sent in the order the core produced
    them, then an optional close. ``on_lost`` runs once when sending fails.

    The outbox is bounded: when the frames waiting for a peer that does not read exceed
    ``max_queue`` characters (one frame alone is always accepted), the link gives up: it
    stops writing, runs ``on_lost``, closes the socket with 1013 and ``overflowed`` is set.
    So it does when one write has not finished after ``stall_s`` seconds (a peer reading too
    slowly to empty the socket): ``stalled`` is set then too (``None``: no limit)."""

    def __init__(
        self, ws: Any, on_lost: Callable[[], None], max_queue: int = MAX_QUEUE_BYTES, stall_s: float | None = WRITE_STALL_TIMEOUT_MS / 1000.0
    ) -> None:
        self.ws = ws
        self._queue: asyncio.Queue[str | bytes | _Close] = asyncio.Queue()
        self._on_lost = on_lost
        self._max_queue = max_queue
        self._stall_s = stall_s
        self._queued = 0
        self.overflowed = False
        self.stalled = False
        self.task = asyncio.get_running_loop().create_task(self._write())

    def send(self, frame: str | bytes) -> None:
        """Queues a frame: text, or bytes sent as a binary frame (only the test faults of
        ``wirecontract.graphmind.testing`` send one)."""
        if self.overflowed:
            return
        if self._queued and self._queued + len(frame) > self._max_queue:
            self._overflow()
            return
        self._queued += len(frame)
        self._queue.put_nowait(frame)

    def _overflow(self, reason: str = "outbound queue full") -> None:
        self.overflowed = True
        if asyncio.current_task() is not self.task:
            self.task.cancel()
        self._drop_queued()
        self._on_lost()
        asyncio.get_running_loop().create_task(self._abandon(reason))

    async def _abandon(self, reason: str) -> None:
        """Closes with 1013 without waiting long for a peer that does not read."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(1013, reason), 1.0)
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.abort()

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        """Closes the socket after the frames queued so far (``flush``), or at once: the frames
        not yet written are dropped and only the one being written finishes first."""
        if not flush:
            self._drop_queued()
        self._queue.put_nowait(_Close(code, reason))

    def _drop_queued(self) -> None:
        """Forgets every frame not yet taken by the writer."""
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queued = 0

    async def _write(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, _Close):
                    await self.ws.close(item.code, item.reason)
                    return
                self._queued -= len(item)
                try:
                    await asyncio.wait_for(self.ws.send(item), self._stall_s)
                except asyncio.TimeoutError:
                    self.stalled = True
                    self._overflow("slow reader")
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket failed under a send: the reader sees it close too
            self._on_lost()
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def stop(self) -> None:
        """The socket is closed: nothing queued can go out any more. Ends the writer (which
        would otherwise wait on the queue forever and be destroyed pending) and waits for it."""
        if not self.task.done():
            self.task.cancel()
        await asyncio.wait({self.task})

    async def drain(self, timeout_s: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(self.task), timeout_s)
        if not self.task.done():
            self.task.cancel()


# ---- the app host ----------------------------------------------------------------------------


class _Attempt:
    """One connection attempt of the app host: the task opening and reading the socket and,
    once open, its link."""

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None
        self.link: _Link | None = None


_current_run: contextvars.ContextVar[Run | None] = contextvars.ContextVar("wirecontract_session_run", default=None)


class Run:
    """One run of a ``Session`` (``Session.run``): events and gates go to its ``run_id``."""

    def __init__(self, session: Session, run_id: str, name: str) -> None:
        self.session = session
        self.run_id = run_id
        self.name = name

    @property
    def aborted(self) -> bool:
        """Whether the viewer aborted this run (an ``AbortRun`` action arrived)."""
        return self.run_id in self.session._aborted

    def emit(self, type: str, payload: Any) -> int | None:
        """``Session.emit`` in this run."""
        return self.session.emit(type, payload, run=self.run_id)

    def push_token(self, node_id: str, channel: str, value: str) -> None:
        """``Session.push_token`` in this run."""
        self.session.push_token(node_id, channel, value, run=self.run_id)

    async def gate(self, point: str, node: GateNode) -> Decision:
        """``Session.gate`` in this run."""
        return await self.session.gate(point, node, run=self.run_id)


class Session:
    """The asyncio host of one ``AppSession`` (made by ``connect``). It owns the socket
    (``websockets``), the clock (``Clock``) and the waiting; every protocol decision is the
    core's. ``session.core`` is the ``AppSession`` itself (state, seq, held pauses, ...).

    The connection is lazy (spec T1): nothing happens until the first ``emit``, ``gate``,
    ``run`` or ``ready``. While detached, events are buffered and gates continue (fail-open);
    after a drop the core reconnects (200/400/800 ms, then ``retry_interval_ms``) and replays
    its buffer.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        env: Mapping[str, str] | None = None,
        on_warn: Callable[[Warn], None] | None = None,
        flush_timeout_ms: int = 1000,
        max_frame_bytes: int = MAX_FRAME_BYTES,
        max_queue_bytes: int = MAX_QUEUE_BYTES,
        write_stall_timeout_ms: int = WRITE_STALL_TIMEOUT_MS,
        **config: Any,
    ) -> None:
        _websockets()
        self._loop = asyncio.get_running_loop()
        self._stall_s = _timeout_s(write_stall_timeout_ms, "write_stall_timeout_ms")
        config.setdefault("id_base", secrets.token_hex(3))
        if url is not None:
            config["url"] = url
        # The core reads the environment (GRAPHMIND_*, the kill switch); keywords beat it.
        self.core = AppSession(env=os.environ if env is None else env, **config)
        self.clock = Clock()
        self._on_warn = on_warn
        self._flush_timeout_s = flush_timeout_ms / 1000.0
        self._max_frame_bytes = _positive(max_frame_bytes, "max_frame_bytes")
        self._max_queue_bytes = _positive(max_queue_bytes, "max_queue_bytes")
        ring = config.get("ring_max_bytes", APP_DEFAULTS["ring_max_bytes"])
        if isinstance(ring, int) and max_queue_bytes < ring:
            # A replay queues the whole ring at once: a smaller queue would drop every attachment.
            raise ValueError(f"max_queue_bytes ({max_queue_bytes}) must be at least ring_max_bytes ({ring})")
        self._log = _LogLimit()
        self._attempt: _Attempt | None = None
        self._closing: list[_Link] = []
        self._gates: dict[str, asyncio.Future[Decision]] = {}
        self._waiters: dict[int, asyncio.Future[bool]] = {}
        self._aborted: set[str] = set()
        self._timer = _Timer(self._loop, self.clock, self._on_timeout)
        self._closed = False
        self.warnings: collections.deque[Warn] = collections.deque(maxlen=MAX_WARNINGS)
        """The latest ``MAX_WARNINGS`` warnings, oldest first."""

    # -- inputs ---------------------------------------------------------------------------

    def emit(self, type: str, payload: Any, *, run: str | Run | None = None) -> int | None:
        """Emits an event (graphmind-session §2.3): ``payload`` is a wire-shaped dict
        (camelCase keys) or a contract object. ``run``: a run id or ``Run``; by default the
        run of the enclosing ``Session.run`` block, else the implicit run. Returns the seq
        taken, ``None`` after close. Raises ``BuildError`` for an invalid payload and
        ``ValueError`` for a type the app may not send."""
        seq = self.core.emit(type, payload, self.clock.now_ms(), self._run_id(run))
        self._pump()
        return seq

    def push_token(self, node_id: str, channel: str, value: str, *, run: str | Run | None = None) -> None:
        """Queues one streamed delta of ``node_id`` (``channel`` ``"text"``, ``"reasoning"``
        or ``"tool-args"``): the core batches them into one ``node.token`` per node per
        ``token_batch_ms`` window (34 ms) and flushes a node's batch before its
        ``node.finished``, at a run's end and at close."""
        self.core.push_token(node_id, channel, value, self.clock.now_ms(), self._run_id(run))
        self._pump()

    async def gate(self, point: str, node: GateNode, *, run: str | Run | None = None) -> Decision:
        """Waits at gate ``point`` (``"before"``, ``"after"``, ``"error"``) of ``node`` and
        returns the ``Decision`` (graphmind-session §3): ``CONTINUE`` at once when nothing
        pauses or the session is detached; otherwise after the viewer's ``exec.resume``, the
        pause timeout, a disconnect (fail-open: ``continue``) or ``close``. Cancelling the
        awaiting task settles the pause with ``continue`` (``exec.resumed`` is sent). On
        ``abort`` the run is already marked aborted: raise ``RunAborted``."""
        pause_id = self.core.gate(point, node, self.clock.now_ms(), self._run_id(run))
        if pause_id is None:
            self._pump()
            return CONTINUE
        future: asyncio.Future[Decision] = self._loop.create_future()
        self._gates[pause_id] = future
        self._pump()
        try:
            return await future
        except asyncio.CancelledError:
            self._gates.pop(pause_id, None)
            self.core.cancel(pause_id, self.clock.now_ms())
            self._pump()
            raise

    async def ready(self, timeout_ms: int | None = None) -> bool:
        """Waits until attached (spec T22): ``True`` at the ``hello.ack``, ``False`` after
        ``timeout_ms`` (default the session's ``ready_timeout_ms``, 2000) or when closed.
        Connects now when idle (skipping the retry wait)."""
        waiter = self.core.ready(self.clock.now_ms(), timeout_ms)
        future: asyncio.Future[bool] = self._loop.create_future()
        self._waiters[waiter] = future
        self._pump()
        return await future

    @contextlib.asynccontextmanager
    async def run(self, name: str, *, meta: Mapping[str, Any] | None = None, run_id: str | None = None) -> AsyncIterator[Run]:
        """A run: ``run.started`` (``app``, ``sdk``, ``meta`` with ``name``) on entry and
        ``run.finished`` on exit: ``ok``, ``error`` with the exception (re-raised), or
        ``aborted`` when the viewer aborted it (``RunAborted`` of this run, not re-raised; a
        ``RunAborted`` of another run is an ``error`` like any exception) or the task was
        cancelled (re-raised). ``meta`` must be a Mapping (the core refuses anything else with
        ``BuildError``). The core builds both payloads (``AppSession.start_run``,
        ``AppSession.finish_run``). Inside the block, ``Session.emit``/``Session.gate`` use
        this run by default."""
        run = Run(self, run_id or f"run_{secrets.token_hex(6)}", name)
        # The core checks ``meta`` (an object, or ``BuildError … meta: expected object``): a
        # dict goes as it is, another Mapping as its dict; nothing else is converted here
        # (``dict()`` would turn a list of pairs into an object the caller never wrote).
        if isinstance(meta, Mapping) and not isinstance(meta, dict):
            meta = dict(meta)
        self.core.start_run(run.run_id, name, self.clock.now_ms(), meta)
        self._pump()
        token = _current_run.set(run)
        try:
            yield run
        except RunAborted as e:
            if e.run_id not in (None, run.run_id):
                # An abort of another run is, for this run, an error like any other: it
                # still ends with its own ``run.finished``.
                self._finish(run, error=_error_info(e))
                raise
            self._finish(run, aborted=True)
        except asyncio.CancelledError:
            self._finish(run, aborted=True)
            raise
        except BaseException as e:
            self._finish(run, error=_error_info(e))
            raise
        else:
            self._finish(run)
        finally:
            _current_run.reset(token)

    def _finish(self, run: Run, *, error: Mapping[str, Any] | None = None, aborted: bool = False) -> None:
        self.core.finish_run(run.run_id, self.clock.now_ms(), error, aborted)
        self._pump()

    async def close(self) -> None:
        """Disposes the core (spec §2.5: every held gate gets ``exec.resumed{continue}``, the
        implicit run finishes, the socket closes with 1000), then gives the socket up to
        ``flush_timeout_ms`` to send what is queued. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self.core.dispose(self.clock.now_ms())
        self._pump()
        self._timer.cancel()
        links = list(self._closing)
        if self._attempt and self._attempt.link:
            links.append(self._attempt.link)
        for link in links:
            await link.drain(self._flush_timeout_s)
        if self._attempt and self._attempt.task:
            self._attempt.task.cancel()
            with contextlib.suppress(BaseException):
                await self._attempt.task
        self._attempt = None
        self._log.flush("graphmind session")

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- carrying out actions -------------------------------------------------------------

    def _run_id(self, run: str | Run | None) -> str | None:
        if isinstance(run, Run):
            return run.run_id
        if run is not None:
            return run
        current = _current_run.get()
        return current.run_id if current is not None and current.session is self else None

    def _pump(self) -> None:
        for action in self.core.poll_actions():
            if isinstance(action, Send):
                link = self._attempt.link if self._attempt else None
                if link is not None:
                    link.send(action.frame)
            elif isinstance(action, Release):
                future = self._gates.pop(action.pause_id, None)
                if future is not None and not future.done():
                    future.set_result(action.decision)
            elif isinstance(action, Connect):
                self._connect(action.url)
            elif isinstance(action, Close):
                self._drop_attempt(action.code, action.reason)
            elif isinstance(action, AbortRun):
                self._aborted.add(action.run_id)
            elif isinstance(action, ReadySettled):
                waiter = self._waiters.pop(action.waiter, None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(action.attached)
            elif isinstance(action, Warn):
                self.warnings.append(action)
                self._log.warning("graphmind session: %s: %s", action.rule, _printable(action.text))
                if self._on_warn is not None:
                    self._on_warn(action)
        self._timer.follow(self.core.poll_timeout())

    def _on_timeout(self, now: float) -> None:
        self.core.handle_timeout(now)
        self._pump()

    def _connect(self, url: str) -> None:
        attempt = _Attempt()
        self._attempt = attempt
        attempt.task = self._loop.create_task(self._run_attempt(attempt, url))

    def _drop_attempt(self, code: int, reason: str) -> None:
        """``Close``: the core is already detached; this socket's events are ignored from now.
        At dispose the frames queued before the ``Close`` still go out first (the last
        ``exec.resumed`` and ``run.finished``, within ``flush_timeout_ms``). Any other ``Close``
        (a version mismatch, a handshake or connect timeout) leaves a viewer the core stopped
        talking to: the frames not yet written are dropped, not sent after the decision (the
        ring keeps them for the replay on the next attachment)."""
        attempt, self._attempt = self._attempt, None
        if attempt is None:
            return
        if attempt.link is not None:
            attempt.link.close(code, reason, flush=self.core.state == "disposed")
            self._closing = [link for link in self._closing if not link.task.done()]
            self._closing.append(attempt.link)
        elif attempt.task is not None:
            attempt.task.cancel()

    def _lost(self, attempt: _Attempt) -> None:
        if self._attempt is attempt:
            self._attempt = None
            self.core.transport_closed(self.clock.now_ms())
            self._pump()

    async def _run_attempt(self, attempt: _Attempt, url: str) -> None:
        ws_mod = _websockets()
        try:
            ws = await ws_mod.asyncio.client.connect(
                url, open_timeout=None, ping_interval=None, max_size=self._max_frame_bytes, compression=None
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            if self._attempt is attempt:
                self._attempt = None
                self.core.transport_failed(self.clock.now_ms())
                self._pump()
            return
        if self._attempt is not attempt:
            await ws.close()
            return
        attempt.link = _Link(ws, lambda: self._lost(attempt), self._max_queue_bytes, self._stall_s)
        self.core.transport_opened(self.clock.now_ms())
        self._pump()
        try:
            async for message in ws:
                if self._attempt is not attempt:
                    continue
                self.core.frame_received(message, self.clock.now_ms())
                self._pump()
        except ws_mod.exceptions.ConnectionClosed:
            if _too_big(ws):
                self._log.warning("graphmind session: a viewer frame exceeded max_frame_bytes (%d); closed with 1009", self._max_frame_bytes)
        finally:
            if attempt.link is not None and attempt.link.stalled:
                self._log.warning("graphmind session: the viewer stopped reading: a write stalled for write_stall_timeout_ms (%d); closed with 1013", round(self._stall_s * 1000))
            elif attempt.link is not None and attempt.link.overflowed:
                self._log.warning("graphmind session: the viewer stopped reading: over max_queue_bytes (%d) queued; closed with 1013", self._max_queue_bytes)
            self._lost(attempt)
            await attempt.link.stop()


def connect(url: str | None = None, **config: Any) -> Session:
    """``async with connect(url, app=..., ...) as s``: a ``Session`` over a new
    ``AppSession``, configured from ``env`` (default ``os.environ``: ``GRAPHMIND_URL``, the
    kill switch, the loop-guard and ``GRAPHMIND_HIDE_*`` variables, read by the core); ``url``
    and the other keywords beat the environment, except ``GRAPHMIND_DISABLED`` and a hide
    switch turned on there. Keywords are ``AppSession``'s (``app``, ``sdk``, ``pause_timeout_ms``,
    ``retry_interval_ms``, ``max_breakpoints``, ...; ``id_base`` defaults to random hex) plus
    ``on_warn`` (called with each ``Warn``), ``flush_timeout_ms`` (how long ``close`` waits for
    queued frames, default 1000), ``max_frame_bytes`` (largest viewer frame read; larger closes
    with 1009, default ``MAX_FRAME_BYTES``, 16 MiB) and ``max_queue_bytes`` (frame text queued
    for a viewer that stops reading; past it the connection is dropped with 1013 and the core
    reconnects and replays its ring, default ``MAX_QUEUE_BYTES``, 16 Mi characters) and
    ``write_stall_timeout_ms`` (a single write unfinished this long drops the connection the
    same way, default 30 000; ``0``: no limit). Must be called with an event loop running."""
    return Session(url, **config)


# ---- the viewer host -------------------------------------------------------------------------


@dataclass(frozen=True)
class FrameLog:
    """One frame on a viewer connection, in wire order: ``dir`` is ``"app->viewer"`` or
    ``"viewer->app"``; ``received`` is what the core did with an incoming frame."""

    dir: str
    conn: int
    frame: str
    received: Received | None = None


PauseAnswer = str | tuple[str, Any] | None
"""What an ``on_pause`` callback returns: an action (``"continue"``), ``(action, output)``
for an inject, or ``None`` to leave the pause open (answer later with ``Viewer.resume``)."""

_MISSING: Any = object()


class Viewer:
    """The asyncio host of one ``ViewerSession`` (made by ``serve``): a WebSocket server at
    ``url`` (path ``/ingest``). Events (every viewer action except sends and closes, which
    the host carries out) go to ``on_event`` and to ``events()``; every frame, both
    directions, goes to ``on_frame`` as a ``FrameLog``. ``viewer.core`` is the
    ``ViewerSession``."""

    def __init__(
        self,
        *,
        on_event: Callable[[Any], None] | None = None,
        on_pause: Callable[[PauseOpened], PauseAnswer | Awaitable[PauseAnswer]] | None = None,
        on_frame: Callable[[FrameLog], None] | None = None,
        max_frame_bytes: int = MAX_FRAME_BYTES,
        max_queue_bytes: int = MAX_QUEUE_BYTES,
        hello_timeout_ms: int = HELLO_TIMEOUT_MS,
        max_events: int = MAX_EVENTS,
        max_connections: int = MAX_CONNECTIONS,
        idle_timeout_ms: int = IDLE_TIMEOUT_MS,
        write_stall_timeout_ms: int = WRITE_STALL_TIMEOUT_MS,
        **config: Any,
    ) -> None:
        _websockets()
        self._loop = asyncio.get_running_loop()
        config.setdefault("token_prefix", f"tok_{secrets.token_hex(4)}_")
        self.core = ViewerSession(**config)
        self.clock = Clock()
        self._on_event, self._on_pause, self._on_frame = on_event, on_pause, on_frame
        self._max_frame_bytes = _positive(max_frame_bytes, "max_frame_bytes")
        self._max_queue_bytes = _positive(max_queue_bytes, "max_queue_bytes")
        self._hello_timeout_s = _positive(hello_timeout_ms, "hello_timeout_ms") / 1000.0
        self._max_connections = _positive(max_connections, "max_connections")
        self._idle_s = _timeout_s(idle_timeout_ms, "idle_timeout_ms")
        self._stall_s = _timeout_s(write_stall_timeout_ms, "write_stall_timeout_ms")
        self._open = 0
        """Connections past the 503 check and not yet finished (handshaking or attached)."""
        self.connections_refused = 0
        """Connections answered 503 because ``max_connections`` were open."""
        self._last_frame: dict[int, float] = {}
        self._idle_timers: dict[int, asyncio.TimerHandle] = {}
        self._pause_conn: dict[str, int] = {}
        """Open pauses by id, to their connection: a connection holding one is never idle."""
        self._log = _LogLimit()
        self._links: dict[int, _Link] = {}
        self._hello_timers: dict[int, asyncio.TimerHandle] = {}
        self._next_conn = 0
        self._events: collections.deque[Any] = collections.deque(maxlen=_positive(max_events, "max_events"))
        self._events_ready = asyncio.Event()
        self._events_closed = False
        self.events_dropped = 0
        """Events dropped from the ``events()`` buffer because it held ``max_events`` unread."""
        self._timer = _Timer(self._loop, self.clock, self._on_timeout)
        self._ack_faults: collections.deque[Callable[[int, str], None]] = collections.deque()
        """Test faults (``wirecontract.graphmind.testing.ViewerFaults``), oldest first: each
        takes one ``hello.ack`` the core produced instead of the host sending it."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._server: Any = None
        self.url = ""

    @property
    def connections(self) -> list[int]:
        """Ids of the app connections open now."""
        return sorted(self._links)

    def resume(self, pause_id: str, action: str = "continue", *, output: Any = _MISSING, request_id: str | None = None) -> None:
        """Sends ``exec.resume`` for an open pause (``ViewerSession.resume``); ``output`` for
        an inject. Raises ``ResumeError`` when the pause is not open or its app is gone."""
        kwargs: dict[str, Any] = {"request_id": request_id}
        if output is not _MISSING:
            kwargs["output"] = output
        self.core.resume(pause_id, action, self.clock.now_ms(), **kwargs)
        self._pump()

    def set_breakpoint(self, matcher: Any) -> bool:
        """Adds a breakpoint and broadcasts it (``ViewerSession.set_breakpoint``)."""
        added: bool = self.core.set_breakpoint(matcher, self.clock.now_ms())
        self._pump()
        return added

    def clear_breakpoint(self, matcher: Any) -> int:
        """Removes a breakpoint and broadcasts it (``ViewerSession.clear_breakpoint``)."""
        removed: int = self.core.clear_breakpoint(matcher, self.clock.now_ms())
        self._pump()
        return removed

    def set_mode(self, mode: str) -> None:
        """Sets and broadcasts the mode (``ViewerSession.set_mode``)."""
        self.core.set_mode(mode, self.clock.now_ms())
        self._pump()

    async def drop(self, conn: int) -> None:
        """Closes connection ``conn`` at once, as a network failure would for the app (for
        tests of fail-open and replay). The core learns of it when its reader ends."""
        link = self._links.get(conn)
        if link is not None:
            with contextlib.suppress(Exception):
                await link.ws.close(1001, "dropped by the viewer")

    async def events(self) -> AsyncIterator[Any]:
        """Every event in order (``AppAttached``, ``FrameAccepted``, ``PauseOpened``,
        ``PauseClosed``, ``PauseReleased``, ``ResumeRefused``, ``ResumeTimedOut``,
        ``RunAbandoned``, ``ViewerWarn``), until the viewer closes."""
        while True:
            while self._events:
                yield self._events.popleft()
            if self._events_closed:
                return
            self._events_ready.clear()
            await self._events_ready.wait()

    async def start(self, host: str, port: int) -> None:
        """Starts the WebSocket server on ``host:port`` (0: a free port) and sets ``url``.
        ``serve`` calls it; other paths than ``/ingest`` get HTTP 404."""
        ws_mod = _websockets()

        def only_ingest(connection: Any, request: Any) -> Any:
            if request.path.split("?", 1)[0] != INGEST_PATH:
                return connection.respond(HTTPStatus.NOT_FOUND, f"GraphMind apps connect to {INGEST_PATH}\n")
            if self._open >= self._max_connections:
                self.connections_refused += 1
                peer = connection.remote_address
                self._log.warning(
                    "graphmind viewer: refused %s: %d connections open (max_connections); answered 503",
                    _printable(str(peer[0] if peer else "?")), self._open,
                )
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "too many connections\n")
            # Counted from the upgrade request until its socket is closed, whether the
            # handshake then fails or the app detaches.
            self._open += 1
            connection.connection_lost_waiter.add_done_callback(self._uncount)
            return None

        self._server = await ws_mod.asyncio.server.serve(
            self._handle, host, port, process_request=only_ingest, ping_interval=None, max_size=self._max_frame_bytes, compression=None,
            # The upgrade gets the hello's deadline too: a socket that never completes its
            # request is closed then (websockets' own default would be 10 s whatever is set).
            open_timeout=self._hello_timeout_s,
        )
        sock = next(iter(self._server.sockets))
        addr = sock.getsockname()
        self.url = f"ws://{addr[0]}:{addr[1]}{INGEST_PATH}"

    def _uncount(self, _: Any) -> None:
        self._open -= 1

    async def close(self) -> None:
        """Stops the server and closes every connection."""
        self._timer.cancel()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        for task in list(self._tasks):
            task.cancel()
        self._log.flush("graphmind viewer")
        self._events_closed = True
        self._events_ready.set()

    async def __aenter__(self) -> Viewer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _handle(self, ws: Any) -> None:
        ws_mod = _websockets()
        self._next_conn += 1
        conn = self._next_conn
        link = _Link(ws, lambda: None, self._max_queue_bytes, self._stall_s)
        self._links[conn] = link
        self._hello_timers[conn] = self._loop.call_later(self._hello_timeout_s, self._no_hello, conn)
        if self._idle_s is not None:
            self._last_frame[conn] = self._loop.time()
            self._idle_timers[conn] = self._loop.call_later(self._idle_s, self._idle_check, conn)
        self.core.connection_opened(conn)
        self._pump()
        try:
            async for message in ws:
                if link.overflowed:
                    # Dropped as a slow reader: what it had sent already is not handled (each
                    # pause would be opened and answered for an app that reads nothing).
                    break
                if self._idle_s is not None:
                    self._last_frame[conn] = self._loop.time()
                text = message if isinstance(message, str) else message.decode("utf-8", "replace")
                received = self.core.frame_received(conn, message, self.clock.now_ms())
                if self._on_frame is not None:
                    self._on_frame(FrameLog("app->viewer", conn, text, received))
                self._pump()
        except ws_mod.exceptions.ConnectionClosed:
            if _too_big(ws):
                self._log.warning("graphmind viewer: [c%d] frame over max_frame_bytes (%d); closed with 1009", conn, self._max_frame_bytes)
        finally:
            if link.stalled:
                self._log.warning("graphmind viewer: [c%d] the app stopped reading: a write stalled for write_stall_timeout_ms (%d); closed with 1013", conn, round(self._stall_s * 1000))
            elif link.overflowed:
                self._log.warning("graphmind viewer: [c%d] the app stopped reading: over max_queue_bytes (%d) queued; closed with 1013", conn, self._max_queue_bytes)
            for timers in (self._hello_timers, self._idle_timers):
                timer = timers.pop(conn, None)
                if timer is not None:
                    timer.cancel()
            self._last_frame.pop(conn, None)
            link = self._links.pop(conn, None)
            self.core.connection_closed(conn, self.clock.now_ms())
            self._pump()
            if link is not None:
                await link.stop()

    def _pump(self) -> None:
        for action in self.core.poll_actions():
            if isinstance(action, ViewerSend):
                if self._ack_faults and json.loads(action.frame).get("type") == "hello.ack":
                    self._ack_faults.popleft()(action.conn, action.frame)
                    continue
                link = self._links.get(action.conn)
                if link is not None:
                    if self._on_frame is not None:
                        self._on_frame(FrameLog("viewer->app", action.conn, action.frame))
                    link.send(action.frame)
                continue
            if isinstance(action, ViewerClose):
                link = self._links.get(action.conn)
                if link is not None:
                    link.close(action.code, action.reason)
                continue
            if isinstance(action, ViewerWarn):
                self._log.warning("graphmind viewer: [c%d] %s: %s", action.conn, action.rule, _printable(action.text))
            if isinstance(action, PauseOpened):
                self._pause_conn[action.pause_id] = action.conn
            elif isinstance(action, (PauseClosed, PauseReleased)):
                self._pause_conn.pop(action.pause_id, None)
            if isinstance(action, AppAttached):
                timer = self._hello_timers.pop(action.conn, None)
                if timer is not None:
                    timer.cancel()
            if len(self._events) == self._events.maxlen:
                self.events_dropped += 1
            self._events.append(action)
            self._events_ready.set()
            if self._on_event is not None:
                self._on_event(action)
            if isinstance(action, PauseOpened) and self._on_pause is not None:
                self._answer(action, self._on_pause(action))
        self._timer.follow(self.core.poll_timeout())

    def _answer(self, pause: PauseOpened, answer: Any) -> None:
        if isinstance(answer, Awaitable):
            task = self._loop.create_task(self._answer_later(pause, answer))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        if answer is None:
            return
        action, output = (answer, _MISSING) if isinstance(answer, str) else answer
        try:
            self.resume(pause.pause_id, action, output=output)
        except ResumeError as e:
            log.warning("graphmind viewer: cannot resume %s: %s", pause.pause_id, e)

    async def _answer_later(self, pause: PauseOpened, answer: Awaitable[PauseAnswer]) -> None:
        self._answer(pause, await answer)

    def _on_timeout(self, now: float) -> None:
        self.core.handle_timeout(now)
        self._pump()

    def _no_hello(self, conn: int) -> None:
        self._hello_timers.pop(conn, None)
        link = self._links.get(conn)
        if link is not None:
            self._log.warning("graphmind viewer: [c%d] no hello within hello_timeout_ms; closed with 1008", conn)
            link.close(1008, "no hello")


    def _idle_check(self, conn: int) -> None:
        """Closes ``conn`` with 1008 if no frame came for ``idle_timeout_ms`` and it holds no
        open pause; else checks again when that much time will have passed since its last
        frame (one timer a connection, not one a frame)."""
        last = self._last_frame.get(conn)
        link = self._links.get(conn)
        if last is None or link is None or self._idle_s is None:
            return
        open_now = set(self.core.open_pauses)
        for pause_id in [p for p in self._pause_conn if p not in open_now]:
            del self._pause_conn[pause_id]
        if conn in self._pause_conn.values():
            # The app waits at a pause for the user, as long as the user takes: not idle.
            last = self._last_frame[conn] = self._loop.time()
        due = last + self._idle_s
        if self._loop.time() < due:
            self._idle_timers[conn] = self._loop.call_at(due, self._idle_check, conn)
            return
        self._idle_timers.pop(conn, None)
        self._log.warning("graphmind viewer: [c%d] idle for idle_timeout_ms (%d); closed with 1008", conn, round(self._idle_s * 1000))
        link.close(1008, "idle timeout")


def _timeout_s(value: int, name: str) -> float | None:
    """A timeout in ms as seconds; ``0``: none (``None``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative int (0: none), got {value!r}")
    return value / 1000.0 if value else None


def _positive(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value


@contextlib.asynccontextmanager
async def serve(
    host: str = "127.0.0.1",
    port: int = 4747,
    *,
    breakpoints: Iterable[Any] | None = None,
    mode: str | None = None,
    on_event: Callable[[Any], None] | None = None,
    on_pause: Callable[[PauseOpened], PauseAnswer | Awaitable[PauseAnswer]] | None = None,
    on_frame: Callable[[FrameLog], None] | None = None,
    **config: Any,
) -> AsyncIterator[Viewer]:
    """``async with serve(port=0, breakpoints=[{"kind": "tool"}]) as viewer``: a viewer on
    ``ws://HOST:PORT/ingest`` (port 0 picks a free one; ``viewer.url`` names it). Keywords
    are ``ViewerSession``'s (``breakpoints`` default ``[{"point": "error"}]``, ``mode``
    ``"run"``, ``viewer_version``, ``resume_wait_ms``, ...) plus the callbacks: ``on_event``
    (each event), ``on_pause`` (answers each live pause: return an action, ``(action,
    output)``, ``None`` to answer later, or an awaitable of one) and ``on_frame`` (each frame,
    both directions), and the host's limits: ``max_frame_bytes`` (largest app frame read;
    larger closes with 1009, default 16 MiB), ``max_queue_bytes`` (frame text queued for an
    app that stops reading; past it that connection is dropped with 1013, default 16 Mi
    characters), ``hello_timeout_ms`` (a connection that has not completed its WebSocket
    upgrade by then is closed, and one without a valid ``hello`` that long after the upgrade
    is closed with 1008, default 10 000), ``max_events`` (unread events kept for
    ``events()``, the oldest dropped first, default 10 000), ``max_connections`` (app
    connections open at once, counted from the upgrade request; a further one is answered
    HTTP 503, default 128), ``idle_timeout_ms`` (a connection that sends no frame for this
    long and holds no open pause is closed with 1008, default 600 000; ``0``: none) and ``write_stall_timeout_ms`` (a
    single write to an app unfinished this long drops that connection with 1013, default
    30 000; ``0``: none)."""
    if breakpoints is not None:
        config["breakpoints"] = list(breakpoints)
    if mode is not None:
        config["mode"] = mode
    viewer = Viewer(on_event=on_event, on_pause=on_pause, on_frame=on_frame, **config)
    await viewer.start(host, port)
    try:
        yield viewer
    finally:
        await viewer.close()


# ---- the synchronous app host ----------------------------------------------------------------

# The asyncio Session on a private loop in a daemon thread, for plain functions and thread
# pools (its own module; imported last: it builds on everything above).
from wirecontract.graphmind._sync_host import SyncRun, SyncSession, connect_sync  # noqa: E402
