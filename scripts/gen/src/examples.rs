//! One example frame per message type (GraphMind) or frame variant (Graphorin), read from the
//! committed `vectors/examples/*.jsonl` (picked from the real client's captured frames and the
//! shared conformance vectors by `scripts/pick-examples`), compiled in so that generation reads
//! no file at run time.

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

/// A frame of a GraphMind message type built from the registry (required fields only, each
/// with a plain value: the field's name for a string, 1 for a count, the first enum value),
/// framed like a real one (`runId "*"` for controls and the handshake), checked to parse `ok`.
fn synthesized(protocol: &str, wire: &str) -> Option<Example> {
    use wirecontract::graphmind;
    use wirecontract::registry::MessageGroup;
    if protocol != "graphmind" {
        return None;
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
