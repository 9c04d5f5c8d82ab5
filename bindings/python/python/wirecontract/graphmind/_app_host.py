"""The asyncio app host: ``Session`` (made by ``connect``) drives one ``AppSession`` core over
a WebSocket to the viewer, and ``Run`` is one run of it. Exported by
``wirecontract.graphmind.session``; the synchronous host (``_sync_host``) runs it on a loop of
its own. No protocol rule lives here."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import os
import secrets
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from wirecontract.graphmind._cores import (
    APP_DEFAULTS,
    CONTINUE,
    AbortRun,
    AppSession,
    Close,
    Connect,
    Decision,
    GateNode,
    ReadySettled,
    Release,
    Send,
    Warn,
)
from wirecontract.graphmind._host_base import (
    MAX_FRAME_BYTES,
    MAX_QUEUE_BYTES,
    MAX_WARNINGS,
    WRITE_STALL_TIMEOUT_MS,
    Clock,
    RunAborted,
    _error_info,
    _Link,
    _LogLimit,
    _positive,
    _printable,
    _timeout_s,
    _Timer,
    _too_big,
    _websockets,
)

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
                self._log.warning("graphmind session: the viewer stopped reading: a write stalled for write_stall_timeout_ms (%d); closed with 1013", round((self._stall_s or 0) * 1000))
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
