"""What the asyncio hosts (``_app_host``, ``_viewer_host``) share: the resource limits and their
defaults, the rate-limited warning log, the clock, ``RunAborted`` and a run's error info, the
timer that follows a core's deadline, ``_Link`` (one WebSocket with a bounded, ordered
outbox) and the checks of the hosts' timeout and count arguments. Exported by
``wirecontract.graphmind.session``. No protocol rule lives here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import traceback
from collections.abc import Callable
from typing import Any

import wirecontract.graphmind as _gm

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



def _timeout_s(value: int, name: str) -> float | None:
    """A timeout in ms as seconds; ``0``: none (``None``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative int (0: none), got {value!r}")
    return value / 1000.0 if value else None


def _positive(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value
