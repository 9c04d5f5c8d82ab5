"""End-to-end: the REAL ``graphmind-ai==0.5.1`` Python client against a minimal
viewer whose every frame is parsed and built with ``wirecontract.graphmind``.

The viewer is a ``websockets`` server on 127.0.0.1 (free port) running in a
background thread with its own asyncio loop. It answers ``hello`` with a
``hello.ack`` arming a ``{"kind": "tool"}`` breakpoint, and answers every
``exec.paused`` with ``exec.resume`` / ``continue``. A scripted agent (one run,
two nested spans, one ``@tool``) runs in a worker thread, pointed at the viewer
through ``GRAPHMIND_URL``.

Requirements: ``graphmind-ai==0.5.1`` (pulls in ``websockets``), ``pytest``.
A missing ``graphmind-ai`` FAILS this test; it is never skipped.

Every wait is bounded; the worst case is well under 60 s.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import threading
import time
import traceback
from typing import Any

import pytest

from wirecontract import graphmind as gm

try:  # the real client; CI installs it, so its absence is a failure, not a skip
    import graphmind as real_client
    from graphmind import env as real_client_env

    _CLIENT_IMPORT_ERROR: BaseException | None = None
except BaseException as exc:  # pragma: no cover - exercised only when missing
    real_client = None  # type: ignore[assignment]
    real_client_env = None  # type: ignore[assignment]
    _CLIENT_IMPORT_ERROR = exc

try:
    from websockets.asyncio.server import serve as ws_serve  # websockets >= 13
    from websockets.exceptions import ConnectionClosed

    _WS_IMPORT_ERROR: BaseException | None = None
except BaseException as exc:  # pragma: no cover
    ws_serve = None  # type: ignore[assignment]
    ConnectionClosed = Exception  # type: ignore[assignment,misc]
    _WS_IMPORT_ERROR = exc

EXPECTED_CLIENT_VERSION = "0.5.1"
RUN_NAME = "wc-e2e"
VIEWER_NAME = "wirecontract-test"

# Every bound used below; their sum stays far below 60 s.
T_VIEWER_START = 10.0
T_READY = 10.0
T_AGENT = 15.0
T_RUN_FINISHED = 10.0
T_VIEWER_STOP = 5.0


class Viewer:
    """A tiny GraphMind viewer. Frames in and out go through wirecontract only."""

    def __init__(self) -> None:
        self.log: list[dict[str, Any]] = []  # {"dir", "text", "result"} in wire order
        self.errors: list[str] = []
        self.connections = 0
        self.port: int | None = None
        self.resume_sent = threading.Event()
        self.run_finished = threading.Event()
        self._lock = threading.Lock()
        self._seq = itertools.count()
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._thread_main, name="wc-viewer", daemon=True)

    # -- lifecycle (test thread) ------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(T_VIEWER_START) or self.port is None:
            raise AssertionError(f"viewer did not start: {self.errors}")

    def stop(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass
        self._thread.join(T_VIEWER_STOP)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ingest"

    # -- viewer thread -------------------------------------------------------

    def _thread_main(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException:
            self.errors.append("viewer loop crashed:\n" + traceback.format_exc())
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await ws_serve(self._handler, "127.0.0.1", 0)
        try:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self._ready.set()
            await self._stop.wait()
        finally:
            server.close()
            try:
                await asyncio.wait_for(server.wait_closed(), T_VIEWER_STOP / 2)
            except Exception:
                pass

    def _record(self, direction: str, text: str, result: Any) -> None:
        with self._lock:
            self.log.append({"dir": direction, "text": text, "result": result})

    async def _send(self, ws: Any, type_: str, payload: dict[str, Any], run_id: str) -> None:
        env = gm.create_envelope(type_, payload, seq=next(self._seq), run_id=run_id)
        text = gm.serialize_envelope(env)
        assert isinstance(text, str)
        self._record("viewer->app", text, gm.parse_envelope_json(text))
        await ws.send(text)

    async def _handler(self, ws: Any) -> None:
        self.connections += 1
        try:
            async for raw in ws:
                text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8", "replace")
                result = gm.parse_envelope_json(raw)
                self._record("app->viewer", text, result)
                if result.kind != "ok":
                    continue
                env = result.envelope
                if env.type == "hello":
                    await self._send(
                        ws,
                        "hello.ack",
                        {
                            "versions": {"protocol": gm.PROTOCOL_VERSION, "viewer": VIEWER_NAME},
                            "capabilities": list(gm.KNOWN_CAPABILITIES),
                            "breakpoints": [{"kind": "tool"}],
                            "mode": "run",
                        },
                        gm.WILDCARD_RUN_ID,
                    )
                elif env.type == "exec.paused":
                    # Set BEFORE sending: the client cannot be released without this
                    # frame, so the tool body must observe the flag already set.
                    self.resume_sent.set()
                    await self._send(
                        ws,
                        "exec.resume",
                        {"pauseId": env.payload.pause_id, "action": "continue"},
                        env.run_id,
                    )
                elif env.type == "run.finished":
                    self.run_finished.set()
        except ConnectionClosed:
            pass
        except BaseException:
            self.errors.append("viewer handler error:\n" + traceback.format_exc())

    # -- views ------------------------------------------------------------------

    def entries(self, direction: str) -> list[dict[str, Any]]:
        with self._lock:
            return [e for e in self.log if e["dir"] == direction]

    def wait(self, event: threading.Event, timeout: float) -> bool:
        """Wait for ``event``, but give up early once the viewer has failed."""
        deadline = time.monotonic() + timeout
        while not event.is_set() and not self.errors and time.monotonic() < deadline:
            event.wait(0.05)
        return event.is_set()

    def dump(self) -> str:
        with self._lock:
            lines = [f"{e['dir']} [{e['result'].kind}] {e['text']}" for e in self.log]
        return "\n".join(lines + self.errors)


def _clean_client_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No inherited kill switch, redaction, loop-guard or production flag may
    change what the client does."""
    for name in list(os.environ):
        if name.startswith("GRAPHMIND"):
            monkeypatch.delenv(name, raising=False)
    for name in real_client_env.ENV_VARS:  # production-looking env disables the client
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHMIND", "1")


def test_real_graphmind_client_against_wirecontract_viewer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if _CLIENT_IMPORT_ERROR is not None:
        pytest.fail(
            f"graphmind-ai=={EXPECTED_CLIENT_VERSION} is not importable "
            f"(pip install graphmind-ai=={EXPECTED_CLIENT_VERSION}): {_CLIENT_IMPORT_ERROR!r}"
        )
    if _WS_IMPORT_ERROR is not None:
        pytest.fail(f"websockets>=13 is not importable: {_WS_IMPORT_ERROR!r}")
    assert real_client.__version__ == EXPECTED_CLIENT_VERSION, real_client.__version__

    _clean_client_env(monkeypatch)
    viewer = Viewer()
    viewer.start()
    client_warnings: list[str] = []
    outcome: dict[str, Any] = {"tool_calls": []}
    try:
        monkeypatch.setenv("GRAPHMIND_URL", viewer.url)
        # An explicit instance (not the module default) so no state leaks between
        # tests. GRAPHMIND_URL is read at construction. Defaults are 0.3 s connect /
        # 1.0 s handshake; widened so a loaded CI box cannot fall back to "detached".
        client = real_client.GraphMind(
            app="wc-e2e-app",
            connect_timeout=3.0,
            handshake_timeout=3.0,
            logger=client_warnings.append,
        )
        try:
            assert client.enabled, "graphmind client is disabled by the environment"
            assert client.session.url == viewer.url
            # The transport is lazy: without ready() the first gates could run
            # before hello.ack arrives and never pause.
            assert client.ready(timeout=T_READY), (
                "client never attached (hello.ack rejected?)\n"
                + "\n".join(client_warnings)
                + "\n"
                + viewer.dump()
            )

            @client.tool
            def lookup(key: str) -> dict[str, Any]:
                outcome["tool_calls"].append({"key": key, "released": viewer.resume_sent.is_set()})
                return {"key": key, "value": 7}

            def agent() -> None:
                try:
                    with client.run(RUN_NAME, meta={"suite": "wirecontract"}) as ctx:
                        outcome["run_id"] = ctx.run_id
                        with client.span("plan", kind="agent"):
                            with client.span("research", kind="chain") as inner:
                                value = lookup("alpha")
                                inner.set_output(value)
                                outcome["value"] = value
                except BaseException:
                    outcome["error"] = traceback.format_exc()

            worker = threading.Thread(target=agent, name="wc-agent", daemon=True)
            worker.start()
            worker.join(T_AGENT)
            assert not viewer.errors, viewer.dump()
            assert not worker.is_alive(), "agent still running (tool never released?)\n" + viewer.dump()
            assert "error" not in outcome, outcome["error"]
            assert viewer.wait(viewer.run_finished, T_RUN_FINISHED), (
                "run.finished never arrived\n" + viewer.dump()
            )
            warnings_while_attached = list(client_warnings)
        finally:
            # Releases any held gate (unblocks a stuck agent), drains, closes.
            client.dispose()
    finally:
        viewer.stop()

    log = viewer.dump()
    assert not viewer.errors, log
    assert not warnings_while_attached, "\n".join(warnings_while_attached) + "\n" + log
    assert viewer.connections == 1, log

    # 1. Every frame the real client sent parses `ok` with wirecontract.
    inbound = viewer.entries("app->viewer")
    not_ok = [
        (e["result"].kind, getattr(e["result"], "reason", None), getattr(e["result"], "issues", None), e["text"])
        for e in inbound
        if e["result"].kind != "ok"
    ]
    assert not not_ok, f"client frames not parsed ok: {not_ok}\n{log}"
    envs = [e["result"].envelope for e in inbound]
    raw = [json.loads(e["text"]) for e in inbound]

    # The parsed envelope agrees with the raw JSON on the header fields.
    for env, obj in zip(envs, raw):
        assert (env.type, env.seq, env.run_id) == (obj["type"], obj["seq"], obj["runId"]), obj

    # 2. The exact frame sequence of this scenario (graphmind-ai 0.5.1).
    observed = [(env.type, getattr(env.payload, "node_id", None)) for env in envs]
    assert observed == [
        ("hello", None),
        ("run.started", None),
        ("node.started", f"agent:{RUN_NAME}"),
        ("node.started", "agent:plan"),
        ("node.started", "chain:research"),
        ("node.started", "tool:lookup"),
        ("exec.paused", "tool:lookup"),
        ("exec.resumed", None),
        ("node.finished", "tool:lookup"),
        ("node.finished", "chain:research"),
        ("node.finished", "agent:plan"),
        ("node.finished", f"agent:{RUN_NAME}"),
        ("run.finished", None),
    ], log

    seqs = [env.seq for env in envs]
    assert seqs == sorted(set(seqs)), f"client seq not strictly increasing: {seqs}"
    assert envs[0].run_id == gm.WILDCARD_RUN_ID
    assert raw[0]["payload"]["versions"] == {"protocol": 1, "client": EXPECTED_CLIENT_VERSION}
    assert {env.run_id for env in envs[1:]} == {outcome["run_id"]}, log

    # Node kinds/names as wirecontract exposes them.
    started = [env.payload for env in envs if env.type == "node.started"]
    assert [(p.kind, p.name) for p in started] == [
        ("agent", RUN_NAME),
        ("agent", "plan"),
        ("chain", "research"),
        ("tool", "lookup"),
    ]
    assert all(isinstance(p.instance_id, str) and p.instance_id for p in started)
    tool_started = raw[observed.index(("node.started", "tool:lookup"))]["payload"]
    assert tool_started["input"] == {"key": "alpha"}

    # 3. The tool was paused and released by our exec.resume.
    paused = [env for env in envs if env.type == "exec.paused"]
    assert len(paused) == 1, log
    pause = paused[0].payload
    assert (pause.node_id, pause.point) == ("tool:lookup", "before")
    outbound = viewer.entries("viewer->app")
    assert [e["result"].kind for e in outbound] == ["ok", "ok"], viewer.dump()
    ack_env, resume_env = (e["result"].envelope for e in outbound)
    assert ack_env.type == "hello.ack" and ack_env.run_id == gm.WILDCARD_RUN_ID
    assert resume_env.type == "exec.resume"
    assert resume_env.payload.pause_id == pause.pause_id
    assert resume_env.payload.action == "continue"
    assert resume_env.run_id == outcome["run_id"]
    assert json.loads(outbound[1]["text"])["payload"] == {"pauseId": pause.pause_id, "action": "continue"}
    # The body ran once, only after the viewer decided to release it.
    assert outcome["tool_calls"] == [{"key": "alpha", "released": True}]
    assert outcome["value"] == {"key": "alpha", "value": 7}

    # 4. exec.resumed echoes the pause and the action.
    resumed = [env.payload for env in envs if env.type == "exec.resumed"]
    assert [(p.pause_id, p.action) for p in resumed] == [(pause.pause_id, "continue")]

    # Every node finished ok; the tool's output and held time are on the wire.
    finished = [env.payload for env in envs if env.type == "node.finished"]
    assert [p.status for p in finished] == ["ok"] * 4
    tool_finished = raw[observed.index(("node.finished", "tool:lookup"))]["payload"]
    assert tool_finished["output"] == {"key": "alpha", "value": 7}
    assert tool_finished["instanceId"] == tool_started["instanceId"]
    assert tool_finished["heldMs"] >= 0

    # 5. run.finished with status ok.
    assert envs[-1].type == "run.finished"
    assert envs[-1].payload.status == "ok"
