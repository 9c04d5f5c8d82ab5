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
//! the registry entry, serialize), `parse.rs` ([`parse()`], [`parse_value`], [`ParseError`]),
//! `catalog.rs` (close codes, `CLOSE_CODE_VALUES`, subprotocol helpers), `schema.rs` (the
//! direction unions of the protocol's JSON Schema).
//!
//! ```
//! use wirecontract::graphorin::{parse, serialize_server_message, ParseOptions, ServerMessage, RpcId};
//! let frame = r#"{"v":"1","jsonrpc":"2.0","id":"req-1","result":{"ok":true}}"#;
//! let msg: ServerMessage = parse(frame, &ParseOptions::default()).unwrap();
//! assert!(msg.is_rpc_success());
//! assert_eq!(msg.rpc_id(), Some(&RpcId::try_from("req-1").unwrap()));
//! assert_eq!(serialize_server_message(&msg), frame);
//!
//! let err = parse::<ServerMessage>(r#"{"v":"1","kind":"pong","surprise":true}"#, &ParseOptions::default()).unwrap_err();
//! assert_eq!(err.issues()[0].code.map(|c| c.as_str()), Some("unrecognized_keys"));
//! assert_eq!(err.issues()[0].path.pointer(), "/surprise");
//! ```

mod catalog;
mod parse;
mod schema;
mod types;

pub use catalog::*;
pub use parse::{parse, parse_value, MessageUnion, ParseError, ParseOptions};
pub use schema::{export_json_schema, export_json_schema_string, CLIENT_MESSAGE_POINTER, SCHEMA_ID, SERVER_MESSAGE_POINTER};
pub use types::*;

pub use crate::frame::Frame;
use crate::wire::{Ctx, Path, Reflect, WireValue};
pub use crate::wire::{Issue, IssueCode, OpaqueObject, PathSegment};
use wirecontract_json::{self as json, Val};
pub use wirecontract_json::{RawJson, SharedBytes, SharedText};

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
                    frame: &<$ty as crate::wire::Described>::DESC,
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
                vec![$( (stringify!($ty), gen.subschema_for::<$ty>(), <$ty as crate::wire::Described>::DESC.literals), )+]
            }
        }

        $(
            impl From<$ty> for $name {
                fn from(m: $ty) -> Self {
                    $name::$variant(m)
                }
            }
        )+
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
    catalog_enums: &[&crate::wire::IssueCode::DESC, &CloseReason::DESC, &ClientErrorKind::DESC],
    parse_any,
    schema: export_json_schema,
};

/// [`crate::registry::Protocol::parse_any`]: a server frame, else a client frame.
fn parse_any(frame: &str) -> crate::registry::AnyOutcome {
    use crate::registry::AnyOutcome;
    let opts = ParseOptions::default();
    match (parse::<ServerMessage>(frame, &opts), parse::<ClientMessage>(frame, &opts)) {
        (Ok(m), _) => AnyOutcome::Ok { message: m.variant().as_str().to_owned(), object: Some(m.into_reflect()) },
        (_, Ok(m)) => AnyOutcome::Ok { message: m.variant().as_str().to_owned(), object: Some(m.into_reflect()) },
        (Err(e), Err(_)) => AnyOutcome::Invalid { reason: e.to_string(), issues: e.issues().to_vec() },
    }
}

/// The `kind` literals of the kinded server frames, in spec order (§3.2): the server
/// variants whose frame declares a `kind` literal.
pub const KINDS: &[&str] =
    &crate::registry::variants_with_literal::<{ crate::registry::count_variants_with_literal(&ServerMessage::DESC, "kind") }>(&ServerMessage::DESC, "kind");

/// The `method` literals, in spec order (§4).
pub const METHODS: &[&str] = ClientVariant::VALUES;

/// The lifecycle statuses (§3.2).
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
