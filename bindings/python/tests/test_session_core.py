"""The sans-IO classes of ``wirecontract.graphmind.session`` driven by hand (no socket): the
host-value conversions of inputs and actions, errors, and that the shipped stub declares
exactly what the module exports. The rules themselves are the Rust core's and are tested
there (contract/tests/integration/session_cases.rs, c01-c39)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import wirecontract
from wirecontract import BuildError
from wirecontract import graphmind as gm
from wirecontract.graphmind import session as s

ACK = {"versions": {"protocol": 1, "viewer": "v"}, "capabilities": [], "breakpoints": [{"kind": "tool"}], "mode": "run"}
TOOL = s.GateNode("tool:t", "tool", "t", "call_1")


def frame(type_: str, payload: dict, seq: int = 0, run_id: str = "*") -> str:
    return json.dumps({"gm": 1, "seq": seq, "ts": 1, "runId": run_id, "type": type_, "payload": payload})


def attached(**config: object) -> s.AppSession:
    app = s.AppSession(id_base="abc123", **config)  # type: ignore[arg-type]
    assert app.ready(0) == 1
    assert app.poll_actions() == [s.Connect(s.DEFAULT_URL)]
    app.transport_opened(1)
    hello = app.poll_actions()
    assert [type(a) for a in hello] == [s.Send] and json.loads(hello[0].frame)["type"] == "hello"
    app.frame_received(frame("hello.ack", ACK), 2)
    assert app.poll_actions() == [s.ReadySettled(1, True)]
    return app


def test_gate_hold_and_resume_through_python_values() -> None:
    app = attached()
    pid = app.gate("before", TOOL, 3, "r1")
    assert pid == "pause_abc123_1" and app.held_pause_ids == [pid]
    (paused,) = app.poll_actions()
    assert json.loads(paused.frame)["payload"] == {"pauseId": pid, "nodeId": "tool:t", "point": "before", "reason": "breakpoint", "instanceId": "call_1"}
    app.frame_received(frame("exec.resume", {"pauseId": pid, "action": "inject", "output": {"n": 1.5e400 if False else 1}}, 1, "r1").encode(), 4)
    resumed, release = app.poll_actions()
    assert json.loads(resumed.frame)["payload"] == {"pauseId": pid, "action": "inject"}
    match release:
        case s.Release(pause_id, s.Decision("inject", output, True, text), "resume"):
            assert pause_id == pid and output == {"n": 1} and text == '{"n":1}'
        case _:
            pytest.fail(repr(release))


def test_inject_without_output_and_abort() -> None:
    app = attached()
    pid = app.gate("before", TOOL, 3, "r1")
    app.poll_actions()
    app.frame_received(frame("exec.resume", {"pauseId": pid, "action": "inject"}, 1, "r1"), 4)
    release = app.poll_actions()[-1]
    assert release.decision.has_output is False and release.decision.output is None and release.decision.output_json is None
    pid = app.gate("before", TOOL, 5, "r1")
    app.poll_actions()
    app.frame_received(frame("exec.resume", {"pauseId": pid, "action": "abort"}, 2, "r1"), 6)
    _, abort, release = app.poll_actions()
    assert abort == s.AbortRun("r1") and release.decision.action == "abort"


def test_disconnect_releases_with_cause_and_buffers_resumed() -> None:
    app = attached()
    pid = app.gate("before", TOOL, 3, "r1")
    app.poll_actions()
    app.transport_closed(10)
    (release,) = app.poll_actions()
    assert release == s.Release(pid, s.CONTINUE, "disconnect")
    assert json.loads(app.buffered_frames[-1])["type"] == "exec.resumed" and app.state == "idle"
    assert app.poll_timeout() == 210  # the fast retry burst: 200 ms


def test_emit_errors_and_values() -> None:
    app = s.AppSession(enabled=False)
    assert app.emit("graph.hint", {"nodes": []}, 1) is None
    assert app.gate("before", TOOL, 1) is None and app.poll_actions() == []
    app = s.AppSession()
    with pytest.raises(BuildError) as e:
        app.emit("node.started", {"nodeId": "x"}, 1, "r")
    assert e.value.issues and app.next_seq == 0
    with pytest.raises(ValueError, match="not an event"):
        app.emit("mode.set", {"mode": "step"}, 1)
    with pytest.raises(ValueError, match="emitted by the session"):
        app.emit("exec.resumed", {"pauseId": "p", "action": "continue"}, 1)
    with pytest.raises(BuildError):
        app.emit("graph.hint", {"nodes": [object()]}, 1)
    assert app.emit("graph.hint", {"nodes": []}, 1, "r") == 0


def test_runs_are_started_and_finished_by_the_core() -> None:
    app = attached(app="demo", sdk={"name": "py", "version": "9"})
    assert app.start_run("r1", "ticket", 3, {"user": "u1", "name": "inner", "n": 1}) == 1
    started, root = app.poll_actions()
    assert '"payload":{"app":"demo","sdk":{"name":"py","version":"9"},"meta":{"name":"inner","user":"u1","n":1}}' in started.frame
    # The run's root node, as the real client sends it (issue 37).
    assert json.loads(root.frame)["payload"] == {"nodeId": "agent:ticket", "kind": "agent", "name": "ticket", "instanceId": "r1"}
    assert app.start_run("r2", "plain", 4) == 3
    assert json.loads(app.poll_actions()[0].frame)["payload"]["meta"] == {"name": "plain"}
    assert app.finish_run("r1", 5) == 6  # after the root's node.finished (5)
    assert app.finish_run("r2", 6, {"name": "KeyError", "message": "'k'", "stack": "trace"}) == 9  # node.error 7, node.finished 8
    assert app.finish_run("r4", 7, gm.ErrorInfo(name="E", message="m")) == 10  # never started: no root node
    assert app.finish_run("r3", 7, gm.ErrorInfo(name="E", message="m"), aborted=True) == 11
    frames = [json.loads(a.frame) for a in app.poll_actions()]
    assert [(f["type"], f["payload"].get("nodeId")) for f in frames] == [
        ("node.finished", "agent:ticket"),
        ("run.finished", None),
        ("node.error", "agent:plain"),
        ("node.finished", "agent:plain"),
        ("run.finished", None),
        ("run.finished", None),
        ("run.finished", None),
    ]
    assert [f["payload"] for f in frames if f["type"] == "run.finished"] == [
        {"status": "ok"},
        {"status": "error", "error": {"name": "KeyError", "message": "'k'", "stack": "trace"}},
        {"status": "error", "error": {"name": "E", "message": "m"}},
        {"status": "aborted"},
    ]


def test_a_viewer_aborted_run_finishes_aborted() -> None:
    app = attached()
    pid = app.gate("before", TOOL, 3, "r1")
    app.poll_actions()
    app.frame_received(frame("exec.resume", {"pauseId": pid, "action": "abort"}, 1, "r1"), 4)
    app.poll_actions()
    app.finish_run("r1", 5, {"name": "RuntimeError", "message": "after the abort"})
    assert json.loads(app.poll_actions()[0].frame)["payload"] == {"status": "aborted"}


def test_run_argument_errors_name_the_argument() -> None:
    app = attached()
    seq = app.next_seq
    with pytest.raises(BuildError) as e:
        app.start_run("r", "n", 3, [1, 2])  # type: ignore[arg-type]
    assert [i.path for i in e.value.issues] == ["meta"]
    with pytest.raises(BuildError) as e:
        app.start_run("r", "n", 3, {"bad": object()})
    assert [i.path for i in e.value.issues] == ["meta.bad"]
    with pytest.raises(BuildError) as e:
        app.finish_run("r", 3, {"name": "E"})
    assert [i.path for i in e.value.issues] == ["error.message"]
    with pytest.raises(ValueError, match="runId"):
        app.start_run("*", "n", 3)
    assert app.next_seq == seq and app.poll_actions() == []
    detached = s.AppSession()
    assert detached.start_run("r", "n", 1) == 0 and detached.poll_actions() == [s.Connect(s.DEFAULT_URL)]
    assert detached.buffered_frames and json.loads(detached.buffered_frames[0])["type"] == "run.started"
    detached.dispose(2)
    assert detached.finish_run("r", 3) is None


def test_config_and_inputs_are_validated() -> None:
    with pytest.raises(ValueError, match="kind"):
        s.GateNode("x", "robot", "x")
    with pytest.raises(ValueError, match="point"):
        s.AppSession().gate("during", TOOL, 1)
    with pytest.raises(ValueError, match="loop_mode"):
        s.AppSession(loop_mode="sometimes")
    with pytest.raises(ValueError):
        s.AppSession(sdk={"name": 1})
    with pytest.raises(TypeError):
        s.AppSession().frame_received(12, 1)
    app = s.AppSession(pause_timeout_ms=500, app="a", sdk={"name": "n", "version": "1"}, capabilities=["pause"], loop_kinds=["tool", "llm"])
    assert app.state == "idle" and app.mode == "run" and app.breakpoints == []
    assert s.APP_DEFAULTS["connect_timeout_ms"] == 300 and s.APP_DEFAULTS["ring_max_frames"] == 5000


def test_viewer_session_round_trip() -> None:
    v = s.ViewerSession(breakpoints=[{"kind": "tool"}], token_prefix="t_")
    hello = {"versions": {"protocol": 1, "client": "c"}, "capabilities": ["pause"]}
    assert v.frame_received(7, frame("hello", hello, 3), 1) == s.Received("hello", False)
    send, attached_ = v.poll_actions()
    assert isinstance(send, s.ViewerSend) and send.conn == 7 and json.loads(send.frame)["payload"]["sessionToken"] == "t_1"
    assert attached_.session_token == "t_1" and attached_.hello.capabilities == ["pause"]
    assert v.frame_received(7, frame("exec.paused", {"pauseId": "p1", "nodeId": "tool:t", "point": "before"}, 4, "r"), 2).kind == "accepted"
    opened, accepted = v.poll_actions()
    assert accepted.envelope.payload.pause_id == "p1" and not accepted.replayed
    assert opened == s.PauseOpened(7, "r", "p1", "tool:t", "before")
    assert v.frame_received(7, frame("exec.paused", {"pauseId": "p1", "nodeId": "tool:t", "point": "before"}, 4, "r"), 2) == s.Received("duplicate", False)
    v.resume("p1", "inject", 3, output=None)
    (resume,) = v.poll_actions()
    assert json.loads(resume.frame)["payload"] == {"pauseId": "p1", "action": "inject", "output": None}
    v.connection_closed(7, 4)
    assert v.poll_actions() == [s.PauseReleased(7, "p1")]
    with pytest.raises(s.ResumeError) as e:
        v.resume("p1", "continue", 5)
    assert e.value.code == "released-by-disconnect"
    with pytest.raises(s.ResumeError) as e:
        v.resume("nope", "continue", 5)
    assert e.value.code == "unknown-pause"
    assert v.set_breakpoint({"kind": "llm"}, 6) and not v.set_breakpoint({"kind": "llm", "point": "before"}, 6)
    assert [m.to_dict() for m in v.breakpoints] == [{"kind": "tool"}, {"kind": "llm"}]


def test_stub_declares_what_the_module_exports() -> None:
    stub = Path(wirecontract.__file__).parent / "graphmind" / "session.pyi"
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    declared, aliases = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            ann = ast.unparse(node.annotation)
            (aliases if ann == "TypeAlias" else declared).add(node.target.id)
    declared.discard("__all__")
    assert declared == set(s.__all__), (declared - set(s.__all__), set(s.__all__) - declared)
    # Issue 12: every name a stub declares exists at runtime, type aliases included (so
    # annotations using them evaluate); the aliases stay out of __all__.
    for name in aliases:
        assert hasattr(s, name), name
