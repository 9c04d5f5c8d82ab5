//! The LLM conventions (`normalize_finish_reason`, `read_usage_json`, `FinishReason`) against
//! the project's own cases in `vectors/graphmind/llm.jsonl`, which the Python, Kotlin, Swift
//! and Node.js suites run too.

use crate::common;

use serde_json::{json, Value};
use wirecontract::graphmind::{normalize_finish_reason, read_usage_json, FinishReason, UsageView, PROTOCOL};

fn cases() -> Vec<Value> {
    let path = common::repo_dir().join("vectors/graphmind/llm.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let out: Vec<Value> = text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(out.len() >= 90, "llm cases missing: {}", out.len());
    out
}

/// The view as the reference writes it: `inputTokens, outputTokens, basis`, then the present
/// extras; counts compared as numbers.
fn view_json(v: &UsageView) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("inputTokens".into(), json!(v.input_tokens));
    m.insert("outputTokens".into(), json!(v.output_tokens));
    m.insert("basis".into(), json!(v.basis.as_str()));
    for (k, x) in [("cacheReadTokens", v.cache_read_tokens), ("cacheWriteTokens", v.cache_write_tokens), ("reasoningTokens", v.reasoning_tokens)] {
        if let Some(x) = x {
            m.insert(k.into(), json!(x));
        }
    }
    Value::Object(m)
}

fn same_numbers(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().zip(y).all(|((ka, va), (kb, vb))| ka == kb && same_numbers(va, vb)),
        _ => a == b,
    }
}

#[test]
fn every_llm_case() {
    let mut finish = 0;
    let mut usage = 0;
    for c in cases() {
        let name = c["name"].as_str().unwrap();
        match c["fn"].as_str().unwrap() {
            "normalizeFinishReason" => {
                finish += 1;
                // A raw value that is not a string is nothing usable in every binding.
                let got = c["raw"].as_str().and_then(|raw| normalize_finish_reason(raw, c["hasToolCalls"].as_bool().unwrap()));
                assert_eq!(got.map(FinishReason::as_str), c["expect"].as_str(), "{name}");
            }
            "readUsage" => {
                usage += 1;
                let text = match c.get("usageJson") {
                    Some(t) => t.as_str().unwrap().to_owned(),
                    None => c["usage"].to_string(),
                };
                let got = read_usage_json(&text).map_or(Value::Null, |v| view_json(&v));
                assert!(same_numbers(&got, &c["expect"]), "{name}: got {got}, expected {}", c["expect"]);
            }
            other => panic!("{name}: unknown fn {other}"),
        }
    }
    assert!(finish >= 60 && usage >= 30, "{finish} finish cases, {usage} usage cases");
}

#[test]
fn finish_reasons_are_a_closed_registry_enum() {
    assert_eq!(FinishReason::VALUES, ["stop", "length", "tool-calls", "content-filter", "error", "other"]);
    let e = PROTOCOL.enums().into_iter().find(|e| e.name == "FinishReason").expect("FinishReason in the GraphMind registry");
    assert_eq!(e.constant, Some("FINISH_REASONS"));
    assert_eq!(e.wire_values().collect::<Vec<_>>(), FinishReason::VALUES);
    // Every normalized value is one of them, and only `None` is outside.
    for raw in ["stop", "whatever", "TOOL_USE", "max-tokens"] {
        assert!(FinishReason::from_wire(normalize_finish_reason(raw, false).unwrap().as_str()).is_some());
    }
}

#[test]
fn read_usage_refuses_text_that_is_not_json() {
    assert_eq!(read_usage_json("{\"inputTokens\":1,"), None);
    assert_eq!(read_usage_json(""), None);
}
