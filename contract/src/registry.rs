//! The typed registry: what every generator and binding knows about a protocol, produced by
//! the declarations themselves (`wire_object!`, `wire_strict_object!`, `wire_enum!`,
//! `messages!`, `message_union!`) and never written by hand.
//!
//! A [`Protocol`] lists its messages (envelope-keyed payloads, GraphMind) and its unions
//! (discriminated frames, Graphorin), each pointing at the [`ObjectDesc`] of its payload or
//! frame; objects point at the types of their fields ([`Ty`]), so the set of objects and
//! enums of a protocol is found by walking from its messages ([`Protocol::objects`],
//! [`Protocol::enums`]): declaring a type and using it is all it takes to register it.
//! Versions of one protocol are entries sharing a name: [`versions`] lists them, [`protocol`]
//! gives the newest, and [`parse_any_version`] reads a frame with the version it carries.
//!
//! Generators (schema post-processing, `.pyi` stubs, Python classes, uniffi glue, TypeScript,
//! docs, shrink skeleton plans) read these tables; bindings convert host values through the
//! function pointers here ([`ObjectDesc::read_json`]) so no binding restates a type list, and
//! walk the objects they get through [`Reflect`] (each object's entry, [`Described`], and its
//! fields as [`FieldRef`]s; re-exported by `crate::wire`). An entry and the reflection over it
//! name each other, so they live in this one file; the wire traits and value types
//! (`wire/field.rs`, `scalars.rs`, `integers.rs`, `host.rs`) name the entries, and this file
//! names only wire files that name nothing of it (`issue.rs`, `extras.rs`, `schema.rs`).

use std::fmt;

use crate::wire::{Extras, Issue, OpaqueObject};
use wirecontract_json::RawJson;

/// Every protocol of this crate, in a stable order: the list generators and bindings iterate
/// ([`crate::PROTOCOLS`], declared in `lib.rs` beside the protocol modules).
pub fn protocols() -> &'static [&'static Protocol] {
    crate::PROTOCOLS
}

/// The protocol registered under `name` (`"graphmind"`, `"graphorin"`): its newest version
/// when several are declared ([`versions`]).
pub fn protocol(name: &str) -> Option<&'static Protocol> {
    protocols().iter().copied().filter(|p| p.name == name).max_by(|a, b| version_order(a.version.1, b.version.1))
}

/// Why [`protocol`] found nothing, in one line naming the registered protocols: the text the
/// generic entry points of the bindings (`parseFrame`) refuse an unknown name with.
pub fn unknown_protocol(name: &str) -> String {
    let known: Vec<&str> = protocols().iter().map(|p| p.name).collect();
    format!("unknown protocol {name:?}; the registry holds {}", known.join(", "))
}

/// One wire protocol as declared in its module.
#[derive(Debug)]
pub struct Protocol {
    /// Module and registry name (`graphmind`), also the binding module name.
    pub name: &'static str,
    /// Human title (`GraphMind`).
    pub title: &'static str,
    /// Spec document name cited in generated docs (`graphmind-v1`).
    pub spec: &'static str,
    /// The protocol-version member and its value in every frame (`("gm", "1")`, `("v", "1")`).
    /// [`parse_by_key`] refuses a frame without it (`Invalid`) or with another value
    /// (`Other { kind: "version-mismatch" }`, as GraphMind reports `gm`), and
    /// [`schema_by_key`] requires it as a `const` string.
    pub version: (&'static str, &'static str),
    /// The member a flat frame is told apart by (`"op"`), for a protocol read by
    /// [`parse_by_key`] and [`schema_by_key`] (which take it from here), and the member the
    /// generated examples always carry with the message's wire name. `None` for GraphMind
    /// (its envelope's `type`) and Graphorin (its unions).
    pub key: Option<&'static str>,
    /// Whether objects keep unknown members (GraphMind) or reject them (Graphorin).
    pub strict: bool,
    /// Envelope-keyed messages (`type` → payload), in spec order. Empty for frame protocols.
    pub messages: &'static [MessageDesc],
    /// Discriminated frame unions, in spec order. Empty for envelope protocols.
    pub unions: &'static [UnionDesc],
    /// Enums that are catalogues rather than field types (close reasons), so a walk from the
    /// messages would not reach them.
    pub catalog_enums: &'static [&'static EnumDesc],
    /// Parses one frame of this protocol generically: the host-neutral entry point a binding
    /// uses for a protocol it has no hand-written API for.
    pub parse_any: fn(&str) -> AnyOutcome,
    /// The protocol's published JSON Schema (draft 2020-12), built from the declared types'
    /// schemars schemas: what `scripts/gen` writes as `schema/<name>.v<version>.schema.json`
    /// ([`Protocol::schema_string`]). A protocol told apart by one member uses
    /// [`schema_by_key`]; GraphMind and Graphorin compose their own (envelope, unions).
    pub schema: fn() -> serde_json::Value,
}

impl Protocol {
    /// Whether the object of an accepted frame ([`AnyOutcome::Ok`]'s `object`) is its
    /// envelope's payload (GraphMind: messages keyed by the envelope's `type`), not the whole
    /// frame (a protocol told apart by [`Protocol::key`], or by its unions).
    pub fn object_is_payload(&self) -> bool {
        self.key.is_none() && !self.messages.is_empty()
    }

    /// [`Protocol::schema`] as pretty-printed text with a trailing newline (what
    /// `scripts/regen` commits).
    pub fn schema_string(&self) -> String {
        let mut s = serde_json::to_string_pretty(&(self.schema)()).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// [`Protocol::parse_any`] of a frame given as bytes (a WebSocket text frame as read, a line of a
/// file): bytes that are not UTF-8 are `Invalid` with [`not_utf8_reason`], the text every parser
/// of this crate gives them.
pub fn parse_any_bytes(p: &Protocol, frame: &[u8]) -> AnyOutcome {
    match std::str::from_utf8(frame) {
        Ok(text) => (p.parse_any)(text),
        Err(e) => AnyOutcome::Invalid { reason: not_utf8_reason(e.valid_up_to()), issues: Vec::new() },
    }
}

/// Every version the registry declares of the protocol `name` ([`Protocol::name`] shared,
/// [`Protocol::version`] told apart), oldest first.
pub fn versions(name: &str) -> Vec<&'static Protocol> {
    versions_in(protocols(), name)
}

/// [`versions`] over a given list (a test's scratch protocols).
pub fn versions_in(protocols: &[&'static Protocol], name: &str) -> Vec<&'static Protocol> {
    let mut found: Vec<&'static Protocol> = protocols.iter().copied().filter(|p| p.name == name).collect();
    found.sort_by(|a, b| version_order(a.version.1, b.version.1));
    found
}

/// Versions compare as numbers when both are decimal integers (`"2" < "10"`), else as text.
fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// The version a frame carries in its top-level member `member`, as the registry spells
/// versions: a string's text (`"v": "2"` is `2`), an integral number's value (`"gm": 2`,
/// `2.0` and `2e0` are all `2`, as GraphMind reads `gm`), another number's JSON text. `None`
/// when the frame is not JSON or not an object, or the member is absent or of another type
/// (the last occurrence counts, as in `JSON.parse`). One validating pass over the frame.
pub fn frame_version(frame: &str, member: &str) -> Option<String> {
    use wirecontract_json::{decode_string, safe_integer, JsonKind, Val};
    wirecontract_json::validate(frame, wirecontract_json::DEFAULT_MAX_DEPTH).ok()?;
    let root = Val::root(frame);
    let value = root.members().filter(|(k, _)| decode_string(k).text == member).last().map(|(_, v)| v)?;
    match value.kind() {
        JsonKind::String => value.string_raw().map(|raw| decode_string(raw).text.into_owned()),
        JsonKind::Number => Some(value.as_f64().and_then(safe_integer).map_or_else(|| value.raw().to_owned(), |n| n.to_string())),
        _ => None,
    }
}

/// A frame read by [`parse_any_version`]: the declared version that read it, the version it
/// carries, every declared version, and the verdict.
#[derive(Debug)]
pub struct Routed {
    /// The declared version whose [`Protocol::version`] value the frame carries; for a frame
    /// carrying none of them, the newest, whose own parse answers (`version-mismatch` for
    /// another version, `Invalid` for a missing member).
    pub protocol: &'static Protocol,
    /// [`frame_version`] of the frame, read when several versions are declared or the verdict
    /// is `version-mismatch`; `None` otherwise, or when the frame carries no version.
    pub received: Option<String>,
    /// Every version declared under the protocol's name, oldest first.
    pub supported: Vec<&'static str>,
    /// The verdict of [`Routed::protocol`]'s [`Protocol::parse_any`].
    pub outcome: AnyOutcome,
}

impl Routed {
    /// For a `version-mismatch` verdict on a version the registry does not declare under this
    /// name, one line naming both sides (`the frame carries gm 2; graphmind declares 1`);
    /// `None` for any other verdict.
    pub fn mismatch(&self) -> Option<String> {
        if !matches!(self.outcome, AnyOutcome::Other { kind: "version-mismatch", .. }) {
            return None;
        }
        let received = self.received.as_deref()?;
        if self.supported.contains(&received) {
            return None;
        }
        Some(format!("the frame carries {} {received}; {} declares {}", self.protocol.version.0, self.protocol.name, self.supported.join(", ")))
    }
}

/// Parses a frame of any declared version of the protocol `name`, picked by the frame's
/// version member: the router for a process that speaks several versions side by side.
/// `None` when no protocol of that name is declared. With one version declared it is that
/// version's [`Protocol::parse_any`] alone (its own limits first; the version member is read
/// again only for a `version-mismatch`); with several, one validating pass reads the version
/// member before the chosen parse.
pub fn parse_any_version(name: &str, frame: &str) -> Option<Routed> {
    route_version(protocols(), name, frame)
}

/// [`parse_any_version`] over a given list (a test's scratch protocols).
pub fn route_version(protocols: &[&'static Protocol], name: &str, frame: &str) -> Option<Routed> {
    let declared = versions_in(protocols, name);
    let newest = *declared.last()?;
    let member = newest.version.0;
    let received = if declared.len() > 1 { frame_version(frame, member) } else { None };
    let protocol = received.as_deref().and_then(|r| declared.iter().copied().find(|p| p.version.1 == r)).unwrap_or(newest);
    let outcome = (protocol.parse_any)(frame);
    let received = match outcome {
        AnyOutcome::Other { kind: "version-mismatch", .. } if received.is_none() => frame_version(frame, member),
        _ => received,
    };
    let supported = declared.iter().map(|p| p.version.1).collect();
    Some(Routed { protocol, received, supported, outcome })
}

/// Why a frame whose bytes are not UTF-8 is refused, naming the first bad byte's offset.
pub fn not_utf8_reason(valid_up_to: usize) -> String {
    format!("frame is not valid JSON: invalid UTF-8 at byte {valid_up_to}")
}

/// The host-neutral result of [`Protocol::parse_any`].
#[derive(Debug)]
pub enum AnyOutcome {
    /// An accepted frame or payload: which message or union variant (`node.started`,
    /// `rpc-success`), its object, and its envelope JSON when the protocol has envelopes.
    Ok {
        /// The message type or variant wire name.
        message: String,
        /// The frame (union protocols) or payload (envelope protocols); `None` for an unknown
        /// type.
        object: Option<Box<dyn Reflect>>,
    },
    /// Refused, with the protocol's reason and issues.
    Invalid {
        /// One line.
        reason: String,
        /// Path-and-rule issues.
        issues: Vec<Issue>,
    },
    /// Any other protocol-specific verdict (`unknown-type`, `version-mismatch`), by name.
    Other {
        /// The verdict's name.
        kind: &'static str,
        /// The message type when known.
        message: Option<String>,
    },
}

/// Which side sends a message. GraphMind's app is the WebSocket client (events, `hello`), the
/// viewer the server (controls, `hello.ack`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the connecting side to the listening side.
    ClientToServer,
    /// From the listening side to the connecting side.
    ServerToClient,
}

/// The direction groups of GraphMind §1 (and any envelope protocol shaped like it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageGroup {
    /// App → viewer events.
    Event,
    /// Viewer → app controls.
    Control,
    /// The handshake (`hello` app → viewer, `hello.ack` viewer → app).
    Handshake,
}

/// One envelope-keyed message type.
#[derive(Debug)]
pub struct MessageDesc {
    /// The wire `type` (`node.started`).
    pub wire: &'static str,
    /// The Rust variant name of the protocol's `Message` enum (`NodeStarted`).
    pub variant: &'static str,
    /// The payload object.
    pub payload: &'static ObjectDesc,
    /// The group.
    pub group: MessageGroup,
    /// Who sends it.
    pub direction: Direction,
    /// The doc comment.
    pub doc: &'static str,
}

/// A discriminated union of frames (Graphorin's `ServerMessage`, `ClientMessage`).
#[derive(Debug)]
pub struct UnionDesc {
    /// The union's Rust name, the same on every host.
    pub name: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// Who sends it.
    pub direction: Direction,
    /// The enum naming its variants by their stable wire names.
    pub variant_enum: &'static EnumDesc,
    /// The variants in spec order.
    pub variants: &'static [VariantDesc],
    /// Methods returning one field of whichever variant has it (routing keys).
    pub accessors: &'static [AccessorDesc],
}

/// A method on a union that returns one field of the frame when the variant has it
/// (`subscription_id`): `None` for variants without that field.
#[derive(Debug)]
pub struct AccessorDesc {
    /// The Rust method name.
    pub method: &'static str,
    /// The wire name of the field it returns.
    pub wire: &'static str,
    /// Its doc comment.
    pub doc: &'static str,
}

/// One variant of a [`UnionDesc`].
#[derive(Debug)]
pub struct VariantDesc {
    /// Stable wire name (`rpc-success`, `event`, `subscription.subscribe`).
    pub wire: &'static str,
    /// Rust variant name (`RpcSuccess`).
    pub name: &'static str,
    /// The frame type.
    pub frame: &'static ObjectDesc,
    /// Guard method name in Rust (`is_rpc_success`).
    pub guard: &'static str,
    /// Guard name in the reference (TypeScript) API (`isRpcSuccess`), also Kotlin's and Swift's.
    pub guard_js: &'static str,
    /// The doc comment.
    pub doc: &'static str,
}

/// A borrowed view of one field value, for bindings that walk the contract generically
/// (Python attribute access, `to_dict`, the uniffi conversions).
#[derive(Debug)]
pub enum FieldRef<'a> {
    /// A string field (decoded).
    Str(&'a str),
    /// A boolean field.
    Bool(bool),
    /// A nonnegative integer field (`≤ 2^53 − 1`).
    UInt(u64),
    /// A signed integer field (`|x| ≤ 2^53 − 1`).
    Int(i64),
    /// A finite number field.
    Number(f64),
    /// A closed-enum field: its wire string.
    Enum(&'static str),
    /// An opaque field: its raw JSON text.
    Raw(&'a RawJson),
    /// A string-keyed record of opaque values.
    OpaqueObject(&'a OpaqueObject),
    /// A nested contract object.
    Object(&'a dyn Reflect),
    /// An array field.
    List(Vec<FieldRef<'a>>),
}

/// The registry entry of a declared object type (`wire_object!`, `wire_strict_object!`).
pub trait Described {
    /// Name, doc, fields with typed descriptions, literals, strictness, reader.
    const DESC: ObjectDesc;
}

/// Object-safe reflection over a contract object.
pub trait Reflect: fmt::Debug + Send + Sync {
    /// The type's registry entry.
    fn desc(&self) -> &'static ObjectDesc;
    /// A known field by wire name; `None` when absent or not a field of this type.
    fn get(&self, wire: &str) -> Option<FieldRef<'_>>;
    /// Calls `f` on every present known field, in spec order ([`Reflect::fields`] with
    /// [`Reflect::get`], without looking each name up).
    fn visit_fields<'a>(&'a self, f: &mut dyn FnMut(&'static FieldDesc, FieldRef<'a>)) {
        for desc in self.fields() {
            if let Some(r) = self.get(desc.wire) {
                f(desc, r);
            }
        }
    }
    /// The unknown members.
    fn extra(&self) -> &Extras;
    /// Appends the object's JSON, exactly as inside a serialized frame.
    fn write_json(&self, out: &mut Vec<u8>);
    /// The type's name (`NodeStarted`).
    fn type_name(&self) -> &'static str {
        self.desc().name
    }
    /// Known fields in spec order.
    fn fields(&self) -> &'static [FieldDesc] {
        self.desc().fields
    }
    /// Constant members `(wire name, string value)` of a strict frame, in wire order.
    fn literals(&self) -> &'static [(&'static str, &'static str)] {
        self.desc().literals
    }
    /// `true` for a strict object: an unknown member makes it invalid, so [`Reflect::extra`]
    /// is always empty.
    fn is_strict(&self) -> bool {
        self.desc().strict
    }
}

/// How a registry entry reads one object from JSON text: the object, or every issue found.
pub type ReadJson = fn(&str) -> Result<Box<dyn Reflect>, Vec<Issue>>;

/// A contract object (payload, frame or helper).
#[derive(Debug)]
pub struct ObjectDesc {
    /// The type name (`NodeStarted`).
    pub name: &'static str,
    /// The doc comment (lines joined with `\n`, leading spaces kept).
    pub doc: &'static str,
    /// Known fields in spec (and serialization) order.
    pub fields: &'static [FieldDesc],
    /// Constant members `(wire name, value)` of a strict frame (`("v", "1")`), always written,
    /// never stored.
    pub literals: &'static [(&'static str, &'static str)],
    /// Strict: an undeclared key is an issue and nothing unknown is kept.
    pub strict: bool,
    /// Reads one such object from JSON text with the frame reader's rules (issue paths
    /// relative to the object): how bindings accept host values without restating a rule.
    pub read_json: ReadJson,
    /// The type's schemars schema in a generator (a `$ref` to its definition, named
    /// [`ObjectDesc::name`]): how a schema export reaches a type through the registry
    /// ([`schema_by_key`]).
    pub schema: SchemaOf,
}

/// How a registry entry adds its type's JSON Schema to a generator ([`ObjectDesc::schema`]).
pub type SchemaOf = fn(&mut schemars::SchemaGenerator) -> schemars::Schema;

impl ObjectDesc {
    /// A field by wire name.
    pub fn field(&self, wire: &str) -> Option<&'static FieldDesc> {
        self.fields.iter().find(|f| f.wire == wire)
    }
}

/// One declared field.
#[derive(Debug)]
pub struct FieldDesc {
    /// The wire (camelCase) name.
    pub wire: &'static str,
    /// The Rust (snake_case) name, also the Python attribute name.
    pub rust: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// The value type.
    pub ty: Ty,
    /// Required (`T`) or optional (`Option<T>`: may be absent, never `null`).
    pub required: bool,
}

/// A closed string enum.
#[derive(Debug)]
pub struct EnumDesc {
    /// The type name (`NodeKind`).
    pub name: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// The values in spec order.
    pub values: &'static [EnumValueDesc],
    /// The public constant the bindings export with every wire value as a tuple
    /// (`NODE_KINDS`), when the declaration names one (`#[constant = "…"]` in `wire_enum!`);
    /// `None` for enums that only type fields.
    pub constant: Option<&'static str>,
}

impl EnumDesc {
    /// The wire strings in spec order.
    pub fn wire_values(&self) -> impl Iterator<Item = &'static str> {
        self.values.iter().map(|v| v.wire)
    }
}

/// One enum value.
#[derive(Debug)]
pub struct EnumValueDesc {
    /// The wire string (`tool-args`).
    pub wire: &'static str,
    /// The Rust variant name (`ToolArgs`).
    pub rust: &'static str,
    /// The doc comment.
    pub doc: &'static str,
}

/// The type of a field's value, as a typed description (not a spelling).
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// A scalar with its own rule.
    Scalar(Scalar),
    /// A closed enum.
    Enum(&'static EnumDesc),
    /// A nested object.
    Object(&'static ObjectDesc),
    /// An array of values of one type.
    List(&'static Ty),
}

/// The scalar value semantics of the contract, one per rule (see `wire::scalars`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `true`/`false`.
    Bool,
    /// Any string (lone surrogates decoded to U+FFFD).
    String,
    /// A string of at least one UTF-16 code unit.
    NonEmptyString,
    /// A JavaScript safe integer `0 ≤ x ≤ 2^53 − 1`, spelled any way (`1e3`, `1.0`).
    SafeUInt,
    /// A JavaScript safe integer `1 ≤ x ≤ 2^53 − 1`.
    PositiveSafeUInt,
    /// A JavaScript safe integer `|x| ≤ 2^53 − 1`.
    SafeInt,
    /// An exact integer `0 ≤ x ≤ 2^64 − 1` (no 2^53 rounding).
    ExactUInt,
    /// An exact integer in the 64-bit signed range.
    ExactInt,
    /// A finite number.
    Finite,
    /// A finite number `≥ 0`.
    NonNegativeFinite,
    /// Any JSON value, kept as its exact text.
    Opaque,
    /// A JSON object whose member values are opaque.
    OpaqueObject,
    /// A JSON-RPC id: a non-empty string or an exact 64-bit integer, JSON type kept.
    RpcId,
}

impl Scalar {
    /// The rule in a few words, for docs and generated comments.
    pub fn describe(self) -> &'static str {
        match self {
            Scalar::Bool => "boolean",
            Scalar::String => "string",
            Scalar::NonEmptyString => "non-empty string",
            Scalar::SafeUInt => "integer, 0 ≤ x ≤ 2^53 − 1",
            Scalar::PositiveSafeUInt => "integer, 1 ≤ x ≤ 2^53 − 1",
            Scalar::SafeInt => "integer, |x| ≤ 2^53 − 1",
            Scalar::ExactUInt => "integer, 0 ≤ x ≤ 2^64 − 1",
            Scalar::ExactInt => "integer in the 64-bit signed range",
            Scalar::Finite => "finite number",
            Scalar::NonNegativeFinite => "finite number ≥ 0",
            Scalar::Opaque => "any JSON value (kept as its exact text)",
            Scalar::OpaqueObject => "JSON object, values opaque",
            Scalar::RpcId => "request id: a non-empty string or an integer, JSON type kept",
        }
    }

    /// The Rust type that carries this rule in the contract (`NonNegativeF64`).
    pub fn rust_type(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::String => "String",
            Scalar::NonEmptyString => "NonEmptyString",
            Scalar::SafeUInt => "SafeUInt",
            Scalar::PositiveSafeUInt => "PositiveSafeUInt",
            Scalar::SafeInt => "SafeInt",
            Scalar::ExactUInt => "Count",
            Scalar::ExactInt => "RpcErrorCode",
            Scalar::Finite => "f64",
            Scalar::NonNegativeFinite => "NonNegativeF64",
            Scalar::Opaque => "RawJson",
            Scalar::OpaqueObject => "OpaqueObject",
            Scalar::RpcId => "RpcId",
        }
    }
}

impl Ty {
    /// The Rust spelling of the type (`Vec<TokenDelta>`), for generated code and messages.
    pub fn rust(&self) -> String {
        match self {
            Ty::Scalar(s) => s.rust_type().to_owned(),
            Ty::Enum(e) => e.name.to_owned(),
            Ty::Object(o) => o.name.to_owned(),
            Ty::List(t) => format!("Vec<{}>", t.rust()),
        }
    }
}

impl FieldDesc {
    /// The Rust spelling of the field's declared type (`Option<Vec<String>>`).
    pub fn rust_type(&self) -> String {
        if self.required {
            self.ty.rust()
        } else {
            format!("Option<{}>", self.ty.rust())
        }
    }
}

impl Protocol {
    /// Every object reachable from the messages and unions: helper objects first, in the order
    /// a depth-first walk of the messages reaches them, then payloads/frames in message order.
    pub fn objects(&self) -> Vec<&'static ObjectDesc> {
        let roots = self.roots();
        let mut helpers: Vec<&'static ObjectDesc> = Vec::new();
        for root in &roots {
            walk_objects(root, &roots, &mut helpers);
        }
        helpers.extend(roots);
        helpers
    }

    /// Every enum: those reached from the objects' fields (in the order reached), then each
    /// union's variant enum, then [`Protocol::catalog_enums`].
    pub fn enums(&self) -> Vec<&'static EnumDesc> {
        let mut out: Vec<&'static EnumDesc> = Vec::new();
        let mut push = |e: &'static EnumDesc| {
            if !out.iter().any(|x| x.name == e.name) {
                out.push(e);
            }
        };
        for o in self.objects() {
            for f in o.fields {
                if let Some(e) = f.ty.enum_desc() {
                    push(e);
                }
            }
        }
        for u in self.unions {
            push(u.variant_enum);
        }
        for e in self.catalog_enums {
            push(e);
        }
        out
    }

    /// The message type `wire`, if declared.
    pub fn message(&self, wire: &str) -> Option<&'static MessageDesc> {
        self.messages.iter().find(|m| m.wire == wire)
    }

    /// The object named `name`, if reachable.
    pub fn object(&self, name: &str) -> Option<&'static ObjectDesc> {
        self.objects().into_iter().find(|o| o.name == name)
    }

    /// The wire types of one group, in spec order.
    pub fn message_types_in(&self, group: MessageGroup) -> Vec<&'static str> {
        self.messages.iter().filter(|m| m.group == group).map(|m| m.wire).collect()
    }

    /// Payloads and frames: the objects messages and unions point at directly.
    fn roots(&self) -> Vec<&'static ObjectDesc> {
        let mut roots: Vec<&'static ObjectDesc> = Vec::new();
        let mut push = |o: &'static ObjectDesc| {
            if !roots.iter().any(|x| x.name == o.name) {
                roots.push(o);
            }
        };
        self.messages.iter().for_each(|m| push(m.payload));
        self.unions.iter().flat_map(|u| u.variants).for_each(|v| push(v.frame));
        roots
    }
}

impl Ty {
    /// The innermost element type (through lists).
    pub fn element(&self) -> &Ty {
        match self {
            Ty::List(t) => t.element(),
            other => other,
        }
    }

    /// The enum, if the element type is one.
    pub fn enum_desc(&self) -> Option<&'static EnumDesc> {
        match self.element() {
            Ty::Enum(e) => Some(e),
            _ => None,
        }
    }

    /// The object, if the element type is one.
    pub fn object_desc(&self) -> Option<&'static ObjectDesc> {
        match self.element() {
            Ty::Object(o) => Some(o),
            _ => None,
        }
    }
}

/// Depth-first, iterative over an explicit stack (declarations are shallow, but a walk should
/// not depend on that).
fn walk_objects(root: &'static ObjectDesc, roots: &[&'static ObjectDesc], out: &mut Vec<&'static ObjectDesc>) {
    let mut stack: Vec<(&'static ObjectDesc, usize)> = vec![(root, 0)];
    while let Some((obj, i)) = stack.pop() {
        let Some(field) = obj.fields.get(i) else { continue };
        stack.push((obj, i + 1));
        if let Some(child) = field.ty.object_desc() {
            let known = out.iter().chain(roots).any(|x| x.name == child.name);
            if !known {
                out.push(child);
                stack.push((child, 0));
            }
        }
    }
}

/// A generic [`Protocol::parse_any`] for a simple protocol whose frames are flat objects told
/// apart by one string member, [`Protocol::key`] (`"op"`): the frame is JSON-checked; its
/// version member ([`Protocol::version`]) must be the JSON string of the version (absent or not
/// a string: `Invalid` with an issue at the member; another string: `Other { kind:
/// "version-mismatch", message: None }`, checked before the message, as GraphMind checks `gm`
/// before `type`); the key is looked up (last occurrence wins, as in `JSON.parse`), and the
/// whole frame is read as the payload object of the message whose wire name it holds, with that
/// object's own rules (strict or loose). The object carries both members: a strict object
/// declares them as literals (`const "v" = "1"`), a loose one keeps them (declared or unknown).
/// A protocol without a key gets `Invalid` for every frame (a declaration error, never a panic).
pub fn parse_by_key(frame: &str, p: &Protocol) -> AnyOutcome {
    use wirecontract_json::{decode_string, Val};
    let invalid = |reason: String, issues: Vec<Issue>| AnyOutcome::Invalid { reason, issues };
    let Some(key) = p.key else {
        return invalid(format!("protocol {} declares no discriminator (Protocol::key)", p.name), Vec::new());
    };
    if let Err(e) = wirecontract_json::validate(frame, wirecontract_json::DEFAULT_MAX_DEPTH) {
        return invalid(format!("frame is not valid JSON: {e}"), Vec::new());
    }
    let root = Val::root(frame);
    let member = |name: &str| root.members().filter(|(k, _)| decode_string(k).text == name).last().map(|(_, v)| v);
    let (vkey, version) = p.version;
    match member(vkey).map(|v| v.string_raw().map(|raw| decode_string(raw).text.into_owned())) {
        Some(Some(v)) if v == version => {}
        Some(Some(_)) => return AnyOutcome::Other { kind: "version-mismatch", message: None },
        _ => {
            let issue = Issue::at(vkey, format!("expected \"{version}\", the protocol version"));
            return invalid(format!("no \"{vkey}\" protocol version \"{version}\""), vec![issue]);
        }
    }
    let tag = member(key).and_then(|v| v.string_raw());
    let Some(tag) = tag.map(|raw| decode_string(raw).text.into_owned()) else {
        let issue = Issue::at(key, format!("expected string, the discriminator \"{key}\""));
        return invalid(format!("no \"{key}\" discriminator"), vec![issue]);
    };
    let Some(m) = p.messages.iter().find(|m| m.wire == tag) else {
        let issue = Issue::at(key, format!("unknown message \"{tag}\""));
        return invalid(format!("unknown message \"{tag}\""), vec![issue]);
    };
    match (m.payload.read_json)(frame) {
        Ok(object) => AnyOutcome::Ok { message: tag, object: Some(object) },
        Err(issues) => invalid(format!("invalid frame for message \"{tag}\""), issues),
    }
}

/// A generic [`Protocol::schema`] for a protocol read by [`parse_by_key`]: draft 2020-12, a
/// root `oneOf` with one branch per message, each the message's object (`$ref` into `$defs`)
/// with [`Protocol::key`] fixed to the message's wire name and the version member
/// ([`Protocol::version`]) to the version string, both required; strict objects get their
/// literal members as `const` properties. The same post-processing as GraphMind's and Graphorin's exports:
/// optional is not nullable, numbers are finite, enums are plain `enum` lists, keys sorted.
/// `id` is the schema's `$id` (its host names the protocol for the evolution checker).
pub fn schema_by_key(p: &Protocol, id: &str) -> serde_json::Value {
    use crate::wire::schema::{add_literals, finite_numbers, plain_enums, sort_keys, strip_null};
    use serde_json::{json, Map, Value};
    let key = p.key.unwrap_or_default();
    let (vkey, version) = p.version;
    let mut gen = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let refs: Vec<(&str, Value)> = p.messages.iter().map(|m| (m.wire, (m.payload.schema)(&mut gen).to_value())).collect();
    let mut defs: Map<String, Value> = gen.take_definitions(true).into_iter().collect();
    for o in p.objects() {
        if let (false, Some(Value::Object(def))) = (o.literals.is_empty(), defs.get_mut(o.name)) {
            add_literals(def, o.literals);
        }
    }
    let one_of: Vec<Value> = refs
        .into_iter()
        .map(|(wire, reference)| {
            let mut branch = match reference {
                Value::Object(map) => map,
                other => Map::from_iter([("allOf".to_owned(), json!([other]))]),
            };
            let consts = [(key.to_owned(), json!({ "const": wire })), (vkey.to_owned(), json!({ "const": version }))];
            branch.insert("properties".into(), Value::Object(Map::from_iter(consts)));
            branch.insert("required".into(), json!([key, vkey]));
            Value::Object(branch)
        })
        .collect();
    let wires: Vec<&str> = p.messages.iter().map(|m| m.wire).collect();
    let mut root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": id,
        "title": format!("{} wire frame (protocol {} {})", p.title, p.version.0, p.version.1),
        "description": format!(
            "One {} frame (spec {}): a JSON object with \"{vkey}\": \"{version}\", told apart by its \"{key}\" member, one of {}. Optional fields are absent, never null.",
            p.title,
            p.spec,
            wires.join(", ")
        ),
        "oneOf": one_of,
        "$defs": Value::Object(defs),
    });
    strip_null(&mut root);
    finite_numbers(&mut root);
    plain_enums(&mut root);
    sort_keys(root)
}

/// Object and enum names that more than one protocol of `protocols` declares, one line each
/// (`Hello: graphmind, tiny`), in first-seen order; empty when every name is unique. Names must
/// be unique across protocols because bindings generate one host class per name (the Python
/// extension declares one Rust type per object, so two `Hello`s do not compile): the registry
/// test over [`crate::PROTOCOLS`] fails with these lines (ARCHITECTURE.md, "Add a protocol").
pub fn name_collisions(protocols: &[&Protocol]) -> Vec<String> {
    let mut seen: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for p in protocols {
        let names = p.objects().into_iter().map(|o| o.name).chain(p.enums().into_iter().map(|e| e.name));
        for name in names {
            match seen.iter_mut().find(|(n, _)| *n == name) {
                Some((_, owners)) if !owners.contains(&p.name) => owners.push(p.name),
                Some(_) => {}
                None => seen.push((name, vec![p.name])),
            }
        }
    }
    seen.into_iter().filter(|(_, owners)| owners.len() > 1).map(|(name, owners)| format!("{name}: {}", owners.join(", "))).collect()
}

// ---------------------------------------------------------------------------------------------
// Const helpers: public constants users rely on (`EVENT_TYPES`, `KINDS`) are computed from the
// declarations at compile time, so they cannot drift from them.
// ---------------------------------------------------------------------------------------------

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn has_literal(o: &ObjectDesc, key: &str, value: &str) -> bool {
    let mut i = 0;
    while i < o.literals.len() {
        if str_eq(o.literals[i].0, key) && str_eq(o.literals[i].1, value) {
            return true;
        }
        i += 1;
    }
    false
}

/// How many variants of `u` have a frame whose literal `key` equals the variant's wire name.
pub const fn count_variants_with_literal(u: &UnionDesc, key: &str) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < u.variants.len() {
        if has_literal(u.variants[i].frame, key, u.variants[i].wire) {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The wire names counted by [`count_variants_with_literal`], in declaration order.
pub const fn variants_with_literal<const N: usize>(u: &UnionDesc, key: &str) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < u.variants.len() {
        if has_literal(u.variants[i].frame, key, u.variants[i].wire) {
            out[n] = u.variants[i].wire;
            n += 1;
        }
        i += 1;
    }
    out
}

/// How many of `messages` are in `group`.
pub const fn count_in_group(messages: &[MessageDesc], group: MessageGroup) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < messages.len() {
        if messages[i].group as u8 == group as u8 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The wire types of `messages` in `group`, in declaration order.
pub const fn types_in_group<const N: usize>(messages: &[MessageDesc], group: MessageGroup) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < messages.len() {
        if messages[i].group as u8 == group as u8 {
            out[n] = messages[i].wire;
            n += 1;
        }
        i += 1;
    }
    out
}

/// Every wire type of `messages`, in declaration order.
pub const fn all_types<const N: usize>(messages: &[MessageDesc]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = messages[i].wire;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    //! [`parse_by_key`] and [`schema_by_key`] over a scratch protocol declared here as an
    //! author would (`tiny`: one strict and one loose message told apart by `cmd`).
    use super::{parse_by_key, schema_by_key, AnyOutcome, Direction, MessageDesc, MessageGroup, Protocol};
    use crate::wire::Described;

    wire_strict_object! {
        /// `ping`: strict.
        pub struct TinyPing {
            const "v" = "1",
            const "cmd" = "ping",
            /// Echoed.
            nonce: String = "nonce",
        }
    }

    wire_object! {
        /// `say`: loose, its `cmd` and `v` kept as unknown members.
        pub struct TinySay {
            /// The text.
            text: String = "text",
        }
    }

    static TINY: Protocol = Protocol {
        name: "tiny",
        title: "Tiny",
        spec: "tiny-v1",
        messages: &[
            MessageDesc {
                wire: "ping",
                variant: "Ping",
                payload: &<TinyPing as Described>::DESC,
                group: MessageGroup::Control,
                direction: Direction::ClientToServer,
                doc: "",
            },
            MessageDesc {
                wire: "say",
                variant: "Say",
                payload: &<TinySay as Described>::DESC,
                group: MessageGroup::Event,
                direction: Direction::ClientToServer,
                doc: "",
            },
        ],
        parse_any: |frame| parse_by_key(frame, &TINY),
        schema: || schema_by_key(&TINY, "https://tiny.example/frame.schema.json"),
        ..TINY_FIELDS
    };

    fn ok(frame: &str) -> Option<String> {
        match (TINY.parse_any)(frame) {
            AnyOutcome::Ok { message, .. } => Some(message),
            _ => None,
        }
    }

    #[test]
    fn frames_with_the_version_member_parse() {
        assert_eq!(ok(r#"{"v":"1","cmd":"say","text":"t"}"#).as_deref(), Some("say"));
        assert_eq!(ok(r#"{"v":"1","cmd":"ping","nonce":"n"}"#).as_deref(), Some("ping"));
    }

    /// `Protocol::version` is in every frame: absent (or not the version string) is invalid
    /// at the member, another value a version mismatch, as GraphMind reports `gm`.
    #[test]
    fn the_version_member_is_enforced() {
        for frame in [r#"{"cmd":"say","text":"t"}"#, r#"{"v":1,"cmd":"say","text":"t"}"#, r#"{"cmd":"ping","nonce":"n"}"#] {
            match (TINY.parse_any)(frame) {
                AnyOutcome::Invalid { reason, issues } => {
                    assert!(reason.contains("\"v\""), "{frame}: {reason}");
                    assert_eq!(issues.len(), 1, "{frame}");
                    assert_eq!(issues[0].path.to_string(), "v", "{frame}");
                }
                other => panic!("{frame}: {other:?}"),
            }
        }
        for frame in [r#"{"v":"9","cmd":"say","text":"t"}"#, r#"{"v":"1","cmd":"say","text":"t","v":"2"}"#] {
            assert!(matches!((TINY.parse_any)(frame), AnyOutcome::Other { kind: "version-mismatch", message: None }), "{frame}");
        }
    }

    /// The schema requires the version member as a `const` in every branch, beside the key.
    #[test]
    fn the_schema_requires_the_version_member() {
        let schema = (TINY.schema)();
        let branches = schema["oneOf"].as_array().expect("oneOf");
        assert_eq!(branches.len(), 2);
        for (b, wire) in branches.iter().zip(["ping", "say"]) {
            assert_eq!(b["properties"]["v"], serde_json::json!({ "const": "1" }), "{b}");
            assert_eq!(b["properties"]["cmd"], serde_json::json!({ "const": wire }), "{b}");
            assert_eq!(b["required"], serde_json::json!(["cmd", "v"]), "{b}");
        }
    }

    mod clash {
        wire_object! {
            /// A payload named like GraphMind's `Hello`.
            pub struct Hello {
                /// The text.
                text: String = "text",
            }
        }
    }

    static CLASH: Protocol = Protocol {
        name: "clash",
        title: "Clash",
        spec: "clash-v1",
        messages: &[MessageDesc {
            wire: "hello",
            variant: "Hello",
            payload: &<clash::Hello as Described>::DESC,
            group: MessageGroup::Event,
            direction: Direction::ClientToServer,
            doc: "",
        }],
        parse_any: |frame| parse_by_key(frame, &CLASH),
        schema: || schema_by_key(&CLASH, "https://clash.example/frame.schema.json"),
        ..TINY_FIELDS
    };

    /// The fields `TINY` and `CLASH` share (a struct-update base; each sets its own names,
    /// messages and functions).
    const TINY_FIELDS: Protocol = Protocol {
        name: "",
        title: "",
        spec: "",
        version: ("v", "1"),
        key: Some("cmd"),
        strict: false,
        messages: &[],
        unions: &[],
        catalog_enums: &[],
        parse_any: |_| AnyOutcome::Other { kind: "none", message: None },
        schema: || serde_json::Value::Null,
    };

    wire_object! {
        /// `say` of tiny v2: its `text` renamed `words`.
        pub struct TinySay2 {
            /// The text.
            words: String = "words",
        }
    }

    /// Tiny v2 beside v1: same name, `"v": "2"`, `ping` removed and `say`'s field renamed.
    static TINY2: Protocol = Protocol {
        name: "tiny",
        title: "Tiny",
        spec: "tiny-v2",
        version: ("v", "2"),
        messages: &[MessageDesc {
            wire: "say",
            variant: "Say",
            payload: &<TinySay2 as Described>::DESC,
            group: MessageGroup::Event,
            direction: Direction::ClientToServer,
            doc: "",
        }],
        parse_any: |frame| parse_by_key(frame, &TINY2),
        schema: || schema_by_key(&TINY2, "https://tiny.example/v2/frame.schema.json"),
        ..TINY_FIELDS
    };

    /// Two versions declared side by side: each is listed oldest first, the router reads each
    /// frame with the version it carries, and a version neither declares is named with both.
    #[test]
    fn versions_side_by_side_are_routed_by_the_version_member() {
        use super::{route_version, versions_in};
        let both: &[&'static Protocol] = &[&TINY2, &CLASH, &TINY];
        let names: Vec<&str> = versions_in(both, "tiny").iter().map(|p| p.spec).collect();
        assert_eq!(names, ["tiny-v1", "tiny-v2"]);
        let route = |frame: &str| route_version(both, "tiny", frame).expect("tiny is declared");

        let v1 = route(r#"{"v":"1","cmd":"say","text":"t"}"#);
        assert_eq!((v1.protocol.spec, v1.received.as_deref(), v1.mismatch()), ("tiny-v1", Some("1"), None));
        assert!(matches!(v1.outcome, AnyOutcome::Ok { ref message, .. } if message == "say"));
        let v2 = route(r#"{"v":"2","cmd":"say","words":"t"}"#);
        assert_eq!((v2.protocol.spec, v2.received.as_deref()), ("tiny-v2", Some("2")));
        assert!(matches!(v2.outcome, AnyOutcome::Ok { ref message, .. } if message == "say"));
        // Each version's own rules: v2 has no `ping`, and v1's `say` needs `text`.
        assert!(matches!(route(r#"{"v":"2","cmd":"ping","nonce":"n"}"#).outcome, AnyOutcome::Invalid { .. }));
        assert!(matches!(route(r#"{"v":"1","cmd":"say","words":"t"}"#).outcome, AnyOutcome::Invalid { .. }));

        // A frame of one version given to the other's parser is a version mismatch.
        assert!(matches!((TINY.parse_any)(r#"{"v":"2","cmd":"say","words":"t"}"#), AnyOutcome::Other { kind: "version-mismatch", .. }));
        assert!(matches!((TINY2.parse_any)(r#"{"v":"1","cmd":"say","text":"t"}"#), AnyOutcome::Other { kind: "version-mismatch", .. }));

        // A version neither declares: the newest answers, and the mismatch names both sides.
        let v3 = route(r#"{"v":"3","cmd":"say","words":"t"}"#);
        assert_eq!(v3.protocol.spec, "tiny-v2");
        assert!(matches!(v3.outcome, AnyOutcome::Other { kind: "version-mismatch", .. }));
        assert_eq!(v3.mismatch().as_deref(), Some("the frame carries v 3; tiny declares 1, 2"));
        // No version member, or not JSON: the newest's own verdict, nothing received.
        for frame in [r#"{"cmd":"say","words":"t"}"#, "{", "[1]"] {
            let r = route(frame);
            assert_eq!((r.protocol.spec, r.received.as_deref(), r.mismatch()), ("tiny-v2", None, None), "{frame}");
            assert!(matches!(r.outcome, AnyOutcome::Invalid { .. }), "{frame}");
        }
        assert!(route_version(both, "nope", "{}").is_none());
    }

    /// The router over the crate's protocols: one version each, so it answers exactly as the
    /// protocol's own parse, and names both versions for another `gm`.
    #[test]
    fn the_router_over_the_registry_matches_each_protocol() {
        use super::parse_any_version;
        let ok = r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"step"}}"#;
        let r = parse_any_version("graphmind", ok).expect("graphmind");
        assert_eq!((r.protocol.name, r.supported.as_slice(), r.mismatch()), ("graphmind", &["1"][..], None));
        assert!(matches!(r.outcome, AnyOutcome::Ok { ref message, .. } if message == "mode.set"));
        // `gm` as GraphMind reads it: 1.0 is 1.
        let r = parse_any_version("graphmind", &ok.replace("\"gm\":1", "\"gm\":1.0")).expect("graphmind");
        assert!(matches!(r.outcome, AnyOutcome::Ok { .. }), "{:?}", r.outcome);
        let r = parse_any_version("graphmind", &ok.replace("\"gm\":1", "\"gm\":1.5")).expect("graphmind");
        assert!(matches!(r.outcome, AnyOutcome::Invalid { .. }) && r.mismatch().is_none(), "{:?}", r.outcome);
        for (gm, received) in [("2", "2"), ("2e0", "2"), ("2.0", "2")] {
            let r = parse_any_version("graphmind", &ok.replace("\"gm\":1", &format!("\"gm\":{gm}"))).expect("graphmind");
            assert!(matches!(r.outcome, AnyOutcome::Other { kind: "version-mismatch", .. }), "{gm}: {:?}", r.outcome);
            assert_eq!(r.mismatch(), Some(format!("the frame carries gm {received}; graphmind declares 1")), "{gm}");
        }
        // Every name reads its newest version, and no (name, version) pair is declared twice.
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for p in crate::PROTOCOLS {
            assert!(!pairs.contains(&(p.name, p.version.1)), "{} v{} is declared twice", p.name, p.version.1);
            pairs.push((p.name, p.version.1));
            let newest = *super::versions(p.name).last().expect("registered");
            assert!(std::ptr::eq(super::protocol(p.name).expect("registered"), newest), "{}", p.name);
        }
    }

    /// Object and enum names are unique across the registered protocols (the Python
    /// extension declares one type per name), and a clash is named with its protocols.
    #[test]
    fn object_and_enum_names_are_unique_across_protocols() {
        let clashes = super::name_collisions(crate::PROTOCOLS);
        assert!(clashes.is_empty(), "object/enum names declared by more than one protocol (rename one; ARCHITECTURE.md, \"Add a protocol\"): {clashes:?}");
        assert_eq!(super::name_collisions(&[&crate::graphmind::PROTOCOL, &TINY]), Vec::<String>::new());
        assert_eq!(super::name_collisions(&[&crate::graphmind::PROTOCOL, &CLASH]), vec!["Hello: graphmind, clash".to_owned()]);
    }
}
