//! `build_frame_json` (the JVM fast path's builder) against the general path it shortcuts:
//! for every accepted shared vector and real-client frame, rebuilt from its parts, the same
//! bytes as `serialize_envelope(create_envelope_json(...))`; and the same errors for parts
//! that do not make a valid frame.

use crate::common;

use wirecontract::graphmind::{self as gm, ParseOutcome};

fn general(t: &str, payload: &str, seq: u64, run_id: &str, ts: u64) -> Result<Vec<u8>, gm::BuildError> {
    let e = gm::create_envelope_json(t, payload, seq, run_id, Some(ts))?;
    gm::serialize_envelope(&e).map(String::into_bytes)
}

/// The payload member's exact text in a written frame.
fn payload_text(frame: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct F<'a> {
        #[serde(borrow)]
        payload: Option<&'a serde_json::value::RawValue>,
    }
    serde_json::from_str::<F>(frame).ok()?.payload.map(|p| p.get().to_owned())
}

#[test]
fn same_bytes_as_the_general_path_for_every_accepted_vector() {
    let mut n = 0;
    for v in common::graphmind_vectors() {
        let (ParseOutcome::Ok(e) | ParseOutcome::UnknownType(e)) = gm::parse(&v.frame, &gm::ParseOptions::default()) else { continue };
        let written = gm::serialize_envelope(&e).unwrap();
        let Some(payload) = payload_text(&written) else { continue };
        let t = e.message_type();
        assert_eq!(gm::build_frame_json(t, &payload, e.seq, &e.run_id, Some(e.ts)), general(t, &payload, e.seq, &e.run_id, e.ts), "{}", v.name);
        n += 1;
    }
    assert!(n > 100, "{n}");
}

#[test]
fn same_errors_as_the_general_path() {
    for (t, p, seq, run) in common::builder_edge_cases() {
        assert_eq!(gm::build_frame_json(t, p, seq, run, Some(5)), general(t, p, seq, run, 5), "{t} {p}");
    }
}
