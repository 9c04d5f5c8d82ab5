//! The checked writer (§5.14): [`serialize_envelope`] and [`write_envelope`] write an envelope
//! as `JSON.stringify` would, after [`check_envelope`]; the unchecked forms are for the
//! session runtime's own frames.

use wirecontract_json as json;

use super::check::check_envelope;
use super::{BuildError, Envelope, DEFAULT_MAX_DEPTH, ENVELOPE_KEYS};

/// Writes an envelope as `JSON.stringify` would (§5.14): compact, keys
/// `gm, seq, ts, runId, type, payload` then unknown envelope members; known payload fields in
/// spec order, then unknown ones in their original order; opaque values byte for byte.
///
/// **Checked** (issue 12): [`Envelope`]'s fields are public, so it can hold what no frame may
/// carry (`seq = u64::MAX`, U+0000 in `run_id`, a payload integer beyond the safe range, a
/// [`Message::Unknown`](super::Message::Unknown) named like a known type). Such an envelope is refused rather than
/// written: whatever this returns parses with [`super::parse()`] (the frame size cap
/// aside, which is the receiver's setting) to the same envelope, `ok` for a typed message and
/// `unknown-type` for [`Message::Unknown`](super::Message::Unknown) (a property test holds this).
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
