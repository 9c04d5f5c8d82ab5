//! The single-pass reader is an optimisation only: for every frame, `parse_envelope_json`
//! (single pass, bailing to the reference on anything unusual) must return exactly what the
//! two-pass reference reader returns — verdict, envelope, issues and messages; and so must
//! `parse_envelope_shared_with`, whose opaque values are spans of the shared frame text.

mod common;

use proptest::prelude::*;
use wirecontract::graphmind::{
    parse_envelope_json, parse_envelope_json_reference, parse_envelope_shared_with, parse_single_pass, serialize_envelope, Message, ParseOptions, ParseOutcome,
    SharedText,
};

fn same(frame: &str) {
    let opts = ParseOptions::default();
    let reference = parse_envelope_json_reference(frame, &opts);
    assert_eq!(parse_envelope_json(frame), reference, "frame {frame:?}");
    assert_eq!(parse_envelope_shared_with(&SharedText::new(frame.to_owned()), &opts), reference, "shared, frame {frame:?}");
}

#[test]
fn shared_parse_keeps_compact_opaque_values_as_spans() {
    let frame = r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":[1,"é\n"]},"extraKey":{"b":true}}"#;
    let ParseOutcome::UnknownType(env) = parse_envelope_shared_with(&SharedText::new(frame.to_owned()), &ParseOptions::default()) else { panic!() };
    let Message::Unknown { payload: Some(p), .. } = &env.message else { panic!() };
    assert!(p.is_shared());
    assert_eq!(p.as_str(), r#"{"a":[1,"é\n"]}"#);
    assert_eq!(serialize_envelope(&env).unwrap(), frame);
    // With whitespace inside, the value is copied compact, as the reference stores it.
    let spaced = frame.replace(r#"{"a":[1,"#, r#"{"a": [1, "#);
    let ParseOutcome::UnknownType(env) = parse_envelope_shared_with(&SharedText::new(spaced), &ParseOptions::default()) else { panic!() };
    let Message::Unknown { payload: Some(p), .. } = &env.message else { panic!() };
    assert!(!p.is_shared());
    assert_eq!(serialize_envelope(&env).unwrap(), frame);
}

/// Inserts whitespace after every structural character outside strings.
fn spaced(frame: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut esc = false;
    for c in frame.chars() {
        out.push(c);
        if in_str {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        } else if matches!(c, ',' | ':' | '{' | '[') {
            out.push_str(" \n\t");
        }
    }
    format!(" {out}\r\n")
}

#[test]
fn single_pass_agrees_with_the_reference_on_every_vector() {
    let vectors = common::graphmind_vectors();
    let mut decided = 0;
    for v in &vectors {
        same(&v.frame);
        same(&spaced(&v.frame));
        if parse_single_pass(&v.frame, 100_000).is_some() {
            decided += 1;
        }
    }
    // The fast path must actually decide the valid frames, not bail on everything.
    let ok = vectors.iter().filter(|v| v.expect == "ok" || v.expect == "unknown-type").count();
    assert!(decided * 10 >= ok * 9, "single pass decided only {decided} of {ok} valid frames");
}

#[test]
fn single_pass_agrees_on_truncations_reorderings_and_duplicates() {
    let vectors = common::graphmind_vectors();
    for v in vectors.iter().filter(|v| v.expect == "ok" && v.frame.len() <= 600).take(60) {
        let f = &v.frame;
        for cut in (0..f.len()).filter(|&i| f.is_char_boundary(i)) {
            same(&f[..cut]);
        }
        if let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(f) {
            // Payload first, type last.
            let mut keys: Vec<_> = m.keys().cloned().collect();
            keys.sort_by_key(|k| match k.as_str() {
                "payload" => 0,
                "type" => 2,
                _ => 1,
            });
            let body: Vec<String> = keys.iter().map(|k| format!("{}:{}", serde_json::to_string(k).unwrap(), m[k])).collect();
            same(&format!("{{{}}}", body.join(",")));
            // Duplicated members: an earlier bad value, a later good one, and the reverse.
            let inner = &f[1..f.len() - 1];
            same(&format!("{{\"type\":7,\"payload\":null,\"gm\":\"x\",{inner}}}"));
            same(&format!("{{{inner},\"type\":\"node.error\"}}"));
            same(&format!("{{{inner},\"gm\":2}}"));
            same(&format!("{{{inner},\"payload\":{{}}}}"));
        }
    }
}

fn json_fragment() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\"gm\"",
        "1",
        "\"seq\"",
        "0",
        "\"ts\"",
        "\"runId\"",
        "\"r\"",
        "\"type\"",
        "\"node.token\"",
        "\"payload\"",
        "\"nodeId\"",
        "\"deltas\"",
        "\"t\"",
        "\"text\"",
        "\"v\"",
        "\"x\\u0041\"",
        "\"\\ud800\"",
        "null",
        "true",
        "-0",
        "1e3",
        "2.5",
        "\"kind\"",
        "\"llm\"",
        "\"extra\"",
    ]);
    prop::collection::vec(atoms, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn single_pass_agrees_on_token_soup(body in json_fragment()) {
        let frame = format!("{{\"gm\":1,\"seq\":1,\"ts\":2,\"runId\":\"r\",\"type\":\"node.token\",\"payload\":{{\"nodeId\":\"n\",\"deltas\":[{body}]}}}}");
        same(&frame);
        same(&body);
        let frame = format!("{{\"gm\":1,\"seq\":1,\"ts\":2,\"runId\":\"r\",\"type\":\"node.started\",\"payload\":{{\"nodeId\":\"n\",\"kind\":\"llm\",\"name\":\"x\",\"instanceId\":\"i\",\"input\":{body}}}}}");
        same(&frame);
    }
}

#[test]
fn a_valid_frame_never_reaches_the_reference_path() {
    let frame = r#"{"gm":1,"seq":3,"ts":4,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"hi"}],"x":[1, 2]},"z":{}}"#;
    assert!(matches!(parse_single_pass(frame, 100), Some(ParseOutcome::Ok(_))));
}
