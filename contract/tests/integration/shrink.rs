//! Payload shrinking against every vector of `shared/vectors/graphmind/shrink.jsonl`
//! (graphmind-shrink §15): output text byte for byte and tier.

use crate::common;

use wirecontract::graphmind::shrink::{parse_js_value, shrink_single_pass, skeleton_plan, PlanKey};
use wirecontract::graphmind::{shrink_payload, shrink_payload_json, DEFAULT_MAX_PAYLOAD_BYTES};

struct Case {
    name: String,
    message_type: Option<String>,
    max_bytes: usize,
    payload_json: String,
    expect_json: String,
    tier: u8,
}

fn cases() -> Vec<Case> {
    let path = common::shared_dir().join("vectors/graphmind/shrink.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("vector line is JSON");
            Case {
                name: v["name"].as_str().expect("name").into(),
                message_type: v["type"].as_str().map(Into::into),
                max_bytes: v["max_bytes"].as_u64().expect("max_bytes") as usize,
                payload_json: v["payload_json"].as_str().expect("payload_json").into(),
                expect_json: v["expect_json"].as_str().expect("expect_json").into(),
                tier: v["tier"].as_u64().expect("tier") as u8,
            }
        })
        .collect()
}

#[test]
fn every_vector_byte_for_byte() {
    let cases = cases();
    assert_eq!(cases.len(), 233, "shrink.jsonl should hold 233 vectors (§15)");
    let mut failures = Vec::new();
    for c in &cases {
        match shrink_payload_json(&c.payload_json, c.max_bytes, c.message_type.as_deref()) {
            Ok(s) if s.json == c.expect_json && s.tier == c.tier => {}
            Ok(s) => failures.push(format!("{}: tier {} (want {})\n  got  {}\n  want {}", c.name, s.tier, c.tier, s.json, c.expect_json)),
            Err(e) => failures.push(format!("{}: payload_json did not parse: {e}", c.name)),
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// The single pass (no `JsValue`) and the value path agree on every vector's payload text and
/// on its `JSON.stringify` text, at its budget and at others, and the single pass is taken for
/// most of them (it declines index, duplicate or escaped keys and tier 3).
#[test]
fn single_pass_agrees_with_the_value_path_on_every_vector() {
    let mut taken = 0;
    for c in cases() {
        let value = parse_js_value(&c.payload_json).expect("payload parses");
        for text in [c.payload_json.clone(), value.to_json()] {
            for budget in [c.max_bytes, c.max_bytes / 2, c.max_bytes.saturating_sub(1), 4096, 0] {
                let ty = c.message_type.as_deref();
                let Some(fast) = shrink_single_pass(&text, budget, ty) else { continue };
                taken += 1;
                assert_eq!(fast, shrink_payload(&value, budget, ty), "{} at {budget}: {text}", c.name);
            }
        }
    }
    assert!(taken > 1200, "the single pass was taken only {taken} times of 2330");
}

#[test]
fn tier_two_and_three_outputs_are_fixed_points() {
    for c in cases().iter().filter(|c| matches!(c.tier, 2 | 3)) {
        let again = shrink_payload_json(&c.expect_json, c.max_bytes, c.message_type.as_deref()).expect("output parses");
        assert_eq!((again.tier, again.json.as_str()), (1, c.expect_json.as_str()), "{}", c.name);
    }
}

#[test]
fn javascript_key_order_and_numbers() {
    // §2 P4 (§14 A2, adopted): index keys first, ascending; §2 P5 numbers.
    let s = shrink_payload_json(r#"{"b":1.0,"1":1e21,"0":1e400,"a":-0, "b":2}"#, 100, None).unwrap();
    assert_eq!((s.json.as_str(), s.tier), (r#"{"0":null,"1":1e+21,"b":2,"a":0}"#, 1));
    let v = parse_js_value(r#""\ud800x""#).unwrap();
    assert_eq!(shrink_payload(&v, DEFAULT_MAX_PAYLOAD_BYTES, None).json, r#""\ud800x""#);
}

#[test]
fn plans_come_from_the_registry_and_match_the_spec_table() {
    use PlanKey::{Keep as R, Optional as O};
    let plan = |t: &str| skeleton_plan(t).unwrap_or_else(|| panic!("{t} has a plan"));
    assert_eq!(plan("run.started"), vec![("app", R), ("sdk", PlanKey::Nested(vec![("name", R), ("version", R)])), ("meta", O)]);
    assert_eq!(
        plan("node.error"),
        vec![("nodeId", R), ("instanceId", O), ("error", PlanKey::Nested(vec![("name", R), ("message", R), ("stack", O)])), ("heldMs", O)]
    );
    // Zod declaration order (ev:124): heldMs before status, which the vectors pin
    // (t3.optional.output-string-kept-cut).
    let keys: Vec<_> = plan("node.finished").into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["nodeId", "instanceId", "output", "usage", "durationMs", "heldMs", "status", "redaction"]);
    assert_eq!(plan("exec.refused"), vec![("pauseId", R), ("code", R), ("message", O), ("requestId", O)]);
    assert_eq!(plan("exec.resumed"), vec![("pauseId", R), ("action", R), ("edited", O), ("requestId", O), ("principal", O)]);
    let keys: Vec<_> = plan("exec.paused").into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["pauseId", "nodeId", "point", "reason", "loop", "smart", "editable", "instanceId"]);
    for t in ["exec.resume", "hello", "constructor", "__proto__", "", "Node.Finished"] {
        assert!(skeleton_plan(t).is_none(), "{t}");
    }
}

/// `create_envelope_json_with` / `create_envelope_with` and `max_payload_bytes` over every
/// vector of a known type: within budget the same as without one; over it, an event payload
/// is built from the shrunk text (tier 2/3) or refused (tier 4, the marker is no payload).
#[test]
fn building_with_a_budget_follows_the_vectors() {
    use wirecontract::graphmind::{create_envelope_json, create_envelope_json_with, create_envelope_with, serialize_envelope, BuildOptions, EVENT_TYPES};
    let mut counts = [0usize; 5];
    for c in cases() {
        let Some(t) = c.message_type.as_deref().filter(|t| wirecontract::graphmind::payload_type_name(t).is_some()) else { continue };
        let opts = BuildOptions { max_payload_bytes: Some(c.max_bytes) };
        let got = create_envelope_json_with(t, &c.payload_json, 1, "r", Some(0), &opts);
        match c.tier {
            1 => assert_eq!(got, create_envelope_json(t, &c.payload_json, 1, "r", Some(0)), "{}", c.name),
            2 | 3 if EVENT_TYPES.contains(&t) => {
                let env = got.unwrap_or_else(|e| panic!("{}: {e}", c.name));
                assert_eq!(Ok(&env), create_envelope_json(t, &c.expect_json, 1, "r", Some(0)).as_ref(), "{}", c.name);
                let frame = serialize_envelope(&env).unwrap();
                let payload = &frame[frame.find(",\"payload\":").expect("payload") + 11..frame.len() - 1];
                assert!(payload.len() <= c.max_bytes, "{}: {} > {}", c.name, payload.len(), c.max_bytes);
                // The typed route agrees.
                let again = create_envelope_with(env.message.clone(), 1, "r", Some(0), &opts).unwrap_or_else(|e| panic!("{}: {e}", c.name));
                assert_eq!(again, env, "{}", c.name);
            }
            4 => {
                let e = got.expect_err(&c.name);
                assert!(e.reason.contains("only the whole-payload marker"), "{}: {e}", c.name);
            }
            _ => {}
        }
        counts[usize::from(c.tier)] += 1;
    }
    assert!(counts[1..].iter().all(|&n| n > 10), "{counts:?}");
}

#[test]
fn building_with_a_budget_shrinks_an_oversize_payload() {
    use wirecontract::graphmind::{
        create_envelope_json, create_envelope_json_with, create_envelope_with, parse, serialize_envelope, BuildOptions, Message, ParseOptions, ParseOutcome,
    };
    let big = format!(r#"{{"nodeId":"n","output":{{"text":"{}","n":1e400}},"durationMs":3,"status":"ok"}}"#, "ab".repeat(400_000));
    let opts = BuildOptions { max_payload_bytes: Some(DEFAULT_MAX_PAYLOAD_BYTES) };
    let env = create_envelope_json_with("node.finished", &big, 7, "r", Some(0), &opts).expect("builds");
    let frame = serialize_envelope(&env).unwrap();
    assert!(frame.len() < DEFAULT_MAX_PAYLOAD_BYTES, "{}", frame.len());
    assert!(frame.contains(r#""__graphmindTruncated":true"#));
    assert!(matches!(parse(&frame, &ParseOptions::default()), ParseOutcome::Ok(e) if matches!(e.message, Message::NodeFinished(_))));
    // No budget: kept whole; a typed message takes the same route.
    let whole = create_envelope_json("node.finished", &big, 7, "r", Some(0)).expect("valid");
    assert!(serialize_envelope(&whole).unwrap().len() > 800_000);
    assert_eq!(create_envelope_with(whole.message.clone(), 7, "r", Some(0), &BuildOptions::default()).as_ref(), Ok(&whole));
    assert_eq!(create_envelope_with(whole.message, 7, "r", Some(0), &opts), Ok(env));
    // An unknown type's payload is opaque: even the marker is built, on both routes (one builder).
    let unknown = Message::Unknown { message_type: "future.x".into(), payload: Some(wirecontract::graphmind::RawJson::from_json(&big).expect("JSON")) };
    let env = create_envelope_with(unknown, 1, "r", Some(0), &BuildOptions { max_payload_bytes: Some(10) }).expect("opaque");
    assert!(serialize_envelope(&env).unwrap().contains(r#""payload":{"__graphmindTruncated":true,"bytes":"#));
    let json_route = create_envelope_json_with("future.x", &big, 1, "r", Some(0), &BuildOptions { max_payload_bytes: Some(10) }).expect("opaque");
    assert_eq!(json_route, env);
    assert!(create_envelope_json_with("future.x", "{", 1, "r", Some(0), &opts).is_err());
}
