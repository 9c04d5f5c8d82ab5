"""The asyncio hosts' own obligations, in one event loop with no listener: the clock they feed
the cores (fractional milliseconds, so sub-millisecond holds show in ``heldMs``), the tasks they
leave behind when connections drop, and the viewer host's handling of an invalid
``exec.resumed`` (issue 37, bugs 1, 3 and 4)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
from typing import Any

import pytest
import websockets.asyncio.server
import websockets.exceptions

from session_support import until
from wirecontract.graphmind.session import AppSession, FrameLog, GateNode, PauseReleased, Send, ViewerWarn, connect, serve

ACK = {"versions": {"protocol": 1, "viewer": "v"}, "capabilities": [], "breakpoints": [{"kind": "tool"}], "mode": "run"}


def frame(type_: str, payload: dict[str, Any], seq: int = 0, run_id: str = "*") -> str:
    return json.dumps({"gm": 1, "seq": seq, "ts": 1, "runId": run_id, "type": type_, "payload": payload})


def sent(core: AppSession) -> list[dict[str, Any]]:
    return [json.loads(a.frame) for a in core.poll_actions() if isinstance(a, Send)]


def test_a_fractional_clock_reading_reaches_held_ms() -> None:
    """``now_ms=1000.3`` as a monotonic clock gives it: a 0.25 ms hold is ``heldMs`` 0.25,
    and ``ts`` is the whole milliseconds."""
    core = AppSession(id_base="abc123")
    core.ready(1000.0)
    core.transport_opened(1000.05)
    core.frame_received(frame("hello.ack", ACK), 1000.1)
    core.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": "call_1"}, 1000.2, "r")
    pause_id = core.gate("before", GateNode("tool:t", "tool", "t", "call_1"), 1000.3, "r")
    assert pause_id is not None
    core.frame_received(frame("exec.resume", {"pauseId": pause_id, "action": "continue"}, 1, "r"), 1000.55)
    core.poll_actions()
    core.emit("node.finished", {"nodeId": "tool:t", "instanceId": "call_1", "durationMs": 1, "status": "ok"}, 1001.9, "r")
    [finished] = sent(core)
    assert finished["payload"]["heldMs"] == 0.25
    assert finished["ts"] == 1001


@pytest.mark.parametrize("bad, rule", [(math.nan, "NaN"), (math.inf, "infinite"), (-math.inf, "infinite"), (-0.5, "negative"), (2.0**53, "above")])
def test_a_clock_reading_no_clock_gives_is_refused(bad: float, rule: str) -> None:
    core = AppSession(id_base="abc123")
    with pytest.raises(ValueError, match=f"'now_ms'.*{rule}"):
        core.ready(bad)
    with pytest.raises(ValueError, match="'now_ms'"):
        core.gate("before", GateNode("tool:t", "tool", "t"), bad)
    with pytest.raises(TypeError, match="'now_ms'"):
        core.ready(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'now_ms'.*above"):
        core.ready(2**1100)
    assert core.ready(7) == 1, "an int is still a reading"
    assert core.poll_timeout() == 307.0 and isinstance(core.poll_timeout(), float)


def test_sub_millisecond_holds_show_in_held_ms() -> None:
    """The viewer answers every pause at once (no artificial delay): each hold lasts well under
    a millisecond on an idle machine, and each held instance must still say so."""
    finished: list[dict[str, Any]] = []

    def on_frame(f: FrameLog) -> None:
        env = json.loads(f.frame)
        # The tool's instances (each run's root agent node finishes too).
        if f.dir == "app->viewer" and env["type"] == "node.finished" and env["payload"]["nodeId"] == "tool:t":
            finished.append(env["payload"])

    async def main() -> None:
        async with serve(port=0, breakpoints=[{"kind": "tool"}], on_pause=lambda pause: "continue", on_frame=on_frame) as viewer:
            async with connect(viewer.url, app="holds") as app:
                assert await app.ready(5000)
                async with app.run("holds") as run:
                    for i in range(20):
                        node = GateNode("tool:t", "tool", "t", f"call_{i}")
                        run.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": f"call_{i}"})
                        assert (await run.gate("before", node)).action == "continue"
                        run.emit("node.finished", {"nodeId": "tool:t", "instanceId": f"call_{i}", "durationMs": 1.0, "status": "ok"})
            await until(lambda: len(finished) == 20, "every node.finished at the viewer")

    asyncio.run(asyncio.wait_for(main(), 60))
    held = [p["heldMs"] for p in finished]
    assert all(h > 0 for h in held), f"a hold read as never held: {held}"
    assert all(round(h, 2) == h for h in held), f"heldMs has two decimals: {held}"


def test_dropped_connections_leave_no_writer_task() -> None:
    """Each dropped connection used to leave its writer task waiting on its queue forever,
    destroyed pending at garbage collection ("Task was destroyed but it is pending")."""
    problems: list[str] = []

    def writers() -> int:
        return sum(1 for t in asyncio.all_tasks() if getattr(t.get_coro(), "__qualname__", "") == "_Link._write")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, ctx: problems.append(str(ctx.get("message"))))
        async with serve(port=0, breakpoints=[]) as viewer:
            async with connect(viewer.url, app="drops", fast_retry_ms=[1] * 20, retry_interval_ms=50) as app:
                assert await app.ready(5000)
                counts = []
                for _ in range(8):
                    await until(lambda: app.core.state == "attached" and len(viewer.connections) == 1, "attached")
                    [conn] = viewer.connections
                    await viewer.drop(conn)
                    await until(lambda: conn not in viewer.connections and app.core.state != "attached", "the drop")
                    await until(lambda: app.core.state == "attached" and len(viewer.connections) == 1, "the reconnect")
                    gc.collect()
                    counts.append(writers())
                # One app link and one viewer link are alive; nothing else may wait.
                assert counts == [2] * 8, f"writer tasks after each drop: {counts}"
            gc.collect()
            await asyncio.sleep(0)

    asyncio.run(asyncio.wait_for(main(), 60))
    assert not problems, problems


def test_the_viewer_host_closes_a_pause_answered_by_an_invalid_resumed() -> None:
    """An app answering with an out-of-enum action (the real client echoes ``"bogus"``): the
    pause is closed and reported, and no fail-open release follows at disconnect."""
    events: list[Any] = []

    async def main() -> None:
        import websockets.asyncio.client

        async with serve(port=0, breakpoints=[{"kind": "tool"}], on_event=events.append) as viewer:
            async with websockets.asyncio.client.connect(viewer.url) as ws:
                hello = {"versions": {"protocol": 1, "client": "0.5.1"}, "capabilities": [], "app": "a", "sdk": {"name": "python", "version": "0.5.1"}}
                await ws.send(frame("hello", hello, 0))
                await ws.recv()  # hello.ack
                await ws.send(frame("exec.paused", {"pauseId": "p1", "nodeId": "tool:t", "point": "before"}, 1, "r"))
                await until(lambda: viewer.core.open_pauses == ["p1"], "the pause to open")
                await ws.send(frame("exec.resumed", {"pauseId": "p1", "action": "bogus"}, 2, "r"))
                await until(lambda: any(isinstance(e, ViewerWarn) for e in events), "the report")
                assert viewer.core.open_pauses == []
            await until(lambda: not viewer.connections, "the disconnect")

    asyncio.run(asyncio.wait_for(main(), 30))
    warns = [e for e in events if isinstance(e, ViewerWarn)]
    assert [w.rule for w in warns] == ["invalid-resumed"] and "p1" in warns[0].text, warns
    assert not [e for e in events if isinstance(e, PauseReleased)], "the closed pause is not released again at disconnect"


def test_a_version_mismatch_close_drops_the_frames_not_yet_written() -> None:
    """Issue 40: after the core closes a connection (here a ``gm: 2`` frame while attached) it
    has left that viewer, and its ring replays on the next attachment. The link used to queue
    the close behind every frame waiting for that socket and kept sending them: in the abuse
    step, 40,524 frames (the whole ring) went to the viewer the app had left, for seconds,
    while the app was already on its next connections. Here the viewer stops reading, the app
    queues 400 runs of 64 KiB (25 MiB, far more than the kernel's socket buffers hold) and
    only then gets the ``gm: 2``: only what was already written may arrive, then the 1002 close."""
    runs, pad = 400, "p" * (64 << 10)
    first: list[str] = []  # the run names read on the first connection
    closes: list[int | None] = []
    stopped, queued, go_on, warned = asyncio.Event(), asyncio.Event(), asyncio.Event(), asyncio.Event()
    conns = 0

    async def viewer(ws: Any) -> None:
        nonlocal conns
        conns += 1
        k = conns
        await ws.recv()  # hello
        await ws.send(frame("hello.ack", ACK))
        if k == 1:
            await ws.recv()  # the app's first frame: now it stops reading and speaks gm 2
            ws.transport.pause_reading()
            stopped.set()
            await queued.wait()
            await ws.send(json.dumps({"gm": 2, "seq": 1, "ts": 1, "runId": "*", "type": "mode.set", "payload": {"mode": "run"}}))
            await go_on.wait()
            ws.transport.resume_reading()
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            async for text in ws:
                env = json.loads(text)
                if k == 1 and env["type"] == "run.started":
                    first.append(env["payload"]["meta"]["name"])
        if k == 1:
            closes.append(ws.close_code)

    async def main() -> None:
        async with websockets.asyncio.server.serve(viewer, "127.0.0.1", 0, max_size=None, ping_interval=None) as server:
            port = server.sockets[0].getsockname()[1]
            on_warn = lambda w: warned.set() if w.rule == "version-mismatch" else None  # noqa: E731
            async with connect(
                f"ws://127.0.0.1:{port}/ingest", app="mismatch", max_queue_bytes=64 << 20, write_stall_timeout_ms=0, on_warn=on_warn,
            ) as app:
                assert await app.ready(5000)
                app.emit("node.started", {"nodeId": "agent:a", "kind": "agent", "name": "a", "instanceId": "a1"})
                await asyncio.wait_for(stopped.wait(), 10)
                for r in range(runs):  # queued at once: nothing awaits in between
                    async with app.run(f"r{r}", meta={"pad": pad}):
                        pass
                queued.set()
                await asyncio.wait_for(warned.wait(), 10)  # the app has decided to leave
                go_on.set()
                await until(lambda: closes, "the first connection to close")

    asyncio.run(asyncio.wait_for(main(), 60))
    assert closes == [1002], closes
    assert len(first) < runs // 2, f"{len(first)} of the {runs} runs queued before the close reached the viewer the app had left"
