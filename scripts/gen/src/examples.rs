//! One example frame per message type (GraphMind) or frame variant (Graphorin), read from the
//! committed `vectors/examples/*.jsonl` (picked from the shared conformance vectors by
//! `scripts/pick-examples`), compiled in so that generation reads no file at run time.

/// One example: the frame and the conformance vector it comes from.
#[derive(Debug, Clone)]
pub struct Example {
    /// The conformance vector's name (`enum.RunMode.run`).
    pub vector: String,
    /// The frame, exactly as in the vector.
    pub frame: String,
}

fn source(protocol: &str) -> &'static str {
    match protocol {
        "graphmind" => include_str!("../../../vectors/examples/graphmind.jsonl"),
        "graphorin" => include_str!("../../../vectors/examples/graphorin.jsonl"),
        other => panic!("no examples file for protocol {other:?} (add vectors/examples/{other}.jsonl with scripts/pick-examples)"),
    }
}

/// The example of `wire` (a message type or variant wire name) in `protocol`. Panics when
/// there is none: a registry type without an example must be noticed, not skipped.
pub fn example(protocol: &str, wire: &str) -> Example {
    for line in source(protocol).lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("vectors/examples/{protocol}.jsonl: bad line {line:?}: {e}"));
        if v["type"] == wire {
            let text = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("vectors/examples/{protocol}.jsonl: {wire}: no {k}")).to_owned();
            return Example { vector: text("vector"), frame: text("frame") };
        }
    }
    panic!("vectors/examples/{protocol}.jsonl has no example for {wire:?}: run scripts/pick-examples (it picks one ok conformance vector per type)")
}
