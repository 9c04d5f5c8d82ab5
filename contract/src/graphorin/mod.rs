//! The Graphorin protocol v1 (`v: "1"`): strict JSON-RPC-style frames over a WebSocket, the
//! second contract of this crate and the opposite versioning policy to GraphMind's (a strict
//! envelope, no negotiation).
//!
//! Spec: `spec/graphorin-v1.md`; §14 holds the decisions this module implements:
//!
//! - verdicts follow the reference (`@graphorin/protocol` 0.15, zod 3 over `JSON.parse`) on
//!   every vector: `1.0`/`1e3`/`-0` are integers, the last duplicate key wins, lone-surrogate
//!   escapes are accepted, using the one JSON reader ([`wirecontract_json`]);
//! - every object is strict and nothing is lenient: an undeclared key, a `v` other than the
//!   string `"1"` or a `jsonrpc` other than `"2.0"` make the frame invalid;
//! - extension points (`result`, `payload`, `data`, `capabilities` values) are kept as raw JSON
//!   text ([`RawJson`]); absent and `null` stay distinct; an `event` without `payload` is
//!   accepted, as the reference accepts it;
//! - [`RpcId`] keeps its JSON type; a rejected frame's [`ParseError`] carries coded issues and
//!   the best-effort raw `id`.
//!
//! Files: `types.rs` (the strict frames and scalars), this file (the `message_union!` rows,
//! parse, serialize), `catalog.rs` (close codes, `CLOSE_CODE_VALUES`, subprotocol helpers),
//! `schema.rs` (the direction unions of the protocol's JSON Schema).
//!
//! ```
//! use wirecontract::graphorin::{parse_server_message, serialize_server_message, ServerMessage, RpcId};
//! let frame = r#"{"v":"1","jsonrpc":"2.0","id":"req-1","result":{"ok":true}}"#;
//! let msg = parse_server_message(frame).unwrap();
//! assert!(msg.is_rpc_success());
//! assert_eq!(msg.rpc_id(), Some(&RpcId::try_from("req-1").unwrap()));
//! assert_eq!(serialize_server_message(&msg), frame);
//!
//! let err = parse_server_message(r#"{"v":"1","kind":"pong","surprise":true}"#).unwrap_err();
//! assert_eq!(err.issues()[0].code.map(|c| c.as_str()), Some("unrecognized_keys"));
//! assert_eq!(err.issues()[0].path.pointer(), "/surprise");
//! ```

mod catalog;
mod schema;
mod types;

use std::fmt;

use serde::{Serialize, Serializer};

pub use catalog::*;
pub use schema::{export_json_schema, export_json_schema_string, CLIENT_MESSAGE_POINTER, SCHEMA_ID, SERVER_MESSAGE_POINTER};
pub use types::*;

use crate::core::{describe_received, Ctx, Path, Reflect, WireValue};
pub use crate::core::{Issue, IssueCode, PathSegment, Record};
use wirecontract_json::{self as json, decode_string, JsonKind, Val};
pub use wirecontract_json::{RawJson, SharedText};

/// The `jsonrpc` literal of RPC responses and of every client message (§3.1, §4). The `v`
/// literal of every frame is [`PROTOCOL_VERSION`].
pub const JSONRPC_VERSION: &str = "2.0";

/// Default cap on nesting depth inside a frame. `JSON.parse` has no fixed cap; this is the
/// crate-wide one ([`json::DEFAULT_MAX_DEPTH`]); a deeper frame is a [`ParseError::Json`].
pub const DEFAULT_MAX_DEPTH: usize = json::DEFAULT_MAX_DEPTH;

/// Declares a message union, its variant enum and its guard table from one list.
macro_rules! message_union {
    (
        $(#[doc = $doc:literal])*
        $(#[constant = $constant:literal])?
        pub enum $name:ident / $vname:ident / $guards:ident, $dir:ident, $acc:ident {
            $( $(#[doc = $m:literal])* $variant:ident($ty:ident) = $wire:literal, $guard:ident, $js:literal; )+
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            $( $(#[doc = $m])* $variant($ty), )+
        }

        wire_enum! {
            #[doc = concat!("Which variant a [`", stringify!($name), "`] is, named by its stable wire name (`kind` / `method` literal, or `rpc-success` / `rpc-failure`); shared by every binding (§13).")]
            $(#[constant = $constant])?
            pub enum $vname {
                $( $(#[doc = $m])* $variant = $wire, )+
            }
        }

        impl $name {
            /// The registry entry of this union: variants, frames, guards, direction.
            pub const DESC: crate::registry::UnionDesc = crate::registry::UnionDesc {
                name: stringify!($name),
                doc: concat!($($doc, "\n",)* ""),
                direction: crate::registry::Direction::$dir,
                variant_enum: &$vname::DESC,
                accessors: $acc,
                variants: &[$( crate::registry::VariantDesc {
                    wire: $wire,
                    name: stringify!($variant),
                    frame: &<$ty as crate::core::Described>::DESC,
                    guard: stringify!($guard),
                    guard_js: $js,
                    doc: concat!($($m, "\n",)* ""),
                } ),+],
            };
        }

        #[doc = concat!("One guard per [`", stringify!($name), "`] variant, as data: `(variant, Rust method name, reference (TypeScript) name, predicate)`. Exactly one is true for any message (§3.3, §4).")]
        pub const $guards: &[($vname, &str, &str, fn(&$name) -> bool)] = &[
            $( ($vname::$variant, stringify!($guard), $js, $name::$guard), )+
        ];

        impl $name {
            /// The variant, by wire name.
            pub fn variant(&self) -> $vname {
                match self {
                    $( $name::$variant(_) => $vname::$variant, )+
                }
            }

            /// The frame as a reflected object (fields, literals), for generic walking.
            pub fn as_reflect(&self) -> &dyn Reflect {
                match self {
                    $( $name::$variant(m) => m, )+
                }
            }

            /// The frame as an owned reflected object.
            pub fn into_reflect(self) -> Box<dyn Reflect> {
                match self {
                    $( $name::$variant(m) => Box::new(m), )+
                }
            }

            $(
                #[doc = concat!("Guard `", $js, "`: `true` only for [`", stringify!($name), "::", stringify!($variant), "`].")]
                pub fn $guard(&self) -> bool {
                    matches!(self, $name::$variant(_))
                }
            )+

            fn read_variant(variant: $vname, ctx: &mut Ctx, v: Val<'_>) -> Option<Self> {
                match variant {
                    $( $vname::$variant => <$ty as WireValue>::read(ctx, v, &Path::Root).map($name::$variant), )+
                }
            }

            fn write(&self, out: &mut Vec<u8>) {
                match self {
                    $( $name::$variant(m) => m.write(out), )+
                }
            }

            pub(crate) fn each_schema(gen: &mut schemars::SchemaGenerator) -> Vec<schema::FrameSchema> {
                vec![$( (stringify!($ty), gen.subschema_for::<$ty>(), <$ty as crate::core::Described>::DESC.literals), )+]
            }
        }

        $(
            impl From<$ty> for $name {
                fn from(m: $ty) -> Self {
                    $name::$variant(m)
                }
            }
        )+

        impl Serialize for $name {
            /// The wire form (literals included), like the matching `serialize_*` function.
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( $name::$variant(m) => m.serialize(s), )+
                }
            }
        }
    };
}

/// Routing accessors of [`ServerMessage`] (`subscription_id()`, `rpc_id()`), for bindings.
pub const SERVER_ACCESSORS: &[crate::registry::AccessorDesc] = &[
    crate::registry::AccessorDesc {
        method: "subscription_id",
        wire: "subscriptionId",
        doc: "The subscription the frame is routed by (spec §8.3): set on `subscribed`, `unsubscribed`, `event`, `lifecycle`, `replay-marker` and an `error` frame that names one; `null`/`nil` otherwise.",
    },
    crate::registry::AccessorDesc { method: "rpc_id", wire: "id", doc: "The id of an RPC response (its JSON type kept); `null`/`nil` for kinded frames." },
];

/// Routing accessors of [`ClientMessage`] (`id()`), for bindings.
pub const CLIENT_ACCESSORS: &[crate::registry::AccessorDesc] = &[crate::registry::AccessorDesc {
    method: "id",
    wire: "id",
    doc: "The request id (its JSON type kept); `null`/`nil` for `notifications/cancelled`, which has none.",
}];

message_union! {
    /// Every frame a server sends (§3, `ServerMessageSchema`): the RPC family (success, failure)
    /// or a kinded frame. Closed: nothing else parses.
    #[constant = "SERVER_VARIANTS"]
    pub enum ServerMessage / ServerVariant / SERVER_GUARDS, ServerToClient, SERVER_ACCESSORS {
        /// `rpc-success`
        RpcSuccess(ServerRpcSuccess) = "rpc-success", is_rpc_success, "isRpcSuccess";
        /// `rpc-failure`
        RpcFailure(ServerRpcFailure) = "rpc-failure", is_rpc_failure, "isRpcFailure";
        /// `kind: "subscribed"`
        Subscribed(ServerSubscribedFrame) = "subscribed", is_subscribed_frame, "isSubscribedFrame";
        /// `kind: "unsubscribed"`
        Unsubscribed(ServerUnsubscribedFrame) = "unsubscribed", is_unsubscribed_frame, "isUnsubscribedFrame";
        /// `kind: "event"`
        Event(ServerEventFrame) = "event", is_event_frame, "isEventFrame";
        /// `kind: "lifecycle"`
        Lifecycle(ServerLifecycleFrame) = "lifecycle", is_lifecycle_frame, "isLifecycleFrame";
        /// `kind: "error"`
        ErrorFrame(ServerErrorFrame) = "error", is_error_frame, "isErrorFrame";
        /// `kind: "pong"`
        Pong(ServerPongFrame) = "pong", is_pong_frame, "isPongFrame";
        /// `kind: "replay-marker"`
        ReplayMarker(ServerReplayMarkerFrame) = "replay-marker", is_replay_marker_frame, "isReplayMarkerFrame";
    }
}

message_union! {
    /// Every message a client sends (§4, `ClientMessageSchema`, discriminated on `method`):
    /// five requests and one notification. Closed and case-sensitive.
    #[constant = "CLIENT_VARIANTS"]
    pub enum ClientMessage / ClientVariant / CLIENT_GUARDS, ClientToServer, CLIENT_ACCESSORS {
        /// `method: "initialize"`
        Initialize(ClientInitializeRequest) = "initialize", is_initialize_request, "isInitializeRequest";
        /// `method: "subscription.subscribe"`
        Subscribe(ClientSubscribeRequest) = "subscription.subscribe", is_subscribe_request, "isSubscribeRequest";
        /// `method: "subscription.unsubscribe"`
        Unsubscribe(ClientUnsubscribeRequest) = "subscription.unsubscribe", is_unsubscribe_request, "isUnsubscribeRequest";
        /// `method: "run.cancel"`
        RunCancel(ClientRunCancelRequest) = "run.cancel", is_run_cancel_request, "isRunCancelRequest";
        /// `method: "ping"`
        Ping(ClientPingRequest) = "ping", is_ping_request, "isPingRequest";
        /// `method: "notifications/cancelled"` (no `id`)
        CancelledNotification(ClientCancelledNotification) = "notifications/cancelled", is_cancelled_notification, "isCancelledNotification";
    }
}

/// The Graphorin v1 registry entry: both frame unions and the close-reason catalogue.
pub static PROTOCOL: crate::registry::Protocol = crate::registry::Protocol {
    name: "graphorin",
    title: "Graphorin",
    spec: "graphorin-v1",
    version: ("v", PROTOCOL_VERSION),
    key: None,
    strict: true,
    messages: &[],
    unions: &[ServerMessage::DESC, ClientMessage::DESC],
    catalog_enums: &[&crate::core::IssueCode::DESC, &CloseReason::DESC, &ClientErrorKind::DESC],
    parse_any,
    schema: export_json_schema,
};

/// [`crate::registry::Protocol::parse_any`]: a server frame, else a client frame.
fn parse_any(frame: &str) -> crate::registry::AnyOutcome {
    use crate::registry::AnyOutcome;
    match (parse_server_message(frame), parse_client_message(frame)) {
        (Ok(m), _) => AnyOutcome::Ok { message: m.variant().as_str().to_owned(), object: Some(m.into_reflect()) },
        (_, Ok(m)) => AnyOutcome::Ok { message: m.variant().as_str().to_owned(), object: Some(m.into_reflect()) },
        (Err(e), Err(_)) => AnyOutcome::Invalid { reason: e.to_string(), issues: e.issues().to_vec() },
    }
}

/// The 7 `kind` literals of the kinded server frames, in spec order (§3.2): the server
/// variants whose frame declares a `kind` literal.
pub const KINDS: &[&str] =
    &crate::registry::variants_with_literal::<{ crate::registry::count_variants_with_literal(&ServerMessage::DESC, "kind") }>(&ServerMessage::DESC, "kind");

/// The 6 `method` literals, in spec order (§4).
pub const METHODS: &[&str] = ClientVariant::VALUES;

/// The 5 lifecycle statuses (§3.2).
pub const LIFECYCLE_STATUSES: &[&str] = LifecycleStatus::VALUES;

impl ServerMessage {
    /// The subscription a frame is routed by (§8.3): required on `subscribed`,
    /// `unsubscribed`, `event`, `lifecycle` and `replay-marker`, optional on `error`, `None` on
    /// RPC responses and `pong`.
    pub fn subscription_id(&self) -> Option<&str> {
        match self {
            ServerMessage::Subscribed(f) => Some(&f.subscription_id),
            ServerMessage::Unsubscribed(f) => Some(&f.subscription_id),
            ServerMessage::Event(f) => Some(&f.subscription_id),
            ServerMessage::Lifecycle(f) => Some(&f.subscription_id),
            ServerMessage::ReplayMarker(f) => Some(&f.subscription_id),
            ServerMessage::ErrorFrame(f) => f.subscription_id.as_deref(),
            ServerMessage::RpcSuccess(_) | ServerMessage::RpcFailure(_) | ServerMessage::Pong(_) => None,
        }
    }

    /// The id of an RPC response; `None` for kinded frames.
    pub fn rpc_id(&self) -> Option<&RpcId> {
        match self {
            ServerMessage::RpcSuccess(f) => Some(&f.id),
            ServerMessage::RpcFailure(f) => Some(&f.id),
            _ => None,
        }
    }

    /// The `kind` literal of a kinded frame; `None` for RPC responses.
    pub fn kind(&self) -> Option<&'static str> {
        match self {
            ServerMessage::RpcSuccess(_) | ServerMessage::RpcFailure(_) => None,
            other => Some(other.variant().as_str()),
        }
    }
}

impl ClientMessage {
    /// The request id; `None` for `notifications/cancelled`, which has none.
    pub fn id(&self) -> Option<&RpcId> {
        match self {
            ClientMessage::Initialize(m) => Some(&m.id),
            ClientMessage::Subscribe(m) => Some(&m.id),
            ClientMessage::Unsubscribe(m) => Some(&m.id),
            ClientMessage::RunCancel(m) => Some(&m.id),
            ClientMessage::Ping(m) => Some(&m.id),
            ClientMessage::CancelledNotification(_) => None,
        }
    }

    /// The `method` literal.
    pub fn method(&self) -> &'static str {
        self.variant().as_str()
    }
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a frame did not parse (§13): not JSON at all, or JSON that is not a frame of the
/// expected direction. The two map to different server replies (§5, §8.1): -32700 with id `0`,
/// and -32600 echoing the id, both followed by close 4008.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// Not one JSON text as `JSON.parse` reads it (RFC 8259, no BOM), invalid UTF-8 (a
    /// binary WebSocket message reads as the empty string, which fails here too), or nested
    /// deeper than [`DEFAULT_MAX_DEPTH`].
    Json {
        /// What was wrong.
        reason: String,
        /// Byte offset into the frame where reading stopped.
        offset: usize,
    },
    /// Valid JSON, but not a legal frame.
    Schema {
        /// Every issue found (at least one), in frame order.
        issues: Vec<Issue>,
        /// The frame's `id` member as raw JSON (any type, invalid ones included: `""`, `1.5`,
        /// `{}`) when the top level is an object that has one (last occurrence); else `None`.
        id: Option<RawJson>,
    },
}

impl ParseError {
    /// `true` when the frame was not JSON at all ([`ParseError::Json`]: a syntax failure,
    /// answered with `PARSE_ERROR`); `false` when it was JSON but not a legal frame.
    pub fn is_syntax_error(&self) -> bool {
        matches!(self, ParseError::Json { .. })
    }

    /// The old name of [`ParseError::is_syntax_error`]: `true` for a JSON *syntax failure*
    /// (the name read as "the frame is JSON", the opposite).
    #[deprecated(note = "reads backwards: use is_syntax_error (true when the frame is not JSON)")]
    pub fn is_json(&self) -> bool {
        self.is_syntax_error()
    }

    /// The issues; empty for a JSON syntax failure.
    pub fn issues(&self) -> &[Issue] {
        match self {
            ParseError::Json { .. } => &[],
            ParseError::Schema { issues, .. } => issues,
        }
    }

    /// The best-effort raw `id`, keeping its JSON type (see [`ParseError::Schema`]).
    pub fn raw_id(&self) -> Option<&RawJson> {
        match self {
            ParseError::Json { .. } => None,
            ParseError::Schema { id, .. } => id.as_ref(),
        }
    }

    /// The id a server's error reply should carry: the raw id when it is a valid [`RpcId`],
    /// else `0` (§3.1, §8.1). Unlike the reference server, an invalid id (`""`, `1.5`) is not
    /// echoed, so the reply is always a legal frame.
    pub fn reply_id(&self) -> RpcId {
        self.raw_id().and_then(RpcId::from_raw).unwrap_or(RpcId::Int(0))
    }

    /// The RPC error code a server answers with (§5): `PARSE_ERROR` for a JSON failure,
    /// `INVALID_REQUEST` for a schema failure.
    pub fn rpc_error_code(&self) -> RpcErrorCode {
        if self.is_syntax_error() {
            RpcErrorCode::ParseError
        } else {
            RpcErrorCode::InvalidRequest
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Json { reason, offset } => write!(f, "frame is not valid JSON: {reason} at byte {offset}"),
            ParseError::Schema { issues, .. } => {
                f.write_str("invalid frame")?;
                for (i, issue) in issues.iter().enumerate() {
                    f.write_str(if i == 0 { ": " } else { "; " })?;
                    write!(f, "{issue}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ParseError {}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

fn syntax(frame: &str) -> Result<Val<'_>, ParseError> {
    match json::validate(frame, DEFAULT_MAX_DEPTH) {
        Ok(()) => Ok(Val::root(frame)),
        Err(e) => Err(ParseError::Json { reason: e.message, offset: e.offset }),
    }
}

fn utf8(frame: &[u8]) -> Result<&str, ParseError> {
    // SIMD validation first; std's check runs only on failure, for the offset.
    simdutf8::basic::from_utf8(frame)
        .or_else(|_| std::str::from_utf8(frame))
        .map_err(|e| ParseError::Json { reason: "invalid UTF-8".into(), offset: e.valid_up_to() })
}

fn schema_error(ctx: Ctx, id: Option<RawJson>) -> ParseError {
    ParseError::Schema { issues: ctx.issues, id }
}

/// The last value of each of `keys` among an object's members (`JSON.parse`: last wins).
fn last_members<'s, const N: usize>(root: Val<'s>, keys: [&str; N]) -> [Option<Val<'s>>; N] {
    let mut found = [None; N];
    for (key, val) in root.members() {
        let decoded = decode_string(key).text;
        if let Some(i) = keys.iter().position(|k| *k == decoded) {
            found[i] = Some(val);
        }
    }
    found
}

/// Reads a top-level frame after checking it is an object: `pick` gets the last values of
/// `id, jsonrpc, kind, result, error, method` and reads the variant; the error carries the raw
/// id.
/// Opaque values are spans of `shared` (the frame's text) when it is given.
fn read_frame<'s, M>(root: Val<'s>, shared: Option<&SharedText>, pick: impl FnOnce(&mut Ctx, [Option<Val<'s>>; 6]) -> Option<M>) -> Result<M, ParseError> {
    let mut ctx = Ctx::with_codes();
    ctx.shared = shared.cloned();
    if root.kind() != JsonKind::Object {
        ctx.expected::<()>(&Path::Root, "object", Some(root));
        return Err(schema_error(ctx, None));
    }
    let found = last_members(root, ["id", "jsonrpc", "kind", "result", "error", "method"]);
    let id = found[0].map(|v| ctx.raw(v));
    match pick(&mut ctx, found) {
        Some(m) if ctx.issues.is_empty() => Ok(m),
        _ => Err(schema_error(ctx, id)),
    }
}

/// Server side of [`parse_server_message`] on validated text.
///
/// Routing (the reference's union, made deterministic so issues are precise): a frame with a
/// `jsonrpc` key, or with neither `jsonrpc` nor `kind` but an `id`, `result` or `error` key, is
/// read as an RPC response (as a failure when it has `error` and no `result`, else as a
/// success: a frame with both then reports `error` as unrecognized, one with neither reports
/// `result` as required); any other frame is read by its `kind`.
fn parse_server_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<ServerMessage, ParseError> {
    read_frame(root, shared, |ctx, [id, jsonrpc, kind, result, error, _]| {
        let rpc = jsonrpc.is_some() || (kind.is_none() && (id.is_some() || result.is_some() || error.is_some()));
        let variant = if rpc {
            if error.is_some() && result.is_none() {
                ServerVariant::RpcFailure
            } else {
                ServerVariant::RpcSuccess
            }
        } else {
            discriminator(ctx, kind, "kind", KINDS, ServerVariant::from_wire)?
        };
        ServerMessage::read_variant(variant, ctx, root)
    })
}

/// Checks a union discriminator (`kind`, `method`); records `invalid_discriminator` when it
/// is absent, not a string, or not one of `allowed` (case-sensitive).
fn discriminator<V>(ctx: &mut Ctx, v: Option<Val<'_>>, key: &str, allowed: &[&str], from_wire: fn(&str) -> Option<V>) -> Option<V> {
    let found = v.and_then(|v| v.string_raw()).map(|raw| decode_string(raw).text).filter(|t| allowed.contains(&&**t)).and_then(|t| from_wire(&t));
    if found.is_none() {
        let expected: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
        ctx.issue_with(
            &Path::Key(&Path::Root, key),
            crate::core::IssueCode::InvalidDiscriminator,
            format!("invalid discriminator value: expected {}, received {}", expected.join(" | "), describe_received(v)),
        );
    }
    found
}

fn parse_client_validated(root: Val<'_>, shared: Option<&SharedText>) -> Result<ClientMessage, ParseError> {
    read_frame(root, shared, |ctx, [.., method]| {
        let variant = discriminator(ctx, method, "method", METHODS, ClientVariant::from_wire)?;
        ClientMessage::read_variant(variant, ctx, root)
    })
}

/// Parses one server → client frame from text (§3): JSON syntax first, then the schema.
///
/// # Errors
/// [`ParseError::Json`] when the text is not JSON; [`ParseError::Schema`] with every issue
/// when it is JSON but not a legal [`ServerMessage`].
pub fn parse_server_message(frame: &str) -> Result<ServerMessage, ParseError> {
    parse_server_validated(syntax(frame)?, None)
}

/// [`parse_server_message`] on text the parsed message may share: compact opaque values
/// (`data`, `result`, `payload`, the error's raw id) become spans of `frame` instead of
/// copies. Same results and errors as [`parse_server_message`].
///
/// # Errors
/// As [`parse_server_message`].
pub fn parse_server_message_shared(frame: &SharedText) -> Result<ServerMessage, ParseError> {
    parse_server_validated(syntax(frame.as_str())?, Some(frame))
}

/// [`parse_server_message`] on raw bytes: invalid UTF-8 is a [`ParseError::Json`].
///
/// # Errors
/// As [`parse_server_message`].
pub fn parse_server_message_bytes(frame: &[u8]) -> Result<ServerMessage, ParseError> {
    parse_server_message(utf8(frame)?)
}

/// Validates an already decoded value as a server frame (the reference's `safeParse` on a
/// `JSON.parse` result). serde_json values cannot hold lone surrogates, duplicate keys or
/// non-finite numbers, so those frames are out of reach here by construction; integers above
/// `2^64` or written with a fraction part arrive as doubles, as `JSON.parse` would give them.
///
/// # Errors
/// [`ParseError::Schema`] (never `Json`).
pub fn parse_server_message_value(value: &serde_json::Value) -> Result<ServerMessage, ParseError> {
    let text = value.to_string();
    parse_server_validated(Val::root(&text), None)
}

/// Parses one client → server message from text (§4): JSON syntax first, then `method`, then
/// the variant's schema.
///
/// # Errors
/// [`ParseError::Json`] when the text is not JSON (the server answers -32700 with id `0`);
/// [`ParseError::Schema`] otherwise (-32600 with [`ParseError::reply_id`]).
pub fn parse_client_message(frame: &str) -> Result<ClientMessage, ParseError> {
    parse_client_validated(syntax(frame)?, None)
}

/// [`parse_client_message`] on text the parsed message may share (see
/// [`parse_server_message_shared`]).
///
/// # Errors
/// As [`parse_client_message`].
pub fn parse_client_message_shared(frame: &SharedText) -> Result<ClientMessage, ParseError> {
    parse_client_validated(syntax(frame.as_str())?, Some(frame))
}

/// [`parse_client_message`] on raw bytes: invalid UTF-8 is a [`ParseError::Json`].
///
/// # Errors
/// As [`parse_client_message`].
pub fn parse_client_message_bytes(frame: &[u8]) -> Result<ClientMessage, ParseError> {
    parse_client_message(utf8(frame)?)
}

/// Validates an already decoded value as a client message; see
/// [`parse_server_message_value`] for what a `serde_json::Value` cannot carry.
///
/// # Errors
/// [`ParseError::Schema`] (never `Json`).
pub fn parse_client_message_value(value: &serde_json::Value) -> Result<ClientMessage, ParseError> {
    let text = value.to_string();
    parse_client_validated(Val::root(&text), None)
}

// ---------------------------------------------------------------------------------------------
// Serializing
// ---------------------------------------------------------------------------------------------

fn into_string(out: Vec<u8>) -> String {
    // Every byte written is either copied from validated UTF-8 or ASCII.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes a server frame as `JSON.stringify` would: compact, keys in spec order (`v`, then
/// `jsonrpc` or `kind`, then the fields), absent optional fields omitted (never `null`),
/// opaque values byte for byte, ids with their JSON type. Never fails: every value of the types
/// is a legal frame, and it parses back to an equal value unless its opaque values nest deeper
/// than the reader's cap ([`DEFAULT_MAX_DEPTH`]); [`try_serialize_server_message`] refuses that.
pub fn serialize_server_message(message: &ServerMessage) -> String {
    let mut out = Vec::with_capacity(96);
    write_server_message(message, &mut out);
    into_string(out)
}

/// [`serialize_server_message`], refusing a frame the reader would not accept back (opaque
/// values nested past [`DEFAULT_MAX_DEPTH`] in total): what a binding serializing host values
/// calls, so whatever it writes parses.
///
/// # Errors
/// [`WriteError`] naming the depth cap.
pub fn try_serialize_server_message(message: &ServerMessage) -> Result<String, WriteError> {
    let mut out = Vec::with_capacity(96);
    write_server_message(message, &mut out);
    checked(out)
}

/// [`serialize_server_message`] into a caller's buffer (appends).
pub fn write_server_message(message: &ServerMessage, out: &mut Vec<u8>) {
    message.write(out);
}

/// Writes a client message; the rules of [`serialize_server_message`], keys in the order
/// `v, jsonrpc, id, method, params`. Never fails.
pub fn serialize_client_message(message: &ClientMessage) -> String {
    let mut out = Vec::with_capacity(96);
    write_client_message(message, &mut out);
    into_string(out)
}

/// [`serialize_client_message`], refusing what the reader would not accept back (see
/// [`try_serialize_server_message`]).
///
/// # Errors
/// [`WriteError`] naming the depth cap.
pub fn try_serialize_client_message(message: &ClientMessage) -> Result<String, WriteError> {
    let mut out = Vec::with_capacity(96);
    write_client_message(message, &mut out);
    checked(out)
}

/// A frame [`try_serialize_server_message`]/[`try_serialize_client_message`] refused to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    /// One line: `the frame would not parse: nesting exceeds the maximum depth of 100000 at byte N`.
    pub reason: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for WriteError {}

fn checked(out: Vec<u8>) -> Result<String, WriteError> {
    match json::check_written_depth(&out, DEFAULT_MAX_DEPTH) {
        Ok(()) => Ok(into_string(out)),
        Err(e) => Err(WriteError { reason: format!("the frame would not parse: {e}") }),
    }
}

/// [`serialize_client_message`] into a caller's buffer (appends).
pub fn write_client_message(message: &ClientMessage, out: &mut Vec<u8>) {
    message.write(out);
}
