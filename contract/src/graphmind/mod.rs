//! The GraphMind wire protocol v1 (`gm: 1`): envelope, 16 message types, the
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
//! - this file: the envelope, the parse entry points (the reference reader, the single pass,
//!   the bailed-frame decision), the builders, the checked serializer, the breakpoint matchers
//!   and `pause_reason`;
//! - `splice.rs`: the builders' one-pass route for a payload given as JSON text (the frame
//!   spliced from its parts and read by the single pass; the general path when anything
//!   differs);
//! - `handshake.rs`: the viewer's `negotiate_hello` and `hello_ack`;
//! - `schema.rs`: the protocol's JSON Schema (the envelope union);
//! - [`shrink`]: payload shrinking, `serializePayload` byte for byte (its unserializable path
//!   in `shrink/unserializable.rs`), skeleton plans read from the registry;
//! - `llm.rs`: the LLM conventions (`FinishReason`, a closed registry enum,
//!   `normalize_finish_reason`, `read_usage_json`);
//! - [`session`]: the sans-IO app and viewer runtime.
//!
//! ```
//! use wirecontract::graphmind::{parse_envelope_json, Message, ParseOutcome};
//! let frame = r#"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"run.finished","payload":{"status":"ok"}}"#;
//! match parse_envelope_json(frame) {
//!     ParseOutcome::Ok(env) => assert!(matches!(env.message, Message::RunFinished(_))),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod handshake;
mod llm;
mod schema;
pub mod session;
pub mod shrink;
mod splice;
mod types;

use std::borrow::Cow;
use std::time::{SystemTime, UNIX_EPOCH};

pub use handshake::{hello_ack, negotiate_hello, reusable_resume_token, HelloAccepted, HelloNegotiation, MAX_RESUME_TOKEN_LEN};
pub use llm::{normalize_finish_reason, read_usage_json, FinishReason, UsageBasis, UsageView};
pub use schema::{export_json_schema, export_json_schema_string, SCHEMA_ID};
pub use shrink::{budget_payload_json, shrink_payload, shrink_payload_json, Shrunk, DEFAULT_MAX_PAYLOAD_BYTES};
pub use types::*;

use crate::core::{Ctx, Path, WireValue};
pub use crate::core::{Extras, Issue, NonNegativeF64, OutOfSafeRange, PositiveSafeUInt, Record, SafeInt, SafeUInt};
use wirecontract_json::cursor::{Cursor, WireKey};
use wirecontract_json::{self as json, decode_string, JsonKind, Val};
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
        /// A message: one of the 16 known types with its typed payload, or an unknown type
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
            payload: &<$ty as crate::core::Described>::DESC,
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
                    $( $wire => <$ty as crate::core::WireField>::read_field(ctx, v, path).map(Message::$variant), )+
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
                    Message::Unknown { payload: Some(p), .. } => crate::core::WireValue::write(p, out),
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
    match parse_envelope_json(frame) {
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

/// A GraphMind envelope `{gm, seq, ts, runId, type, payload}` with its unknown members.
///
/// `gm` is always [`PROTOCOL_VERSION`] for an accepted envelope, so it is not stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// Sequence number: a safe integer `0 ≤ seq ≤ 2^53 − 1`.
    pub seq: u64,
    /// Timestamp, epoch milliseconds: a safe integer `≥ 0`.
    pub ts: u64,
    /// Run id (no lone surrogate, no U+0000; may be empty or [`WILDCARD_RUN_ID`]).
    pub run_id: String,
    /// The type and payload.
    pub message: Message,
    /// Unknown envelope-level members, in wire order.
    pub extra: Extras,
}

impl Envelope {
    /// Always [`PROTOCOL_VERSION`].
    pub fn gm(&self) -> i64 {
        PROTOCOL_VERSION
    }
    /// The wire type string.
    pub fn message_type(&self) -> &str {
        self.message.message_type()
    }
}

/// The result of parsing a frame (§2, §5.2). Never an error: every frame gets a verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseOutcome {
    /// A known type with a valid payload.
    Ok(Envelope),
    /// A structurally valid `gm: 1` envelope whose type is not one of [`MESSAGE_TYPES`];
    /// the message is [`Message::Unknown`] with the raw payload (possibly absent).
    UnknownType(Envelope),
    /// A structurally valid envelope with `gm != 1`; checked before type and payload.
    VersionMismatch {
        /// The `gm` received (a safe integer).
        received: i64,
        /// [`PROTOCOL_VERSION`].
        supported: i64,
    },
    /// Anything else. The verdict does not depend on the salvaged fields.
    Invalid {
        /// One of the fixed reasons of §5.2.
        reason: String,
        /// Every issue found; `None` when the frame is not JSON, too big or too deep.
        issues: Option<Vec<Issue>>,
        /// Salvage (§2 step 5): the envelope's `seq` when the frame passed the structure
        /// (stage 1) and version checks and only its payload failed; `None` otherwise.
        seq: Option<u64>,
        /// Salvage: the envelope's `ts` (epoch milliseconds), under the same condition as `seq`.
        ts: Option<u64>,
        /// Salvage: the envelope's `runId`, under the same condition as `seq`.
        run_id: Option<String>,
        /// Salvage: the envelope's `type` (a known type whose payload failed), under the same
        /// condition as `seq`.
        message_type: Option<String>,
    },
}

impl ParseOutcome {
    /// `"ok"`, `"unknown-type"`, `"version-mismatch"` or `"invalid"`.
    pub fn kind(&self) -> &'static str {
        match self {
            ParseOutcome::Ok(_) => "ok",
            ParseOutcome::UnknownType(_) => "unknown-type",
            ParseOutcome::VersionMismatch { .. } => "version-mismatch",
            ParseOutcome::Invalid { .. } => "invalid",
        }
    }

    /// An `invalid` outcome with nothing salvaged (the frame is not JSON, not an envelope,
    /// too big or too deep).
    pub fn invalid(reason: impl Into<String>, issues: Option<Vec<Issue>>) -> Self {
        ParseOutcome::Invalid { reason: reason.into(), issues, seq: None, ts: None, run_id: None, message_type: None }
    }

    /// The envelope of an `ok` or `unknown-type` outcome.
    pub fn envelope(&self) -> Option<&Envelope> {
        match self {
            ParseOutcome::Ok(e) | ParseOutcome::UnknownType(e) => Some(e),
            _ => None,
        }
    }
}

/// Limits applied while parsing. `Default` gives the spec's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// Frames longer than this many bytes are `invalid` without being read (§5.10).
    pub max_frame_bytes: usize,
    /// Nesting deeper than this is `invalid` (§5.8).
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { max_frame_bytes: DEFAULT_MAX_FRAME_BYTES, max_depth: DEFAULT_MAX_DEPTH }
    }
}

fn invalid(reason: impl Into<String>, issues: Option<Vec<Issue>>) -> ParseOutcome {
    ParseOutcome::invalid(reason, issues)
}

/// Parses one text frame with the default limits (§2 decision order, §5).
pub fn parse_envelope_json(frame: &str) -> ParseOutcome {
    parse_envelope_json_with(frame, &ParseOptions::default())
}

/// Parses one frame given as bytes: invalid UTF-8 is a JSON syntax failure naming the offset.
pub fn parse_envelope_json_bytes(frame: &[u8]) -> ParseOutcome {
    parse_envelope_json_bytes_with(frame, &ParseOptions::default())
}

/// [`parse_envelope_json_bytes`] with explicit limits.
///
/// The single pass checks UTF-8 as it reads ([`Cursor::new_bytes`]): a frame it decides has
/// been checked whole, with no UTF-8 pass of its own. A frame it bails on is decided by the
/// reference reader's steps after one more pass checking JSON and UTF-8 together; when that
/// pass refuses the frame (invalid UTF-8 included), the whole-frame check and the reference
/// reader name the error, so invalid UTF-8 anywhere is `invalid` naming the offset of the
/// first bad byte, as it always was.
pub fn parse_envelope_json_bytes_with(frame: &[u8], opts: &ParseOptions) -> ParseOutcome {
    if frame.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = single_pass(Cursor::new_bytes(frame, opts.max_depth)) {
        return out;
    }
    decide_bailed(Cursor::new_bytes(frame, opts.max_depth)).unwrap_or_else(|| bytes_two_pass(frame, opts))
}

/// The reference path of a bytes frame: the whole-frame UTF-8 check, then the two-pass
/// reader. SIMD validation first (several GB/s on non-ASCII text, where std's check slows to
/// a byte at a time); std's error gives the offset on a failure.
fn bytes_two_pass(frame: &[u8], opts: &ParseOptions) -> ParseOutcome {
    match simdutf8::basic::from_utf8(frame) {
        Ok(text) => parse_two_pass(text, opts),
        Err(_) => match std::str::from_utf8(frame) {
            Ok(text) => parse_two_pass(text, opts),
            Err(e) => invalid(format!("frame is not valid JSON: invalid UTF-8 at byte {}", e.valid_up_to()), None),
        },
    }
}

/// [`parse_envelope_shared_with`] on bytes not yet known to be UTF-8 (a binding's `bytes`
/// input): checked while the single pass reads them, as in [`parse_envelope_json_bytes_with`],
/// with compact opaque values as spans of `frame`. Same verdicts, issues and values as every
/// other entry point; invalid UTF-8 anywhere is `invalid` naming the offset of the first bad
/// byte.
pub fn parse_envelope_shared_bytes_with(frame: &SharedBytes, opts: &ParseOptions) -> ParseOutcome {
    let bytes = frame.as_bytes();
    if bytes.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = Cursor::read_shared_bytes(frame, opts.max_depth, single_pass) {
        return out;
    }
    // A cursor of its own (no spans: the reference reader copies what it keeps).
    decide_bailed(Cursor::new_bytes(bytes, opts.max_depth)).unwrap_or_else(|| bytes_two_pass(bytes, opts))
}

fn too_big(opts: &ParseOptions) -> ParseOutcome {
    invalid(format!("frame exceeds {} bytes", opts.max_frame_bytes), None)
}

/// [`parse_envelope_json_with`] on text the parsed envelope may share: compact opaque values
/// (payloads of unknown types, `input`/`output`/`meta`, unknown members) become spans of
/// `frame` instead of copies. Same verdicts, issues and values as every other entry point.
pub fn parse_envelope_shared_with(frame: &SharedText, opts: &ParseOptions) -> ParseOutcome {
    let text = frame.as_str();
    if text.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = single_pass(Cursor::new_shared(frame, opts.max_depth)) {
        return out;
    }
    decide_bailed(Cursor::new(text, opts.max_depth)).unwrap_or_else(|| parse_two_pass(text, opts))
}

/// [`parse_envelope_json`] with explicit limits.
///
/// One pass over the frame decides every valid frame ([`parse_single_pass`]); a frame it
/// bails on is decided by the reference reader, which owns every issue and message, after one
/// validating pass that finds the root's members (`decide_bailed`).
pub fn parse_envelope_json_with(frame: &str, opts: &ParseOptions) -> ParseOutcome {
    if frame.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    if let Some(out) = parse_single_pass(frame, opts.max_depth) {
        return out;
    }
    decide_bailed(Cursor::new(frame, opts.max_depth)).unwrap_or_else(|| parse_two_pass(frame, opts))
}

/// The reference reader alone (validate, then walk): what [`parse_envelope_json_with`]
/// returns for every frame. Public for the differential tests and benchmarks only.
#[doc(hidden)]
pub fn parse_envelope_json_reference(frame: &str, opts: &ParseOptions) -> ParseOutcome {
    if frame.len() > opts.max_frame_bytes {
        return too_big(opts);
    }
    parse_two_pass(frame, opts)
}

/// Decides a frame the single pass bailed on, with the reference reader's verdict and issues
/// (§2 steps 1–6). Step 1 (JSON syntax, depth, and UTF-8 for a frame given as bytes) is one
/// validating pass of `cur`, which hands the root object's members to the reference's steps
/// 2–6 ([`parse_members`]) as it reads them; the reference reader alone would validate the
/// frame and then find the root's end and each member's end again (three scans of the
/// payload, so a large invalid frame cost several times a valid one). Members are not
/// collected first, so a frame of many members costs no memory the reference would not spend.
/// `None` for a frame `cur` refuses, which the caller hands to the reference reader whole to
/// name the error (the outcome built from the members read until then is dropped: steps 2–6
/// have no effects). The cursor accepts
/// exactly the JSON `json::validate` accepts (the single pass's verdicts rest on that too; the
/// differential suites check it).
fn decide_bailed(mut cur: Cursor<'_>) -> Option<ParseOutcome> {
    let decided = match cur.peek() {
        Some(b'{') => cur.object_start().and_then(|more| {
            let mut members = RootMembers { cur: &mut cur, more, refused: false };
            let out = parse_members(&mut members);
            // Read to the end whatever `parse_members` left (today: nothing).
            members.by_ref().for_each(drop);
            (!members.refused).then_some(out)
        }),
        Some(_) => cur.val().map(parse_validated),
        None => None,
    }?;
    cur.finish()?;
    Some(decided)
}

/// The root object's members (raw key, value), read by the cursor one at a time as
/// [`parse_members`] asks for them. A member the cursor refuses ends the iteration and sets
/// `refused`.
struct RootMembers<'c, 's> {
    cur: &'c mut Cursor<'s>,
    /// Whether another member follows.
    more: bool,
    /// Whether the cursor refused the text (not JSON, too deep, not UTF-8).
    refused: bool,
}

impl<'s> Iterator for RootMembers<'_, 's> {
    type Item = (&'s str, Val<'s>);

    fn next(&mut self) -> Option<Self::Item> {
        if !self.more {
            return None;
        }
        let cur = &mut *self.cur;
        let member = cur.key().and_then(|key| Some((key.raw, cur.val()?)));
        if let Some((m, more)) = member.and_then(|m| Some((m, cur.more_members()?))) {
            self.more = more;
            Some(m)
        } else {
            (self.more, self.refused) = (false, true);
            None
        }
    }
}

/// What a frame the single pass bails on is decided by: the reference reader's steps 2–6
/// after one validating pass (`decide_bailed`); `None` where that pass refuses the frame
/// (not JSON, too deep) and the reference reader names the error. Public for the
/// differential tests only.
#[doc(hidden)]
pub fn parse_bailed(frame: &str, max_depth: usize) -> Option<ParseOutcome> {
    decide_bailed(Cursor::new(frame, max_depth))
}

fn parse_two_pass(frame: &str, opts: &ParseOptions) -> ParseOutcome {
    if let Err(e) = json::validate(frame, opts.max_depth) {
        return if e.too_deep {
            invalid(format!("frame nests deeper than {} levels (at byte {})", opts.max_depth, e.offset), None)
        } else {
            invalid(format!("frame is not valid JSON: {e}"), None)
        };
    }
    parse_validated(Val::root(frame))
}

/// Parses an already decoded value (§2 "`parseEnvelope(value)` is the same algorithm
/// starting at step 2"). serde_json values cannot hold lone surrogates or non-finite numbers,
/// so those frames are out of reach here by construction.
pub fn parse_envelope(value: &serde_json::Value) -> ParseOutcome {
    let text = value.to_string();
    parse_validated(Val::root(&text))
}

/// Steps 2–6 on validated text.
fn parse_validated(root: Val<'_>) -> ParseOutcome {
    if root.kind() != JsonKind::Object {
        let mut ctx = Ctx::new();
        ctx.expected::<()>(&Path::Root, "object", Some(root));
        return invalid(REASON_NOT_AN_ENVELOPE, Some(ctx.issues));
    }
    parse_members(root.members())
}

/// Steps 2–6 on the members of a validated root object, in wire order: each key's raw text
/// (between the quotes, still escaped) and its value.
fn parse_members<'s>(members: impl IntoIterator<Item = (&'s str, Val<'s>)>) -> ParseOutcome {
    let mut ctx = Ctx::new();
    let root_path = Path::Root;
    let (mut gm, mut seq, mut ts, mut run_id, mut ty, mut payload) = (None, None, None, None, None, None);
    let mut extra = Extras::new();
    for (key, val) in members {
        match &*decode_string(key).text {
            "gm" => gm = Some(val),
            "seq" => seq = Some(val),
            "ts" => ts = Some(val),
            "runId" => run_id = Some(val),
            "type" => ty = Some(val),
            "payload" => payload = Some(val),
            _ => extra.insert_escaped(key, RawJson::from_validated(val.raw())),
        }
    }
    // Stage 1: every structural field, all issues at once.
    let gm = <SafeInt as crate::core::WireField>::read_field(&mut ctx, gm, &Path::Key(&root_path, "gm")).map(SafeInt::get);
    let seq = <SafeUInt as crate::core::WireField>::read_field(&mut ctx, seq, &Path::Key(&root_path, "seq")).map(SafeUInt::get);
    let ts = <SafeUInt as crate::core::WireField>::read_field(&mut ctx, ts, &Path::Key(&root_path, "ts")).map(SafeUInt::get);
    let run_id = read_run_id(&mut ctx, run_id, &Path::Key(&root_path, "runId"));
    let ty = <String as crate::core::WireField>::read_field(&mut ctx, ty, &Path::Key(&root_path, "type"));
    let (Some(gm), Some(seq), Some(ts), Some(run_id), Some(ty)) = (gm, seq, ts, run_id, ty) else {
        return invalid(REASON_NOT_AN_ENVELOPE, Some(ctx.issues));
    };
    // Step 3: version before type and payload.
    if gm != PROTOCOL_VERSION {
        return ParseOutcome::VersionMismatch { received: gm, supported: PROTOCOL_VERSION };
    }
    // Steps 4–5.
    let payload_path = Path::Key(&root_path, "payload");
    match Message::read_payload(&mut ctx, &ty, payload, &payload_path) {
        None => {
            let payload = payload.map(|p| RawJson::from_validated(p.raw()));
            let env = Envelope { seq, ts, run_id, message: Message::Unknown { message_type: ty, payload }, extra };
            ParseOutcome::UnknownType(env)
        }
        Some(None) => ParseOutcome::Invalid {
            reason: format!("invalid payload for message type \"{ty}\""),
            issues: Some(ctx.issues),
            seq: Some(seq),
            ts: Some(ts),
            run_id: Some(run_id),
            message_type: Some(ty),
        },
        Some(Some(message)) => ParseOutcome::Ok(Envelope { seq, ts, run_id, message, extra }),
    }
}

/// Where the payload member stands after the single pass over the envelope. Lives on the
/// stack for one parse only, so the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
enum PayloadSlot<'s> {
    /// Absent.
    Absent,
    /// Read typed, for the known type named here.
    Read(Message, Cow<'s, str>),
    /// Validated and skipped: its type or `gm` was not known yet when it came (or not `1`);
    /// whether whitespace sits between its tokens.
    Skipped(Val<'s>, bool),
}

/// Steps 1–6 in one pass for a frame that is valid JSON, a structurally valid envelope and,
/// for a known type, a valid payload; `None` ("bail") for anything else, which the reference
/// reader then decides. Members are read in wire order; the payload is read typed where it
/// stands when `gm: 1` and a known `type` came before it (the order every sender uses), else
/// skipped and read afterwards.
#[doc(hidden)]
pub fn parse_single_pass(frame: &str, max_depth: usize) -> Option<ParseOutcome> {
    single_pass(Cursor::new(frame, max_depth))
}

fn single_pass(mut cur: Cursor<'_>) -> Option<ParseOutcome> {
    if !cur.object_start()? {
        return None;
    }
    // `type` stays a borrow of the frame (no allocation) unless it is an unknown type's, or
    // escaped.
    let (mut gm, mut seq, mut ts, mut run_id, mut ty) = (None, None, None, None::<String>, None::<Cow<'_, str>>);
    let mut payload = PayloadSlot::Absent;
    let mut extra = Extras::new();
    // Each key is first compared with the one after the last read: clients write the
    // envelope's members in the order of `ENVELOPE_KEYS`.
    let mut next = 0;
    loop {
        let (key, known) = cur.member_key(&ENVELOPE_WIRE_KEYS, &mut next)?;
        // Indexes into `ENVELOPE_KEYS`.
        match known {
            // `gm`
            Some(0) => gm = Some(SafeInt::read_fast(&mut cur)?.get()),
            // `seq`
            Some(1) => seq = Some(SafeUInt::read_fast(&mut cur)?.get()),
            // `ts`
            Some(2) => ts = Some(SafeUInt::read_fast(&mut cur)?.get()),
            // `runId`
            Some(3) => {
                let raw = cur.string()?;
                let text = raw.decoded()?;
                // A NUL can come only from a `\u0000` escape (the scan refuses raw control
                // characters), so unescaped text needs no search.
                if raw.escaped && text.contains('\0') {
                    return None;
                }
                run_id = Some(text.into_owned());
            }
            // `type`
            Some(4) => ty = Some(cur.string()?.decoded_lossy()),
            // `payload`
            Some(5) => {
                payload = match (gm, &ty) {
                    (Some(PROTOCOL_VERSION), Some(t)) if payload_type_name(t).is_some() => match Message::read_payload_fast(t, &mut cur) {
                        Some(m) => PayloadSlot::Read(m?, t.clone()),
                        None => return None,
                    },
                    _ => {
                        let (v, ws) = cur.val_ws()?;
                        PayloadSlot::Skipped(v, ws)
                    }
                };
            }
            _ => extra.insert_escaped(key.raw, cur.raw_json()?),
        }
        if !cur.more_members()? {
            break;
        }
    }
    cur.finish()?;
    let (gm, seq, ts, run_id, ty) = (gm?, seq?, ts?, run_id?, ty?);
    if gm != PROTOCOL_VERSION {
        return Some(ParseOutcome::VersionMismatch { received: gm, supported: PROTOCOL_VERSION });
    }
    if payload_type_name(&ty).is_none() {
        let payload = match payload {
            PayloadSlot::Absent => None,
            PayloadSlot::Skipped(v, ws) => Some(cur.raw_of(v.raw(), ws)),
            PayloadSlot::Read(..) => return None,
        };
        return Some(ParseOutcome::UnknownType(Envelope { seq, ts, run_id, message: Message::Unknown { message_type: ty.into_owned(), payload }, extra }));
    }
    let message = match payload {
        // A later duplicate `type` key may have changed the type after the payload was read.
        PayloadSlot::Read(m, read_as) if read_as == ty => m,
        PayloadSlot::Read(..) | PayloadSlot::Absent => return None,
        PayloadSlot::Skipped(v, _) => {
            let mut ctx = Ctx::new();
            let m = Message::read_payload(&mut ctx, &ty, Some(v), &Path::Root)??;
            if !ctx.issues.is_empty() {
                return None;
            }
            m
        }
    };
    Some(ParseOutcome::Ok(Envelope { seq, ts, run_id, message, extra }))
}

/// `runId`: a string with no lone surrogate and no U+0000 (§2 Stage 1).
fn read_run_id(ctx: &mut Ctx, v: Option<Val<'_>>, path: &Path<'_>) -> Option<String> {
    let Some(v) = v else {
        ctx.issue(path, "expected string, received undefined (the field is required)");
        return None;
    };
    let Some(raw) = v.string_raw() else {
        return ctx.expected(path, "string", Some(v));
    };
    let d = decode_string(raw);
    let mut ok = true;
    if d.had_lone_surrogate {
        ctx.issue(path, "runId must not contain a lone surrogate");
        ok = false;
    }
    if d.text.contains('\0') {
        ctx.issue(path, "runId must not contain U+0000");
        ok = false;
    }
    ok.then(|| d.text.into_owned())
}

/// Why [`create_envelope`] or [`create_envelope_json`] refused to build a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// What is wrong, in one line.
    pub reason: String,
    /// Path-and-rule issues (dotted paths from the frame root, like parse issues).
    pub issues: Vec<Issue>,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)?;
        for i in &self.issues {
            write!(f, "; {i}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A counter given as a signed 64-bit host integer (JVM `Long`, Swift `Int64`): `0 ≤ value ≤
/// 2^53 − 1` (§2 stage 1, `seq`/`ts`), else a [`BuildError`] naming `name` and the rule
/// (`too small` for a negative value rather than a wrapped unsigned one). Hosts without
/// unsigned integers pass their values through this instead of restating the range.
///
/// # Errors
/// [`BuildError`] with one issue at `name` when the value is negative or above `2^53 − 1`.
pub fn counter_from_i64(name: &str, value: i64) -> Result<u64, BuildError> {
    counter_issue(name, &value.to_string())
        .map_or(Ok(value.unsigned_abs()), |issue| Err(BuildError { reason: "envelope fields out of range".into(), issues: vec![issue] }))
}

/// The parser's own issue for a counter spelled `text` (the [`SafeUInt`] reader's rule and
/// message, at `name`), or `None` when it is in range: one text for one rule, built or parsed.
fn counter_issue(name: &str, text: &str) -> Option<Issue> {
    let issue = crate::core::from_json::<SafeUInt>(text).err()?.into_iter().next()?;
    Some(Issue::at(name, issue.message))
}

fn check_counters(seq: u64, ts: u64, run_id: &str) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (name, v) in [("seq", seq), ("ts", ts)] {
        if v > json::MAX_SAFE_INTEGER {
            issues.extend(counter_issue(name, &v.to_string()));
        }
    }
    if run_id.contains('\0') {
        issues.push(Issue::at("runId", "runId must not contain U+0000"));
    }
    issues
}

/// Builds an envelope (§5.13): `gm` is 1, `ts` defaults to now (epoch ms), no unknown
/// envelope members. A typed message is valid by construction; a [`Message::Unknown`] whose
/// type is one of [`MESSAGE_TYPES`] is read typed (its payload must be valid for that type),
/// so the envelope always says what the parser would say of its frame.
///
/// # Errors
/// [`BuildError`] when `seq`/`ts` exceed `2^53 − 1`, `run_id` contains U+0000, or a known
/// type's payload is absent or invalid: such a frame would not parse `ok`.
pub fn create_envelope(message: impl Into<Message>, seq: u64, run_id: &str, ts: Option<u64>) -> Result<Envelope, BuildError> {
    let ts = ts.unwrap_or_else(now_ms);
    let issues = check_counters(seq, ts, run_id);
    if !issues.is_empty() {
        return Err(BuildError { reason: "envelope fields out of range".into(), issues });
    }
    let message = match message.into() {
        Message::Unknown { message_type, payload } if payload_type_name(&message_type).is_some() => {
            let Some(payload) = payload else {
                return Err(BuildError {
                    reason: format!("invalid payload for message type \"{message_type}\""),
                    issues: vec![Issue::at("payload", "expected object, received undefined (the field is required)")],
                });
            };
            read_known_payload(&message_type, payload.as_str())?
        }
        m => m,
    };
    Ok(Envelope { seq, ts, run_id: run_id.to_owned(), message, extra: Extras::new() })
}

fn read_known_payload(message_type: &str, payload_json: &str) -> Result<Message, BuildError> {
    let mut ctx = Ctx::new();
    let root = Path::Root;
    let path = Path::Key(&root, "payload");
    match Message::read_payload(&mut ctx, message_type, Some(Val::root(payload_json)), &path) {
        Some(Some(message)) => Ok(message),
        _ => Err(BuildError { reason: format!("invalid payload for message type \"{message_type}\""), issues: ctx.issues }),
    }
}

/// Options of [`create_envelope_with`] and [`create_envelope_json_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// Payload budget in UTF-8 bytes of the payload's JSON text, measured as
    /// `JSON.stringify` writes it (graphmind-shrink §1 MAX_PAYLOAD_BYTES, §3 S3). A payload
    /// over it is shrunk for its type before the envelope is built (field trim, then
    /// skeleton, §4 and §7). `None` (the default): no budget, the payload is kept whole.
    /// [`DEFAULT_MAX_PAYLOAD_BYTES`] is the reference's 512 KiB.
    pub max_payload_bytes: Option<usize>,
}

/// [`create_envelope`] with [`BuildOptions`]: with `max_payload_bytes`, a payload over the
/// budget is first shrunk as the reference's `serializePayload` does (graphmind-shrink §3,
/// see [`budget_payload_json`]); a payload within budget is kept as it is.
///
/// The shrunk text is read back as the type's payload, so the envelope holds typed fields
/// like any other: serializing writes them in spec order (graphmind-v1 §5.14) and a cut that split a
/// surrogate pair in a typed string field becomes U+FFFD (graphmind-v1 §5.9), which only makes the text
/// shorter. [`shrink_payload`] gives the reference's text byte for byte.
///
/// # Errors
/// [`BuildError`] as [`create_envelope`], and when only the tier-4 marker would fit (not a
/// valid payload, §8).
pub fn create_envelope_with(message: impl Into<Message>, seq: u64, run_id: &str, ts: Option<u64>, options: &BuildOptions) -> Result<Envelope, BuildError> {
    let message = message.into();
    let Some(max) = options.max_payload_bytes else { return create_envelope(message, seq, run_id, ts) };
    let Some(shrunk) = shrink::shrink_message_payload(&message, max) else { return create_envelope(message, seq, run_id, ts) };
    let message_type = message.message_type().to_owned();
    if payload_type_name(&message_type).is_none() {
        // An unknown type's payload is opaque: the marker is as good as any other value.
        let payload = Some(RawJson::from_compact(&shrunk.json));
        return create_envelope(Message::Unknown { message_type, payload }, seq, run_id, ts);
    }
    if shrunk.tier == 4 {
        return Err(shrink::marker_refused(&message_type, max, &shrunk));
    }
    create_envelope_json(&message_type, &shrunk.json, seq, run_id, ts)
}

/// [`create_envelope_json`] with [`BuildOptions`]: with `max_payload_bytes`, a payload over
/// the budget is shrunk for `message_type` first (graphmind-shrink §3, see
/// [`budget_payload_json`]) and the result is validated and built; a payload within budget is
/// validated and built as given. Shrinking can repair an invalid payload that is over budget
/// (a skeleton drops a `null` optional field, §6 V4), as it does in the reference.
///
/// # Errors
/// [`BuildError`] as [`create_envelope_json`], and when only the tier-4 marker would fit.
pub fn create_envelope_json_with(
    message_type: &str,
    payload_json: &str,
    seq: u64,
    run_id: &str,
    ts: Option<u64>,
    options: &BuildOptions,
) -> Result<Envelope, BuildError> {
    let Some(max) = options.max_payload_bytes else { return create_envelope_json(message_type, payload_json, seq, run_id, ts) };
    if payload_type_name(message_type).is_none() {
        // The one builder: an unknown type's payload is opaque, shrunk as the typed route does.
        let raw = RawJson::from_json(payload_json).map_err(|e| BuildError { reason: format!("payload is not valid JSON: {e}"), issues: vec![] })?;
        return create_envelope_with(Message::Unknown { message_type: message_type.to_owned(), payload: Some(raw) }, seq, run_id, ts, options);
    }
    match budget_payload_json(message_type, payload_json, max)? {
        None => create_envelope_json(message_type, payload_json, seq, run_id, ts),
        Some(shrunk) => create_envelope_json(message_type, &shrunk.json, seq, run_id, ts),
    }
}

/// The one builder from a type string and a payload given as JSON text (§5.13): any type
/// string. A known type's payload is validated against it and built typed; any other type is
/// built as [`Message::Unknown`] with the payload kept opaque, byte for byte (what a newer
/// peer's type needs).
///
/// # Errors
/// [`BuildError`] naming the path and rule of every problem: the payload is not JSON, a known
/// type's payload is invalid, or the counters are out of range (see [`create_envelope`]).
pub fn create_envelope_json(message_type: &str, payload_json: &str, seq: u64, run_id: &str, ts: Option<u64>) -> Result<Envelope, BuildError> {
    let ts = ts.unwrap_or_else(now_ms);
    // A known type's valid payload: one pass of the single-pass parser over the spliced frame
    // (and one SIMD scan over the payload: exactly one value), where the general path
    // below reads the payload with the reference reader, several times slower.
    if payload_type_name(message_type).is_some() {
        let frame = splice::splice_frame(message_type, payload_json, seq, run_id, ts);
        if let Some(envelope) = splice::read_spliced(&frame, message_type, seq, run_id, ts) {
            if splice::one_value(payload_json) {
                return Ok(envelope);
            }
        }
    }
    let raw = RawJson::from_json(payload_json).map_err(|e| BuildError { reason: format!("payload is not valid JSON: {e}"), issues: vec![] })?;
    create_envelope(Message::Unknown { message_type: message_type.to_owned(), payload: Some(raw) }, seq, run_id, Some(ts))
}

/// The one builder and the writer in one call, for hosts that hand over JSON text and want the
/// frame's bytes (the JVM fast path): the same frame as [`serialize_envelope`] of
/// [`create_envelope_json`]`(message_type, payload_json, seq, run_id, ts)`, or the same
/// [`BuildError`].
///
/// A known type takes one validating pass: the frame is spliced together from the parts and
/// read by the single-pass parser; when it parses `ok` as exactly the type, counters and `runId`
/// given, with no other envelope member, every rule [`check_envelope`] checks holds (the parser
/// checks the same ones) and the typed envelope is written as [`write_envelope`] writes it. The
/// payload text must also be exactly one JSON value: that holds when the written frame is the
/// spliced one byte for byte (a compact payload in `JSON.stringify`'s form), and is checked by
/// the SIMD scan otherwise (`splice::one_value`, which accepts exactly what [`json::validate`]
/// accepts). Anything else (an unknown type, an invalid payload, counters
/// out of range) takes the general path, which says why.
///
/// # Errors
/// As [`create_envelope_json`] and [`serialize_envelope`].
pub fn build_frame_json(message_type: &str, payload_json: &str, seq: u64, run_id: &str, ts: Option<u64>) -> Result<Vec<u8>, BuildError> {
    let ts = ts.unwrap_or_else(now_ms);
    if payload_type_name(message_type).is_some() {
        let frame = splice::splice_frame(message_type, payload_json, seq, run_id, ts);
        if let Some(envelope) = splice::read_spliced(&frame, message_type, seq, run_id, ts) {
            let mut out = Vec::with_capacity(frame.len());
            write_envelope_unchecked(&envelope, &mut out);
            // The payload must be exactly one JSON value ([`splice::read_spliced`]): it is when
            // the written frame is the spliced one byte for byte (the payload text is then the
            // writer's own text of the value read; the common case, a compact payload from a
            // JSON writer), and is checked on its own otherwise.
            if out == frame || splice::one_value(payload_json) {
                return Ok(out);
            }
        }
    }
    let envelope = create_envelope_json(message_type, payload_json, seq, run_id, Some(ts))?;
    let mut out = Vec::new();
    write_envelope(&envelope, &mut out)?;
    Ok(out)
}

/// Deprecated alias of the one builder: builds an envelope of any type from an opaque
/// payload (`None` omits the key). A known type is validated and built typed, exactly as
/// [`create_envelope`] does with a [`Message::Unknown`]; it is no longer refused.
///
/// # Errors
/// As [`create_envelope`].
#[deprecated(note = "create_envelope_json (or create_envelope with Message::Unknown) takes any type string")]
pub fn create_unknown_envelope(message_type: &str, payload: Option<RawJson>, seq: u64, run_id: &str, ts: Option<u64>) -> Result<Envelope, BuildError> {
    create_envelope(Message::Unknown { message_type: message_type.to_owned(), payload }, seq, run_id, ts)
}

/// Checks an envelope against every rule a frame must meet that Rust types do not already
/// enforce, without writing it: `seq`/`ts` within `0 ≤ x ≤ 2^53 − 1`, no U+0000 in
/// `run_id` (§2 stage 1), a [`Message::Unknown`] not named like a known type, and every
/// integer field of a typed payload within the JS safe range (`|x| ≤ 2^53 − 1`, unsigned
/// ones `≥ 0`). Bindings converting host values call this instead of restating the rules.
/// [`serialize_envelope`] adds the one rule left, the nesting depth of the written frame.
///
/// # Errors
/// [`BuildError`] with one issue per broken rule (paths from the frame root: `seq`, `ts`,
/// `runId`, `type`, `payload.…`).
pub fn check_envelope(envelope: &Envelope) -> Result<(), BuildError> {
    let mut issues = check_counters(envelope.seq, envelope.ts, &envelope.run_id);
    match &envelope.message {
        Message::Unknown { message_type, .. } if payload_type_name(message_type).is_some() => {
            issues.push(Issue::at("type", format!("\"{message_type}\" is a known type: its message must be typed (create_envelope reads it)")));
        }
        m => {
            if let Some(p) = m.payload() {
                check_object(p, &CheckPath::Root("payload"), &mut issues);
            }
        }
    }
    if issues.is_empty() {
        Ok(())
    } else {
        Err(BuildError { reason: "envelope fields out of range".into(), issues })
    }
}

/// A path built only when an issue needs it (the check runs on every serialize, so the
/// happy path allocates nothing).
enum CheckPath<'a> {
    Root(&'static str),
    Key(&'a CheckPath<'a>, &'static str),
    Index(&'a CheckPath<'a>, usize),
}

impl CheckPath<'_> {
    fn path(&self) -> crate::core::IssuePath {
        match self {
            CheckPath::Root(k) => {
                let mut p = crate::core::IssuePath::root();
                p.push_key(k);
                p
            }
            CheckPath::Key(parent, k) => {
                let mut p = parent.path();
                p.push_key(k);
                p
            }
            CheckPath::Index(parent, i) => {
                let mut p = parent.path();
                p.push_index(*i);
                p
            }
        }
    }

    fn issue(&self, message: String) -> Issue {
        Issue { path: self.path(), code: None, message }
    }
}

fn check_object(obj: &dyn crate::core::Reflect, path: &CheckPath<'_>, issues: &mut Vec<Issue>) {
    // Only fields whose declared type can hold a number are looked at: most fields (strings,
    // enums, opaque values, lists of text-only objects) cannot fail this check.
    for f in obj.fields().iter().filter(|f| may_hold_number(&f.ty, 8)) {
        if let Some(v) = obj.get(f.wire) {
            check_field(&v, &CheckPath::Key(path, f.wire), issues);
        }
    }
}

/// Whether a value of declared type `ty` can hold a number (what [`check_field`] checks):
/// `false` only for booleans, strings, enums and opaque values, and lists and objects made of
/// nothing else. Conservative past `depth` levels of nested declarations.
fn may_hold_number(ty: &crate::registry::Ty, depth: u8) -> bool {
    use crate::registry::{Scalar, Ty};
    match ty {
        Ty::Scalar(Scalar::Bool | Scalar::String | Scalar::NonEmptyString | Scalar::Opaque | Scalar::OpaqueRecord) | Ty::Enum(_) => false,
        Ty::Scalar(_) => true,
        Ty::List(item) => may_hold_number(item, depth),
        Ty::Object(o) => depth == 0 || o.fields.iter().any(|f| may_hold_number(&f.ty, depth - 1)),
    }
}

fn check_field(v: &crate::core::FieldRef<'_>, path: &CheckPath<'_>, issues: &mut Vec<Issue>) {
    use crate::core::FieldRef;
    let max = json::MAX_SAFE_INTEGER;
    match v {
        FieldRef::UInt(x) if *x > max => issues.push(path.issue(format!("too big: expected integer to be <= {max}, received {x}"))),
        FieldRef::Int(x) if x.unsigned_abs() > max => {
            issues.push(path.issue(format!("out of range: expected integer between -{max} and {max}, received {x}")));
        }
        FieldRef::Number(x) if !x.is_finite() => issues.push(path.issue(format!("expected a finite number, received {x}"))),
        FieldRef::Object(o) => check_object(*o, path, issues),
        FieldRef::List(items) => {
            for (i, item) in items.iter().enumerate() {
                check_field(item, &CheckPath::Index(path, i), issues);
            }
        }
        _ => {}
    }
}

/// Writes an envelope as `JSON.stringify` would (§5.14): compact, keys
/// `gm, seq, ts, runId, type, payload` then unknown envelope members; known payload fields in
/// spec order, then unknown ones in their original order; opaque values byte for byte.
///
/// **Checked** (issue 12): [`Envelope`]'s fields are public, so it can hold what no frame may
/// carry (`seq = u64::MAX`, U+0000 in `run_id`, a payload integer beyond the safe range, a
/// [`Message::Unknown`] named like a known type). Such an envelope is refused rather than
/// written: whatever this returns parses with [`parse_envelope_json`] (the frame size cap
/// aside, which is the receiver's setting) to the same envelope, `ok` for a typed message and
/// `unknown-type` for [`Message::Unknown`] (a property test holds this).
///
/// # Errors
/// [`BuildError`]: the rules of [`check_envelope`] with their paths, or the written frame
/// nests deeper than [`DEFAULT_MAX_DEPTH`].
pub fn serialize_envelope(envelope: &Envelope) -> Result<String, BuildError> {
    let mut out = Vec::with_capacity(128);
    write_envelope(envelope, &mut out)?;
    // Every byte written is either copied from validated UTF-8 or ASCII.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// [`serialize_envelope`] into a caller's buffer (appends; on error `out` is left as it was).
///
/// # Errors
/// As [`serialize_envelope`].
pub fn write_envelope(envelope: &Envelope, out: &mut Vec<u8>) -> Result<(), BuildError> {
    check_envelope(envelope)?;
    let mark = out.len();
    write_envelope_unchecked(envelope, out);
    // Opaque values nested inside the payload may pass the reader's depth cap.
    if let Err(e) = json::check_written_depth(&out[mark..], DEFAULT_MAX_DEPTH) {
        out.truncate(mark);
        return Err(BuildError { reason: format!("the envelope would not parse: {e}"), issues: vec![] });
    }
    Ok(())
}

/// The writer without the check, for frames whose every field this crate controls (the
/// session runtime's own frames).
pub(crate) fn write_envelope_unchecked(envelope: &Envelope, out: &mut Vec<u8>) {
    write_envelope_parts(envelope, None, out);
}

/// [`write_envelope_unchecked`] with `payload_json` (compact JSON text) in place of the
/// message's own payload: the session splices a shrunk payload in verbatim, as the reference
/// clients do (graphmind-shrink §12).
pub(crate) fn write_envelope_with_payload(envelope: &Envelope, payload_json: &str, out: &mut Vec<u8>) {
    write_envelope_parts(envelope, Some(payload_json), out);
}

fn write_envelope_parts(envelope: &Envelope, payload_json: Option<&str>, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"gm\":1,\"seq\":");
    json::write_int(out, envelope.seq);
    out.extend_from_slice(b",\"ts\":");
    json::write_int(out, envelope.ts);
    out.extend_from_slice(b",\"runId\":");
    json::write_string(out, &envelope.run_id);
    out.extend_from_slice(b",\"type\":");
    json::write_string(out, envelope.message.message_type());
    let mark = out.len();
    out.extend_from_slice(b",\"payload\":");
    if let Some(text) = payload_json {
        out.extend_from_slice(text.as_bytes());
    } else if !envelope.message.write_payload(out) {
        out.truncate(mark);
    }
    let mut first = false;
    envelope.extra.write_members_except(out, &mut first, ENVELOPE_KEYS);
    out.push(b'}');
}

/// [`write_envelope_unchecked`] as a `String`.
pub(crate) fn serialize_envelope_unchecked(envelope: &Envelope) -> String {
    let mut out = Vec::with_capacity(128);
    write_envelope_unchecked(envelope, &mut out);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The envelope's own member names, in wire order (§2): an unknown envelope member never
/// has one of these names.
pub const ENVELOPE_KEYS: &[&str] = &["gm", "seq", "ts", "runId", "type", "payload"];

/// [`ENVELOPE_KEYS`] prepared for [`Cursor::member_key`] (same order: the single pass
/// dispatches on the index).
const ENVELOPE_WIRE_KEYS: [WireKey; ENVELOPE_KEYS.len()] = {
    let mut keys = [WireKey::new(""); ENVELOPE_KEYS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = WireKey::new(ENVELOPE_KEYS[i]);
        i += 1;
    }
    keys
};

impl BreakpointMatcher {
    /// A matcher with the given fields and no unknown members.
    pub fn new(kind: Option<NodeKind>, name: Option<String>, point: Option<PausePoint>) -> Self {
        BreakpointMatcher { kind, name, point, extra: Extras::new() }
    }

    /// The point used for matching and equality: absent means `before` (§5.12).
    pub fn effective_point(&self) -> PausePoint {
        self.point.unwrap_or(PausePoint::Before)
    }

    /// Matcher equality for dedupe and `breakpoint.clear` (§5.12): same `kind`, `name` and
    /// effective point; unknown members do not take part.
    pub fn same_as(&self, other: &BreakpointMatcher) -> bool {
        self.kind == other.kind && self.name == other.name && self.effective_point() == other.effective_point()
    }

    /// Whether this matcher selects a gate (§5.12): effective point equals the gate's, then
    /// `kind` if present, then `name` if present.
    pub fn matches(&self, kind: NodeKind, name: &str, point: PausePoint) -> bool {
        self.effective_point() == point && self.kind.is_none_or(|k| k == kind) && self.name.as_deref().is_none_or(|n| n == name)
    }
}

/// Whether a gate pauses: in step mode at every `before` and `error` point, otherwise when any
/// breakpoint matches (§5.12). The same decision as [`pause_reason`]`(…).is_some()`.
pub fn should_pause(mode: RunMode, breakpoints: &[BreakpointMatcher], kind: NodeKind, name: &str, point: PausePoint) -> bool {
    pause_reason(mode, breakpoints, kind, name, point).is_some()
}

/// Why a gate pauses, or `None` when it does not (§5.12): [`PauseReason::Breakpoint`] when
/// any matcher matches (checked first: the more specific reason), else
/// [`PauseReason::Step`] in step mode at a `before` or `error` point. Only those two
/// reasons come from matching; `error` and `loop` in `exec.paused.reason` are the app's
/// precedence on top (graphmind-session §3.1).
pub fn pause_reason(mode: RunMode, breakpoints: &[BreakpointMatcher], kind: NodeKind, name: &str, point: PausePoint) -> Option<PauseReason> {
    if breakpoints.iter().any(|m| m.matches(kind, name, point)) {
        Some(PauseReason::Breakpoint)
    } else if mode == RunMode::Step && matches!(point, PausePoint::Before | PausePoint::Error) {
        Some(PauseReason::Step)
    } else {
        None
    }
}

/// Adds a matcher unless an equal one (§5.12) is present; returns whether it was added.
pub fn add_breakpoint(breakpoints: &mut Vec<BreakpointMatcher>, matcher: BreakpointMatcher) -> bool {
    if breakpoints.iter().any(|m| m.same_as(&matcher)) {
        return false;
    }
    breakpoints.push(matcher);
    true
}

/// Removes every matcher equal (§5.12) to `matcher`; returns how many were removed.
pub fn clear_breakpoint(breakpoints: &mut Vec<BreakpointMatcher>, matcher: &BreakpointMatcher) -> usize {
    let before = breakpoints.len();
    breakpoints.retain(|m| !m.same_as(matcher));
    before - breakpoints.len()
}
