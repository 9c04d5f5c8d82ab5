"""``serve`` and the Python hosts' writers under abuse (issue 40): a connection cap answered
with 503 at the upgrade, an idle timeout after the handshake, a write-stall rule in both
hosts, connection churn and 10,000 runs from one app with the retained state bounded, while a
well-behaved app's frames are each stored once and its pauses answered. Every wait is bounded
(a few seconds each)."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from typing import Any

import pytest

from abuse_support import RawViewer, close_code, header, raw_client, read_frame, wait_for
from wirecontract.graphmind import session as s
from wirecontract.graphmind.session import GateNode, connect, serve

PATIENT: dict[str, Any] = {"connect_timeout_ms": 5000, "handshake_timeout_ms": 5000}


def _hello() -> bytes:
    """A valid app ``hello`` as a masked client text frame (made by the app core itself)."""
    core = s.AppSession(app="raw-app")
    core.ready(1000.0)
    core.poll_actions()
    core.transport_opened(1001.0)
    frame = next(a.frame for a in core.poll_actions() if isinstance(a, s.Send)).encode()
    return header(0x1, len(frame), masked=True) + frame


def _upgrade_status(url: str) -> bytes:
    """The status line the server answers an upgrade request with."""
    hostport, path = url.removeprefix("ws://").split("/", 1)
    host, port = hostport.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"GET /" + path.encode() + b" HTTP/1.1\r\nHost: " + hostport.encode()
            + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
            + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        head = b""
        while b"\r\n" not in head:
            part = sock.recv(4096)
            if not part:
                break
            head += part
    return head.split(b"\r\n", 1)[0]


def test_serve_answers_503_past_the_default_connection_cap(caplog: pytest.LogCaptureFixture) -> None:
    """128 connections (the default ``max_connections``) are open; the 129th is answered 503
    at the upgrade, logged once; when one closes, a new one is accepted again."""

    async def main() -> tuple[bytes, bytes, int]:
        async with serve(port=0) as viewer:
            socks = [await asyncio.to_thread(raw_client, viewer.url) for _ in range(s.MAX_CONNECTIONS)]
            over = await asyncio.to_thread(_upgrade_status, viewer.url)
            socks.pop().close()
            await asyncio.to_thread(wait_for, lambda: viewer._open < s.MAX_CONNECTIONS, 5.0)
            again = await asyncio.to_thread(_upgrade_status, viewer.url)
            for sock in socks:
                sock.close()
            return over, again, viewer.connections_refused

    with caplog.at_level(logging.WARNING, "wirecontract.session"):
        over, again, refused = asyncio.run(main())
    assert s.MAX_CONNECTIONS == 128
    assert over.startswith(b"HTTP/1.1 503"), over
    assert again.startswith(b"HTTP/1.1 101"), again
    assert refused == 1
    assert any("answered 503" in r.getMessage() and "max_connections" in r.getMessage() for r in caplog.records)


def test_serve_closes_an_idle_connection_with_1008(caplog: pytest.LogCaptureFixture) -> None:
    """An attached app that sends nothing for ``idle_timeout_ms`` is closed with 1008; an app
    that keeps sending is not."""

    async def main() -> tuple[int | None, list[int]]:
        async with serve(port=0, idle_timeout_ms=400) as viewer:
            sock = await asyncio.to_thread(raw_client, viewer.url)
            sock.sendall(_hello())
            sock.settimeout(10)
            code = None
            while code is None:
                op, data = await asyncio.to_thread(read_frame, sock)
                if op == 0x8:
                    code = close_code(data)
            sock.close()
            async with connect(viewer.url, **PATIENT) as sess:
                assert await sess.ready(10_000)
                async with sess.run("busy") as run:
                    for i in range(12):  # 1.2 s, a frame every 100 ms
                        run.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": f"i{i}"})
                        await asyncio.sleep(0.1)
                busy = viewer.connections
            return code, busy

    with caplog.at_level(logging.WARNING, "wirecontract.session"):
        code, busy = asyncio.run(main())
    assert code == 1008
    assert busy == [2], busy  # the busy app kept its first connection
    assert any("idle for idle_timeout_ms (400); closed with 1008" in r.getMessage() for r in caplog.records)


def test_an_app_waiting_at_a_pause_is_not_idle() -> None:
    """A pause the user has not answered yet keeps its app's connection open past
    ``idle_timeout_ms``: the gate is answered by the viewer, not released by fail-open."""

    async def main() -> tuple[Any, list[int], int]:
        opened: list[s.PauseOpened] = []
        async with serve(port=0, idle_timeout_ms=300, breakpoints=[{"kind": "tool"}], on_pause=lambda p: opened.append(p)) as viewer:
            async with connect(viewer.url, pause_timeout_ms=60_000, **PATIENT) as sess:
                assert await sess.ready(10_000)
                async with sess.run("held") as run:
                    run.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": "c1"})
                    gate = asyncio.ensure_future(run.gate("before", GateNode("tool:t", "tool", "t", "c1")))
                    await asyncio.sleep(1.2)  # four idle timeouts
                    conns = viewer.connections
                    viewer.resume(opened[0].pause_id, "abort")
                    decision = await asyncio.wait_for(gate, 5)
            return decision, conns, len(opened)

    decision, conns, pauses = asyncio.run(main())
    assert conns == [1] and pauses == 1
    assert decision.action == "abort"  # the viewer's answer, not fail-open's continue


def test_serve_drops_an_app_whose_write_stalls(caplog: pytest.LogCaptureFixture) -> None:
    """An attached app that stops reading while the viewer broadcasts 8 MB of breakpoints
    (under ``max_queue_bytes``): the write stalls, and past ``write_stall_timeout_ms`` the
    connection is dropped with 1013."""

    async def main() -> tuple[bool, list[int]]:
        async with serve(port=0, write_stall_timeout_ms=300) as viewer:
            sock = await asyncio.to_thread(raw_client, viewer.url)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
            sock.sendall(_hello())
            assert await asyncio.to_thread(wait_for, lambda: viewer.core.open_pauses == [] and len(viewer.connections) == 1)
            await asyncio.sleep(0.2)  # attached
            for i in range(160):
                viewer.set_breakpoint({"kind": "tool", "name": f"{i}" + "n" * 50_000})
            gone = await asyncio.to_thread(wait_for, lambda: not viewer.connections, 5.0)
            sock.close()
            return gone, viewer.connections

    with caplog.at_level(logging.WARNING, "wirecontract.session"):
        gone, left = asyncio.run(main())
    assert gone, f"still connected: {left}"
    assert any("a write stalled for write_stall_timeout_ms (300); closed with 1013" in r.getMessage() for r in caplog.records)


def test_serve_stops_handling_an_app_once_it_is_dropped_as_a_slow_reader(caplog: pytest.LogCaptureFixture) -> None:
    """An app that never reads sends 1,500 pauses at once; each is answered with a 64 KiB
    inject until its queue passes ``max_queue_bytes`` and it is dropped with 1013. From then
    on the frames it had already sent are not handled: no more pauses are opened or answered
    for it (they were, every one, before: a dropped app kept the host answering for seconds)."""
    answered: list[str] = []
    frames = [
        ('{"gm":1,"seq":%d,"ts":1,"runId":"r","type":"exec.paused","payload":{"pauseId":"p%d","nodeId":"tool:t","point":"before"}}' % (i, i)).encode()
        for i in range(1, 1501)
    ]
    paused = b"".join(header(0x1, len(f), masked=True) + f for f in frames)

    def on_pause(p: Any) -> Any:
        answered.append(p.pause_id)
        return ("inject", {"blob": "z" * (64 << 10)})

    async def main() -> tuple[bool, list[int]]:
        async with serve(port=0, breakpoints=[{"kind": "tool"}], on_pause=on_pause, max_queue_bytes=256 << 10) as viewer:
            sock = await asyncio.to_thread(raw_client, viewer.url)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
            sock.sendall(_hello())
            await asyncio.to_thread(sock.sendall, paused)
            gone = await asyncio.to_thread(wait_for, lambda: not viewer.connections, 20.0)
            sock.close()
            return gone, viewer.connections

    with caplog.at_level(logging.WARNING, "wirecontract.session"):
        gone, left = asyncio.run(main())
    assert gone, f"still connected: {left}"
    assert any("over max_queue_bytes (262144) queued; closed with 1013" in r.getMessage() for r in caplog.records)
    # The queue (256 KiB) and the socket buffers hold a few MiB of answers: far fewer than 1,500.
    assert len(answered) < 500, f"{len(answered)} pauses answered for an app already dropped"


def test_connect_drops_a_viewer_whose_write_stalls(caplog: pytest.LogCaptureFixture) -> None:
    """The app emits 4 MB (under ``max_queue_bytes``) to a viewer that stops reading: the
    write stalls, the connection is dropped past ``write_stall_timeout_ms`` and the core
    reconnects."""
    stalled: list[socket.socket] = []

    def after_ack(sock: socket.socket) -> None:
        if not stalled:
            stalled.append(sock)
            time.sleep(30)  # reads nothing; ends when the test closes the socket

    viewer = RawViewer(after_ack, rcvbuf=16 * 1024)
    big = "y" * 100_000

    async def main() -> bool:
        async with connect(viewer.url, write_stall_timeout_ms=300, **PATIENT) as sess:
            assert await sess.ready(10_000)
            async with sess.run("flood") as run:
                for i in range(40):
                    run.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": f"i{i}", "input": big})
                    await asyncio.sleep(0)
            return await asyncio.to_thread(wait_for, lambda: viewer.connections >= 2, 8.0)

    try:
        with caplog.at_level(logging.WARNING, "wirecontract.session"):
            reconnected = asyncio.run(main())
    finally:
        for sock in stalled:
            sock.close()
        viewer.close()
    assert reconnected, "not dropped/reconnected"
    messages = [r.getMessage() for r in caplog.records]
    assert any("a write stalled for write_stall_timeout_ms (300); closed with 1013" in m for m in messages), messages
    assert not any("over max_queue_bytes" in m for m in messages)


def test_timeouts_are_checked() -> None:
    async def main() -> None:
        for kw in ({"idle_timeout_ms": -1}, {"write_stall_timeout_ms": 1.5}, {"max_connections": 0}):
            with pytest.raises(ValueError):
                async with serve(port=0, **kw):
                    pass
        with pytest.raises(ValueError):
            connect("ws://127.0.0.1:1/ingest", write_stall_timeout_ms=-5)
        with pytest.raises(ValueError):
            s.ViewerSession(max_retained_runs=0)

    asyncio.run(main())


class _GoodApp:
    """A well-behaved app beside the abuse: runs with two gates each, answered by the
    viewer's ``on_pause``. Records every gate's decision, and (``on_event``) the viewer's
    pause events of its runs."""

    def __init__(self) -> None:
        self.decisions: list[Any] = []
        self.opened: set[str] = set()
        self.closed: set[str] = set()
        self.released: list[Any] = []

    def on_event(self, e: Any) -> None:
        if isinstance(e, s.PauseOpened):  # only the good app has gates
            self.opened.add(e.pause_id)
        elif isinstance(e, s.PauseClosed):
            self.closed.add(e.pause_id)
        elif isinstance(e, s.PauseReleased):
            self.released.append(e)

    def check(self, runs: int) -> None:
        """Every gate was held and answered by the viewer (none released by fail-open)."""
        assert len(self.decisions) == 2 * runs and all(d.action == "continue" for d in self.decisions)
        assert len(self.opened) == 2 * runs and self.opened <= self.closed, (len(self.opened), len(self.opened - self.closed))
        assert self.released == []

    async def run(self, url: str, runs: int) -> None:
        async with connect(url, app="good", **PATIENT) as sess:
            assert await sess.ready(10_000)
            for r in range(runs):
                async with sess.run(f"good-{r}") as run:
                    node = GateNode("tool:t", "tool", "t", f"c{r}")
                    run.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": f"c{r}"})
                    self.decisions.append(await run.gate("before", node))
                    self.decisions.append(await run.gate("after", node))
                    run.emit("node.finished", {"nodeId": "tool:t", "instanceId": f"c{r}", "durationMs": 1, "status": "ok"})
                await asyncio.sleep(0.005)


GOOD_BREAKPOINTS = [{"kind": "tool"}, {"kind": "tool", "point": "after"}]
GOOD_FRAMES = 10
"""Frames of one good run after the ``hello`` (seq 0): run.started, the root agent node's
node.started, the tool's node.started, exec.paused and exec.resumed twice, the tool's and the
root's node.finished, run.finished (seqs 1, 2, ...: each stored once)."""


def _stored_once(frames: list[s.FrameLog], app: str) -> tuple[list[int], int]:
    """The seqs the viewer accepted from the connections of ``app`` (by its hello), and how
    many of its frames were refused or duplicated."""
    import json

    conns = {f.conn for f in frames if f.dir == "app->viewer" and f.received is not None and f.received.kind == "hello" and f'"app":"{app}"' in f.frame.replace(" ", "")}
    accepted, other = [], 0
    for f in frames:
        if f.dir != "app->viewer" or f.conn not in conns or f.received is None or f.received.kind == "hello":
            continue
        if f.received.kind == "accepted":
            accepted.append(json.loads(f.frame)["seq"])
        else:
            other += 1
    return accepted, other


def test_connection_churn_beside_a_good_app() -> None:
    """400 connections opened and closed (half after a ``hello``) while a good app does 40 runs
    with two pauses each: every one of its frames is stored exactly once, every pause is
    answered by the viewer, and no connection stays counted."""
    frames: list[s.FrameLog] = []
    hello = _hello()

    def churn(url: str, n: int) -> int:
        done = 0
        for i in range(n):
            try:
                sock = raw_client(url, timeout=5)
                if i % 2:
                    sock.sendall(hello)
                sock.close()
                done += 1
            except (OSError, AssertionError, ConnectionError):
                pass
        return done

    app = _GoodApp()

    async def main() -> tuple[int, int, _GoodApp]:
        async with serve(port=0, breakpoints=GOOD_BREAKPOINTS, on_pause=lambda p: "continue", on_frame=frames.append, on_event=app.on_event) as viewer:
            churned, _ = await asyncio.gather(asyncio.to_thread(churn, viewer.url, 400), app.run(viewer.url, 40))
            await asyncio.to_thread(wait_for, lambda: viewer._open == 0, 5.0)
            return churned, viewer._open, app

    t0 = time.monotonic()
    churned, still_open, app = asyncio.run(main())
    assert churned == 400
    assert still_open == 0
    accepted, other = _stored_once(frames, "good")
    assert sorted(accepted) == list(range(1, len(accepted) + 1)) and len(accepted) == 40 * GOOD_FRAMES, (len(accepted), other)
    assert other == 0
    app.check(40)
    assert time.monotonic() - t0 < 60


@pytest.mark.load
def test_ten_thousand_runs_keep_the_retained_state_bounded() -> None:
    """One app does 10,000 runs (20,000 frames) against ``serve(max_retained_runs=1000)``
    while a good app pauses: the viewer retains at most 1,000 runs, stores every flood frame
    once, and the good app's frames are each stored once with every pause answered."""
    frames: list[s.FrameLog] = []
    accepted = 0

    app = _GoodApp()

    def on_event(e: Any) -> None:
        nonlocal accepted
        app.on_event(e)
        if isinstance(e, s.FrameAccepted):
            accepted += 1

    async def flood(url: str) -> None:
        # Two frames per run (no root node), so the flood is 20,000 frames.
        async with connect(url, app="flood", flush_timeout_ms=30_000, root_node=False, **PATIENT) as sess:
            assert await sess.ready(10_000)
            for r in range(10_000):
                async with sess.run(f"r{r}"):
                    pass
                if r % 100 == 0:
                    await asyncio.sleep(0)

    async def main() -> tuple[int, int, _GoodApp]:
        async with serve(port=0, breakpoints=GOOD_BREAKPOINTS, on_pause=lambda p: "continue", on_frame=frames.append, on_event=on_event, max_retained_runs=1000) as viewer:
            await asyncio.gather(flood(viewer.url), app.run(viewer.url, 20))
            await asyncio.sleep(0.3)
            return viewer.core.retained_runs, viewer.core.retained_bytes, app

    t0 = time.monotonic()
    retained, retained_bytes, app = asyncio.run(main())
    assert 0 < retained <= 1000, retained
    assert retained_bytes < 8 << 20, retained_bytes
    good, other = _stored_once(frames, "good")
    assert sorted(good) == list(range(1, len(good) + 1)) and len(good) == 20 * GOOD_FRAMES, (len(good), other)
    assert other == 0
    assert accepted == 20_000 + 20 * GOOD_FRAMES  # the flood's run.started/run.finished, the good app's
    app.check(20)
    assert time.monotonic() - t0 < 60
