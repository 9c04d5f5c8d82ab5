//! Every shared conformance vector, our own extra vectors and every real-client frame give
//! the expected verdict and type; every `ok` frame survives serialize → parse unchanged.

use crate::common;

use wirecontract::graphmind::{parse, serialize_envelope, ParseOptions, ParseOutcome};

#[test]
fn every_vector_gives_the_expected_verdict_and_type() {
    let mut failures = Vec::new();
    let vectors = common::graphmind_vectors();
    for v in &vectors {
        let out = parse(&v.frame, &ParseOptions::default());
        let got_type = out.envelope().map(|e| e.message_type().to_owned());
        if out.kind() != v.expect || (v.message_type.is_some() && got_type != v.message_type) {
            failures.push(format!("{}/{}: expected {} {:?}, got {} {:?} ({out:?})", v.source, v.name, v.expect, v.message_type, out.kind(), got_type));
        }
        // Text and bytes entry points agree.
        assert_eq!(parse(v.frame.as_bytes(), &ParseOptions::default()), out, "{}", v.name);
    }
    assert!(failures.is_empty(), "{} of {} vectors disagree:\n{}", failures.len(), vectors.len(), failures.join("\n"));
}

#[test]
fn every_ok_frame_round_trips_with_unknown_fields_and_opaque_values() {
    for v in common::graphmind_vectors() {
        let out = parse(&v.frame, &ParseOptions::default());
        let (ParseOutcome::Ok(env) | ParseOutcome::UnknownType(env)) = &out else { continue };
        let text = serialize_envelope(env).expect("a parsed envelope serializes");
        let again = parse(&text, &ParseOptions::default());
        assert_eq!(again, out, "{}: re-parse of {text}", v.name);
        // Serializing is a fixed point after one pass.
        assert_eq!(serialize_envelope(again.envelope().unwrap()).unwrap(), text, "{}", v.name);
        // serde_json, a second reader, sees the same value where it can represent it.
        if let (Ok(a), Ok(b)) = (serde_json::from_str::<serde_json::Value>(&v.frame), serde_json::from_str::<serde_json::Value>(&text)) {
            if !v.name.starts_with("dup.") && !v.frame.contains("__proto__") && !v.name.contains("negative_zero") && !v.frame.contains("\\ud800") {
                assert_eq!(normalize(a), normalize(b), "{}", v.name);
            }
        }
    }
}

/// Integral floats compare as integers (`1.0` → `1`), as in JavaScript.
fn normalize(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(normalize).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, normalize(v))).collect()),
        other => other,
    }
}

#[test]
fn a_known_name_put_into_extra_by_hand_is_not_written_twice() {
    use wirecontract::graphmind::{create_envelope, ModeSet, RawJson, RunMode};
    let mut payload = ModeSet::from_required(RunMode::Step);
    payload.extra.insert("mode", RawJson::from_json("\"run\"").unwrap());
    payload.extra.insert("x", RawJson::null());
    let mut env = create_envelope(payload, 1, "r", Some(2)).unwrap();
    env.extra.insert("seq", RawJson::from_json("99").unwrap());
    let text = serialize_envelope(&env).unwrap();
    assert_eq!(text, r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"step","x":null}}"#);
    assert!(matches!(parse(&text, &ParseOptions::default()), ParseOutcome::Ok(_)));
}
