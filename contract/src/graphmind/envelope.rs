//! The envelope and the parse outcome: [`Envelope`] `{gm, seq, ts, runId, type, payload}`,
//! [`ParseOutcome`] (the four verdicts of §2), [`ParseOptions`] (the limits) and
//! [`ENVELOPE_KEYS`].

use crate::wire::{Extras, Issue};
use wirecontract_json::cursor::WireKey;

use super::{Message, DEFAULT_MAX_DEPTH, DEFAULT_MAX_FRAME_BYTES, PROTOCOL_VERSION};

/// A GraphMind envelope `{gm, seq, ts, runId, type, payload}` with its unknown members.
///
/// `gm` is always [`PROTOCOL_VERSION`] for an accepted envelope, so it is not stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// Sequence number: a safe integer `0 ≤ seq ≤ 2^53 − 1`.
    pub seq: u64,
    /// Timestamp, epoch milliseconds: a safe integer `≥ 0`.
    pub ts: u64,
    /// Run id (no lone surrogate, no U+0000; may be empty or [`WILDCARD_RUN_ID`](super::WILDCARD_RUN_ID)).
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
    /// A structurally valid `gm: 1` envelope whose type is not one of [`MESSAGE_TYPES`](super::MESSAGE_TYPES);
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

/// The envelope's own member names, in wire order (§2): an unknown envelope member never
/// has one of these names.
pub const ENVELOPE_KEYS: &[&str] = &["gm", "seq", "ts", "runId", "type", "payload"];

/// [`ENVELOPE_KEYS`] prepared for [`wirecontract_json::cursor::Cursor::member_key`] (same order: the single pass
/// dispatches on the index).
pub(super) const ENVELOPE_WIRE_KEYS: [WireKey; ENVELOPE_KEYS.len()] = {
    let mut keys = [WireKey::new(""); ENVELOPE_KEYS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = WireKey::new(ENVELOPE_KEYS[i]);
        i += 1;
    }
    keys
};
