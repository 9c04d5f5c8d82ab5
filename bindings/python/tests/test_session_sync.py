"""The synchronous app host (``connect_sync``, ``SyncSession``): plain functions and thread
pools, against ``wirecontract listen`` and against the Python viewer host ``serve``. Threads
emit while another thread waits at a held pause; the pause is answered by the viewer; every
frame reaches the viewer once, with one seq counter; the options and limits are ``connect``'s.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from session_support import listener
from wirecontract.graphmind import session as s
from wirecontract.graphmind.session import CONTINUE, GateNode, RunAborted, SyncSession, connect_sync

PATIENT: dict[str, Any] = {"connect_timeout_ms": 5000, "handshake_timeout_ms": 5000}
TOOL = GateNode("tool:lookup", "tool", "lookup", "call_1")


def started(node: GateNode, **extra: Any) -> dict[str, Any]:
    return {"nodeId": node.node_id, "kind": node.kind, "name": node.name, "instanceId": node.instance_id, **extra}


def finished(node: GateNode, **extra: Any) -> dict[str, Any]:
    return {"nodeId": node.node_id, "instanceId": node.instance_id, "durationMs": 1, "status": "ok", **extra}


def worker_node(w: int, i: int) -> GateNode:
    return GateNode(f"llm:w{w}", "llm", f"w{w}", f"w{w}-{i}")


def emit_many(sess: SyncSession, run: str, w: int, n: int) -> list[int | None]:
    seqs = []
    for i in range(n):
        node = worker_node(w, i)
        seqs.append(sess.emit("node.started", started(node), run=run))
        seqs.append(sess.emit("node.finished", finished(node), run=run))
    return seqs


def test_against_listen_threads_emit_and_a_pause_is_answered(tmp_path: Path) -> None:
    """A plain synchronous adapter: 4 pool threads emit 50 node pairs each while the main
    thread passes a paused tool; ``listen`` answers the pause. Every frame arrives once, in
    one seq order, and the record's pause is closed by ``exec.resumed``."""

    def adapter(url: str) -> tuple[Any, list[int | None]]:
        # No url argument: GRAPHMIND_URL names the viewer, as for the asyncio host.
        with connect_sync(app="sync-test", env={"GRAPHMIND_URL": url}, **PATIENT) as sess:
            assert sess.ready()
            with sess.run("threads") as run:
                with ThreadPoolExecutor(4) as pool:
                    jobs = [pool.submit(emit_many, sess, run.run_id, w, 50) for w in range(4)]
                    run.emit("node.started", started(TOOL))
                    decision = run.gate("before", TOOL)
                    run.emit("node.finished", finished(TOOL, output=1))
                    seqs = [seq for job in jobs for seq in job.result()]
        return decision, seqs

    async def main() -> tuple[Any, list[int | None], list[dict[str, Any]]]:
        async with listener(tmp_path, "--break", "tool", "--on-pause", "continue") as lst:
            decision, seqs = await asyncio.to_thread(adapter, lst.url)
            assert await lst.wait_exit() == 0
            return decision, seqs, lst.frames()

    decision, seqs, rows = asyncio.run(asyncio.wait_for(main(), 60))
    assert decision == CONTINUE
    assert all(isinstance(q, int) for q in seqs) and len(set(seqs)) == 400
    app = [r["env"] for r in rows if r["dir"] == "app->viewer"]
    assert all(r["expect"] == "ok" for r in rows)
    got = [e["seq"] for e in app]
    assert got == list(range(len(got))), "one seq counter, every frame once and in order"
    assert set(seqs) <= set(got)
    kinds = [e["type"] for e in app]
    # 200 from the pool, the paused tool, and the run's root node (agent:<name>).
    assert kinds.count("node.started") == 202 and kinds.count("node.finished") == 202
    assert kinds[0] == "hello" and kinds[1] == "run.started" and kinds[-1] == "run.finished"
    paused = [e["payload"]["pauseId"] for e in app if e["type"] == "exec.paused"]
    resumed = [e["payload"]["pauseId"] for e in app if e["type"] == "exec.resumed"]
    assert len(paused) == 1 and resumed == paused


def test_a_held_pause_blocks_only_its_thread_and_the_viewer_answers_it() -> None:
    """``serve`` (on its own loop in a thread) holds the pause until the other threads have
    emitted all their frames and the viewer has them; only then does it answer with an inject,
    which the gating thread gets."""
    answered = threading.Event()
    pause_seen = threading.Event()
    frames: list[s.FrameLog] = []
    workers_done = threading.Event()
    viewer_ready: dict[str, Any] = {}
    stop_viewer = threading.Event()

    def accepted_worker_frames() -> int:
        return sum(1 for f in list(frames) if f.dir == "app->viewer" and f.received is not None and f.received.kind == "accepted" and '"llm:w' in f.frame)

    async def viewer_main() -> None:
        async def answer(p: s.PauseOpened) -> s.PauseAnswer:
            pause_seen.set()
            while not (workers_done.is_set() and accepted_worker_frames() == 3 * 2 * 40):
                await asyncio.sleep(0.01)
            answered.set()
            return ("inject", {"answer": 42})

        async with s.serve(port=0, breakpoints=[{"kind": "tool"}], on_pause=answer, on_frame=frames.append) as viewer:
            viewer_ready["url"] = viewer.url
            viewer_ready["loop"] = asyncio.get_running_loop()
            while not stop_viewer.is_set():
                await asyncio.sleep(0.01)

    vt = threading.Thread(target=asyncio.run, args=(viewer_main(),), daemon=True)
    vt.start()
    deadline = time.monotonic() + 10
    while "url" not in viewer_ready:
        assert time.monotonic() < deadline and vt.is_alive(), "viewer did not start"
        time.sleep(0.01)
    try:
        with connect_sync(viewer_ready["url"], app="sync-pause", **PATIENT) as sess:
            assert sess.ready()
            with sess.run("held") as run:
                sess.emit("node.started", started(TOOL))  # the run of the block, from this thread
                result: dict[str, Any] = {}

                def gating() -> None:
                    # The run comes from the block's context, copied into this thread.
                    result["decision"] = sess.gate("before", TOOL)

                gate_thread = threading.Thread(target=contextvars.copy_context().run, args=(gating,))
                gate_thread.start()
                assert pause_seen.wait(10), "no pause reached the viewer"
                with ThreadPoolExecutor(3) as pool:
                    for job in [pool.submit(emit_many, sess, run.run_id, w, 40) for w in range(3)]:
                        assert None not in job.result()
                assert not answered.is_set() and gate_thread.is_alive(), "the pause must still be held"
                workers_done.set()
                gate_thread.join(20)
                assert not gate_thread.is_alive()
                assert result["decision"].action == "inject" and result["decision"].output == {"answer": 42}
                sess.emit("node.finished", finished(TOOL, output=42, injected=True))
    finally:
        stop_viewer.set()
        vt.join(10)
    app = [json.loads(f.frame) for f in frames if f.dir == "app->viewer" and f.received is not None and f.received.kind in ("accepted", "hello")]
    kinds = [e["type"] for e in app]
    # Every worker frame was accepted while the gate was held: before the exec.resumed.
    resumed_at = kinds.index("exec.resumed")
    assert sum(1 for e in app[:resumed_at] if e["type"].startswith("node.") and e["payload"]["nodeId"].startswith("llm:w")) == 240
    assert [e["seq"] for e in app] == list(range(len(app)))
    assert kinds[-1] == "run.finished" and app[-1]["payload"]["status"] == "ok"


def test_runs_end_as_the_asyncio_hosts_do_and_misuse_is_refused() -> None:
    """Without a viewer (fail-open): gates continue at once; an error ends the run ``error``
    and is re-raised; this run's ``RunAborted`` ends it ``aborted``; a block's run is the
    default of ``emit``; a call from the host's own thread is refused; after ``close`` the
    session answers as a closed ``Session`` does; the options and limits are ``connect``'s."""
    sess = connect_sync("ws://127.0.0.1:9/ingest", app="offline", connect_timeout_ms=100, retry_interval_ms=60_000)
    try:
        assert sess.gate("before", TOOL) == CONTINUE
        with sess.run("ok") as ok:
            sess.emit("node.started", started(TOOL))
        with pytest.raises(KeyError):
            with sess.run("fails"):
                raise KeyError("boom")
        with sess.run("aborted", run_id="run_ab") as ab:
            raise RunAborted("run_ab")
        assert not ab.aborted  # aborted by the app, not by a viewer
        frames = [json.loads(f) for f in sess.core.buffered_frames]
        assert [f["payload"]["status"] for f in frames if f["type"] == "run.finished"] == ["ok", "error", "aborted"]
        tools = [f for f in frames if f["type"] == "node.started" and f["payload"]["kind"] != "agent"]
        assert [f["runId"] for f in tools] == [ok.run_id]
        assert [f["payload"].get("meta", {}).get("name") for f in frames if f["type"] == "run.started"][-3:] == ["ok", "fails", "aborted"]
        with pytest.raises(ValueError):  # BuildError, from the core, raised in this thread
            sess.emit("node.started", {"nodeId": 1})
        # A call from the host's own thread (an on_warn callback) would wait for itself.
        with pytest.raises(RuntimeError, match="own thread"):
            sess._on_loop(lambda: sess.emit("node.started", started(TOOL)))
    finally:
        sess.close()
    sess.close()  # idempotent
    assert sess.emit("node.started", started(TOOL)) is None
    assert sess.gate("before", TOOL) == CONTINUE
    assert sess.ready(10) is False
    # The limits are connect's: a queue bound below the ring's (default, the core's) is refused.
    with pytest.raises(ValueError, match="ring_max_bytes"):
        connect_sync(max_queue_bytes=s.APP_DEFAULTS["ring_max_bytes"] - 1)
    with pytest.raises(ValueError, match="write_stall_timeout_ms"):
        connect_sync(write_stall_timeout_ms=-1)
