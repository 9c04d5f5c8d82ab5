"""GraphMind v1 envelopes as msgspec and pydantic v2 would be written by someone who knows them.

Both follow spec graphmind-v1 §1–§2 as far as the library can say it: one tagged envelope type
per message type (discriminated on ``type``), closed enums as ``Literal``, safe-integer bounds on ``seq``/``ts``
and counts, optional fields that may be absent but not ``null``, ``gm`` the literal 1. A frame
the tagged union rejects is classified by decoding a loose envelope (the reference's Stage 1):
not an envelope → invalid, ``gm != 1`` → version-mismatch, unknown type → unknown-type, else
invalid. What neither library can express (lone-surrogate ``runId``, unknown fields kept in
msgspec Structs, ``1.0`` as an integer) does not occur in the benchmark corpus. These are hand
models of the contract as it was written: a type, field or value added to the contract later shows
up as disagreement in the bench's agreement counts until it is added here.
"""


from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_SAFE = 2**53 - 1
KNOWN_TYPES = frozenset([
    "run.started", "run.finished", "graph.hint", "node.started", "node.token", "node.finished", "node.error",
    "exec.paused", "exec.refused", "exec.resumed", "exec.resume", "breakpoint.set", "breakpoint.clear", "mode.set",
    "hello", "hello.ack",
])

NodeKind = Literal["agent", "llm", "tool", "chain", "retriever", "server", "resource", "prompt", "custom"]
RunStatus = Literal["ok", "error", "aborted"]
PausePoint = Literal["before", "after", "error"]
ResumeAction = Literal["continue", "retry", "inject", "abort"]
RunMode = Literal["run", "step"]
TokenChannel = Literal["text", "reasoning", "tool-args"]
PauseReason = Literal["breakpoint", "error", "step", "loop"]
LoopKind = Literal["repeat", "cycle", "error-repeat"]
SmartRule = Literal["error-result", "truncated-tool-call"]
RefusalCode = Literal["schema", "shape", "placeholder", "truncated", "disabled", "unsupported"]


# ---------------------------------------------------------------------------------------------
# msgspec: Structs, tagged union on the envelope's `type`.
# ---------------------------------------------------------------------------------------------

def msgspec_models(opaque: Any) -> tuple[msgspec.json.Decoder, msgspec.json.Decoder]:
    """(tagged-union decoder, loose-envelope decoder); `opaque` is the type of opaque values
    (`msgspec.Raw` to keep raw text like wirecontract, `Any` to build Python values)."""
    SafeU = Annotated[int, Meta(ge=0, le=MAX_SAFE)]
    SafeI = Annotated[int, Meta(ge=-MAX_SAFE, le=MAX_SAFE)]
    PosU = Annotated[int, Meta(gt=0, le=MAX_SAFE)]
    NonNeg = Annotated[float, Meta(ge=0)]
    Opaque = opaque

    class ErrorInfo(Struct):
        name: str
        message: str
        stack: str | UnsetType = UNSET

    class TokenUsage(Struct):
        inputTokens: SafeU
        outputTokens: SafeU
        inclusive: bool | UnsetType = UNSET
        cacheReadTokens: SafeU | UnsetType = UNSET
        cacheWriteTokens: SafeU | UnsetType = UNSET
        reasoningTokens: SafeU | UnsetType = UNSET

    class TokenDelta(Struct):
        t: TokenChannel
        v: str

    class BreakpointMatcher(Struct):
        kind: NodeKind | UnsetType = UNSET
        name: str | UnsetType = UNSET
        point: PausePoint | UnsetType = UNSET

    class GraphNodeHint(Struct):
        nodeId: str
        kind: NodeKind
        name: str
        parentId: str | UnsetType = UNSET

    class SdkInfo(Struct):
        name: str
        version: str

    class RedactionSummary(Struct):
        count: SafeU
        keys: list[str]

    class LoopInfo(Struct):
        repeats: SafeU
        firstSeq: SafeU
        lastSeq: SafeU
        fingerprint: str
        kind: LoopKind | UnsetType = UNSET
        period: PosU | UnsetType = UNSET
        laps: PosU | UnsetType = UNSET

    class SmartInfo(Struct):
        rule: SmartRule
        detail: str | UnsetType = UNSET

    class EditedValue(Struct):
        after: Opaque

    class ClientVersions(Struct):
        protocol: SafeI
        client: str

    class ViewerVersions(Struct):
        protocol: SafeI
        viewer: str

    class RunStarted(Struct):
        app: str
        sdk: SdkInfo
        meta: dict[str, Opaque] | UnsetType = UNSET

    class RunFinished(Struct):
        status: RunStatus
        error: ErrorInfo | UnsetType = UNSET

    class GraphHint(Struct):
        nodes: list[GraphNodeHint]

    class NodeStarted(Struct):
        nodeId: str
        kind: NodeKind
        name: str
        instanceId: str
        parentId: str | UnsetType = UNSET
        input: Opaque | UnsetType = UNSET
        collapsed: bool | UnsetType = UNSET
        redaction: RedactionSummary | UnsetType = UNSET

    class NodeToken(Struct):
        nodeId: str
        deltas: list[TokenDelta]
        redaction: RedactionSummary | UnsetType = UNSET

    class NodeFinished(Struct):
        nodeId: str
        durationMs: NonNeg
        status: RunStatus
        instanceId: str | UnsetType = UNSET
        output: Opaque | UnsetType = UNSET
        usage: TokenUsage | UnsetType = UNSET
        heldMs: NonNeg | UnsetType = UNSET
        redaction: RedactionSummary | UnsetType = UNSET

    class NodeError(Struct):
        nodeId: str
        error: ErrorInfo
        instanceId: str | UnsetType = UNSET
        heldMs: NonNeg | UnsetType = UNSET

    class ExecPaused(Struct):
        pauseId: str
        nodeId: str
        point: PausePoint
        reason: PauseReason | UnsetType = UNSET
        loop: LoopInfo | UnsetType = UNSET
        smart: SmartInfo | UnsetType = UNSET
        editable: bool | UnsetType = UNSET
        instanceId: str | UnsetType = UNSET

    class ExecRefused(Struct):
        pauseId: str
        code: RefusalCode
        message: str | UnsetType = UNSET
        requestId: str | UnsetType = UNSET

    class ExecResumed(Struct):
        pauseId: str
        action: ResumeAction
        edited: EditedValue | UnsetType = UNSET
        requestId: str | UnsetType = UNSET
        principal: str | UnsetType = UNSET

    class ExecResume(Struct):
        pauseId: str
        action: ResumeAction
        output: Opaque | UnsetType = UNSET
        input: Opaque | UnsetType = UNSET
        requestId: str | UnsetType = UNSET

    class BreakpointSet(Struct):
        matcher: BreakpointMatcher

    class ModeSet(Struct):
        mode: RunMode

    class Hello(Struct):
        versions: ClientVersions
        capabilities: list[str]
        app: str | UnsetType = UNSET
        sdk: SdkInfo | UnsetType = UNSET
        resumeToken: str | UnsetType = UNSET

    class HelloAck(Struct):
        versions: ViewerVersions
        capabilities: list[str]
        breakpoints: list[BreakpointMatcher]
        mode: RunMode
        sessionToken: str | UnsetType = UNSET
        hubCapabilities: list[str] | UnsetType = UNSET

    class Env(Struct, tag_field="type"):
        gm: Literal[1]
        seq: SafeU
        ts: SafeU
        runId: str

    payloads = {
        "run.started": RunStarted, "run.finished": RunFinished, "graph.hint": GraphHint, "node.started": NodeStarted,
        "node.token": NodeToken, "node.finished": NodeFinished, "node.error": NodeError, "exec.paused": ExecPaused,
        "exec.refused": ExecRefused, "exec.resumed": ExecResumed, "exec.resume": ExecResume,
        "breakpoint.set": BreakpointSet, "breakpoint.clear": BreakpointSet, "mode.set": ModeSet, "hello": Hello,
        "hello.ack": HelloAck,
    }
    variants = tuple(
        msgspec.defstruct(f"Env_{tag.replace('.', '_')}", [("payload", p)], bases=(Env,), tag=tag)
        for tag, p in payloads.items()
    )

    class RawEnvelope(Struct):
        gm: SafeI
        seq: SafeU
        ts: SafeU
        runId: str
        type: str
        payload: msgspec.Raw | UnsetType = UNSET

    return msgspec.json.Decoder(Union[variants]), msgspec.json.Decoder(RawEnvelope)  # type: ignore[valid-type]


def msgspec_classifier(opaque: Any = msgspec.Raw):
    """`classify(frame) -> (label, value)`; the label is one of `o u v i`."""
    union, loose = msgspec_models(opaque)
    decode, decode_loose = union.decode, loose.decode
    VErr, Err = msgspec.ValidationError, msgspec.MsgspecError

    def classify(frame: bytes):
        try:
            return "o", decode(frame)
        except VErr:
            pass
        except Err:
            return "i", None
        try:
            env = decode_loose(frame)
        except Err:
            return "i", None
        if env.gm != 1:
            return "v", None
        if env.type not in KNOWN_TYPES:
            return "u", env
        return "i", None

    return classify


# ---------------------------------------------------------------------------------------------
# pydantic v2: loose models (extra="allow" keeps unknown fields, as the spec requires), strict
# scalars, TypeAdapter over a discriminated union on the envelope's `type`.
# ---------------------------------------------------------------------------------------------

class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


SafeU = Annotated[int, Field(ge=0, le=MAX_SAFE)]
SafeI = Annotated[int, Field(ge=-MAX_SAFE, le=MAX_SAFE)]
PosU = Annotated[int, Field(gt=0, le=MAX_SAFE)]
NonNeg = Annotated[float, Field(ge=0, allow_inf_nan=False)]
# Optional, not nullable: the default applies only when the key is absent; `null` fails the type.
_ABSENT: Any = None


class ErrorInfo(_Loose):
    name: str
    message: str
    stack: str = _ABSENT


class TokenUsage(_Loose):
    inputTokens: SafeU
    outputTokens: SafeU
    inclusive: bool = _ABSENT
    cacheReadTokens: SafeU = _ABSENT
    cacheWriteTokens: SafeU = _ABSENT
    reasoningTokens: SafeU = _ABSENT


class TokenDelta(_Loose):
    t: TokenChannel
    v: str


class BreakpointMatcher(_Loose):
    kind: NodeKind = _ABSENT
    name: str = _ABSENT
    point: PausePoint = _ABSENT


class GraphNodeHint(_Loose):
    nodeId: str
    kind: NodeKind
    name: str
    parentId: str = _ABSENT


class SdkInfo(_Loose):
    name: str
    version: str


class RedactionSummary(_Loose):
    count: SafeU
    keys: list[str]


class LoopInfo(_Loose):
    repeats: SafeU
    firstSeq: SafeU
    lastSeq: SafeU
    fingerprint: str
    kind: LoopKind = _ABSENT
    period: PosU = _ABSENT
    laps: PosU = _ABSENT


class SmartInfo(_Loose):
    rule: SmartRule
    detail: str = _ABSENT


class EditedValue(_Loose):
    after: Any


class ClientVersions(_Loose):
    protocol: SafeI
    client: str


class ViewerVersions(_Loose):
    protocol: SafeI
    viewer: str


class RunStarted(_Loose):
    app: str
    sdk: SdkInfo
    meta: dict[str, Any] = _ABSENT


class RunFinished(_Loose):
    status: RunStatus
    error: ErrorInfo = _ABSENT


class GraphHint(_Loose):
    nodes: list[GraphNodeHint]


class NodeStarted(_Loose):
    nodeId: str
    parentId: str = _ABSENT
    kind: NodeKind
    name: str
    instanceId: str
    input: Any = _ABSENT
    collapsed: bool = _ABSENT
    redaction: RedactionSummary = _ABSENT


class NodeToken(_Loose):
    nodeId: str
    deltas: list[TokenDelta]
    redaction: RedactionSummary = _ABSENT


class NodeFinished(_Loose):
    nodeId: str
    instanceId: str = _ABSENT
    output: Any = _ABSENT
    usage: TokenUsage = _ABSENT
    durationMs: NonNeg
    status: RunStatus
    heldMs: NonNeg = _ABSENT
    redaction: RedactionSummary = _ABSENT


class NodeError(_Loose):
    nodeId: str
    instanceId: str = _ABSENT
    error: ErrorInfo
    heldMs: NonNeg = _ABSENT


class ExecPaused(_Loose):
    pauseId: str
    nodeId: str
    point: PausePoint
    reason: PauseReason = _ABSENT
    loop: LoopInfo = _ABSENT
    smart: SmartInfo = _ABSENT
    editable: bool = _ABSENT
    instanceId: str = _ABSENT


class ExecRefused(_Loose):
    pauseId: str
    code: RefusalCode
    message: str = _ABSENT
    requestId: str = _ABSENT


class ExecResumed(_Loose):
    pauseId: str
    action: ResumeAction
    edited: EditedValue = _ABSENT
    requestId: str = _ABSENT
    principal: str = _ABSENT


class ExecResume(_Loose):
    pauseId: str
    action: ResumeAction
    output: Any = _ABSENT
    input: Any = _ABSENT
    requestId: str = _ABSENT


class BreakpointSet(_Loose):
    matcher: BreakpointMatcher


class ModeSet(_Loose):
    mode: RunMode


class Hello(_Loose):
    versions: ClientVersions
    capabilities: list[str]
    app: str = _ABSENT
    sdk: SdkInfo = _ABSENT
    resumeToken: str = _ABSENT


class HelloAck(_Loose):
    versions: ViewerVersions
    capabilities: list[str]
    breakpoints: list[BreakpointMatcher]
    mode: RunMode
    sessionToken: str = _ABSENT
    hubCapabilities: list[str] = _ABSENT


class _Env(_Loose):
    gm: Literal[1]
    seq: SafeU
    ts: SafeU
    runId: str


def _variant(tag: str, payload: type) -> type:
    name = "Env_" + tag.replace(".", "_")
    return type(name, (_Env,), {"__annotations__": {"type": Literal[tag], "payload": payload}})


_PYDANTIC_PAYLOADS = {
    "run.started": RunStarted, "run.finished": RunFinished, "graph.hint": GraphHint, "node.started": NodeStarted,
    "node.token": NodeToken, "node.finished": NodeFinished, "node.error": NodeError, "exec.paused": ExecPaused,
    "exec.refused": ExecRefused, "exec.resumed": ExecResumed, "exec.resume": ExecResume,
    "breakpoint.set": BreakpointSet, "breakpoint.clear": BreakpointSet, "mode.set": ModeSet, "hello": Hello,
    "hello.ack": HelloAck,
}
_VARIANTS = tuple(_variant(t, p) for t, p in _PYDANTIC_PAYLOADS.items())


class RawEnvelope(_Loose):
    gm: SafeI
    seq: SafeU
    ts: SafeU
    runId: str
    type: str
    payload: Any = _ABSENT


def pydantic_classifier():
    """`classify(frame) -> (label, value)`."""
    union = TypeAdapter(Annotated[Union[_VARIANTS], Field(discriminator="type")])  # type: ignore[valid-type]
    loose = TypeAdapter(RawEnvelope)
    validate, validate_loose = union.validate_json, loose.validate_json

    def classify(frame: bytes):
        try:
            return "o", validate(frame)
        except ValidationError as e:
            if any(err["type"] == "json_invalid" for err in e.errors()):
                return "i", None
        try:
            env = validate_loose(frame)
        except ValidationError:
            return "i", None
        if env.gm != 1:
            return "v", None
        if env.type not in KNOWN_TYPES:
            return "u", env
        return "i", None

    return classify
