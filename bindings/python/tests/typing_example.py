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


def pong_or_error(frame: bytes) -> str:
    from wirecontract import graphorin as go

    try:
        msg = go.parse_client_message(frame)
    except go.ParseError as e:
        return f"{e.rpc_error_code} {e.reply_id!r} " + ", ".join(f"{i.path}:{i.code}" for i in e.issues)
    if isinstance(msg, go.ClientPingRequest):
        return f"pong for {msg.id!r} via {go.SUBPROTOCOL_NAME}"
    return go.variant(msg)
