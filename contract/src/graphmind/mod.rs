//! The GraphMind wire protocol v1 (`gm: 1`): envelope, message types, the
//! version-negotiating parser, envelope building and serializing.
//!
//! Spec: `spec/graphmind-v1.md`. The parser follows the reference's decision order (§2):
//! JSON syntax → envelope structure → `gm` → `type` → payload, and returns one of four
//! outcomes ([`ParseOutcome`]); it never panics and never fails.
//!
//! Files:
//!
//! - `types.rs`: payloads, helper objects and enums (`wire_object!`, `wire_enum!`);
//! - `messages.rs`: the message table (`messages!`, one row per message type);
//! - this file: the `messages!` macro, the registry entry [`PROTOCOL`] and the protocol's
//!   constants;
//! - `envelope.rs`: [`Envelope`], [`ParseOutcome`], [`ParseOptions`], [`ENVELOPE_KEYS`];
//! - `parse.rs`: [`parse()`] (the one entry for text, bytes, shared text and shared bytes: the
//!   single pass, the bailed-frame decision, the reference reader) and [`parse_value`];
//! - `build.rs`: the builders ([`create_envelope`], [`create_envelope_json`], their
//!   `_with` forms, [`build_frame_json`]), [`BuildError`], [`counter_from_i64`];
//! - `splice.rs`: the builders' one-pass route for a payload given as JSON text (the frame
//!   spliced from its parts and read by the single pass; the general path when anything
//!   differs);
//! - `check.rs`: [`check_envelope`], the rules a frame must meet that Rust types do not
//!   enforce;
//! - `write.rs`: the checked writer ([`serialize_envelope`], [`write_envelope`]);
//! - `breakpoints.rs`: the breakpoint matchers, [`pause_reason`] and [`should_pause`];
//! - `handshake.rs`: the viewer's `negotiate_hello` and `hello_ack`;
//! - `schema.rs`: the protocol's JSON Schema (the envelope union);
//! - [`shrink`]: payload shrinking, `serializePayload` byte for byte (its unserializable path
//!   in `shrink/unserializable.rs`), skeleton plans read from the registry;
//! - `llm.rs`: the LLM conventions (`FinishReason`, a closed registry enum,
//!   `normalize_finish_reason`, `read_usage_json`);
//! - [`session`]: the sans-IO app and viewer runtime.
//!
//! ```
//! use wirecontract::graphmind::{parse, Message, ParseOptions, ParseOutcome};
//! let frame = r#"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"run.finished","payload":{"status":"ok"}}"#;
//! match parse(frame, &ParseOptions::default()) {
//!     ParseOutcome::Ok(env) => assert!(matches!(env.message, Message::RunFinished(_))),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod breakpoints;
mod build;
mod check;
mod envelope;
mod error;
mod handshake;
mod llm;
mod parse;
mod schema;
pub mod session;
pub mod shrink;
mod splice;
mod types;
mod write;

pub use breakpoints::{add_breakpoint, clear_breakpoint, pause_reason, should_pause};
#[allow(deprecated)]
pub use build::create_unknown_envelope;
pub use build::{
    build_frame_json, counter_from_i64, create_envelope, create_envelope_json, create_envelope_json_with, create_envelope_with, now_ms, BuildOptions,
};
pub use check::check_envelope;
pub use envelope::{Envelope, ParseOptions, ParseOutcome, ENVELOPE_KEYS};
pub use error::BuildError;
pub use handshake::{hello_ack, negotiate_hello, reusable_resume_token, HelloAccepted, HelloNegotiation, MAX_RESUME_TOKEN_LEN};
pub use llm::{normalize_finish_reason, read_usage_json, FinishReason, UsageBasis, UsageView};
#[cfg(feature = "oracle")]
pub use parse::oracle;
pub use parse::{parse, parse_value};
pub use schema::{export_json_schema, export_json_schema_string, SCHEMA_ID};
pub use shrink::{budget_payload_json, shrink_payload, shrink_payload_json, Shrunk, DEFAULT_MAX_PAYLOAD_BYTES};
pub use types::*;
pub use write::{serialize_envelope, write_envelope};
pub(crate) use write::{serialize_envelope_unchecked, write_envelope_with_payload};

pub use crate::frame::Frame;
pub use crate::wire::{Extras, Issue, NonNegativeF64, OpaqueObject, OutOfSafeRange, PositiveSafeUInt, SafeInt, SafeUInt};
use wirecontract_json as json;
pub use wirecontract_json::{RawJson, SharedBytes, SharedText};

/// The protocol version this contract implements (`gm`).
pub const PROTOCOL_VERSION: i64 = 1;

/// [`PROTOCOL_VERSION`] as the typed value of `hello.versions.protocol` and
/// `hello.ack.versions.protocol` (a compile-time check that it is a safe integer).
pub const PROTOCOL_VERSION_FIELD: SafeInt = match SafeInt::new(PROTOCOL_VERSION) {
    Some(v) => v,
    None => panic!("PROTOCOL_VERSION is a safe integer"),
};

/// The `runId` of frames that belong to no run (handshake and controls). The parser does not
/// tie it to any type.
pub const WILDCARD_RUN_ID: &str = "*";

/// Default cap on a frame's size in bytes (16 MiB, the hub's `MAX_FRAME_BYTES`; §5.10).
pub const DEFAULT_MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;

/// Default cap on nesting depth inside a frame (§5.8; at least 10,000).
pub const DEFAULT_MAX_DEPTH: usize = json::DEFAULT_MAX_DEPTH;

/// Known capability strings, in spec order (§1 Handshake). Capabilities are open strings;
/// unknown ones are valid.
pub const KNOWN_CAPABILITIES: &[&str] = &["pause", "step", "inject", "retry", "abort", "run-claim", "edit-input"];

/// Reason of an `invalid` outcome whose frame is structurally not an envelope (§2 step 2).
pub const REASON_NOT_AN_ENVELOPE: &str = "not a structurally valid GraphMind envelope";

/// Declares the message enum and the type tables from one list.
macro_rules! messages {
    ( $( $(#[doc = $m:literal])* $variant:ident($ty:ident) = $wire:literal, $group:ident, $dir:ident; )+ ) => {
        /// A message: one of the known types with its typed payload, or an unknown type
        /// with its payload kept opaque (§2 step 4).
        #[derive(Debug, Clone, PartialEq)]
        pub enum Message {
            $( $(#[doc = $m])* $variant($ty), )+
            /// A type not in [`MESSAGE_TYPES`](crate::graphmind::MESSAGE_TYPES); `payload` is `None` when the key was absent.
            Unknown {
                /// The type string (lone surrogates decoded to U+FFFD).
                message_type: String,
                /// The raw payload, any JSON value, `None` when absent.
                payload: Option<RawJson>,
            },
        }

        /// Every message type with its payload, group and direction: the registry rows.
        pub const MESSAGES: &[crate::registry::MessageDesc] = &[$( crate::registry::MessageDesc {
            wire: $wire,
            variant: stringify!($variant),
            payload: &<$ty as crate::wire::Described>::DESC,
            group: MessageGroup::$group,
            direction: crate::registry::Direction::$dir,
            doc: concat!($($m, "\n",)* ""),
        }, )+];

        impl Message {
            /// The wire type string.
            pub fn message_type(&self) -> &str {
                match self {
                    $( Message::$variant(_) => $wire, )+
                    Message::Unknown { message_type, .. } => message_type,
                }
            }

            /// The typed payload for reflection; `None` for an unknown type.
            pub fn payload(&self) -> Option<&dyn Reflect> {
                match self {
                    $( Message::$variant(p) => Some(p), )+
                    Message::Unknown { .. } => None,
                }
            }

            /// The typed payload as an owned reflected object; `None` for an unknown type.
            pub fn into_payload(self) -> Option<Box<dyn Reflect>> {
                match self {
                    $( Message::$variant(p) => Some(Box::new(p)), )+
                    Message::Unknown { .. } => None,
                }
            }

            pub(crate) fn read_payload(ctx: &mut Ctx, message_type: &str, v: Option<Val<'_>>, path: &Path<'_>) -> Option<Option<Self>> {
                Some(match message_type {
                    $( $wire => <$ty as crate::wire::WireField>::read_field(ctx, v, path).map(Message::$variant), )+
                    _ => return None,
                })
            }

            /// Single-pass payload read: outer `None` for an unknown type (nothing consumed),
            /// inner `None` to bail to the reference path.
            #[inline]
            pub(crate) fn read_payload_fast(message_type: &str, cur: &mut Cursor<'_>) -> Option<Option<Self>> {
                Some(match message_type {
                    $( $wire => <$ty as WireValue>::read_fast(cur).map(Message::$variant), )+
                    _ => return None,
                })
            }

            pub(crate) fn write_payload(&self, out: &mut Vec<u8>) -> bool {
                match self {
                    $( Message::$variant(p) => p.write(out), )+
                    Message::Unknown { payload: Some(p), .. } => crate::wire::WireValue::write(p, out),
                    Message::Unknown { payload: None, .. } => return false,
                }
                true
            }
        }

        $(
            impl From<$ty> for Message {
                fn from(p: $ty) -> Self {
                    Message::$variant(p)
                }
            }
        )+

        /// The payload type name for a message type (`"node.started"` → `"NodeStarted"`).
        pub fn payload_type_name(message_type: &str) -> Option<&'static str> {
            PROTOCOL.message(message_type).map(|m| m.payload.name)
        }

        /// Which direction group a type belongs to.
        pub fn message_group(message_type: &str) -> Option<MessageGroup> {
            PROTOCOL.message(message_type).map(|m| m.group)
        }

        pub(crate) fn each_payload_schema(gen: &mut schemars::SchemaGenerator) -> Vec<(&'static str, schemars::Schema)> {
            vec![$( ($wire, gen.subschema_for::<$ty>()), )+]
        }
    };
}

mod messages;
pub use messages::*;

/// The GraphMind v1 registry entry: every message type, and through them every object and
/// enum (see [`crate::registry`]).
pub static PROTOCOL: crate::registry::Protocol = crate::registry::Protocol {
    name: "graphmind",
    title: "GraphMind",
    spec: "graphmind-v1",
    version: ("gm", "1"),
    key: None,
    strict: false,
    messages: MESSAGES,
    unions: &[],
    catalog_enums: &[&FinishReason::DESC],
    parse_any,
    schema: export_json_schema,
};

/// [`crate::registry::Protocol::parse_any`]: the envelope parser, its payload as the object.
fn parse_any(frame: &str) -> crate::registry::AnyOutcome {
    use crate::registry::AnyOutcome;
    match parse(frame, &ParseOptions::default()) {
        ParseOutcome::Ok(env) => {
            let message = env.message_type().to_owned();
            AnyOutcome::Ok { message, object: env.message.into_payload() }
        }
        ParseOutcome::UnknownType(env) => AnyOutcome::Other { kind: "unknown-type", message: Some(env.message_type().to_owned()) },
        ParseOutcome::VersionMismatch { .. } => AnyOutcome::Other { kind: "version-mismatch", message: None },
        ParseOutcome::Invalid { reason, issues, .. } => AnyOutcome::Invalid { reason, issues: issues.unwrap_or_default() },
    }
}

pub use crate::registry::MessageGroup;

/// The known message types, in spec order (also the schema's `anyOf` order).
pub const MESSAGE_TYPES: &[&str] = &crate::registry::all_types::<{ MESSAGES.len() }>(MESSAGES);
/// The event types (app → viewer), in spec order.
pub const EVENT_TYPES: &[&str] =
    &crate::registry::types_in_group::<{ crate::registry::count_in_group(MESSAGES, MessageGroup::Event) }>(MESSAGES, MessageGroup::Event);
/// The control types (viewer → app), in spec order.
pub const CONTROL_TYPES: &[&str] =
    &crate::registry::types_in_group::<{ crate::registry::count_in_group(MESSAGES, MessageGroup::Control) }>(MESSAGES, MessageGroup::Control);
/// The handshake types.
pub const HANDSHAKE_TYPES: &[&str] =
    &crate::registry::types_in_group::<{ crate::registry::count_in_group(MESSAGES, MessageGroup::Handshake) }>(MESSAGES, MessageGroup::Handshake);
