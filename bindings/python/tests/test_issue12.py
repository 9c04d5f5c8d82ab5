"""Issue 12 (Python): lone surrogates in str arguments, stubs that match the runtime, typed
construction, and absent vs null."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import types
import typing
from pathlib import Path

import pytest

import wirecontract
from wirecontract import _native
from wirecontract import graphmind as gm
from wirecontract import graphorin as go
from wirecontract.graphmind import session as gs

LONE = "\udc00"
PKG = Path(wirecontract.__file__).parent
TESTS = Path(__file__).parent


# 1. A lone surrogate in any str argument: BuildError naming the argument.
SURROGATE_CALLS = [
    ("run_id", lambda: gm.create_envelope("mode.set", {"mode": "run"}, 1, LONE)),
    ("type", lambda: gm.create_envelope("mode" + LONE, {"mode": "run"}, 1, "r")),
    ("type", lambda: gm.create_unknown_envelope("x" + LONE, {}, 1, "r")),
    ("run_id", lambda: gm.create_unknown_envelope("x", {}, 1, LONE)),
    ("name", lambda: gm.matcher_matches({"kind": "tool"}, "tool", LONE, "before")),
    ("kind", lambda: gm.matcher_matches({"kind": "tool"}, LONE, "n", "before")),
    ("point", lambda: gm.matcher_matches({"kind": "tool"}, "tool", "n", LONE)),
    ("mode", lambda: gm.should_pause(LONE, [], "tool", "n", "before")),
    ("name", lambda: gm.should_pause("run", [], "tool", LONE, "before")),
    ("type", lambda: gm.shrink_payload({}, type=LONE)),
    ("type", lambda: gm.shrink_payload_json("{}", type=LONE)),
    ("path", lambda: gm.Issue(LONE, "m")),
    ("code", lambda: gm.Issue("p", "m", LONE)),
    ("ticket", lambda: go.format_ticket(LONE)),
    ("reason", lambda: go.close_code_for(LONE)),
    ("protocol", lambda: wirecontract.parse_frame(LONE, "{}")),
]


@pytest.mark.filterwarnings("ignore:create_unknown_envelope is deprecated:DeprecationWarning")
@pytest.mark.parametrize("arg,call", SURROGATE_CALLS, ids=[f"{i}-{a}" for i, (a, _) in enumerate(SURROGATE_CALLS)])
def test_lone_surrogate_argument_is_build_error(arg, call):
    with pytest.raises(wirecontract.BuildError) as e:
        call()
    assert not isinstance(e.value, UnicodeError)
    assert isinstance(e.value, ValueError)
    assert [i.path for i in e.value.issues] == [arg]
    assert arg in str(e.value)


def test_parse_frame_data_with_lone_surrogate_is_invalid_not_raised():
    kind, _, obj, issues = wirecontract.parse_frame("graphmind", '{"x":"' + LONE + '"}')
    assert (kind, obj) == ("invalid", None) and issues


# 2. Every stub name exists at runtime and every public runtime name is in the stub.
def stub_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("wirecontract"):
            names.update(a.asname for a in node.names if a.asname)
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("module,stub", [(gm, "graphmind/__init__.pyi"), (go, "graphorin.pyi"), (_native, "_native.pyi")])
def test_stub_names_match_runtime_both_ways(module, stub):
    declared = stub_names(PKG / stub)
    # Submodules (graphmind.session, once imported) have stubs of their own.
    modules = {n for n in dir(module) if isinstance(getattr(module, n), types.ModuleType)}
    runtime = {n for n in dir(module) if not n.startswith("_")} - modules
    declared -= modules
    assert declared - runtime == set(), "declared in the stub, missing at runtime"
    if module is not _native:
        assert runtime - declared == set(), "public at runtime, missing from the stub"
        assert set(module.__all__) == runtime | ({"session"} & set(module.__all__))


def test_session_stub_names_exist_at_runtime():
    declared = stub_names(PKG / "graphmind" / "session.pyi")
    assert declared - set(dir(gs)) == set(), "declared in the session stub, missing at runtime"
    assert set(gs.__all__) - declared == set(), "exported by the session module, missing from its stub"

    def f(state: gs.ConnState, action: gs.Action, event: gs.ViewerAction, matcher: gs.MatcherLike) -> None: ...

    assert gs.Connect in typing.get_args(typing.get_type_hints(f)["action"])


def test_type_aliases_exist_and_get_type_hints_works():
    def f(kind: gm.NodeKind, point: gm.PausePoint, action: gm.ResumeAction, mode: gm.RunMode,
          status: gm.RunStatus, channel: gm.TokenChannel, payload: gm.Payload, value: gm.JsonValue,
          msg: go.ServerMessage, reason: go.CloseReason) -> None: ...

    hints = typing.get_type_hints(f)
    assert typing.get_args(hints["kind"]) == gm.NODE_KINDS
    assert typing.get_args(hints["mode"]) == gm.RUN_MODES
    assert gm.NodeToken in typing.get_args(hints["payload"])
    assert gm.OBJECT_TYPES == gm._OBJECT_CLASSES


def test_build_error_issues_typed_in_native_stub():
    text = (PKG / "_native.pyi").read_text(encoding="utf-8")
    assert "issues: list[Issue]" in text


# 3. Typed construction.
def test_construct_payload_with_snake_case_keywords():
    t = gm.NodeToken(node_id="n", deltas=[gm.TokenDelta(t="text", v="hi")])
    assert t.node_id == "n" and t.deltas[0].v == "hi"
    assert t.to_dict() == {"nodeId": "n", "deltas": [{"t": "text", "v": "hi"}]}
    env = gm.create_envelope("node.token", t, 1, "r", ts=5)
    assert json.loads(gm.serialize_envelope(env))["payload"] == t.to_dict()
    # Nested dicts are accepted too, and unknown members go through extra=.
    t2 = gm.NodeToken(node_id="n", deltas=[{"t": "text", "v": "hi"}], extra={"future": [1]})
    assert t2.extra == {"future": [1]} and t2.to_dict()["future"] == [1]


def test_every_class_is_constructible_from_its_own_fields():
    """Round trip: an object parsed from a vector rebuilt from its snake_case attributes."""
    env = gm.create_envelope(
        "hello.ack",
        {"versions": {"protocol": 1, "viewer": "v"}, "capabilities": [], "breakpoints": [{"kind": "tool"}], "mode": "run"},
        1, "*",
    )
    p = env.payload
    rebuilt = gm.HelloAck(**{name: getattr(p, name) for name in p.__match_args__ if getattr(p, name) is not None})
    assert rebuilt == p


def test_construction_validates_with_wire_paths():
    with pytest.raises(gm.BuildError) as e:
        gm.NodeToken(node_id="n", deltas=[{"t": "bogus", "v": "x"}])
    assert [i.path for i in e.value.issues] == ["deltas.0.t"]
    with pytest.raises(gm.BuildError) as e:
        gm.NodeToken(deltas=[])
    assert [i.path for i in e.value.issues] == ["nodeId"]
    with pytest.raises(TypeError, match="node_idd"):
        gm.NodeToken(node_idd="n", deltas=[])
    with pytest.raises(TypeError, match="known member"):
        gm.NodeToken(node_id="n", deltas=[], extra={"nodeId": "m"})
    with pytest.raises(TypeError):
        gm.NodeToken("n", [])  # keywords only


def test_graphorin_frames_constructible_with_constants_filled_in():
    ping = go.ClientPingRequest(id=7, params=go.PingParams())
    assert json.loads(go.serialize_message(ping))["jsonrpc"] == "2.0"
    with pytest.raises(gm.BuildError):
        go.PingParams(extra={"unexpected": 1})  # strict: the reader refuses unknown keys


# 4. Absent vs null.
def test_in_tells_present_null_from_absent():
    null = gm.ExecResume(pause_id="p", action="inject", output=None)
    absent = gm.ExecResume(pause_id="p", action="inject")
    assert "output" in null and null.output is None
    assert "output" not in absent and absent.output is None
    assert "pause_id" in absent and "pauseId" in absent and "nope" not in absent and 3 not in absent
    parsed = gm.parse_envelope_json(
        '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"exec.resume","payload":{"pauseId":"p","action":"inject","output":null,"x":1}}'
    )
    assert isinstance(parsed, gm.Ok)
    p = parsed.envelope.payload
    assert "output" in p and p.output is None and "x" in p


# 5. The typed example is clean under mypy --strict, runs, and mypy catches wrong types/keys.
def test_typed_example_runs():
    sys.path.insert(0, str(TESTS))
    try:
        import typing_example as ex
    finally:
        sys.path.remove(str(TESTS))
    assert '"type":"node.token"' in ex.node_token("r", 1, "n", "hi")
    assert ex.describe(ex.resume("p", "r", 2)) == "resume p continue"
    assert ex.gate("tool", "t", "before", [gm.breakpoint_matcher({"kind": "tool"})])
    assert '"hello.ack"' in ex.ack([gm.BreakpointMatcher(kind="tool")])


@pytest.mark.parametrize("snippet", [
    'gm.create_envelope("node.tokn", {"nodeId": "n", "deltas": []}, 1, "r")',
    'gm.create_envelope("node.token", {"nodeId": "n", "delta": []}, 1, "r")',
    'gm.create_envelope("exec.resume", {"pauseId": "p", "action": "resume"}, 1, "r")',
    'gm.NodeToken(node_id="n", deltas=[], nodeid="x")',
])
def test_mypy_catches_wrong_type_string_or_key(tmp_path, snippet):
    pytest.importorskip("mypy")
    src = tmp_path / "bad.py"
    src.write_text("from wirecontract import graphmind as gm\n" + snippet + "\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 1, r.stdout


def test_a_lone_surrogate_in_an_extra_key_is_kept_as_its_escape_at_every_level() -> None:
    # The README promises payload text with lone surrogates is kept as JSON escapes; a top-level
    # extra= key is payload text like a nested key or an opaque value.
    top = gm.TokenDelta(t="text", v="x", extra={LONE: 1})
    nested = gm.TokenDelta(t="text", v="x", extra={"k": {LONE: 1}})
    env = gm.create_envelope("node.token", gm.NodeToken(node_id="n", deltas=[top, nested]), 1, "r", ts=1)
    text = gm.serialize_envelope(env)
    assert text.count('"\\udc00":1') == 2, text
    assert gm.parse_envelope_json(text).kind == "ok"
