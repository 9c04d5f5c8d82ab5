//! typify round trip: every shared conformance vector, every extra vector and every real-client
//! frame goes through the contract parser and through the Rust types that typify generated from
//! the published schema (`generated/typify`, see its README). For each frame both must choose
//! the same message type (or both refuse the frame), and when both accept it, re-serializing
//! must keep the same members (unknown fields at every level included): not just "it parsed".
//!
//! typify's types read through serde_json and serde derive, which cannot follow a few rules of
//! the contract. Every frame where the two differ is listed in [`KNOWN_DIFFERENCES`] with the
//! reason; a difference not listed, or a listed frame that no longer differs, fails the test.

use crate::common;

use serde_json::Value;
use wirecontract::graphmind::{parse, serialize_envelope, ParseOptions, ParseOutcome};
use wirecontract_typify::graphmind::GraphMindWireEnvelopeProtocolV1 as TypifyEnvelope;

// ----- Why the two readers may differ (each is a limit of serde_json/serde derive/typify) ----

/// serde_json stops at 128 levels of nesting; the contract reads at least 10,000 (§5.8).
const DEPTH: &str = "serde_json stops at 128 levels; the contract reads >= 10,000 inside opaque values (spec §5.8)";
/// serde_json cannot hold a lone surrogate in a Rust `String`.
const LONE_SURROGATE: &str = "serde_json rejects a lone-surrogate escape; the contract accepts it outside runId (spec §5.9)";
/// serde_json refuses numbers beyond f64; JSON.parse makes them Infinity.
const OVERFLOW: &str = "serde_json rejects 1e400 (out of f64 range); the contract keeps it in opaque values (spec §5.6)";
/// typify maps `integer` to `i64`; serde_json will not read `1.0`, `1E+2`, `0.5e1` or `-0` into one.
const INTEGER_SPELLING: &str = "typify's i64 does not read an integral value written as 1.0, 1e2 or -0; the contract does (spec §5.6)";
/// typify generates no check for `minimum`/`maximum` on integers.
const INTEGER_BOUNDS: &str = "typify ignores minimum/maximum on integers: a negative count or a seq above 2^53-1 passes";
/// typify generates no check for `minimum` on numbers.
const NUMBER_MINIMUM: &str = "typify ignores minimum on numbers: a negative duration passes";
/// An optional property becomes `Option<T>`, and serde reads `null` as `None`.
const NULL_AS_ABSENT: &str = "typify's Option<T> reads null as absent; the contract rejects null in optional fields (spec §5.11)";
/// `Option<serde_json::Value>` cannot tell `null` from absent, so a `null` opaque value is lost.
const NULL_OPAQUE_LOST: &str = "typify's Option<Value> reads null as absent and drops it on write; the contract keeps null distinct (spec §5.7)";
/// A rule the schema itself does not state (listed in the known-disagreements file).
const NOT_IN_SCHEMA: &str = "the schema does not say it (generated/schema/graphmind.v1.known-disagreements.json), so typify's types cannot (spec §5.15)";
/// serde derive rejects a duplicate field; JSON.parse keeps the last.
const DUPLICATE_KEY: &str = "serde derive rejects a duplicate known field; the contract keeps the last one (spec §5.4)";

/// Every frame (source/name, as in `tests/common`) where the contract and typify differ.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("conformance/depth.10000_arrays_in_unknown_payload", DEPTH),
    ("conformance/depth.1000_arrays_in_input", DEPTH),
    ("conformance/depth.1000_in_matcher_extra", DEPTH),
    ("extra/own.depth.20000_arrays_in_input", DEPTH),
    ("conformance/str.lone_surrogate_in_payload", LONE_SURROGATE),
    ("extra/own.1e400_in_meta", OVERFLOW),
    ("conformance/num.big_exponent_in_unknown_payload", OVERFLOW),
    ("conformance/seq.exp_1E_plus_2", INTEGER_SPELLING),
    ("conformance/seq.exp_frac", INTEGER_SPELLING),
    ("conformance/seq.one_point_zero", INTEGER_SPELLING),
    ("conformance/seq.negative_zero", INTEGER_SPELLING),
    ("conformance/ts.exp", INTEGER_SPELLING),
    ("conformance/num.tokens_as_float_integral", INTEGER_SPELLING),
    ("conformance/hs.ack_protocol_float", INTEGER_SPELLING),
    ("conformance/seq.two_pow_53", INTEGER_BOUNDS),
    ("conformance/num.tokens_unsafe", INTEGER_BOUNDS),
    ("conformance/unknown.bad_seq_first", INTEGER_BOUNDS),
    ("conformance/field.node.finished.10", INTEGER_BOUNDS),
    ("conformance/field.node.finished.11", INTEGER_BOUNDS),
    ("conformance/field.node.token.23", INTEGER_BOUNDS),
    ("conformance/field.node.finished.5", NUMBER_MINIMUM),
    ("conformance/field.node.finished.7", NUMBER_MINIMUM),
    ("conformance/field.hello.ack.42", NULL_AS_ABSENT),
    ("conformance/field.node.error.14", NULL_AS_ABSENT),
    ("conformance/field.node.started.0", NULL_OPAQUE_LOST),
    ("conformance/payload.null.unknown", NULL_OPAQUE_LOST),
    ("conformance/unknown.toString", NULL_OPAQUE_LOST),
    ("extra/own.nul_runid", NOT_IN_SCHEMA),
    ("conformance/dup.gm_last_wins_ok", DUPLICATE_KEY),
    ("conformance/dup.payload_field_last_wins", DUPLICATE_KEY),
    ("conformance/dup.type_last_wins", DUPLICATE_KEY),
    ("extra/own.hostile.duplicate_payload_last_wins", DUPLICATE_KEY),
    ("extra/own.hostile.seq_tiny_exponent_is_zero", INTEGER_SPELLING),
    ("extra/own.hostile.nul_and_escapes_in_unknown_key", LONE_SURROGATE),
    ("extra/own.hostile.depth_1000_mixed_nesting_in_unknown_payload", DEPTH),
];

/// What one reader made of a frame.
#[derive(Debug, Clone, PartialEq)]
struct Reading {
    /// The message type chosen (`None`: the frame was refused).
    message_type: Option<String>,
    /// Members of the frame that did not come back out of serialize (dotted paths, sorted);
    /// `None` when refused.
    lost: Option<Vec<String>>,
    /// The refusal, for the failure message.
    detail: String,
}

fn contract_reading(frame: &str, original: Option<&Value>) -> Reading {
    let out = parse(frame, &ParseOptions::default());
    match &out {
        ParseOutcome::Ok(env) | ParseOutcome::UnknownType(env) => {
            let text = serialize_envelope(env).expect("a parsed envelope serializes");
            let lost = original.map(|o| lost_members(o, &serde_json::from_str(&text).expect("serde_json reads what the contract writes")));
            Reading { message_type: Some(env.message_type().to_owned()), lost: Some(lost.unwrap_or_default()), detail: out.kind().into() }
        }
        other => Reading { message_type: None, lost: None, detail: format!("{other:?}").chars().take(200).collect() },
    }
}

fn typify_reading(frame: &str, original: Option<&Value>) -> Reading {
    match serde_json::from_str::<TypifyEnvelope>(frame) {
        Ok(env) => {
            let written: Value = serde_json::to_value(&env).expect("typify types serialize");
            let lost = original.map(|o| lost_members(o, &written)).unwrap_or_default();
            Reading { message_type: Some(typify_message_type(&env)), lost: Some(lost), detail: "accepted".into() }
        }
        Err(e) => Reading { message_type: None, lost: None, detail: e.to_string() },
    }
}

/// The message type of the variant typify chose (not the `type` member it read): each known
/// variant's `type_` is a one-value enum in typify's output, so what the chosen variant writes
/// back is its own type. No hand list of variants, so a new message type needs no edit here.
fn typify_message_type(env: &TypifyEnvelope) -> String {
    serde_json::to_value(env).ok().and_then(|v| v.get("type")?.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Paths of members of `original` that are missing or different in `written`, and of members
/// `written` added. Numbers compare by value (`1` and `1.0` are equal; `-0` is `0`).
fn lost_members(original: &Value, written: &Value) -> Vec<String> {
    let mut out = Vec::new();
    diff(original, written, "", &mut out);
    out.sort();
    out
}

fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    let join = |k: &str| if path.is_empty() { k.to_owned() } else { format!("{path}.{k}") };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                match y.get(k) {
                    Some(vb) => diff(va, vb, &join(k), out),
                    None => out.push(format!("{} (dropped)", join(k))),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{} (added)", join(k)));
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(va, vb, &join(&i.to_string()), out);
            }
        }
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => {}
        _ if a == b => {}
        _ => out.push(format!("{} (changed)", if path.is_empty() { "<root>" } else { path })),
    }
}

#[test]
fn contract_and_typify_choose_the_same_type_and_keep_the_same_members() {
    let vectors = common::graphmind_vectors();
    let mut differences = Vec::new();
    let (mut both_accept, mut both_refuse) = (0, 0);
    for v in &vectors {
        let id = format!("{}/{}", v.source, v.name);
        let original: Option<Value> = serde_json::from_str(&v.frame).ok();
        let contract = contract_reading(&v.frame, original.as_ref());
        let typify = typify_reading(&v.frame, original.as_ref());
        // The contract itself never loses a member (checked byte for byte elsewhere too).
        if let Some(lost) = &contract.lost {
            assert!(lost.is_empty(), "{id}: the contract lost {lost:?}");
        }
        if contract.message_type == typify.message_type && contract.lost == typify.lost {
            if contract.message_type.is_some() {
                both_accept += 1;
            } else {
                both_refuse += 1;
            }
            continue;
        }
        differences.push((id, contract, typify));
    }

    let listed: std::collections::BTreeMap<&str, &str> = KNOWN_DIFFERENCES.iter().copied().collect();
    assert_eq!(listed.len(), KNOWN_DIFFERENCES.len(), "KNOWN_DIFFERENCES lists a frame twice");
    let found: std::collections::BTreeSet<&str> = differences.iter().map(|(id, ..)| id.as_str()).collect();
    let mut report = Vec::new();
    for (id, contract, typify) in &differences {
        if !listed.contains_key(id.as_str()) {
            report.push(format!(
                "NEW difference {id}:\n    contract: type {:?}, lost {:?} ({})\n    typify:   type {:?}, lost {:?} ({})",
                contract.message_type, contract.lost, contract.detail, typify.message_type, typify.lost, typify.detail
            ));
        }
    }
    for (id, reason) in &listed {
        if !found.contains(id) {
            report.push(format!("STALE entry {id} (listed as: {reason}): contract and typify now agree, remove it"));
        }
    }
    assert!(report.is_empty(), "contract and typify disagree differently than KNOWN_DIFFERENCES says:\n{}", report.join("\n"));
    // The agreement is not vacuous: most frames are accepted by both, with every member kept.
    assert!(both_accept > 300 && both_refuse > 100, "both accept {both_accept}, both refuse {both_refuse}");
}

#[test]
fn typify_keeps_unknown_fields_at_every_level() {
    let frame = r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.error","payload":{"nodeId":"n","error":{"name":"E","message":"m","deep":{"x":[1]}},"p":true},"env":"x"}"#;
    let env: TypifyEnvelope = serde_json::from_str(frame).unwrap();
    assert_eq!(typify_message_type(&env), "node.error");
    let original: Value = serde_json::from_str(frame).unwrap();
    assert_eq!(lost_members(&original, &serde_json::to_value(&env).unwrap()), Vec::<String>::new());
}

#[test]
fn typify_refuses_known_types_in_the_unknown_branch() {
    // A known type with a bad payload must not fall through to `Unknown` (schema rule 6).
    let frame = r#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"fly"}}"#;
    assert!(serde_json::from_str::<TypifyEnvelope>(frame).is_err());
    assert!(matches!(parse(frame, &ParseOptions::default()), ParseOutcome::Invalid { .. }));
}
