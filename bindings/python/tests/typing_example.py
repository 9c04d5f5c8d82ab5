"""Type-checked with `mypy --strict` against the shipped stubs (scripts/test)."""

from wirecontract import graphmind as gm


def describe(frame: str) -> str:
    match gm.parse_envelope_json(frame):
        case gm.Ok(env):
            payload = env.payload
            if isinstance(payload, gm.NodeStarted):
                kind: gm.NodeKind = payload.kind
                return f"{env.type} {payload.node_id} {kind} {payload.parent_id or '-'}"
            return env.type
        case gm.UnknownType(env):
            return f"unknown {env.type}"
        case gm.VersionMismatch(received, supported):
            return f"gm {received} != {supported}"
        case gm.Invalid(reason, issues):
            return reason + "".join(f"; {i.path}: {i.message}" for i in issues or [])
    return "unreachable"


def ack() -> str:
    env = gm.create_envelope(
        "hello.ack",
        {"versions": {"protocol": gm.PROTOCOL_VERSION, "viewer": "x"}, "capabilities": list(gm.KNOWN_CAPABILITIES), "breakpoints": [{"kind": "tool"}], "mode": "run"},
        seq=1,
        run_id=gm.WILDCARD_RUN_ID,
    )
    return gm.serialize_envelope(env)
