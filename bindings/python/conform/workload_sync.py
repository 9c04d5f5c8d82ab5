"""The `wirecontract conform` workload (docs/conform.md) on the synchronous Python host,
``wirecontract.graphmind.session.connect_sync``: plain functions, no event loop of their own.

The same workload as ``workload_async.py`` (one run named ``$WIRECONTRACT_CONFORM_RUN``: an
agent node around a tool call with its before, after and error gates, §3.7 of the session
spec, and an LLM call streaming tokens with its before and after gates), written as the
synchronous code an adapter's users write. In ``dispose`` the agent runs in a worker thread
(its gate blocks only that thread) and the main thread closes the session once a gate is held;
in ``rearm`` the run is played twice.
Run by ``wirecontract conform -- python workload_sync.py``; exits 0 whatever the run's outcome.
"""

from __future__ import annotations

import contextvars
import os
import threading
import time
from typing import Any

from wirecontract.graphmind.session import GateNode, RunAborted, SyncRun, SyncSession, connect_sync

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


def finish(run: SyncRun, node: GateNode, status: str, **extra: Any) -> None:
    run.emit("node.finished", {"nodeId": node.node_id, "instanceId": node.instance_id, "durationMs": 1.0, "status": status, **extra})


def tool(run: SyncRun) -> Any:
    """A tool call with its three gates; what each decision obliges is spec §3.7."""
    run.emit("node.started", {"nodeId": TOOL.node_id, "kind": "tool", "name": TOOL.name, "instanceId": TOOL.instance_id, "parentId": AGENT["instanceId"], "input": {"city": "Paris"}})
    attempt = 0
    while True:  # a retry at after/error runs the body again
        d = run.gate("before", TOOL)
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
            d = run.gate("error", TOOL)
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
        d = run.gate("after", TOOL)
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


def llm(run: SyncRun) -> None:
    run.emit("node.started", {"nodeId": LLM.node_id, "kind": "llm", "name": LLM.name, "instanceId": LLM.instance_id, "parentId": AGENT["instanceId"]})
    d = run.gate("before", LLM)
    if d.action == "abort":
        finish(run, LLM, "aborted")
        raise RunAborted(run.run_id)
    for text in ("It is ", "sunny ", "in Paris."):
        run.emit("node.token", {"nodeId": LLM.node_id, "deltas": [{"t": "text", "v": text}]})
    d = run.gate("after", LLM)
    if d.action == "abort":
        finish(run, LLM, "aborted")
        raise RunAborted(run.run_id)
    finish(run, LLM, "ok", output=d.output if d.action == "inject" else "It is sunny in Paris.")


def agent(run: SyncRun) -> None:
    ids = {"nodeId": AGENT["nodeId"], "instanceId": AGENT["instanceId"]}
    run.emit("node.started", AGENT)
    try:
        tool(run)
        llm(run)
    except RunAborted:
        run.emit("node.finished", {**ids, "durationMs": 1.0, "status": "aborted"})
        raise
    except Exception as e:
        run.emit("node.finished", {**ids, "durationMs": 1.0, "status": "error", "error": {"name": type(e).__name__, "message": str(e)}})
        raise
    run.emit("node.finished", {**ids, "durationMs": 1.0, "status": "ok"})


def main() -> None:
    config: dict[str, Any] = {"app": "conform-python-sync"}
    if ring := os.environ.get("WIRECONTRACT_CONFORM_RING_FRAMES"):
        config["ring_max_frames"] = int(ring)
    if timeout := os.environ.get("WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS"):
        config["pause_timeout_ms"] = int(timeout)
    s = connect_sync(URL, **config)
    for _ in range(2 if SCENARIO == "rearm" else 1):  # rearm plays the run twice
        play(s)
    if SCENARIO != "dispose":
        s.ready()  # re-attach after a drop, so the ring is replayed before closing
    s.close()


def play(s: SyncSession) -> None:
    if SCENARIO != "late-attach":
        for _ in range(5):  # a refused ack (ack-protocol) costs one attempt each
            if s.ready():
                break
    try:
        with s.run(RUN_NAME) as run:
            if SCENARIO == "dispose":

                def in_worker() -> None:
                    try:
                        agent(run)
                    except (PlannedFailure, RunAborted):
                        pass  # the outcome under test

                worker = threading.Thread(target=contextvars.copy_context().run, args=(in_worker,))
                worker.start()
                for _ in range(1000):  # until the tool's before gate is held (10 s at most)
                    if s.core.held_pause_ids:
                        break
                    time.sleep(0.01)
                s.close()  # from outside the run: the held gate continues
                worker.join()
            else:
                agent(run)
    except (PlannedFailure, RunAborted):
        pass  # the run ended error or aborted: the outcome under test, not a crash


main()
