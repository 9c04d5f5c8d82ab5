//! Payload shrinking, `serializePayload` (spec `graphmind-shrink`, §3 entry point), byte for
//! byte with the reference: the JSON text a sender puts on the wire (and the hub stores) for a
//! payload that may exceed a byte budget.
//!
//! The shrink is a function of a JSON *value* with JavaScript semantics ([`JsValue`]), not of
//! the input text: `1.0` is written `1`, `1e400` is Infinity and is written `null`, objects
//! enumerate array-index keys first (§2, "Decisions"). Four tiers, tried in order:
//!
//! 1. the payload's `JSON.stringify` text, unchanged, when it fits `max_bytes` (UTF-8 bytes);
//! 2. the field trim (§4): the biggest top-level fields shrunk in place, type preserved;
//! 3. the skeleton (§7): only the event type's planned keys, hard-shrunk;
//! 4. a marker `{"__graphmindTruncated":true,"bytes":…,"preview":…}` (§8).
//!
//! Tiers 2 and 3 must also validate as the event type's payload (§6). Tiers 1–3 always fit the
//! budget; tier 4 is never checked against it and is at most [`TIER4_MAX_BYTES`].
//!
//! Cost: linear in the payload size (plus sorting top-level keys by size and array-index
//! keys by value). Nothing recurses on the payload's depth: reading, writing and dropping use
//! explicit stacks, and the shrink itself stops at depth [`MAX_SHRINK_DEPTH`]. Memory: the
//! value (2–3× the text), its re-serialized text (1×) and each candidate output (bounded by
//! `max_bytes` plus the kept originals), so about 4–5× the input at peak.
//!
//! Decisions where the spec leaves a choice (§14): JavaScript key order everywhere (A2); the
//! unserializable path (§9) is never taken, since any parsed value serializes (A4); the
//! output is `JSON.stringify` text even in tier 1 (A6, A7).

mod budget;
mod read;
mod skeleton;
mod text;
mod trim;
mod units;
mod unserializable;
mod value;
mod write;

use std::borrow::Cow;

pub(crate) use budget::marker_refused;
pub use budget::{budget_payload_json, shrink_message_payload};
pub use read::parse_js_value;
pub use skeleton::{skeleton_plan, PlanKey};
pub use units::{cut, len16, prefix16, TRUNCATION_SUFFIX};
pub use unserializable::{shrink_unserializable_json, RefusedField, UNSERIALIZABLE_PAYLOAD, UNSERIALIZABLE_VALUE};
pub use value::{JsObject, JsString, JsValue};

use wirecontract_json::SyntaxError;

/// Default budget: 512 KiB of UTF-8 payload JSON (§1 MAX_PAYLOAD_BYTES).
pub const DEFAULT_MAX_PAYLOAD_BYTES: usize = 524_288;
/// Preview length, in UTF-16 units (§1 PREVIEW_CHARS); also the tier-2 string cut.
pub const PREVIEW_CHARS: usize = 2000;
/// Object depth at which a shrunk field's objects become a marker (§1, §5 F4).
pub const MAX_SHRINK_DEPTH: usize = 6;
/// Keys kept per object inside a shrunk field (§1, §5 F5).
pub const MAX_SHRINK_KEYS: usize = 256;
/// Top-level key limit for tier 2 (§1 MAX_TRIM_FIELDS, §3 S4; not MAX_SHRINK_KEYS, §13 D6).
pub const MAX_TRIM_FIELDS: usize = 4096;
/// String cut of the first two skeleton attempts, in UTF-16 units (§1, §7.2 K1).
pub const SKELETON_CHARS: usize = 256;
/// String cut of the last skeleton attempt, in UTF-16 units (§1, §7.2 K1).
pub const SKELETON_MIN_CHARS: usize = 32;
/// Upper bound of a tier-4 output in bytes, whatever the budget (§8, §14 A9): the marker's
/// keys, a `bytes` count and a 2000-unit preview of at most 3 bytes a unit (6 for a trailing
/// lone surrogate) once escaped.
pub const TIER4_MAX_BYTES: usize = 6_080;

/// The marker key every shrunk result carries (`isTruncatedPayload` looks for `true` there).
pub const MARKER_KEY: &str = "__graphmindTruncated";

/// A shrink result (§3): the text to send and which tier produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk {
    /// The payload's JSON text (`JSON.stringify`-exact, compact, UTF-8).
    pub json: String,
    /// 1 unchanged, 2 field trim, 3 skeleton, 4 whole-payload marker.
    pub tier: u8,
}

impl Shrunk {
    /// The reference's `truncated` flag: true in tiers 2–4.
    pub fn truncated(&self) -> bool {
        self.tier > 1
    }
}

/// Writes the value, recording the byte span of each top-level member's value (§4 T1).
fn stringify_with_spans(value: &JsValue) -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut text = Vec::new();
    let mut spans = Vec::new();
    match value {
        JsValue::Object(o) => {
            text.push(b'{');
            for (i, (k, v)) in o.entries().iter().enumerate() {
                if i > 0 {
                    text.push(b',');
                }
                write::write_str(&mut text, k.as_wtf8());
                text.push(b':');
                let start = text.len();
                write::write_value(&mut text, v);
                spans.push((start, text.len()));
            }
            text.push(b'}');
        }
        other => write::write_value(&mut text, other),
    }
    (text, spans)
}

/// `serializePayload(payload, maxBytes, type)` (§3): shrinks `value` to at most `max_bytes`
/// UTF-8 bytes of JSON.
///
/// `message_type` selects the skeleton plan and the validation of tiers 2–3; only the 10
/// event types have them (exact match: `Node.Finished`, `constructor` or a control type
/// count as no type). A payload within budget comes back as its `JSON.stringify` text,
/// tier 1. Never fails, never panics, for any value.
pub fn shrink_payload(value: &JsValue, max_bytes: usize, message_type: Option<&str>) -> Shrunk {
    // S1.
    let event = skeleton::event(message_type);
    // S2, S3.
    let (text, spans) = stringify_with_spans(value);
    let total = text.len();
    if total <= max_bytes {
        return Shrunk { json: write::into_string(text), tier: 1 };
    }
    let preview = prefix16(&text, PREVIEW_CHARS);
    if let JsValue::Object(o) = value {
        // S4.
        if o.len() <= MAX_TRIM_FIELDS {
            if let Some(json) = trim::trim(o, &spans, &text, max_bytes) {
                if skeleton::valid_or_unchecked(event, &json) {
                    return Shrunk { json, tier: 2 };
                }
            }
        }
        // S5.
        if let Some(event) = event {
            if let Some(json) = skeleton::skeleton(o, event, max_bytes, total, &preview) {
                return Shrunk { json, tier: 3 };
            }
        }
    }
    // S6.
    let mut json = Vec::new();
    write::write_out(&mut json, &trim::marker(total, Cow::Borrowed(&preview)));
    Shrunk { json: write::into_string(json), tier: 4 }
}

/// [`shrink_payload`] over JSON text read with `JSON.parse` semantics ([`parse_js_value`]):
/// lone surrogates kept, numbers as doubles, whitespace and escapes not counted (the budget is
/// measured on the re-serialized text, §3 S3).
///
/// # Errors
/// [`SyntaxError`] (byte offset and reason) when `text` is not one JSON value.
///
/// A single pass ([`shrink_single_pass`]) re-spells the text as `JSON.stringify` would,
/// copying the spans already spelled so, and trims from that text; a payload with duplicate,
/// array-index or escaped keys, and a shrink that needs the skeleton, reads the value first.
/// Both give the same bytes.
pub fn shrink_payload_json(text: &str, max_bytes: usize, message_type: Option<&str>) -> Result<Shrunk, SyntaxError> {
    if let Some(s) = shrink_single_pass(text, max_bytes, message_type) {
        return Ok(s);
    }
    Ok(shrink_payload(&parse_js_value(text)?, max_bytes, message_type))
}

/// The single pass of [`shrink_payload_json`] alone: `Some` when `text` is JSON without
/// duplicate, array-index or escaped keys and the result is tier 1, 2 or 4 without a skeleton
/// attempt; then it equals [`shrink_payload`] of the parsed value. `None` otherwise (invalid
/// JSON included).
pub fn shrink_single_pass(text: &str, max_bytes: usize, message_type: Option<&str>) -> Option<Shrunk> {
    text::shrink(text, max_bytes, skeleton::event(message_type))
}
