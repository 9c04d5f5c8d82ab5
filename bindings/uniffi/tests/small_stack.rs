//! The exported functions on a thread with a 256 KiB stack (what a host may call from): deep
//! frames give verdicts and errors, never a stack overflow. The Kotlin suite repeats this
//! through JNA.

use wirecontract_uniffi::{
    decode_json, encode_json, parse_envelope_json, serialize_envelope, shrink_payload_json, ContractError, JsonText, Message, ParseResult,
};

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).expect("spawn").join().expect("no panic")
}

fn nested_payload(depth: usize) -> String {
    format!(r#"{{"gm":1,"seq":1,"ts":0,"runId":"r","type":"future.x","payload":{}{}}}"#, "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn a_million_levels_is_invalid_not_a_crash() {
    let frame = nested_payload(1_000_000);
    let r = on_small_stack(move || parse_envelope_json(frame.into(), None));
    assert!(matches!(&r, ParseResult::Invalid { reason, issues: None, .. } if reason.contains("deeper than")), "{r:?}");
}

#[test]
fn ten_thousand_levels_parse_serialize_and_refuse_a_tree() {
    let frame = nested_payload(10_000);
    on_small_stack(move || {
        let ParseResult::UnknownType { envelope } = parse_envelope_json(frame.clone().into(), None) else { panic!("not unknown-type") };
        assert_eq!(serialize_envelope(envelope.clone()).expect("serializes"), frame);
        let Message::Unknown { payload: Some(payload), .. } = envelope.message else { panic!("no payload") };
        assert!(matches!(decode_json(payload), Err(ContractError::Json { .. })));
    });
}

#[test]
fn the_deepest_tree_decodes_and_encodes() {
    on_small_stack(|| {
        let depth = wirecontract_uniffi::JSON_VALUE_MAX_DEPTH as usize;
        let text = "[".repeat(depth) + &"]".repeat(depth);
        let tree = decode_json(JsonText(text.clone())).expect("decodes");
        assert_eq!(encode_json(tree).expect("encodes").0, text);
    });
}

#[test]
fn a_million_levels_shrink_on_a_small_stack() {
    let text = format!(r#"{{"nodeId":"n","output":{}{},"durationMs":1,"status":"ok"}}"#, "[".repeat(1_000_000), "]".repeat(1_000_000));
    let s = on_small_stack(move || shrink_payload_json(JsonText(text), 4096, Some("node.finished".into())).expect("shrinks"));
    assert_eq!(s.tier, 2);
    assert_eq!(s.json.get(..36), Some(r#"{"nodeId":"n","output":[],"durationM"#));
}
