"""A typed adapter and viewer sketch, checked with `mypy --strict` against the shipped stubs
(scripts/steps/30-python.sh) and run by test_issue12.py: payloads built with snake_case
constructors, `create_envelope` overloads (a wrong type string or dict key is a type error),
and `match` over parse results and payloads."""

from collections.abc import Sequence

from wirecontract import graphmind as gm
from wirecontract import graphorin as go


def node_token(run_id: str, seq: int, node_id: str, text: str) -> str:
    payload = gm.NodeToken(node_id=node_id, deltas=[gm.TokenDelta(t="text", v=text)])
    return gm.serialize_envelope(gm.create_envelope("node.token", payload, seq, run_id))


def resume(pause_id: str, run_id: str, seq: int) -> str:
    # The dict form is a TypedDict: mypy checks its camelCase keys and enum values.
    env = gm.create_envelope("exec.resume", {"pauseId": pause_id, "action": "continue"}, seq=seq, run_id=run_id)
    return gm.serialize_envelope(env)


def ack(breakpoints: Sequence[gm.BreakpointMatcher]) -> str:
    payload = gm.HelloAck(
        versions=gm.ViewerVersions(protocol=gm.PROTOCOL_VERSION, viewer="typed-example"),
        capabilities=list(gm.KNOWN_CAPABILITIES),
        breakpoints=breakpoints,
        mode="run",
    )
    return gm.serialize_envelope(gm.create_envelope("hello.ack", payload, seq=1, run_id=gm.WILDCARD_RUN_ID))


def gate(kind: gm.NodeKind, name: str, point: gm.PausePoint, armed: list[gm.BreakpointMatcher]) -> bool:
    # A list of matchers passes where a Sequence of the union is asked for.
    return gm.should_pause("run", armed, kind, name, point)


def describe(frame: str) -> str:
    match gm.parse_envelope_json(frame):
        case gm.Ok(env):
            match env.payload:
                case gm.NodeStarted(node_id=node_id, kind=kind):
                    k: gm.NodeKind = kind
                    return f"{env.type} {node_id} {k}"
                case gm.ExecResume() as r if "output" in r:
                    return f"resume {r.pause_id} with output {r.output!r}"
                case gm.ExecResume() as r:
                    return f"resume {r.pause_id} {r.action}"
                case _:
                    return env.type
        case gm.UnknownType(env):
            return f"unknown {env.type}"
        case gm.VersionMismatch(received, supported):
            return f"gm {received} != {supported}"
        case gm.Invalid(reason, issues):
            return reason + "".join(f"; {i.path}: {i.message}" for i in issues or [])
    return "unreachable"


def build_or_explain(node_id: str) -> str:
    try:
        gm.NodeToken(node_id=node_id, deltas=[])
    except gm.BuildError as e:
        return "; ".join(f"{i.path}: {i.message}" for i in e.issues)
    return "ok"


def pong_or_error(frame: bytes) -> str:
    try:
        msg = go.parse_client_message(frame)
    except go.ParseError as e:
        return f"{e.rpc_error_code} {e.reply_id!r} " + ", ".join(f"{i.path}:{i.code}" for i in e.issues)
    if isinstance(msg, go.ClientPingRequest):
        return f"pong for {msg.id!r} via {go.SUBPROTOCOL_NAME}"
    return go.variant(msg)
