//! `create_envelope_json`'s one-pass route (the frame spliced from its parts and read by the
//! single-pass parser) against the general path it shortcuts (the payload read by the reference
//! reader through `create_envelope` with a `Message::Unknown`): the same envelope, or the same
//! error, for the payload text of every shared vector and real-client frame as it stands in the
//! frame (spacing, escapes, duplicate keys, invalid payloads included), the same payloads
//! re-spaced, and edge texts (not one JSON value, out-of-range counters, reordered or
//! duplicate keys). That the one-pass route is taken at all is `splice.rs`'s unit test.

use crate::common;

use wirecontract::graphmind::{self as gm, Message, RawJson};

fn general(t: &str, payload: &str, seq: u64, run_id: &str, ts: u64) -> Result<gm::Envelope, gm::BuildError> {
    let raw = RawJson::from_json(payload).map_err(|e| gm::BuildError { reason: format!("payload is not valid JSON: {e}"), issues: vec![] })?;
    gm::create_envelope(Message::Unknown { message_type: t.to_owned(), payload: Some(raw) }, seq, run_id, Some(ts))
}

fn assert_same(t: &str, payload: &str, seq: u64, run_id: &str, what: &str) {
    let fast = gm::create_envelope_json(t, payload, seq, run_id, Some(5));
    let slow = general(t, payload, seq, run_id, 5);
    assert_eq!(fast, slow, "{what}: {t} {payload}");
    // Equal envelopes must also write equal frames (nothing the comparison above misses).
    if let (Ok(a), Ok(b)) = (&fast, &slow) {
        assert_eq!(gm::serialize_envelope(a), gm::serialize_envelope(b), "{what}");
    }
}

/// The type and the payload member's exact text of a frame, if it has both.
fn parts(frame: &str) -> Option<(String, String)> {
    #[derive(serde::Deserialize)]
    struct F<'a> {
        #[serde(rename = "type")]
        t: String,
        #[serde(borrow)]
        payload: Option<&'a serde_json::value::RawValue>,
    }
    let f = serde_json::from_str::<F>(frame).ok()?;
    Some((f.t, f.payload?.get().to_owned()))
}

#[test]
fn same_result_as_the_general_path_for_every_vector_payload() {
    let (mut n, mut built) = (0, 0);
    for v in common::graphmind_vectors() {
        let Some((t, payload)) = parts(&v.frame) else { continue };
        assert_same(&t, &payload, 7, "run-1", &v.name);
        // Re-spaced: insignificant whitespace the parser skips in another place.
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&payload) {
            assert_same(&t, &serde_json::to_string_pretty(&value).unwrap(), 7, "run-1", &v.name);
        }
        n += 1;
        built += usize::from(gm::create_envelope_json(&t, &payload, 7, "run-1", Some(5)).is_ok());
    }
    // Most vectors are known types with valid payloads: the one-pass route's own case.
    assert!(n > 300 && built > 200, "{n} payloads, {built} built");
}

#[test]
fn same_result_for_edge_payload_texts() {
    for (t, p, seq, run) in common::builder_edge_cases() {
        assert_same(t, p, seq, run, "case");
    }
}

#[test]
fn a_second_payload_member_is_refused_not_read() {
    // The one case where the spliced frame parses `ok` as the parts given, yet the payload text
    // is not one value: the route must not hand back the last payload.
    let p = r#"{"nodeId":"a","deltas":[]},"payload":{"nodeId":"b","deltas":[]}"#;
    assert!(gm::create_envelope_json("node.token", p, 0, "r", Some(5)).is_err());
}
