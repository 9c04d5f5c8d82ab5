"""The `wirecontract conform` workload (docs/conform.md) on the Python asyncio host,
``wirecontract.graphmind.session.connect``.

One run named ``$WIRECONTRACT_CONFORM_RUN``: an agent node around a tool call (before, after
and error gates, §3.7 of the session spec) and an LLM call streaming tokens (before and after
gates). The scenario (``$WIRECONTRACT_CONFORM_SCENARIO``) changes only what the contract says:
a tool that fails once (``*-error``), no ``ready()`` before the run (``late-attach``), closing
the session once a gate is held (``dispose``), the run played twice (``rearm``), and the ring
and pause-timeout settings.
Run by ``wirecontract conform -- python workload_async.py``; exits 0 whatever the run's outcome.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from wirecontract.graphmind.session import GateNode, Run, RunAborted, Session, connect

SCENARIO = os.environ["WIRECONTRACT_CONFORM_SCENARIO"]
RUN_NAME = os.environ.get("WIRECONTRACT_CONFORM_RUN", f"conform-{SCENARIO}")
URL = os.environ["GRAPHMIND_URL"]

AGENT = {"nodeId": "agent:conform", "kind": "agent", "name": "conform", "instanceId": "agent_1"}
TOOL = GateNode("tool:get_weather", "tool", "get_weather", "call_1")
LLM = GateNode("llm:planner", "llm", "planner", "llm_1")


class PlannedFailure(Exception):
    """The tool's planned failure on its first attempt in the ``*-error`` scenarios."""


def get_weather(city: str, attempt: int) -> dict[str, Any]:
    if SCENARIO.endswith("-error") and attempt == 1:
        raise PlannedFailure("conform: the first attempt fails")
    return {"city": city, "tempC": 21}


def finish(run: Run, node: GateNode, status: str, **extra: Any) -> None:
    run.emit("node.finished", {"nodeId": node.node_id, "instanceId": node.instance_id, "durationMs": 1.0, "status": status, **extra})


async def tool(run: Run) -> Any:
    """A tool call with its three gates; what each decision obliges is spec §3.7."""
    run.emit("node.started", {"nodeId": TOOL.node_id, "kind": "tool", "name": TOOL.name, "instanceId": TOOL.instance_id, "parentId": AGENT["instanceId"], "input": {"city": "Paris"}})
    attempt = 0
    while True:  # a retry at after/error runs the body again
        d = await run.gate("before", TOOL)
        if d.action == "abort":
            finish(run, TOOL, "aborted")
            raise RunAborted(run.run_id)
        if d.action == "inject":
            finish(run, TOOL, "ok", output=d.output, injected=True)
            return d.output
        attempt += 1
        try:
            result = get_weather("Paris", attempt)
        except PlannedFailure as e:
            run.emit("node.error", {"nodeId": TOOL.node_id, "instanceId": TOOL.instance_id, "error": {"name": type(e).__name__, "message": str(e)}})
            d = await run.gate("error", TOOL)
            if d.action == "retry":
                continue
            if d.action == "abort":
                finish(run, TOOL, "aborted")
                raise RunAborted(run.run_id) from e
            if d.action == "inject":
                finish(run, TOOL, "ok", output=d.output, injected=True, recoveredFromError=True)
                return d.output
            finish(run, TOOL, "error", error={"name": type(e).__name__, "message": str(e)})
            raise  # continue at error: the original error goes on
        d = await run.gate("after", TOOL)
        if d.action == "retry":
            continue
        if d.action == "abort":
            finish(run, TOOL, "aborted", output=result)
            raise RunAborted(run.run_id)
        if d.action == "inject":
            finish(run, TOOL, "ok", output=d.output, injected=True)
            return d.output
        finish(run, TOOL, "ok", output=result)
        return result


async def llm(run: Run) -> None:
    run.emit("node.started", {"nodeId": LLM.node_id, "kind": "llm", "name": LLM.name, "instanceId": LLM.instance_id, "parentId": AGENT["instanceId"]})
    d = await run.gate("before", LLM)
    if d.action == "abort":
        finish(run, LLM, "aborted")
        raise RunAborted(run.run_id)
    for text in ("It is ", "sunny ", "in Paris."):
        run.emit("node.token", {"nodeId": LLM.node_id, "deltas": [{"t": "text", "v": text}]})
    d = await run.gate("after", LLM)
    if d.action == "abort":
        finish(run, LLM, "aborted")
        raise RunAborted(run.run_id)
    finish(run, LLM, "ok", output=d.output if d.action == "inject" else "It is sunny in Paris.")


async def agent(run: Run) -> None:
    run.emit("node.started", AGENT)
    try:
        await tool(run)
        await llm(run)
    except RunAborted:
        run.emit("node.finished", {**_ids(AGENT), "durationMs": 1.0, "status": "aborted"})
        raise
    except Exception as e:
        run.emit("node.finished", {**_ids(AGENT), "durationMs": 1.0, "status": "error", "error": {"name": type(e).__name__, "message": str(e)}})
        raise
    run.emit("node.finished", {**_ids(AGENT), "durationMs": 1.0, "status": "ok"})


def _ids(node: dict[str, str]) -> dict[str, str]:
    return {"nodeId": node["nodeId"], "instanceId": node["instanceId"]}


async def main() -> None:
    config: dict[str, Any] = {"app": "conform-python-async"}
    if ring := os.environ.get("WIRECONTRACT_CONFORM_RING_FRAMES"):
        config["ring_max_frames"] = int(ring)
    if timeout := os.environ.get("WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS"):
        config["pause_timeout_ms"] = int(timeout)
    s = connect(URL, **config)
    for _ in range(2 if SCENARIO == "rearm" else 1):  # rearm plays the run twice
        await play(s)
    if SCENARIO != "dispose":
        await s.ready()  # re-attach after a drop, so the ring is replayed before closing
    await s.close()


async def play(s: Session) -> None:
    if SCENARIO != "late-attach":
        for _ in range(5):  # a refused ack (ack-protocol) costs one attempt each
            if await s.ready():
                break
    try:
        async with s.run(RUN_NAME) as run:
            if SCENARIO == "dispose":
                task = asyncio.ensure_future(agent(run))
                for _ in range(1000):  # until the tool's before gate is held (10 s at most)
                    if s.core.held_pause_ids:
                        break
                    await asyncio.sleep(0.01)
                await s.close()
                await task
            else:
                await agent(run)
    except (PlannedFailure, RunAborted):
        pass  # the run ended error or aborted: the outcome under test, not a crash


asyncio.run(main())
