"""The viewer's fault-injection controls (``wirecontract.graphmind.testing.ViewerFaults``,
issue 37): raw text and binary frames, envelopes in any state (a duplicate
``breakpoint.set``, a resume for an unknown or settled pause, ``gm`` 2), closes with a
chosen code, and the next ``hello.ack`` withheld, delayed or replaced. The app side is a
plain ``websockets`` client, so each test sees exactly what went over the wire; one test runs
our ``connect`` host through a fault. Every wait is bounded (a few seconds)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from wirecontract.graphmind import session as s
from wirecontract.graphmind.session import AppAttached, FrameLog, GateNode, PauseOpened, connect, serve
from wirecontract.graphmind.testing import FAULT_SEQ_BASE, ViewerFaults

websockets = pytest.importorskip("websockets")  # the session extra; installed by the test requirements
from websockets.asyncio.client import connect as ws_connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402


def hello_frame() -> str:
    """A valid app ``hello``, made by the app core itself."""
    core = s.AppSession(app="faults-test")
    core.ready(1000.0)
    core.poll_actions()
    core.transport_opened(1001.0)
    return next(a.frame for a in core.poll_actions() if isinstance(a, s.Send))


async def recv_json(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return frame


async def attach(viewer: Any, ws: Any) -> tuple[int, dict[str, Any]]:
    """Says hello on ``ws``; returns the connection id and the ack."""
    await ws.send(hello_frame())
    ack = await recv_json(ws)
    assert ack["type"] == "hello.ack"
    return viewer.connections[-1], ack


def test_faults_are_not_part_of_the_production_viewer() -> None:
    """The controls live only in the testing module, bound to a viewer explicitly: a
    ``Viewer`` has no public fault method, and ``session`` exports none."""

    async def main() -> None:
        async with serve(port=0) as viewer:
            public = {n for n in dir(viewer) if not n.startswith("_")}
            assert not public & {"faults", "send_text", "send_bytes", "withhold_ack", "delay_ack", "replace_ack"}
            assert ViewerFaults(viewer).viewer is viewer

    asyncio.run(main())
    assert not hasattr(s, "ViewerFaults") and "ViewerFaults" not in s.__all__


def test_send_text_and_bytes_reach_the_app_raw_and_are_logged() -> None:
    async def main() -> None:
        logged: list[FrameLog] = []
        async with serve(port=0, on_frame=logged.append) as viewer:
            faults = ViewerFaults(viewer)
            async with ws_connect(viewer.url) as ws:
                conn, _ = await attach(viewer, ws)
                faults.send_text(conn, "this is not JSON")
                faults.send_bytes(conn, b"\x00\x01\xfe")
                assert await asyncio.wait_for(ws.recv(), 5) == "this is not JSON"
                assert await asyncio.wait_for(ws.recv(), 5) == b"\x00\x01\xfe"
        mine = [f.frame for f in logged if f.dir == "viewer->app" and f.conn == conn]
        assert mine[1:] == ["this is not JSON", "\x00\x01\ufffd"]

    asyncio.run(main())


def test_send_puts_any_envelope_on_the_wire_in_any_state() -> None:
    """A duplicate ``breakpoint.set`` (the session sends one per new matcher), a resume for a
    pause that was never opened (``Viewer.resume`` refuses it), and a ``gm`` 2 envelope."""

    async def main() -> None:
        async with serve(port=0) as viewer:
            faults = ViewerFaults(viewer)
            async with ws_connect(viewer.url) as ws:
                conn, _ = await attach(viewer, ws)
                assert viewer.set_breakpoint({"kind": "tool"})
                assert not viewer.set_breakpoint({"kind": "tool"})  # the session deduplicates
                faults.send(conn, "breakpoint.set", {"matcher": {"kind": "tool"}})
                with pytest.raises(s.ResumeError):
                    viewer.resume("pause_never_1", "continue")
                faults.resume(conn, "pause_never_1", "bogus", run_id="run_x")
                faults.send(conn, "mode.set", {"mode": "step"}, gm=2, seq=-1)
                got = [await recv_json(ws) for _ in range(4)]
        assert [g["type"] for g in got] == ["breakpoint.set", "breakpoint.set", "exec.resume", "mode.set"]
        assert got[0]["payload"] == got[1]["payload"] == {"matcher": {"kind": "tool"}}
        assert got[1]["seq"] == FAULT_SEQ_BASE + 1
        assert got[2]["payload"] == {"pauseId": "pause_never_1", "action": "bogus"} and got[2]["runId"] == "run_x"
        assert got[3]["gm"] == 2 and got[3]["seq"] == -1

    asyncio.run(main())


def test_close_uses_the_chosen_code() -> None:
    async def main() -> tuple[int | None, str | None]:
        async with serve(port=0) as viewer:
            faults = ViewerFaults(viewer)
            async with ws_connect(viewer.url) as ws:
                conn, _ = await attach(viewer, ws)
                faults.close(conn, 4321, "conform says bye")
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 5)
                return ws.close_code, ws.close_reason
        return None, None

    assert asyncio.run(main()) == (4321, "conform says bye")


def test_withhold_ack_sends_no_ack_then_the_next_hello_is_answered() -> None:
    async def main() -> None:
        events: list[Any] = []
        async with serve(port=0, on_event=events.append) as viewer:
            faults = ViewerFaults(viewer)
            faults.withhold_ack()
            async with ws_connect(viewer.url) as ws:
                await ws.send(hello_frame())
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(ws.recv(), 0.4)
                assert faults.pending_ack_faults == 0
                await ws.send(hello_frame())  # a second hello: answered as usual
                assert (await recv_json(ws))["type"] == "hello.ack"
        assert sum(isinstance(e, AppAttached) for e in events) == 2  # the session did answer both

    asyncio.run(main())


def test_delay_ack_sends_it_late() -> None:
    async def main() -> float:
        async with serve(port=0) as viewer:
            ViewerFaults(viewer).delay_ack(300)
            async with ws_connect(viewer.url) as ws:
                start = time.monotonic()
                await ws.send(hello_frame())
                assert (await recv_json(ws))["type"] == "hello.ack"
                return time.monotonic() - start

    assert asyncio.run(main()) >= 0.29


def test_replace_ack_with_text_or_a_function_of_the_ack() -> None:
    async def main() -> tuple[Any, dict[str, Any]]:
        async with serve(port=0) as viewer:
            faults = ViewerFaults(viewer)
            faults.replace_ack("garbage instead of an ack")
            faults.replace_ack(lambda ack: {**ack, "payload": {**ack["payload"], "versions": {"protocol": 2, "viewer": "v"}}})
            async with ws_connect(viewer.url) as ws:
                await ws.send(hello_frame())
                first = await asyncio.wait_for(ws.recv(), 5)
                await ws.send(hello_frame())
                second = await recv_json(ws)
                return first, second

    first, second = asyncio.run(main())
    assert first == "garbage instead of an ack"
    assert second["type"] == "hello.ack" and second["payload"]["versions"]["protocol"] == 2
    assert second["payload"]["sessionToken"]  # the rest of the session's ack is kept


def test_bad_arguments_are_errors() -> None:
    async def main() -> None:
        async with serve(port=0) as viewer:
            faults = ViewerFaults(viewer)
            with pytest.raises(KeyError):
                faults.send_text(99, "x")
            with pytest.raises(ValueError):
                faults.delay_ack(-1)

    asyncio.run(main())


def test_our_app_host_survives_a_delayed_ack_and_bad_frames_while_held() -> None:
    """End to end with ``connect``: the ack comes 300 ms late (the app buffers, then replays);
    while a gate is held the viewer sends non-JSON, binary, a bogus-action resume and a resume
    for an unknown pause: the gate stays held until the real resume, answered once."""

    async def main() -> tuple[str, list[FrameLog]]:
        logged: list[FrameLog] = []
        async with serve(port=0, breakpoints=[{"kind": "tool"}], on_frame=logged.append) as viewer:
            faults = ViewerFaults(viewer)
            faults.delay_ack(300)
            async with connect(viewer.url, app="faults-e2e") as app:
                async with app.run("r") as run:
                    run.emit("node.started", {"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": "c1"})
                    assert await app.ready(3000)
                    gate = asyncio.ensure_future(run.gate("before", GateNode("tool:t", "tool", "t", "c1")))
                    pause = None
                    async for event in viewer.events():
                        if isinstance(event, PauseOpened):
                            pause = event
                            break
                    assert pause is not None
                    faults.send_text(pause.conn, "not JSON")
                    faults.send_bytes(pause.conn, b"\xff\xfe")
                    faults.resume(pause.conn, pause.pause_id, "bogus")
                    faults.resume(pause.conn, "pause_unknown_1", "continue")
                    await asyncio.sleep(0.3)
                    assert not gate.done()
                    viewer.resume(pause.pause_id, "continue")
                    decision = await asyncio.wait_for(gate, 5)
                    run.emit("node.finished", {"nodeId": "tool:t", "instanceId": "c1", "durationMs": 1.0, "status": "ok"})
            await asyncio.sleep(0.1)
            return decision.action, logged

    action, logged = asyncio.run(main())
    assert action == "continue"
    resumed = [json.loads(f.frame) for f in logged if f.dir == "app->viewer" and '"exec.resumed"' in f.frame]
    assert [r["payload"]["action"] for r in resumed] == ["continue"]
    first_event = next(json.loads(f.frame) for f in logged if f.dir == "app->viewer" and '"run.started"' in f.frame)
    hello = next(json.loads(f.frame) for f in logged if f.dir == "app->viewer" and '"hello"' in f.frame)
    assert first_event["seq"] < hello["seq"]  # emitted before the (late) ack: replayed after it
