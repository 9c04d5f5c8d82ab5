"""The eight real-client scenarios of ``../shared/real-client/`` re-enacted by a synchronous
adapter: the scripted agent of ``test_session_reenact.py`` written as plain functions on
``connect_sync``, in a thread of its own, against the same ``serve`` viewer.

The agent is scenario code only: it emits the recorded events, places the adapter's gates
(``gate`` blocks its thread until the viewer answers) and calls ``ready()`` where the recorded
app reconnected. No protocol code: no seq, no handshake, no replay, no ``exec.resumed``, no
``heldMs``; the host and the core do all of it. The test's side (the viewer dropping the
connection where the capture did) runs on the viewer's event loop. The traffic must match the
recording exactly as the asyncio re-enactment's does (``assert_matches_recording``: the same
normalised differences, nothing else). ``held`` here is read from the app's core
(``held_pause_ids``) each time the viewer sees a pause open: the gate was held then.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from test_session_reenact import SCENARIOS, Row, Script, assert_matches_recording, recorded_rows
from wirecontract.graphmind.session import Decision, FrameLog, GateNode, PauseOpened, SyncSession, connect_sync, serve


def wait_until(cond: Callable[[], bool], what: str, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.002)


class SyncAgent:
    """The scripted agent as a synchronous adapter's scenario code."""

    def __init__(self, script: Script, s: SyncSession, drop: Callable[[], None], log: list[FrameLog]) -> None:
        self.sc, self.s, self.drop, self.log = script, s, drop, log
        self.nodes: dict[str, dict[str, Any]] = {}  # instanceId -> node.started payload
        self.before: dict[str, str] = {}  # instanceId -> action decided at before
        self.errored: set[str] = set()
        self.conn = 1

    def node(self, instance: str) -> GateNode:
        p = self.nodes[instance]
        return GateNode(p["nodeId"], p["kind"], p["name"], instance)

    def has_after_gate(self, instance: str) -> bool:
        kind = self.nodes[instance]["kind"]
        return (kind == "tool" or (kind == "llm" and instance not in self.sc.streaming)) and instance not in self.errored

    def gate(self, point: str, instance: str, run: str) -> Decision:
        return self.s.gate(point, self.node(instance), run=run)

    def sent(self, seq: int) -> None:
        """Waits until the viewer has read the app frame with this seq."""
        def read() -> bool:
            return any(f.dir == "app->viewer" and json.loads(f.frame)["seq"] == seq and json.loads(f.frame)["runId"] != "*" for f in list(self.log))
        wait_until(read, f"seq {seq} at the viewer")

    def run(self) -> None:
        last_live = None
        for i, r in enumerate(self.sc.events):
            seq, run, p = r.env["seq"], r.env["runId"], r.env["payload"]
            # Connection changes where the recording shows them.
            if seq in self.sc.dark and self.s.core.is_attached:
                if last_live is not None:
                    self.sent(last_live)
                self.drop()
                wait_until(lambda: not self.s.core.is_attached, "the app to detach")
            if seq in self.sc.live_conn and self.sc.live_conn[seq] > self.conn:
                assert self.s.ready(10_000), "no re-attach"
                self.conn = self.sc.live_conn[seq]
            if seq in self.sc.dark:
                assert not self.s.core.is_attached
            # The after gate comes before the successful finish.
            if r.type == "node.finished" and p["status"] == "ok" and p["instanceId"] in self.nodes and self.has_after_gate(p["instanceId"]):
                if self.before.get(p["instanceId"]) != "inject":
                    self.check(self.gate("after", p["instanceId"], run), r)
            # The event itself (the implicit run's start and finish are the session's own).
            if not (r.type in ("run.started", "run.finished") and run in self.sc.implicit):
                payload = {k: v for k, v in p.items() if k != "heldMs"}
                self.s.emit(r.type, payload, run=None if run in self.sc.implicit else run)
            if seq not in self.sc.dark:
                last_live = seq
            if r.type == "node.started" and p["instanceId"] != run:
                self.nodes[p["instanceId"]] = p
                decision = self.gate("before", p["instanceId"], run)
                self.before[p["instanceId"]] = decision.action
                self.check(decision, self.next_finish(i, p["instanceId"]))
            elif r.type == "node.error" and p.get("instanceId") in self.nodes:
                self.errored.add(p["instanceId"])
                if self.nodes[p["instanceId"]]["kind"] == "tool":
                    self.check(self.gate("error", p["instanceId"], run), self.next_finish(i, p["instanceId"]))

    def next_finish(self, i: int, instance: str) -> Row | None:
        return next((r for r in self.sc.events[i + 1 :] if r.type == "node.finished" and r.env["payload"]["instanceId"] == instance), None)

    def check(self, decision: Decision, finish: Row | None) -> None:
        """The decision agrees with what the recorded node did next (§3.7), as in the asyncio
        re-enactment."""
        assert decision.action in ("continue", "inject"), decision
        assert finish is not None
        done = finish.env["payload"]
        if decision.action == "inject":
            assert done["status"] == "ok" and done.get("output") == (decision.output if decision.has_output else None), done
        elif not done.get("injected"):
            assert "recoveredFromError" not in done


async def reenact_sync(name: str) -> tuple[Script, list[Row], list[str]]:
    script = Script.of(recorded_rows(name))
    log: list[FrameLog] = []
    answers = list(script.resumes)
    held: list[str] = []
    app: list[SyncSession] = []

    async def answer(pause: PauseOpened) -> Any:
        assert answers, f"{name}: more pauses than the recording answered"
        held.extend(p for p in app[0].core.held_pause_ids if p not in held)
        r = answers.pop(0)
        return (r["action"], r["output"]) if "output" in r else r["action"]

    loop = asyncio.get_running_loop()
    async with serve(port=0, breakpoints=script.ack["breakpoints"], mode=script.ack["mode"], on_pause=answer, on_frame=log.append) as viewer:

        def drop() -> None:
            asyncio.run_coroutine_threadsafe(viewer.drop(viewer.connections[-1]), loop).result(10)

        def adapter() -> None:
            implicit = sorted(script.implicit)
            with connect_sync(
                viewer.url, app="rc-capture", sdk={"name": "python", "version": "0.5.1"}, client_version="0.5.1", id_base=script.id_base,
                implicit_run_id=implicit[0] if implicit else None, fast_retry_ms=[], retry_interval_ms=60_000,
                connect_timeout_ms=5000, handshake_timeout_ms=5000,
            ) as s:
                app.append(s)
                assert s.ready(10_000), f"{name}: no attach"
                SyncAgent(script, s, drop, log).run()

        await asyncio.to_thread(adapter)
        deadline = time.monotonic() + 10
        while viewer.connections:
            assert time.monotonic() < deadline, "the app did not disconnect"
            await asyncio.sleep(0.01)
    assert not answers, f"{name}: recorded resumes left unused: {answers}"
    ours, conn_index = [], {}
    for f in log:
        conn_index.setdefault(f.conn, len(conn_index) + 1)
        ours.append(Row(f.dir, conn_index[f.conn], json.loads(f.frame), f.frame))
    return script, ours, held


@pytest.mark.parametrize("name", SCENARIOS)
def test_sync_adapter_reenacts_the_recording(name: str) -> None:
    script, ours, held = asyncio.run(asyncio.wait_for(reenact_sync(name), 90))
    assert_matches_recording(name, script, ours, held)
