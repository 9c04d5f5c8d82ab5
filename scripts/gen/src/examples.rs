//! One example frame per message type (GraphMind) or frame variant (Graphorin), read from the
//! committed `vectors/examples/*.jsonl` (picked from the real client's captured frames and the
//! shared conformance vectors by `scripts/pick-examples`), compiled in so that generation reads
//! no file at run time; a type without one gets a frame made from the registry.

use wirecontract::registry::{AnyOutcome, Protocol, Scalar, Ty};

/// Where an example frame comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A frame of the real GraphMind client's captured traffic (`basic.jsonl:3`: file and
    /// line under the shared `real-client/`), whitespace removed.
    Capture(String),
    /// A conformance vector (`enum.RunMode.step`), its frame exactly as written.
    Vector(String),
    /// Made from the registry: no frame was picked for the type yet.
    Registry,
}

/// One example: the frame and where it comes from.
#[derive(Debug, Clone)]
pub struct Example {
    /// Where the frame comes from.
    pub origin: Origin,
    /// The frame.
    pub frame: String,
}

impl Example {
    /// A short stable name (the AsyncAPI example `name`).
    pub fn name(&self) -> String {
        match &self.origin {
            Origin::Capture(at) => format!("real-client/{at}"),
            Origin::Vector(name) => name.clone(),
            Origin::Registry => "registry".to_owned(),
        }
    }

    /// Where it comes from, as a sentence without its final period (Markdown code spans for
    /// names).
    pub fn source_text(&self) -> String {
        match &self.origin {
            Origin::Capture(at) => {
                let (file, line) = at.rsplit_once(':').unwrap_or((at, "?"));
                format!("a frame of the real client's traffic, shared `real-client/{file}` line {line}, whitespace removed")
            }
            Origin::Vector(name) => format!("conformance vector `{name}`"),
            Origin::Registry => "made from the registry: no example picked yet".to_owned(),
        }
    }
    /// One sentence for the AsyncAPI example's `summary`: where it comes from, verdict `ok`.
    pub fn summary(&self) -> String {
        let text = self.source_text().replace('`', "");
        let mut chars = text.chars();
        let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
        format!("{first}{} (verdict ok).", chars.as_str())
    }
}

/// The picked examples of `protocol`; none for a protocol without a `vectors/examples` file
/// (one just declared), whose examples are then made from the registry.
fn source(protocol: &str) -> &'static str {
    match protocol {
        "graphmind" => include_str!("../../../vectors/examples/graphmind.jsonl"),
        "graphorin" => include_str!("../../../vectors/examples/graphorin.jsonl"),
        _ => "",
    }
}

/// `examples/<protocol>.jsonl`: one accepted frame of every message type or frame variant of
/// `p`, in registry order, as conformance lines (`{"name", "frame", "expect": "ok", "type"}`):
/// the picked example, else one made from the registry. Suites that need a frame of every type
/// (the Kotlin and Java ones) read this instead of a hand-written file, so a new type needs no
/// data-file edit.
pub fn jsonl(p: &Protocol) -> String {
    let mut out = String::new();
    for wire in wires(p) {
        let ex = example(p.name, wire);
        let line = serde_json::json!({ "name": format!("{wire} ({})", ex.name()), "frame": ex.frame, "expect": "ok", "type": wire });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// The message types, then the union variants, of `p` in registry order.
pub fn wires(p: &Protocol) -> Vec<&'static str> {
    p.messages.iter().map(|m| m.wire).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.wire)).collect()
}

/// The example of `wire` (a message type or variant wire name) in `protocol`. A type with no
/// picked example yet (a type or protocol just declared) gets one made from its registry entry
/// ([`synthesized`]); one that cannot be made panics, since it must be noticed, not skipped.
pub fn example(protocol: &str, wire: &str) -> Example {
    if let Some(e) = picked(protocol, wire) {
        return e;
    }
    synthesized(protocol, wire).unwrap_or_else(|| {
        panic!("vectors/examples/{protocol}.jsonl has no example for {wire:?}: run scripts/pick-examples (it picks one ok conformance vector per type)")
    })
}

/// A frame of a message type built from the registry (required fields only, each with a
/// plain value: the field's name for a string, 1 for a count, the first enum value), checked to
/// parse `ok` as that type. GraphMind's is framed like a real one (`runId "*"` for controls and
/// the handshake); any other protocol's frame is the message's object itself ([`generic`]).
fn synthesized(protocol: &str, wire: &str) -> Option<Example> {
    use wirecontract::graphmind;
    use wirecontract::registry::MessageGroup;
    if protocol != "graphmind" {
        return generic(wirecontract::registry::protocol(protocol)?, wire);
    }
    let m = graphmind::PROTOCOL.message(wire)?;
    let run_id = if m.group == MessageGroup::Event { "run_0123456789ab" } else { graphmind::WILDCARD_RUN_ID };
    let frame = format!(
        r#"{{"gm":{},"seq":1,"ts":1756200000000,"runId":"{run_id}","type":"{wire}","payload":{}}}"#,
        graphmind::PROTOCOL_VERSION,
        minimal_object(m.payload)
    );
    matches!(graphmind::parse_envelope_json(&frame), graphmind::ParseOutcome::Ok(_)).then_some(Example { origin: Origin::Registry, frame })
}

/// The minimal object of `wire`'s payload or frame, accepted by the protocol's own parser as
/// that message: as made, or with one required string field holding the wire name (the member
/// a protocol read by [`wirecontract::registry::parse_by_key`] tells its messages apart by).
fn generic(p: &Protocol, wire: &str) -> Option<Example> {
    let object = p.message(wire).map(|m| m.payload).or_else(|| p.unions.iter().flat_map(|u| u.variants).find(|v| v.wire == wire).map(|v| v.frame))?;
    let accepted = |frame: &str| matches!((p.parse_any)(frame), AnyOutcome::Ok { ref message, .. } if message == wire);
    let plain = minimal_object(object);
    if accepted(&plain) {
        return Some(Example { origin: Origin::Registry, frame: plain });
    }
    object.fields.iter().filter(|f| f.required && matches!(f.ty, Ty::Scalar(Scalar::String | Scalar::NonEmptyString))).find_map(|f| {
        let frame = plain.replacen(&format!("\"{}\":\"{}-1\"", f.wire, f.wire), &format!("\"{}\":{wire:?}", f.wire), 1);
        accepted(&frame).then_some(Example { origin: Origin::Registry, frame })
    })
}

fn minimal_object(o: &wirecontract::registry::ObjectDesc) -> String {
    let members: Vec<String> = o.fields.iter().filter(|f| f.required).map(|f| format!("\"{}\":{}", f.wire, minimal_value(f.wire, &f.ty))).collect();
    let literals = o.literals.iter().map(|(k, v)| format!("\"{k}\":\"{v}\""));
    format!("{{{}}}", literals.chain(members).collect::<Vec<_>>().join(","))
}

fn minimal_value(wire: &str, ty: &wirecontract::registry::Ty) -> String {
    use wirecontract::registry::{Scalar, Ty};
    match ty {
        Ty::List(_) => "[]".to_owned(),
        Ty::Enum(e) => format!("\"{}\"", e.values.first().map_or("", |v| v.wire)),
        Ty::Object(o) => minimal_object(o),
        Ty::Scalar(s) => match s {
            Scalar::Bool => "false".to_owned(),
            Scalar::String | Scalar::NonEmptyString | Scalar::RpcId => format!("\"{wire}-1\""),
            Scalar::PositiveSafeUInt | Scalar::SafeUInt | Scalar::SafeInt | Scalar::ExactUInt | Scalar::ExactInt => "1".to_owned(),
            Scalar::Finite | Scalar::NonNegativeFinite => "1.5".to_owned(),
            Scalar::Opaque => "null".to_owned(),
            Scalar::OpaqueRecord => "{}".to_owned(),
        },
    }
}

fn picked(protocol: &str, wire: &str) -> Option<Example> {
    for line in source(protocol).lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("vectors/examples/{protocol}.jsonl: bad line {line:?}: {e}"));
        if v["type"] == wire {
            let text = |k: &str| v[k].as_str().map(str::to_owned);
            let origin = match (text("capture"), text("vector")) {
                (Some(at), None) => Origin::Capture(at),
                (None, Some(name)) => Origin::Vector(name),
                _ => panic!("vectors/examples/{protocol}.jsonl: {wire}: needs exactly one of capture and vector"),
            };
            let frame = text("frame").unwrap_or_else(|| panic!("vectors/examples/{protocol}.jsonl: {wire}: no frame"));
            return Some(Example { origin, frame });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{synthesized, Origin};
    use wirecontract::graphmind;

    /// Any other protocol's types are made from the registry too, each accepted by the
    /// protocol's own parser as that type (Graphorin's strict frames, literals included).
    #[test]
    fn every_graphorin_variant_can_be_made_from_the_registry() {
        let p = &wirecontract::graphorin::PROTOCOL;
        for wire in super::wires(p) {
            let ex = synthesized("graphorin", wire).unwrap_or_else(|| panic!("{wire}: no frame made from the registry parses ok"));
            assert_eq!(ex.origin, Origin::Registry);
        }
    }

    /// One line per message type or variant, each an ok conformance line of its type.
    #[test]
    fn the_examples_file_has_one_ok_frame_per_type() {
        for p in wirecontract::PROTOCOLS {
            let text = super::jsonl(p);
            let types: Vec<String> = text
                .lines()
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
                    assert_eq!(v["expect"], "ok", "{l}");
                    let frame = v["frame"].as_str().expect("frame text");
                    let wire = v["type"].as_str().expect("type").to_owned();
                    assert!(matches!((p.parse_any)(frame), wirecontract::registry::AnyOutcome::Ok { ref message, .. } if *message == wire), "{l}");
                    wire
                })
                .collect();
            assert_eq!(types, super::wires(p), "{}", p.name);
        }
    }

    /// A type declared without a picked example still gets an `ok` frame, framed like a real
    /// one: every GraphMind type, made from the registry alone.
    #[test]
    fn every_graphmind_type_can_be_made_from_the_registry() {
        for m in graphmind::PROTOCOL.messages {
            let ex = synthesized("graphmind", m.wire).unwrap_or_else(|| panic!("{}: the made frame does not parse ok", m.wire));
            assert_eq!(ex.origin, Origin::Registry);
            match graphmind::parse_envelope_json(&ex.frame) {
                graphmind::ParseOutcome::Ok(env) => assert_eq!(env.message_type(), m.wire),
                other => panic!("{}: {other:?}", m.wire),
            }
            assert!(!ex.frame.contains(r#""ts":0"#) && !ex.frame.contains(r#":"""#), "{}: {}", m.wire, ex.frame);
        }
    }
}
