"""The asyncio viewer host: ``Viewer`` (made by ``serve``) drives one ``ViewerSession`` core
behind a WebSocket server for the apps, and ``FrameLog`` is one frame of its log. Exported by
``wirecontract.graphmind.session``. No protocol rule lives here."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from wirecontract.graphmind._cores import (
    INGEST_PATH,
    AppAttached,
    PauseClosed,
    PauseOpened,
    PauseReleased,
    Received,
    ResumeError,
    ViewerClose,
    ViewerSend,
    ViewerSession,
    ViewerWarn,
)
from wirecontract.graphmind._host_base import (
    HELLO_TIMEOUT_MS,
    IDLE_TIMEOUT_MS,
    MAX_CONNECTIONS,
    MAX_EVENTS,
    MAX_FRAME_BYTES,
    MAX_QUEUE_BYTES,
    WRITE_STALL_TIMEOUT_MS,
    Clock,
    _Link,
    _LogLimit,
    _positive,
    _printable,
    _timeout_s,
    _Timer,
    _too_big,
    _websockets,
    log,
)

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
                self._log.warning("graphmind viewer: [c%d] the app stopped reading: a write stalled for write_stall_timeout_ms (%d); closed with 1013", conn, round((self._stall_s or 0) * 1000))
            elif link.overflowed:
                self._log.warning("graphmind viewer: [c%d] the app stopped reading: over max_queue_bytes (%d) queued; closed with 1013", conn, self._max_queue_bytes)
            for timers in (self._hello_timers, self._idle_timers):
                timer = timers.pop(conn, None)
                if timer is not None:
                    timer.cancel()
            self._last_frame.pop(conn, None)
            gone = self._links.pop(conn, None)
            self.core.connection_closed(conn, self.clock.now_ms())
            self._pump()
            if gone is not None:
                await gone.stop()

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
