//! The builders (§5.13): [`create_envelope`] and [`create_envelope_json`] (one builder for any
//! type string), their [`BuildOptions`] variants (the payload budget), [`build_frame_json`]
//! (build and write in one call), and [`counter_from_i64`] for hosts without
//! unsigned integers. A payload given as JSON text takes the one-pass route of `splice.rs`.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::wire::{Ctx, Extras, Issue, Path};
use wirecontract_json::{RawJson, Val};

use super::check::{check_counters, counter_issue};
use super::error::BuildError;
use super::write::{write_envelope, write_envelope_unchecked};
use super::{budget_payload_json, payload_type_name, shrink, splice, Envelope, Message};

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

/// Builds an envelope (§5.13): `gm` is 1, `ts` defaults to now (epoch ms), no unknown
/// envelope members. A typed message is valid by construction; a [`Message::Unknown`] whose
/// type is one of [`MESSAGE_TYPES`](super::MESSAGE_TYPES) is read typed (its payload must be valid for that type),
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
    /// [`DEFAULT_MAX_PAYLOAD_BYTES`](super::DEFAULT_MAX_PAYLOAD_BYTES) is the reference's 512 KiB.
    pub max_payload_bytes: Option<usize>,
}

/// [`create_envelope`] with [`BuildOptions`]: with `max_payload_bytes`, a payload over the
/// budget is first shrunk as the reference's `serializePayload` does (graphmind-shrink §3,
/// see [`budget_payload_json`]); a payload within budget is kept as it is.
///
/// The shrunk text is read back as the type's payload, so the envelope holds typed fields
/// like any other: serializing writes them in spec order (graphmind-v1 §5.14) and a cut that split a
/// surrogate pair in a typed string field becomes U+FFFD (graphmind-v1 §5.9), which only makes the text
/// shorter. [`shrink_payload`](super::shrink_payload) gives the reference's text byte for byte.
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
/// frame's bytes (the JVM fast path): the same frame as [`serialize_envelope`](super::serialize_envelope) of
/// [`create_envelope_json`]`(message_type, payload_json, seq, run_id, ts)`, or the same
/// [`BuildError`].
///
/// A known type takes one validating pass: the frame is spliced together from the parts and
/// read by the single-pass parser; when it parses `ok` as exactly the type, counters and `runId`
/// given, with no other envelope member, every rule [`check_envelope`](super::check_envelope) checks holds (the parser
/// checks the same ones) and the typed envelope is written as [`write_envelope`] writes it. The
/// payload text must also be exactly one JSON value: that holds when the written frame is the
/// spliced one byte for byte (a compact payload in `JSON.stringify`'s form), and is checked by
/// the SIMD scan otherwise (`splice::one_value`, which accepts exactly what [`json::validate`](wirecontract_json::validate)
/// accepts). Anything else (an unknown type, an invalid payload, counters
/// out of range) takes the general path, which says why.
///
/// # Errors
/// As [`create_envelope_json`] and [`serialize_envelope`](super::serialize_envelope).
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
