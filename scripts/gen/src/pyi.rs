//! The `.pyi` stubs of `wirecontract.graphmind` and `wirecontract.graphorin`, written from the
//! contract's typed registry ([`wirecontract::registry`]), so the stubs cannot drift from the
//! classes the binding creates.

use std::fmt::Write as _;

use wirecontract::graphmind;
use wirecontract::registry::{FieldDesc, ObjectDesc, Protocol, Scalar, Ty};

/// The Python type of a registry type.
fn py_ty(ty: &Ty) -> String {
    match ty {
        Ty::List(t) => format!("list[{}]", py_ty(t)),
        Ty::Enum(e) => e.name.to_owned(),
        Ty::Object(o) => o.name.to_owned(),
        Ty::Scalar(s) => match s {
            Scalar::String | Scalar::NonEmptyString => "str",
            Scalar::RpcId => "int | str",
            Scalar::Bool => "bool",
            Scalar::SafeUInt | Scalar::PositiveSafeUInt | Scalar::SafeInt | Scalar::ExactUInt | Scalar::ExactInt => "int",
            Scalar::Finite | Scalar::NonNegativeFinite => "float",
            Scalar::Opaque => "JsonValue",
            Scalar::OpaqueObject => "dict[str, JsonValue]",
        }
        .to_owned(),
    }
}

/// The Python type a constructor or dict form accepts for a registry type: `Sequence` for
/// lists, an object or its dict form (`_XDict` when `typed_dicts`, else any mapping).
fn py_in_ty(ty: &Ty, typed_dicts: bool) -> String {
    match ty {
        Ty::List(t) => format!("Sequence[{}]", py_in_ty(t, typed_dicts)),
        Ty::Object(o) if typed_dicts => format!("{} | _{}Dict", o.name, o.name),
        Ty::Object(o) => format!("{} | Mapping[str, JsonValue]", o.name),
        Ty::Scalar(Scalar::OpaqueObject) => "Mapping[str, JsonValue]".to_owned(),
        other => py_ty(other),
    }
}

/// The constructor parameter of a field: required ones have no default; an optional opaque
/// field defaults to "absent" (`...`; `None` would be JSON null), other optional ones to `None`.
fn init_param(f: &FieldDesc, typed_dicts: bool) -> String {
    let ty = py_in_ty(&f.ty, typed_dicts);
    match (f.required, &f.ty) {
        (true, _) => format!("{}: {ty}", f.rust),
        (false, Ty::Scalar(Scalar::Opaque)) => format!("{}: {ty} = ...", f.rust),
        (false, _) => format!("{}: {ty} | None = None", f.rust),
    }
}

/// `_XDict`: the wire-shaped dict form of an object (camelCase keys), for `create_envelope`.
fn typed_dict(out: &mut String, o: &ObjectDesc) {
    let members: Vec<String> = o
        .fields
        .iter()
        .map(|f| {
            let ty = py_in_ty(&f.ty, true);
            if f.required {
                format!("{:?}: {ty}", f.wire)
            } else {
                format!("{:?}: NotRequired[{ty}]", f.wire)
            }
        })
        .collect();
    let _ = writeln!(out, "_{name}Dict = TypedDict(\"_{name}Dict\", {{{}}})", members.join(", "), name = o.name);
}

/// The Python type of a field (`X | None` when optional).
fn py_type(f: &FieldDesc) -> String {
    if f.required {
        py_ty(&f.ty)
    } else {
        format!("{} | None", py_ty(&f.ty))
    }
}

fn object_class(out: &mut String, o: &ObjectDesc, typed_dicts: bool) {
    let (name, fields, literals) = (o.name, o.fields, o.literals);
    let _ = writeln!(out, "@final\nclass {name}(WireObject):");
    let _ = writeln!(out, "    \"\"\"The contract object `{name}`; wire keys: {}.\"\"\"", fields.iter().map(|f| f.wire).collect::<Vec<_>>().join(", "));
    let names: Vec<String> = fields.iter().map(|f| format!("{:?}", f.rust)).collect();
    let trailing = if names.len() == 1 { "," } else { "" };
    let _ = writeln!(out, "    __match_args__ = ({}{trailing})", names.join(", "));
    let mut params: Vec<String> = fields.iter().map(|f| init_param(f, typed_dicts)).collect();
    // A strict object refuses every unknown member (the reader's rule), so its `extra=` can
    // only be left out (or `None`): the runtime signature keeps it, the type allows nothing else.
    params.push(if o.strict { "extra: None = None" } else { "extra: Mapping[str, JsonValue] | None = None" }.to_owned());
    let _ = writeln!(out, "    def __new__(cls, *, {}) -> {name}:", params.join(", "));
    let _ = writeln!(out, "        \"\"\"Builds the object (validated by the contract's reader; BuildError with wire paths).\"\"\"");
    for (wire, value) in literals {
        let _ = writeln!(out, "    @property");
        let _ = writeln!(out, "    def {wire}(self) -> Literal[{value:?}]: ...");
    }
    for f in fields {
        let _ = writeln!(out, "    @property");
        let _ = writeln!(out, "    def {}(self) -> {}: ...", f.rust, py_type(f));
    }
    out.push('\n');
}

fn enum_aliases(o: &mut String, p: &Protocol) {
    for e in p.enums() {
        let lits: Vec<String> = e.wire_values().map(|v| format!("{v:?}")).collect();
        let _ = writeln!(o, "{}: TypeAlias = Literal[{}]", e.name, lits.join(", "));
    }
}

/// One `Final` tuple per enum whose declaration names a public constant (`NODE_KINDS`), typed
/// by the enum's `Literal` alias, in registry order (the binding adds the same names from the
/// same walk).
fn enum_constants(o: &mut String, p: &Protocol) {
    for e in p.enums() {
        if let Some(constant) = e.constant {
            let _ = writeln!(o, "{constant}: Final[tuple[{}, ...]]", e.name);
        }
    }
}

/// The whole stub.
#[allow(clippy::too_many_lines)] // mostly one literal block of fixed declarations
pub fn graphmind_stub() -> String {
    let mut o = String::new();
    o.push_str("# Generated by scripts/regen from the wirecontract contract crate. Do not edit.\n");
    o.push_str("\"\"\"Type stubs for the GraphMind wire protocol v1 (see graphmind/__init__.py).\"\"\"\n\n");
    o.push_str("from collections.abc import Mapping, Sequence\n");
    o.push_str("from typing import Any, ClassVar, Final, Literal, TypeAlias, TypedDict, final, overload\n\n");
    o.push_str("from typing_extensions import NotRequired, deprecated, disjoint_base\n\n");
    o.push_str("from wirecontract._native import BuildError as BuildError, Issue as Issue\n\n");
    o.push_str("JsonValue: TypeAlias = Any\n\"\"\"A JSON value converted to Python: dict, list, str, int, float, bool or None.\"\"\"\n\n");
    enum_aliases(&mut o, &graphmind::PROTOCOL);
    o.push('\n');
    for (group, values) in [
        ("MESSAGE_TYPES", graphmind::MESSAGE_TYPES),
        ("EVENT_TYPES", graphmind::EVENT_TYPES),
        ("CONTROL_TYPES", graphmind::CONTROL_TYPES),
        ("HANDSHAKE_TYPES", graphmind::HANDSHAKE_TYPES),
        ("KNOWN_CAPABILITIES", graphmind::KNOWN_CAPABILITIES),
    ] {
        let _ = writeln!(o, "{group}: Final[tuple[str, ...]]  # {}", values.join(", "));
    }
    enum_constants(&mut o, &graphmind::PROTOCOL);
    o.push_str(
        r#"OBJECT_TYPES: Final[tuple[str, ...]]
PROTOCOL_VERSION: Final[int]
WILDCARD_RUN_ID: Final[str]
DEFAULT_MAX_FRAME_BYTES: Final[int]
DEFAULT_MAX_DEPTH: Final[int]
DEFAULT_MAX_PAYLOAD_BYTES: Final[int]
SCHEMA_ID: Final[str]

@disjoint_base
class WireObject:
    """Base of every contract object: snake_case attributes for known fields."""
    __match_args__: ClassVar[tuple[str, ...]]
    @property
    def extra(self) -> dict[str, JsonValue]:
        """Unknown members, converted."""
    @property
    def type_name(self) -> str: ...
    def to_dict(self) -> dict[str, JsonValue]:
        """The wire-shaped dict (camelCase keys, unknown members kept)."""
    def to_json(self) -> str: ...
    def __contains__(self, key: object, /) -> bool:
        """Whether the member is present on the wire (even as null), by wire or attribute name."""

"#,
    );
    for obj in graphmind::PROTOCOL.objects() {
        object_class(&mut o, obj, true);
    }
    for obj in graphmind::PROTOCOL.objects() {
        typed_dict(&mut o, obj);
    }
    o.push('\n');
    let payloads: Vec<&str> = graphmind::PROTOCOL.messages.iter().map(|m| m.payload.name).collect();
    let _ = writeln!(o, "Payload: TypeAlias = {}\n", payloads.join(" | "));
    o.push_str(
        r#"@final
class Envelope:
    """A GraphMind envelope {gm, seq, ts, runId, type, payload}."""
    @property
    def gm(self) -> int: ...
    @property
    def seq(self) -> int: ...
    @property
    def ts(self) -> int:
        """Epoch milliseconds."""
    @property
    def run_id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> Payload | JsonValue:
        """The typed payload; for an unknown type, the raw payload as Python values."""
    @property
    def has_payload(self) -> bool: ...
    @property
    def extra(self) -> dict[str, JsonValue]: ...
    def to_dict(self) -> dict[str, JsonValue]: ...
    def to_json(self) -> str: ...

@final
class Ok:
    kind: ClassVar[Literal["ok"]]
    __match_args__ = ("envelope",)
    @property
    def envelope(self) -> Envelope: ...

@final
class UnknownType:
    kind: ClassVar[Literal["unknown-type"]]
    __match_args__ = ("envelope",)
    @property
    def envelope(self) -> Envelope: ...

@final
class VersionMismatch:
    kind: ClassVar[Literal["version-mismatch"]]
    __match_args__ = ("received", "supported")
    @property
    def received(self) -> int: ...
    @property
    def supported(self) -> int: ...

@final
class Invalid:
    kind: ClassVar[Literal["invalid"]]
    __match_args__ = ("reason", "issues")
    @property
    def reason(self) -> str: ...
    @property
    def issues(self) -> list[Issue] | None: ...
    @property
    def seq(self) -> int | None:
        """Salvaged when only the payload failed; None otherwise (as ts, run_id, type)."""
    @property
    def ts(self) -> int | None: ...
    @property
    def run_id(self) -> str | None: ...
    @property
    def type(self) -> str | None: ...

ParseResult: TypeAlias = Ok | UnknownType | VersionMismatch | Invalid

def parse_envelope_json(data: str | bytes | bytearray, /, *, max_frame_bytes: int | None = None, max_depth: int | None = None) -> ParseResult:
    """Parse one frame; never raises for bad input."""
def parse_envelope(value: Mapping[str, JsonValue], /) -> ParseResult:
    """Parse an already decoded frame (decision step 2 on)."""
"#,
    );
    o.push_str("# create_envelope: one overload per known message type, so a type checker catches a wrong type\n# string or key. At run time any type string is accepted and one outside MESSAGE_TYPES is built\n# with its payload opaque (type-checked code marks such a call `# type: ignore[call-overload]`).\n");
    for m in graphmind::PROTOCOL.messages {
        let p = m.payload.name;
        let _ = writeln!(
            o,
            "@overload\ndef create_envelope(type: Literal[{:?}], payload: {p} | _{p}Dict, seq: int, run_id: str, ts: int | None = None, *, max_payload_bytes: int | None = None) -> Envelope:",
            m.wire
        );
        let _ = writeln!(o, "    \"\"\"Build a frame; raises BuildError (a ValueError) with .issues. max_payload_bytes (UTF-8\n    bytes of payload JSON) shrinks an oversize payload first, as serializePayload does.\"\"\"");
    }
    o.push_str(
        r#"@deprecated("create_envelope takes any type string")
def create_unknown_envelope(type: str, payload: JsonValue, seq: int, run_id: str, ts: int | None = None, *, omit_payload: bool = False) -> Envelope: ...
def serialize_envelope(envelope: Envelope | Ok | UnknownType, /) -> str: ...
def serialize_envelope_bytes(envelope: Envelope | Ok | UnknownType, /) -> bytes:
    """serialize_envelope as UTF-8 bytes (no str decode; what a socket sends)."""
def export_json_schema() -> dict[str, JsonValue]: ...
def export_json_schema_string() -> str: ...
def matchers_equal(a: Mapping[str, JsonValue] | BreakpointMatcher, b: Mapping[str, JsonValue] | BreakpointMatcher, /) -> bool: ...
def matcher_matches(matcher: Mapping[str, JsonValue] | BreakpointMatcher, kind: NodeKind, name: str, point: PausePoint, /) -> bool: ...
def should_pause(mode: RunMode, breakpoints: Sequence[Mapping[str, JsonValue] | BreakpointMatcher], kind: NodeKind, name: str, point: PausePoint, /) -> bool: ...
def pause_reason(mode: RunMode, breakpoints: Sequence[Mapping[str, JsonValue] | BreakpointMatcher], kind: NodeKind, name: str, point: PausePoint, /) -> Literal["breakpoint", "step"] | None:
    """Why a gate pauses: 'breakpoint' (checked first), 'step', or None."""
def breakpoint_matcher(value: Mapping[str, JsonValue], /) -> BreakpointMatcher: ...

@final
class Accepted:
    """negotiate_hello's verdict when the app speaks protocol 1."""
    __match_args__ = ("protocol", "capabilities", "resume_token")
    @property
    def protocol(self) -> int: ...
    @property
    def capabilities(self) -> list[str]: ...
    @property
    def resume_token(self) -> str | None: ...

@final
class Refused:
    """negotiate_hello's verdict when the app's protocol is not 1; reason names it."""
    __match_args__ = ("reason",)
    @property
    def reason(self) -> str: ...

def negotiate_hello(hello: Mapping[str, JsonValue] | Hello, /, viewer_capabilities: Sequence[str] | None = None) -> Accepted | Refused:
    """Refused(reason) unless versions.protocol is 1; else the capabilities both implement."""
def hello_ack(hello: Mapping[str, JsonValue] | Hello, /, *, viewer: str, breakpoints: Sequence[Mapping[str, JsonValue] | BreakpointMatcher], mode: RunMode, seq: int, session_token: str | None = None, hub_capabilities: Sequence[str] | None = None, ts: int | None = None) -> Envelope:
    """The hello.ack envelope (runId "*") arming an app with the viewer's state."""

@final
class Shrunk:
    """A shrunk payload (graphmind-shrink §3): `json`, the JSON.stringify-exact text to send,
    and `tier`: 1 unchanged, 2 field trim, 3 skeleton, 4 whole-payload marker."""
    @property
    def json(self) -> str: ...
    @property
    def tier(self) -> Literal[1, 2, 3, 4]: ...
    @property
    def truncated(self) -> bool:
        """tier > 1."""

def shrink_payload(value: JsonValue | WireObject, /, max_bytes: int = 524288, type: str | None = None) -> Shrunk:
    """Shrink a payload value to max_bytes UTF-8 bytes of JSON, byte for byte as the reference."""
def shrink_payload_json(data: str | bytes | bytearray, /, max_bytes: int = 524288, type: str | None = None) -> Shrunk:
    """shrink_payload over JSON text (JSON.parse semantics); ValueError if not JSON."""

@final
class UsageView:
    """What a reader displays for one TokenUsage (read_usage): counts as int when whole."""
    @property
    def input_tokens(self) -> int | float: ...
    @property
    def output_tokens(self) -> int | float: ...
    @property
    def basis(self) -> Literal["inclusive", "recomputed", "reported"]: ...
    @property
    def cache_read_tokens(self) -> int | float | None: ...
    @property
    def cache_write_tokens(self) -> int | float | None: ...
    @property
    def reasoning_tokens(self) -> int | float | None: ...
    def to_dict(self) -> dict[str, int | float | str]:
        """The reference's object: inputTokens, outputTokens, basis, then the present extras."""

def normalize_finish_reason(raw: object, /, has_tool_calls: object = False) -> FinishReason | None:
    """The normalized finish reason of a provider's raw value; None when nothing usable was reported."""
def read_usage(usage: object, /) -> UsageView | None:
    """The display view of a stored usage dict (camelCase keys); None when it is not a usage object."""
"#,
    );
    o
}

/// The stub of `wirecontract.graphorin`.
pub fn graphorin_stub() -> String {
    use wirecontract::graphorin;
    let mut o = String::new();
    o.push_str("# Generated by scripts/regen from the wirecontract contract crate. Do not edit.\n");
    o.push_str("\"\"\"Type stubs for Graphorin's strict v1 frames (see graphorin.py).\"\"\"\n\n");
    o.push_str("from collections.abc import Mapping, Sequence\n");
    o.push_str("from typing import Any, Final, Literal, TypeAlias, final\n\n");
    o.push_str("from wirecontract._native import Issue as Issue\nfrom wirecontract.graphmind import WireObject as WireObject\n\n");
    o.push_str("JsonValue: TypeAlias = Any\n\n");
    enum_aliases(&mut o, &graphorin::PROTOCOL);
    o.push_str(
        r#"
class ParseError(ValueError):
    """A frame did not parse."""
    issues: list[Issue]
    id: JsonValue
    is_syntax_error: bool
    """True when the frame is not JSON at all (PARSE_ERROR); False when it is JSON but not a legal frame."""
    is_json: bool
    """Deprecated old name of is_syntax_error (True for a syntax failure)."""
    rpc_error_code: int
    reply_id: int | str

PROTOCOL_VERSION: Final[str]
SUBPROTOCOL_NAME: Final[str]
TICKET_SUBPROTOCOL_PREFIX: Final[str]
WS_PATH: Final[str]
JSONRPC_VERSION: Final[str]
SCHEMA_ID: Final[str]
KINDS: Final[tuple[str, ...]]
METHODS: Final[tuple[str, ...]]
CLOSE_CODES: Final[dict[CloseReason, int]]
RPC_ERROR_CODES: Final[dict[str, int]]
"#,
    );
    enum_constants(&mut o, &graphorin::PROTOCOL);
    o.push('\n');
    for obj in graphorin::PROTOCOL.objects() {
        object_class(&mut o, obj, false);
    }
    for u in graphorin::PROTOCOL.unions {
        let frames: Vec<&str> = u.variants.iter().map(|v| v.frame.name).collect();
        let _ = writeln!(o, "{}: TypeAlias = {}", u.name, frames.join(" | "));
    }
    o.push('\n');
    o.push_str(
        r"def parse_server_message(data: str | bytes | bytearray, /) -> ServerMessage: ...
def parse_client_message(data: str | bytes | bytearray, /) -> ClientMessage: ...
def parse_server_value(value: Mapping[str, JsonValue], /) -> ServerMessage: ...
def parse_client_value(value: Mapping[str, JsonValue], /) -> ClientMessage: ...
def build_server_message(value: Mapping[str, JsonValue], /) -> ServerMessage: ...
def build_client_message(value: Mapping[str, JsonValue], /) -> ClientMessage: ...
def serialize_message(message: ServerMessage | ClientMessage, /) -> str: ...
def variant(message: ServerMessage | ClientMessage, /) -> ServerVariant | ClientVariant: ...
def negotiate(offer: str | Sequence[str] | object, /) -> str | None: ...
def parse_ticket(offer: str | Sequence[str] | object, /) -> str | None: ...
def format_ticket(ticket: str, /) -> str: ...
def close_code_for(reason: CloseReason, /) -> int: ...
def close_code_reason(code: int, /) -> CloseReason | None: ...
def export_json_schema() -> dict[str, JsonValue]: ...
def export_json_schema_string() -> str: ...
",
    );
    let names = graphorin::SERVER_GUARDS.iter().map(|g| g.1).chain(graphorin::CLIENT_GUARDS.iter().map(|g| g.1));
    for name in names {
        let _ = writeln!(o, "def {name}(message: object, /) -> bool: ...");
    }
    o
}

/// The stub of the private native module: the exception classes (so `BuildError.issues` is
/// typed) and the generic entry points `wirecontract/__init__.py` re-exports.
pub fn native_stub() -> String {
    let codes = wirecontract::wire::IssueCode::VALUES.join(", ");
    let stub = r#"# Generated by scripts/regen from the wirecontract contract crate. Do not edit.
"""Type stubs for the native core `wirecontract._native` (curated by the package modules)."""

from types import ModuleType
from collections.abc import Iterable
from typing import Final, final

from wirecontract.graphmind import WireObject

__version__: Final[str]
graphmind: ModuleType
graphorin: ModuleType
session: ModuleType

class BuildError(ValueError):
    """A frame or object could not be built: `.reason` says why, `.issues` lists path and rule."""
    reason: str
    issues: list[Issue]

class InternalError(RuntimeError):
    """A bug inside wirecontract (a Rust panic caught at the boundary)."""

@final
class Issue:
    """One validation problem, the same class for every protocol: dotted `path` from the frame
    root ("" = root), the same path as `segments` (str keys, int indexes, root first), the
    rule, and a stable `code` where the protocol gives one (Graphorin)."""
    __match_args__ = ("path", "message")
    def __new__(cls, path: str, message: str, code: str | None = None, segments: Iterable[str | int] | None = None) -> Issue:
        """ValueError unless code is None or one of: @CODES@.
        Without `segments`, `path` split at "." (digits an index); with them, they must join to `path`."""
    @property
    def path(self) -> str: ...
    @property
    def segments(self) -> tuple[str | int, ...]: ...
    @property
    def message(self) -> str: ...
    @property
    def code(self) -> str | None: ...
    def to_dict(self) -> dict[str, str]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Issue], tuple[str, str, str | None, tuple[str | int, ...]]]:
        """Pickling support: rebuilt through the constructor."""

def protocols() -> tuple[str, ...]:
    """The names of every registered protocol, in registry order."""
def parse_frame(protocol: str, data: str) -> tuple[str, str | None, WireObject | None, list[Issue]]:
    """Parse one frame with a registered protocol's parser: (kind, message, object, issues).

    `message` is the message type when `kind` is "ok" (or a verdict that knows it), the reason
    text when `kind` is "invalid", else None."""
"#;
    stub.replace("@CODES@", &codes)
}

/// The `mypy.stubtest` allowlist: only what stubtest cannot see at runtime, each group with
/// its reason. Generated beside the stubs so a new field needs no hand edit.
pub fn stubtest_allowlist() -> String {
    let mut o = String::from("# Generated by scripts/regen from the wirecontract contract crate. Do not edit.\n");
    o.push_str("# mypy.stubtest allowlist for the wirecontract package: only what stubtest cannot see.\n\n");
    o.push_str("# __all__ is computed at runtime from the registry (object classes, enum aliases);\n# the stubs declare every one of those names instead of restating the list.\n");
    o.push_str("wirecontract._native.__all__\nwirecontract.graphmind.__all__\nwirecontract.graphorin.__all__\n\n");
    o.push_str("# wirecontract.graphmind.session: its Literal aliases are runtime Literal[...] objects, which\n");
    o.push_str("# stubtest reports as \"not a Union\"; everything else in the module is checked.\n");
    o.push_str("wirecontract.graphmind.session.ConnState\nwirecontract.graphmind.session.ReleaseCause\nwirecontract.graphmind.session.ReceivedKind\n\n");
    for (module, protocol) in [("graphmind", &graphmind::PROTOCOL), ("graphorin", &wirecontract::graphorin::PROTOCOL)] {
        let _ = writeln!(o, "# wirecontract.{module}: contract fields (and strict-frame constants) are served by");
        let _ = writeln!(o, "# WireObject.__getattr__ from the registry, one handle per frame, so no class has a");
        let _ = writeln!(o, "# per-field descriptor for stubtest to find. Enum aliases are runtime Literal[...] objects,");
        let _ = writeln!(o, "# which stubtest reports as \"not a Union\" (it models a multi-value Literal as a Union).");
        for e in protocol.enums() {
            let _ = writeln!(o, "wirecontract.{module}.{}", e.name);
        }
        for obj in protocol.objects() {
            for (wire, _) in obj.literals {
                let _ = writeln!(o, "wirecontract.{module}.{}.{wire}", obj.name);
            }
            for f in obj.fields {
                let _ = writeln!(o, "wirecontract.{module}.{}.{}", obj.name, f.rust);
            }
        }
        o.push('\n');
    }
    o
}

/// The stub of a protocol without a hand-curated Python module (`wirecontract.graphmind`,
/// `wirecontract.graphorin` are curated): what the binding exposes for it from the registry
/// alone, `wirecontract.parse_frame("<name>", text)` and the object classes it returns (one per
/// registry object, as `bindings/python/build.rs` declares them). Written to
/// `python/protocols/<name>.pyi`, outside the package (the classes have no module of their own
/// to ship a stub for), for type checking code that handles the protocol's frames.
pub fn generic_stub(p: &Protocol) -> String {
    let mut o = String::new();
    o.push_str("# Generated by scripts/regen from the wirecontract contract crate. Do not edit.\n");
    let _ = writeln!(
        o,
        "\"\"\"Types of the {title} protocol (`{name}`, spec {spec}) as the Python binding exposes them.\n\n\
         `wirecontract.parse_frame({name:?}, text)` returns `(kind, message, object, issues)`: when `kind`\n\
         is \"ok\", `message` is one of `MessageName` and `object` one of the classes below; when it is\n\
         \"invalid\", `message` is the reason (one line) and `issues` lists path and rule; otherwise (a\n\
         verdict such as \"version-mismatch\") `message` is the message type when known, else None.\n\
         `object` is None unless `kind` is \"ok\".\n\
         The protocol has no module of its own in the package yet, so these names are for type\n\
         checking (`if TYPE_CHECKING:`); the classes are the binding's registry-made object classes.\n\"\"\"\n",
        title = p.title,
        name = p.name,
        spec = p.spec
    );
    o.push_str("from collections.abc import Mapping, Sequence\n");
    o.push_str("from typing import Any, Literal, TypeAlias, final\n\n");
    o.push_str("from wirecontract._native import Issue as Issue\nfrom wirecontract.graphmind import WireObject as WireObject\n\n");
    o.push_str("JsonValue: TypeAlias = Any\n\n");
    enum_aliases(&mut o, p);
    let wires: Vec<String> =
        p.messages.iter().map(|m| m.wire).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.wire)).map(|w| format!("{w:?}")).collect();
    let _ = writeln!(o, "MessageName: TypeAlias = Literal[{}]\n", wires.join(", "));
    for obj in p.objects() {
        object_class(&mut o, obj, false);
    }
    let mut roots: Vec<&str> = Vec::new();
    for name in p.messages.iter().map(|m| m.payload.name).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.frame.name)) {
        if !roots.contains(&name) {
            roots.push(name);
        }
    }
    let _ = writeln!(o, "Frame: TypeAlias = {}\n", roots.join(" | "));
    let _ = writeln!(
        o,
        "def parse_frame(protocol: Literal[{:?}], data: str) -> tuple[str, MessageName | str | None, Frame | None, list[Issue]]:\n    \"\"\"`wirecontract.parse_frame` for this protocol: (kind, message, object, issues); see the module doc.\"\"\"",
        p.name
    );
    o
}

#[cfg(test)]
mod tests {
    /// A strict object's constructor takes no unknown members (the runtime reader refuses any),
    /// so its stub allows `extra=None` only; a loose one takes a mapping.
    #[test]
    fn only_loose_objects_take_extra_members() {
        for o in wirecontract::graphorin::PROTOCOL.objects().into_iter().chain(wirecontract::graphmind::PROTOCOL.objects()) {
            let mut out = String::new();
            super::object_class(&mut out, o, false);
            let want = if o.strict { "extra: None = None)" } else { "extra: Mapping[str, JsonValue] | None = None)" };
            assert!(out.contains(want), "{}: {out}", o.name);
        }
    }

    /// The generic stub says what `message` holds for each kind (the reason when invalid).
    #[test]
    fn the_generic_stub_says_what_message_holds() {
        let stub = super::generic_stub(&crate::examples::tests::TINY);
        assert!(stub.contains("\"invalid\", `message` is the reason"), "{stub}");
        assert!(stub.contains("-> tuple[str, MessageName | str | None, Frame | None, list[Issue]]"), "{stub}");
        assert!(super::native_stub().contains("the reason\n    text when `kind` is \"invalid\""));
    }
}
