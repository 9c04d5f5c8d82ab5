//! The payload budget where frames are made: [`budget_payload_json`] (what
//! `create_envelope_json_with` and the bindings' `max_payload_bytes` use) and
//! [`shrink_message_payload`] (what the session's `emit` uses, graphmind-session §2.3 step 4).
//!
//! Both decide exactly as `serializePayload` does (graphmind-shrink §3 S3: the budget is
//! measured on the payload's `JSON.stringify` text) and leave a payload within budget as it
//! is, so its own text (numbers as written, graphmind-v1 §5.6) goes on the wire.

use crate::graphmind::{payload_type_name, BuildError, Message};
use crate::wire::Issue;

use super::{shrink_payload_json, Shrunk};

/// The most a payload's `JSON.stringify` text can outgrow the text wirecontract writes for it
/// (or any valid JSON text of it): only number tokens grow when re-spelled, at most from
/// 4 bytes to 21 (`1e20` → `100000000000000000000`, graphmind-shrink §2 P5). A text of at
/// most `max / 6` bytes is therefore within budget without being shrunk: the fast path.
const MAX_RESPELL_GROWTH: usize = 6;

/// [`shrink_payload_json`] for a payload about to be framed: `Ok(None)` when it is within
/// `max_bytes` (tier 1: the caller keeps its own text), otherwise the shrunk result
/// (tier 2–4).
fn shrink_over_budget(message_type: Option<&str>, payload_json: &str, max_bytes: usize) -> Result<Option<Shrunk>, wirecontract_json::SyntaxError> {
    if payload_json.len() <= max_bytes / MAX_RESPELL_GROWTH {
        return Ok(None);
    }
    let shrunk = shrink_payload_json(payload_json, max_bytes, message_type)?;
    Ok((shrunk.tier > 1).then_some(shrunk))
}

/// The payload a frame of `message_type` carries under a budget of `max_payload_bytes`
/// UTF-8 bytes of payload JSON (graphmind-shrink §1 MAX_PAYLOAD_BYTES, §3).
///
/// - `Ok(None)`: the payload fits (tier 1); build the frame from `payload_json` as given.
/// - `Ok(Some(shrunk))`: build it from `shrunk.json` instead (tier 2 field trim or tier 3
///   skeleton; for a type outside [`MESSAGE_TYPES`](crate::graphmind::MESSAGE_TYPES) also the
///   tier-4 marker, an opaque payload like any other).
///
/// For the 10 event types a tier-2/3 result is a valid payload of the type (§6). The payload
/// itself is not validated here: building does that, on the text it is given.
///
/// # Errors
/// [`BuildError`] when `payload_json` is not JSON, or when only the tier-4 marker
/// `{"__graphmindTruncated":true,"bytes":…,"preview":…}` fits a known type (§8: the marker is
/// not a valid payload of any type). A valid event payload always fits in tiers 1–3 when
/// `max_payload_bytes` ≥ 4096 (§14 A9); an invalid one, a control or handshake payload, or a
/// smaller budget may not.
pub fn budget_payload_json(message_type: &str, payload_json: &str, max_payload_bytes: usize) -> Result<Option<Shrunk>, BuildError> {
    let shrunk = shrink_over_budget(Some(message_type), payload_json, max_payload_bytes)
        .map_err(|e| BuildError { reason: format!("payload is not valid JSON: {e}"), issues: vec![] })?;
    match shrunk {
        Some(s) if s.tier == 4 && payload_type_name(message_type).is_some() => Err(marker_refused(message_type, max_payload_bytes, &s)),
        other => Ok(other),
    }
}

/// The error for a payload of a known type that only the tier-4 marker would fit.
pub(crate) fn marker_refused(message_type: &str, max_payload_bytes: usize, marker: &Shrunk) -> BuildError {
    // The marker's `bytes`: the size of the payload's JSON text (§8).
    let tail = marker.json.split_once("\"bytes\":").map_or("", |(_, t)| t);
    let bytes = tail.split(|c: char| !c.is_ascii_digit()).next().unwrap_or_default();
    BuildError {
        reason: format!(
            "payload of type \"{message_type}\" does not fit max_payload_bytes ({max_payload_bytes}): only the whole-payload marker would (graphmind-shrink §8), and it is not a valid payload"
        ),
        issues: vec![Issue::at(
            "payload",
            format!("{bytes} bytes of payload JSON; neither the field trim nor the skeleton gave a valid payload within {max_payload_bytes} bytes"),
        )],
    }
}

/// What the session runtime sends for `message` under a budget of `max_payload_bytes`
/// (graphmind-session §2.3 step 4, as the reference clients do): `None` when the payload fits
/// (tier 1: the message's own text goes out), otherwise the shrunk payload text, tiers 2–4,
/// to be spliced into the frame verbatim (the tier-4 marker included, which no typed payload
/// can hold). A message without a payload is never shrunk.
pub fn shrink_message_payload(message: &Message, max_payload_bytes: usize) -> Option<Shrunk> {
    let mut text = Vec::new();
    if !message.write_payload(&mut text) || text.len() <= max_payload_bytes / MAX_RESPELL_GROWTH {
        return None;
    }
    // The writer emits UTF-8 (validated input or ASCII escapes) and valid JSON.
    let text = String::from_utf8(text).ok()?;
    shrink_over_budget(Some(message.message_type()), &text, max_payload_bytes).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphmind::{create_envelope_json, DEFAULT_MAX_PAYLOAD_BYTES};

    fn node_finished(output_chars: usize) -> String {
        format!(r#"{{"nodeId":"n","output":"{}","durationMs":1.5,"status":"ok"}}"#, "x".repeat(output_chars))
    }

    #[test]
    fn within_budget_is_none_and_over_budget_is_a_valid_trim() {
        assert_eq!(budget_payload_json("node.finished", &node_finished(10), 100), Ok(None));
        let s = budget_payload_json("node.finished", &node_finished(20_000), 10_000).expect("fits").expect("shrunk");
        assert_eq!(s.tier, 2);
        assert!(s.json.len() <= 10_000);
        assert!(create_envelope_json("node.finished", &s.json, 1, "r", Some(0)).is_ok());
        // The fast path agrees with the full decision at its edge.
        let text = node_finished(DEFAULT_MAX_PAYLOAD_BYTES / MAX_RESPELL_GROWTH - 60);
        assert!(text.len() <= DEFAULT_MAX_PAYLOAD_BYTES / MAX_RESPELL_GROWTH);
        assert_eq!(shrink_payload_json(&text, DEFAULT_MAX_PAYLOAD_BYTES, Some("node.finished")).map(|s| s.tier), Ok(1));
    }

    #[test]
    fn respelled_numbers_count_as_the_reference_counts_them() {
        // 9 bytes as written, 26 as JSON.stringify writes it.
        let text = "[1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20]";
        assert_eq!(shrink_over_budget(None, text, text.len()).map(|s| s.map(|s| s.tier)), Ok(Some(4)));
        assert_eq!(shrink_over_budget(None, text, 5000), Ok(None));
    }

    #[test]
    fn tier_four_is_an_error_for_a_known_type_and_opaque_for_an_unknown_one() {
        let e = budget_payload_json(
            "node.finished",
            r#"{"nodeId":"n","durationMs":-1,"status":"ok","output":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}"#,
            60,
        )
        .expect_err("tier 4");
        assert!(e.reason.contains("max_payload_bytes (60)"), "{e}");
        assert_eq!(e.issues[0].dotted_path(), "payload");
        assert!(e.issues[0].message.starts_with("128 bytes"), "{e}");
        let s = budget_payload_json("future.thing", &format!("[\"{}\"]", "y".repeat(200)), 100).expect("opaque").expect("shrunk");
        assert_eq!(s.tier, 4);
        assert!(budget_payload_json("node.finished", "{", 0).expect_err("not JSON").reason.starts_with("payload is not valid JSON"));
    }
}
