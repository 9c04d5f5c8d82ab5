"""The asyncio app host (``wirecontract.graphmind.session.connect``) against
``wirecontract listen``: a pause answered with continue, an inject, an abort, step mode, and
a disconnect while held (fail-open, then ``exec.resumed`` delivered in the reconnect's
replay). Each test runs the listener with its own flags and checks the host's decisions and
the listener's record.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from session_support import Proxy, listener, until
from wirecontract.graphmind.session import CONTINUE, GateNode, RunAborted, connect

# Generous deadlines: a busy CI machine must not turn a slow first connect into a 10 s retry.
PATIENT: dict[str, Any] = {"connect_timeout_ms": 5000, "handshake_timeout_ms": 5000}
TOOL = GateNode("tool:lookup", "tool", "lookup", "call_1")
LLM = GateNode("llm:step", "llm", "step", "step_1")


def started(node: GateNode, **extra: Any) -> dict[str, Any]:
    return {"nodeId": node.node_id, "kind": node.kind, "name": node.name, "instanceId": node.instance_id, **extra}


def finished(node: GateNode, status: str = "ok", **extra: Any) -> dict[str, Any]:
    return {"nodeId": node.node_id, "instanceId": node.instance_id, "durationMs": 1.5, "status": status, **extra}


def app_frames(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r["env"] for r in rows if r["dir"] == "app->viewer"]


def types(rows: list[dict[str, Any]], direction: str) -> list[str]:
    return [r["env"]["type"] for r in rows if r["dir"] == direction]


def check_common(rows: list[dict[str, Any]]) -> None:
    """Every frame parsed ok; per connection app seqs strictly increase; every exec.paused is
    answered by exactly one exec.resumed for its pause id (de-duplicated by seq)."""
    assert all(r["expect"] == "ok" for r in rows), [r for r in rows if r["expect"] != "ok"]
    by_conn: dict[int, list[int]] = {}
    for r in rows:
        if r["dir"] == "app->viewer" and not r.get("replayed") and not r.get("duplicate"):
            by_conn.setdefault(r["conn"], []).append(r["env"]["seq"])
    for seqs in by_conn.values():
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), seqs
    first_seen = {r["env"]["seq"]: r["env"] for r in rows if r["dir"] == "app->viewer" and r["env"]["runId"] != "*"}
    paused = [e["payload"]["pauseId"] for e in first_seen.values() if e["type"] == "exec.paused"]
    resumed = [e["payload"]["pauseId"] for e in first_seen.values() if e["type"] == "exec.resumed"]
    assert sorted(paused) == sorted(resumed) and len(set(resumed)) == len(resumed), (paused, resumed)


async def tool_call(run: Any, node: GateNode, result: Any) -> Any:
    """A tool with its three gates, as an adapter writes it (graphmind-session §3.7)."""
    run.emit("node.started", started(node, input={"key": "alpha"}))
    decision = await run.gate("before", node)
    if decision.action == "abort":
        run.emit("node.finished", finished(node, "aborted"))
        raise RunAborted(run.run_id)
    if decision.action == "inject":
        run.emit("node.finished", finished(node, output=decision.output, injected=True))
        return decision.output
    decision = await run.gate("after", node)
    output = decision.output if decision.action == "inject" else result
    run.emit("node.finished", finished(node, output=output))
    return output


def test_pause_and_continue(tmp_path: Path) -> None:
    async def main() -> None:
        async with listener(tmp_path, "--break", "tool", "--on-pause", "continue") as lst:
            async with connect(lst.url, app="host-test", **PATIENT) as s:
                assert await s.ready()
                async with s.run("continue") as run:
                    assert await tool_call(run, TOOL, 7) == 7
            assert await lst.wait_exit() == 0
            rows = lst.frames()
        check_common(rows)
        # The run's root node (agent:continue) wraps the tool's.
        assert types(rows, "app->viewer") == ["hello", "run.started", "node.started", "node.started", "exec.paused", "exec.resumed", "node.finished", "node.finished", "run.finished"]
        assert types(rows, "viewer->app") == ["hello.ack", "exec.resume"]
        order = [r["env"]["type"] for r in rows]
        assert order.index("exec.resume") < order.index("exec.resumed") < order.index("node.finished")
        paused = next(e for e in app_frames(rows) if e["type"] == "exec.paused")["payload"]
        assert paused["point"] == "before" and paused["reason"] == "breakpoint" and paused["instanceId"] == "call_1"
        done = next(e for e in app_frames(rows) if e["type"] == "node.finished")["payload"]
        assert done["output"] == 7 and done["heldMs"] >= 0

    asyncio.run(asyncio.wait_for(main(), 60))


def test_inject(tmp_path: Path) -> None:
    async def main() -> None:
        async with listener(tmp_path, "--break", "tool:lookup", "--on-pause", 'inject={"value":42,"big":12345678901234567890}') as lst:
            async with connect(lst.url, **PATIENT) as s:
                assert await s.ready()
                async with s.run("inject") as run:
                    run.emit("node.started", started(TOOL))
                    decision = await run.gate("before", TOOL)
                    assert decision.action == "inject" and decision.has_output
                    assert decision.output == {"value": 42, "big": 12345678901234567890}
                    assert decision.output_json == '{"value":42,"big":12345678901234567890}'
                    run.emit("node.finished", finished(TOOL, output=decision.output, injected=True))
            assert await lst.wait_exit() == 0
            rows = lst.frames()
        check_common(rows)
        resumed = next(e for e in app_frames(rows) if e["type"] == "exec.resumed")["payload"]
        assert resumed["action"] == "inject" and "output" not in resumed
        done = next(e for e in app_frames(rows) if e["type"] == "node.finished")["payload"]
        assert done["injected"] is True and done["output"]["value"] == 42

    asyncio.run(asyncio.wait_for(main(), 60))


def test_abort(tmp_path: Path) -> None:
    async def main() -> None:
        async with listener(tmp_path, "--break", "tool", "--on-pause", "abort") as lst:
            async with connect(lst.url, **PATIENT) as s:
                assert await s.ready()
                reached_after_abort = False
                async with s.run("abort") as run:
                    await tool_call(run, TOOL, 1)
                    reached_after_abort = True
                assert run.aborted and not reached_after_abort
            assert await lst.wait_exit() == 0
            rows = lst.frames()
        check_common(rows)
        payloads = {e["type"]: e["payload"] for e in app_frames(rows)}
        assert payloads["exec.resumed"]["action"] == "abort"
        assert payloads["node.finished"]["status"] == "aborted"
        assert payloads["run.finished"] == {"status": "aborted"}

    asyncio.run(asyncio.wait_for(main(), 60))


def test_step_mode(tmp_path: Path) -> None:
    async def main() -> None:
        async with listener(tmp_path, "--step", "--break", "none", "--on-pause", "continue") as lst:
            async with connect(lst.url, **PATIENT) as s:
                assert await s.ready()
                async with s.run("step") as run:
                    # An llm node streaming tokens: before pauses, after does not (step mode).
                    run.emit("node.started", started(LLM, input={"model": "m"}))
                    assert (await run.gate("before", LLM)).action == "continue"
                    run.emit("node.token", {"nodeId": LLM.node_id, "deltas": [{"t": "text", "v": "Hel"}, {"t": "text", "v": "lo"}]})
                    assert await run.gate("after", LLM) is CONTINUE
                    run.emit("node.finished", finished(LLM, output={"text": "Hello"}))
                    # A tool that fails: before and error pause.
                    run.emit("node.started", started(TOOL))
                    await run.gate("before", TOOL)
                    run.emit("node.error", {"nodeId": TOOL.node_id, "instanceId": TOOL.instance_id, "error": {"name": "KeyError", "message": "x"}})
                    await run.gate("error", TOOL)
                    run.emit("node.finished", finished(TOOL, "error"))
            assert await lst.wait_exit() == 0
            rows = lst.frames()
        check_common(rows)
        paused = [e["payload"] for e in app_frames(rows) if e["type"] == "exec.paused"]
        assert [(p["nodeId"], p["point"], p["reason"]) for p in paused] == [
            ("llm:step", "before", "step"), ("tool:lookup", "before", "step"), ("tool:lookup", "error", "error")]
        error = next(e for e in app_frames(rows) if e["type"] == "node.error")["payload"]
        assert "heldMs" in error  # stamped by the core (graphmind-session §3.9)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_disconnect_while_held(tmp_path: Path) -> None:
    """Fail-open: the held gate continues at once when the connection drops; its
    ``exec.resumed`` (buffered while detached) reaches the listener in the reconnect's replay,
    after the new hello; the listener never resumes the replayed ``exec.paused``."""

    async def main() -> None:
        async with listener(tmp_path, "--break", "tool", "--on-pause", "hold") as lst:
            proxy = await Proxy(lst.port).start()
            try:
                async with connect(proxy.url(), app="host-test", **PATIENT) as s:
                    assert await s.ready()
                    async with s.run("fail-open") as run:
                        run.emit("node.started", started(TOOL))
                        held = asyncio.create_task(run.gate("before", TOOL))
                        await until(lambda: s.core.held_pause_ids and lst.output().count("exec.paused") >= 1, "the hold")
                        pause_id = s.core.held_pause_ids[0]
                        proxy.go_down()
                        decision = await asyncio.wait_for(held, 5)
                        assert decision.action == "continue"  # fail-open
                        assert s.core.held_pause_ids == [] and not s.core.is_attached
                        # Detached: gates continue without holding, events are buffered.
                        assert await run.gate("after", TOOL) is CONTINUE
                        run.emit("node.finished", finished(TOOL, output=1))
                        proxy.come_up()
                        assert await s.ready(5000)
                    assert proxy.connections >= 2
            finally:
                await proxy.close()
            assert await lst.wait_exit() == 0
            rows = lst.frames()
        check_common(rows)
        conns = sorted({r["conn"] for r in rows})
        assert len(conns) == 2, conns
        second = [r for r in rows if r["conn"] == conns[1]]
        hello = next(r for r in second if r["env"]["type"] == "hello")
        assert hello["env"]["payload"]["resumeToken"]  # the first ack's token comes back
        resumed = [r for r in rows if r["env"]["type"] == "exec.resumed"]
        assert len({r["env"]["seq"] for r in resumed}) == 1
        first_resumed = resumed[0]
        assert first_resumed["conn"] == conns[1] and first_resumed.get("replayed") is True
        assert first_resumed["env"]["payload"] == {"pauseId": pause_id, "action": "continue"}
        assert first_resumed["env"]["seq"] < hello["env"]["seq"]  # buffered before the new hello
        # The replay repeats the first connection's frames byte for byte.
        first_frames = {r["env"]["seq"]: r["frame"] for r in rows if r["conn"] == conns[0] and r["dir"] == "app->viewer"}
        for r in second:
            if r["dir"] == "app->viewer" and r["env"]["seq"] in first_frames:
                assert r["frame"] == first_frames[r["env"]["seq"]] and r.get("duplicate") is True
        assert [r["env"]["type"] for r in rows if r["dir"] == "viewer->app"] == ["hello.ack", "hello.ack"]  # never resumed
        assert "released" in lst.output()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_session_is_lazy_and_fails_open_without_a_viewer(tmp_path: Path) -> None:
    """No listener at all: gates continue, events buffer, ``ready`` times out, close is quick."""

    async def main() -> None:
        async with connect("ws://127.0.0.1:9/ingest", retry_interval_ms=50, fast_retry_ms=[]) as s:
            assert s.core.state == "idle"
            assert await s.gate("before", TOOL) is CONTINUE
            assert s.core.state in ("connecting", "idle")
            assert not await s.ready(200)
            s.emit("graph.hint", {"nodes": [{"nodeId": "tool:lookup", "kind": "tool", "name": "lookup"}]})
            assert len(s.core.buffered_frames) == 2  # the implicit run.started and the hint
            assert any(w.rule in ("connect-timeout",) for w in s.warnings) or s.core.state != "attached"
        assert s.core.state == "disposed"
        assert json.loads(s.core.buffered_frames[-1])["type"] == "run.finished"

    asyncio.run(asyncio.wait_for(main(), 30))
