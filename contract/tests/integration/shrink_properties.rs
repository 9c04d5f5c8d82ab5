//! Property tests of payload shrinking (graphmind-shrink §3, §8): the budget holds except for
//! the tier-4 marker's documented floor, tier-2/3 results of an event type are valid payloads
//! of that type, a shrunk result is a fixed point, and no input panics (including 100,000
//! levels of nesting on a small thread stack).

use crate::common;

use proptest::prelude::*;
use wirecontract::graphmind::shrink::{parse_js_value, shrink_single_pass, TIER4_MAX_BYTES};
use wirecontract::graphmind::{shrink_payload, shrink_payload_json, Shrunk, EVENT_TYPES, PROTOCOL};

/// The vectors' payloads and types: realistic event payloads of every type as seeds.
fn seeds() -> &'static [(String, Option<String>)] {
    static S: std::sync::OnceLock<Vec<(String, Option<String>)>> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let path = common::shared_dir().join("vectors/graphmind/shrink.jsonl");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("vector line is JSON");
                (v["payload_json"].as_str().expect("payload_json").to_owned(), v["type"].as_str().map(Into::into))
            })
            .collect()
    })
}

/// Checks every property of one result.
fn check(payload: &str, max_bytes: usize, ty: Option<&str>, s: &Shrunk) {
    let what = || format!("payload {payload} max {max_bytes} type {ty:?} → tier {} {}", s.tier, s.json);
    let full = parse_js_value(payload).expect("payload parses").to_json();
    assert_eq!(s.tier == 1, full.len() <= max_bytes, "tier 1 iff within budget: {}", what());
    if s.tier == 4 {
        assert!(s.json.len() <= TIER4_MAX_BYTES, "tier-4 floor: {}", what());
    } else {
        assert!(s.json.len() <= max_bytes, "over budget: {}", what());
    }
    let event = ty.and_then(|t| PROTOCOL.message(t)).filter(|_| ty.is_some_and(|t| EVENT_TYPES.contains(&t)));
    if matches!(s.tier, 2 | 3) {
        if let Some(m) = event {
            assert!((m.payload.read_json)(&s.json).is_ok(), "not a valid {} payload: {}", m.wire, what());
        }
        let again = shrink_payload_json(&s.json, max_bytes, ty).expect("output parses");
        assert_eq!((again.tier, again.json.as_str()), (1, s.json.as_str()), "not a fixed point: {}", what());
    }
}

/// The single pass, when it takes `payload` or its `JSON.stringify` text, gives the value
/// path's bytes.
fn check_single_pass(payload: &str, max_bytes: usize, ty: Option<&str>) {
    let value = parse_js_value(payload).expect("payload parses");
    for text in [payload.to_owned(), value.to_json()] {
        if let Some(fast) = shrink_single_pass(&text, max_bytes, ty) {
            assert_eq!(fast, shrink_payload(&value, max_bytes, ty), "text {text} max {max_bytes} type {ty:?}");
        }
    }
}

/// Arbitrary JSON text: strings with astral characters, lone surrogates, controls and quotes;
/// numbers including overflowing and negative-zero spellings.
fn json_text() -> impl Strategy<Value = String> {
    let string = prop::collection::vec(
        prop_oneof!["[a-z]{0,40}", Just("😀".to_owned()), Just("\\ud83d".to_owned()), Just("\\n\\\"é".to_owned()), Just("\\u0001".to_owned())],
        0..8,
    )
    .prop_map(|parts| format!("\"{}\"", parts.concat()));
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("1e400".to_owned()),
        Just("-0".to_owned()),
        any::<i32>().prop_map(|n| n.to_string()),
        Just("1.5e-7".to_owned()),
        string.clone()
    ];
    leaf.prop_recursive(8, 200, 12, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec(("[a-e0-9]{0,3}", inner), 0..12)
                .prop_map(|m| format!("{{{}}}", m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","))),
        ]
    })
}

fn any_type() -> impl Strategy<Value = Option<String>> {
    prop_oneof![Just(None), prop::sample::select(EVENT_TYPES).prop_map(|t| Some(t.to_owned())), Just(Some("hello".to_owned()))]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_values_keep_every_property(payload in json_text(), max_bytes in 0usize..3000, ty in any_type()) {
        let s = shrink_payload_json(&payload, max_bytes, ty.as_deref()).expect("generated JSON parses");
        check(&payload, max_bytes, ty.as_deref(), &s);
        check_single_pass(&payload, max_bytes, ty.as_deref());
    }

    #[test]
    fn inflated_event_payloads_keep_every_property(
        pick in any::<prop::sample::Index>(),
        filler in 0usize..20_000,
        ch in prop::sample::select(vec!["x", "é", "😀", "\\\"", "\\ud800"]),
        budget in 0.0f64..1.2,
        retype in any::<bool>(),
        ty in any_type(),
    ) {
        let (payload, own) = &seeds()[pick.index(seeds().len())];
        let mut payload = payload.clone();
        // An extra big field, so every tier is reachable.
        if payload.trim_start().starts_with('{') && payload.trim_end() != "{}" {
            if let Some(at) = payload.rfind('}') {
                payload.insert_str(at, &format!(",\"zz\":\"{}\"", ch.repeat(filler / 4)));
            }
        }
        let ty = if retype { ty } else { own.clone() };
        let size = parse_js_value(&payload).expect("seed parses").to_json().len();
        let max_bytes = (size as f64 * budget) as usize;
        let s = shrink_payload_json(&payload, max_bytes, ty.as_deref()).expect("seed parses");
        check(&payload, max_bytes, ty.as_deref(), &s);
        check_single_pass(&payload, max_bytes, ty.as_deref());
    }
}

#[test]
fn valid_events_always_fit_4096_bytes() {
    // §7.2 documented guarantee: a valid event of a known type fits when maxBytes ≥ 4096.
    for (payload, ty) in seeds() {
        let Some(m) = ty.as_deref().and_then(|t| PROTOCOL.message(t)).filter(|m| EVENT_TYPES.contains(&m.wire)) else { continue };
        if (m.payload.read_json)(payload).is_err() {
            continue;
        }
        let big = payload.replacen('{', &format!("{{\"zz\":\"{}\",", "y".repeat(50_000)), 1);
        let s = shrink_payload_json(&big, 4096, Some(m.wire)).expect("parses");
        assert!(matches!(s.tier, 2 | 3), "{}: tier {} for {payload}", m.wire, s.tier);
    }
}

#[test]
fn deep_nesting_never_overflows_a_small_stack() {
    let worker = std::thread::Builder::new().stack_size(256 * 1024).spawn(|| {
        let n = 100_000;
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let deep = format!(
                "{{\"nodeId\":\"n\",\"durationMs\":1,\"status\":\"ok\",\"output\":{}0{},\"big\":\"{}\"}}",
                open.repeat(n),
                close.repeat(n),
                "x".repeat(5000)
            );
            for max in [usize::MAX, 4096, 100, 0] {
                let s = shrink_payload_json(&deep, max, Some("node.finished")).expect("parses");
                assert!(s.tier >= 1);
            }
            let v = parse_js_value(&format!("{}1{}", open.repeat(n), close.repeat(n))).expect("parses");
            assert_eq!(shrink_payload(&v, 10, None).tier, 4);
            drop(v);
        }
    });
    worker.expect("spawn").join().expect("no stack overflow");
}
