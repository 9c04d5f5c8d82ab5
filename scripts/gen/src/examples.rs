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

/// The example of `wire` (a message type or variant wire name) in `protocol`. A message type
/// of an envelope protocol with no picked example yet (a type just declared) gets one made from
/// its registry entry ([`synthesized`]); anything else without an example panics, since it
/// must be noticed, not skipped.
pub fn example(protocol: &str, wire: &str) -> Example {
    if let Some(e) = picked(protocol, wire) {
        return e;
    }
    synthesized(protocol, wire).unwrap_or_else(|| {
        panic!("vectors/examples/{protocol}.jsonl has no example for {wire:?}: run scripts/pick-examples (it picks one ok conformance vector per type)")
    })
}

/// A minimal frame of a GraphMind message type built from the registry (required fields only,
/// the smallest valid value of each), checked to parse `ok`.
fn synthesized(protocol: &str, wire: &str) -> Option<Example> {
    use wirecontract::graphmind;
    if protocol != "graphmind" {
        return None;
    }
    let m = graphmind::PROTOCOL.message(wire)?;
    let frame = format!(r#"{{"gm":1,"seq":1,"ts":0,"runId":"run-1","type":"{wire}","payload":{}}}"#, minimal_object(m.payload));
    matches!(graphmind::parse_envelope_json(&frame), graphmind::ParseOutcome::Ok(_))
        .then(|| Example { vector: "(made from the registry: no example picked yet)".to_owned(), frame })
}

fn minimal_object(o: &wirecontract::registry::ObjectDesc) -> String {
    let members: Vec<String> = o.fields.iter().filter(|f| f.required).map(|f| format!("\"{}\":{}", f.wire, minimal_value(&f.ty))).collect();
    let literals = o.literals.iter().map(|(k, v)| format!("\"{k}\":\"{v}\""));
    format!("{{{}}}", literals.chain(members).collect::<Vec<_>>().join(","))
}

fn minimal_value(ty: &wirecontract::registry::Ty) -> String {
    use wirecontract::registry::{Scalar, Ty};
    match ty {
        Ty::List(_) => "[]".to_owned(),
        Ty::Enum(e) => format!("\"{}\"", e.values.first().map_or("", |v| v.wire)),
        Ty::Object(o) => minimal_object(o),
        Ty::Scalar(s) => match s {
            Scalar::Bool => "false",
            Scalar::String => "\"\"",
            Scalar::NonEmptyString | Scalar::RpcId => "\"x\"",
            Scalar::PositiveSafeUInt => "1",
            Scalar::SafeUInt | Scalar::SafeInt | Scalar::ExactUInt | Scalar::ExactInt | Scalar::Finite | Scalar::NonNegativeFinite => "0",
            Scalar::Opaque => "null",
            Scalar::OpaqueRecord => "{}",
        }
        .to_owned(),
    }
}

fn picked(protocol: &str, wire: &str) -> Option<Example> {
    for line in source(protocol).lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("vectors/examples/{protocol}.jsonl: bad line {line:?}: {e}"));
        if v["type"] == wire {
            let text = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("vectors/examples/{protocol}.jsonl: {wire}: no {k}")).to_owned();
            return Some(Example { vector: text("vector"), frame: text("frame") });
        }
    }
    None
}
