"""Adapter-core scenarios (issue 37): redaction, token batching and the loop-guard
environment, played by the real ``graphmind-ai`` 0.5.1 client and by our asyncio host against
the same capturing viewer on loopback.

``capture_adapter_core.py`` records the real client's frames into ``vectors/graphmind/adapter-core/``;
``test_adapter_core.py`` replays each scenario on our host and compares the wire effects
(``normalize``: ids, timestamps, seqs, durations and the loop fingerprint are normalized).

A scenario (``vectors/graphmind/adapter-core/scenarios.json``) is one run of steps, with the environment
the session reads:
- ``("start", node_id, kind, name, instance_id, input)``: ``node.started`` (input ``None``:
  absent);
- ``("token", node_id, channel, value)``: one streamed delta;
- ``("gate", node_id, kind, name)``: a ``before`` gate (the viewer resumes every pause with
  ``continue``);
- ``("finish", node_id, instance_id, output)``: ``node.finished`` (``durationMs`` 1, ``ok``).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, Iterator

APP = "adapter-core"
SDK = {"name": "adapter-core", "version": "1"}

Step = tuple[Any, ...]

#: The project's own test data: the scenarios and the real client's recordings of them.
DATA = Path(__file__).resolve().parents[3] / "vectors" / "graphmind" / "adapter-core"

#: The scenarios, shared with the Rust, Kotlin and Swift checks of the core:
#: ``vectors/graphmind/adapter-core/scenarios.json`` (``{name: {"env": {...}, "steps": [[...], ...]}}``).
SCENARIOS: dict[str, tuple[dict[str, str], list[Step]]] = {
    name: (s["env"], [tuple(step) for step in s["steps"]])
    for name, s in json.loads((DATA / "scenarios.json").read_text(encoding="utf-8")).items()
}


class CaptureViewer:
    """A loopback viewer that acks every hello with no breakpoints, resumes every pause with
    ``continue`` and records both directions in order."""

    def __init__(self) -> None:
        self.log: list[dict[str, str]] = []
        self.seq = 0
        self.server: Any = None
        self.port = 0

    async def start(self) -> None:
        import websockets

        self.server = await websockets.serve(self._handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ingest"

    async def _send(self, ws: Any, run_id: str, type: str, payload: dict[str, Any]) -> None:
        frame = json.dumps({"gm": 1, "seq": self.seq, "ts": int(time.time() * 1000), "runId": run_id, "type": type, "payload": payload}, separators=(",", ":"))
        self.seq += 1
        self.log.append({"dir": "viewer->app", "frame": frame})
        await ws.send(frame)

    async def _handle(self, ws: Any) -> None:
        try:
            async for text in ws:
                self.log.append({"dir": "app->viewer", "frame": text})
                frame = json.loads(text)
                if frame.get("type") == "hello":
                    ack = {"versions": {"protocol": 1, "viewer": "adapter-core-capture"}, "capabilities": ["pause", "step", "inject", "retry", "abort", "run-claim"], "breakpoints": [], "mode": "run"}
                    await self._send(ws, "*", "hello.ack", ack)
                elif frame.get("type") == "exec.paused":
                    await self._send(ws, frame["runId"], "exec.resume", {"pauseId": frame["payload"]["pauseId"], "action": "continue"})
        except Exception:
            pass

    async def stop(self) -> None:
        self.server.close()
        await self.server.wait_closed()


def drive_real(url: str, env: dict[str, str], name: str, steps: list[Step]) -> None:
    """The scenario on the real client (synchronous; run it in a thread)."""
    import graphmind
    from graphmind.gate import GateNode

    session = graphmind.Session(url=url, env=env, app_name=APP, sdk=dict(SDK))
    try:
        assert session.ready(5.0), "the real client did not attach"
        with session.run(name):
            for step in steps:
                if step[0] == "start":
                    _, node_id, kind, node_name, inst, value = step
                    session.start_node(node_id, kind, node_name, inst, input=value)
                elif step[0] == "token":
                    session.push_token(step[1], step[2], step[3])
                elif step[0] == "gate":
                    session.gate("before", GateNode(step[1], step[2], step[3]))
                elif step[0] == "finish":
                    _, node_id, inst, value = step
                    session.finish_node(node_id, inst, 1.0, output=value)
    finally:
        session.dispose()


def our_calls(steps: list[Step]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The scenario's steps as calls on one of our runs: ``("emit", (type, payload))``,
    ``("push_token", (node_id, channel, value))`` or ``("gate", (point, GateNode))``."""
    from wirecontract.graphmind.session import GateNode

    for step in steps:
        if step[0] == "start":
            _, node_id, kind, node_name, inst, value = step
            payload: dict[str, Any] = {"nodeId": node_id, "kind": kind, "name": node_name, "instanceId": inst}
            if value is not None:
                payload["input"] = value
            yield "emit", ("node.started", payload)
        elif step[0] == "token":
            yield "push_token", (step[1], step[2], step[3])
        elif step[0] == "gate":
            yield "gate", ("before", GateNode(step[1], step[2], step[3]))
        elif step[0] == "finish":
            _, node_id, inst, value = step
            done: dict[str, Any] = {"nodeId": node_id, "instanceId": inst, "durationMs": 1.0, "status": "ok"}
            if value is not None:
                done["output"] = value
            yield "emit", ("node.finished", done)


async def drive_ours(url: str, env: dict[str, str], name: str, steps: list[Step]) -> None:
    """The scenario on our asyncio host: the scenario code alone, every rule in the core."""
    from wirecontract.graphmind.session import connect

    session = connect(url, env=env, app=APP, sdk=dict(SDK))
    try:
        assert await session.ready(5000), "our host did not attach"
        async with session.run(name) as run:
            for method, args in our_calls(steps):
                if method == "gate":
                    await run.gate(*args)
                else:
                    getattr(run, method)(*args)
    finally:
        await session.close()


def drive_ours_sync(url: str, env: dict[str, str], name: str, steps: list[Step]) -> None:
    """The scenario on our synchronous host (run it in a thread): the same calls from plain
    functions."""
    from wirecontract.graphmind.session import connect_sync

    with connect_sync(url, env=env, app=APP, sdk=dict(SDK)) as session:
        assert session.ready(5000), "our synchronous host did not attach"
        with session.run(name) as run:
            for method, args in our_calls(steps):
                getattr(run, method)(*args)


async def capture(driver: str, name: str) -> list[dict[str, str]]:
    """Plays scenario ``name`` with ``driver`` (``"real"``, ``"ours"`` or ``"ours-sync"``) and
    returns the log."""
    env, steps = SCENARIOS[name]
    viewer = CaptureViewer()
    await viewer.start()
    try:
        if driver == "real":
            await asyncio.get_running_loop().run_in_executor(None, drive_real, viewer.url, env, name, steps)
        elif driver == "ours-sync":
            await asyncio.get_running_loop().run_in_executor(None, drive_ours_sync, viewer.url, env, name, steps)
        else:
            await drive_ours(viewer.url, env, name, steps)
        await asyncio.sleep(0.1)
    finally:
        await viewer.stop()
    return viewer.log


_SEQ_KEYS = {"firstSeq", "lastSeq"}
_VOLATILE = {"durationMs", "heldMs", "fingerprint", "pauseId"}


def normalize(log: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The app's frames after the handshake, as ``{type, payload}`` with run ids, instance
    ids of the root, pause ids, durations, ``heldMs``, the loop fingerprint (its hash differs
    by design) and loop seqs replaced by placeholders. ``hello`` is dropped (client versions
    and capabilities differ by design) and so is the implicit run the real client opens for
    nothing here."""
    out: list[dict[str, Any]] = []
    run_ids: dict[str, str] = {}
    for entry in log:
        if entry["dir"] != "app->viewer":
            continue
        frame = json.loads(entry["frame"])
        if frame["type"] == "hello":
            continue
        run = run_ids.setdefault(frame["runId"], f"<run{len(run_ids)}>")
        out.append({"type": frame["type"], "runId": run, "payload": _scrub(frame["payload"], frame["runId"], run)})
    return out


def _scrub(value: Any, run_id: str, placeholder: str) -> Any:
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for k, v in value.items():
            if k in _VOLATILE or k in _SEQ_KEYS:
                result[k] = f"<{k}>"
            elif v == run_id:
                result[k] = placeholder
            else:
                result[k] = _scrub(v, run_id, placeholder)
        return result
    if isinstance(value, list):
        return [_scrub(v, run_id, placeholder) for v in value]
    return value
