//! One example frame per message type (GraphMind) or frame variant (Graphorin), read from the
//! committed `vectors/examples/<protocol>.jsonl` of any protocol that has one (GraphMind's and
//! Graphorin's picked from the real client's captured frames and the shared conformance vectors
//! by `scripts/pick-examples`; another protocol's written by its author in the same line
//! format), compiled in by `build.rs` so that generation reads no file at run time; a type
//! without one gets a frame made from the registry.

use wirecontract::registry::{AnyOutcome, Protocol};

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

// `picked_source(protocol)`: every committed `vectors/examples/<protocol>.jsonl`, by name.
include!(concat!(env!("OUT_DIR"), "/picked_examples.rs"));

/// The picked examples of `protocol`; none for a protocol without a `vectors/examples` file
/// (one just declared), whose examples are then made from the registry.
fn source(protocol: &str) -> &'static str {
    picked_source(protocol)
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
/// ([`synthesized`]); one that cannot be made panics with the protocol parser's verdict on the
/// made frame and what to do, since it must be noticed, not skipped.
pub fn example(protocol: &str, wire: &str) -> Example {
    if let Some(e) = picked(protocol, wire) {
        return e;
    }
    synthesized(protocol, wire).unwrap_or_else(|why| {
        let fix = match protocol {
            "graphmind" | "graphorin" => "run scripts/pick-examples (it picks one ok conformance vector per type)".to_owned(),
            _ => format!("fix the declaration (the message's object must accept its version and key members: a strict object declares them as `const` literals), or add a line {{\"type\":{wire:?},\"vector\":\"<where it comes from>\",\"frame\":\"<an ok frame>\"}} to vectors/examples/{protocol}.jsonl"),
        };
        panic!("vectors/examples/{protocol}.jsonl has no example for {wire:?} and none can be made from the registry ({why}): {fix}")
    })
}

/// A frame of a message type built from the registry (required fields only, each with a
/// plain value: the field's name for a string, 1 for a count, the first enum value), checked to
/// parse `ok` as that type. GraphMind's is framed like a real one (`runId "*"` for controls and
/// the handshake); any other protocol's frame is the message's object itself ([`generic`]).
/// `Err` says why none was made (the parser's verdict on the made frame).
fn synthesized(protocol: &str, wire: &str) -> Result<Example, String> {
    use wirecontract::graphmind;
    use wirecontract::registry::MessageGroup;
    if protocol != "graphmind" {
        let p = wirecontract::registry::protocol(protocol).ok_or_else(|| format!("no protocol {protocol:?}"))?;
        return generic(p, wire);
    }
    let m = graphmind::PROTOCOL.message(wire).ok_or_else(|| format!("no message {wire:?}"))?;
    let run_id = if m.group == MessageGroup::Event { "run_0123456789ab" } else { graphmind::WILDCARD_RUN_ID };
    let frame = format!(
        r#"{{"gm":{},"seq":1,"ts":1756200000000,"runId":"{run_id}","type":"{wire}","payload":{}}}"#,
        graphmind::PROTOCOL_VERSION,
        minimal_object(m.payload)
    );
    match graphmind::parse(&frame, &graphmind::ParseOptions::default()) {
        graphmind::ParseOutcome::Ok(_) => Ok(Example { origin: Origin::Registry, frame }),
        other => Err(format!("{frame} gives {other:?}")),
    }
}

/// The minimal object of `wire`'s payload or frame, accepted by the protocol's own parser as
/// that message. For a protocol read by [`wirecontract::registry::parse_by_key`]
/// ([`Protocol::key`] set) the frame starts with its version member and its key holding the
/// wire name, whether the object declares them (a field, a strict literal) or keeps them as
/// unknown members (a loose object).
fn generic(p: &Protocol, wire: &str) -> Result<Example, String> {
    let object = p
        .message(wire)
        .map(|m| m.payload)
        .or_else(|| p.unions.iter().flat_map(|u| u.variants).find(|v| v.wire == wire).map(|v| v.frame))
        .ok_or_else(|| format!("no message {wire:?}"))?;
    let mut members = minimal_members(object);
    if let Some(key) = p.key {
        let (vkey, version) = p.version;
        members.retain(|(k, _)| *k != key && *k != vkey);
        members.splice(0..0, [(vkey, format!("{version:?}")), (key, format!("{wire:?}"))]);
    }
    let frame = format!("{{{}}}", members.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","));
    match (p.parse_any)(&frame) {
        AnyOutcome::Ok { ref message, .. } if message == wire => Ok(Example { origin: Origin::Registry, frame }),
        AnyOutcome::Ok { message, .. } => Err(format!("{frame} parses as {message:?}")),
        AnyOutcome::Invalid { reason, issues } => {
            Err(format!("{frame} is invalid: {reason}: {}", issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")))
        }
        AnyOutcome::Other { kind, .. } => Err(format!("{frame} gives {kind}")),
    }
}

/// The members of `o`'s minimal object, in writing order: its literals, then its required
/// fields (wire name, JSON value text).
fn minimal_members(o: &wirecontract::registry::ObjectDesc) -> Vec<(&'static str, String)> {
    let literals = o.literals.iter().map(|(k, v)| (*k, format!("\"{v}\"")));
    literals.chain(o.fields.iter().filter(|f| f.required).map(|f| (f.wire, minimal_value(f.wire, &f.ty)))).collect()
}

fn minimal_object(o: &wirecontract::registry::ObjectDesc) -> String {
    format!("{{{}}}", minimal_members(o).iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","))
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
            Scalar::OpaqueObject => "{}".to_owned(),
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
pub(crate) mod tests {
    use super::{synthesized, Origin};
    use wirecontract::graphmind;

    /// Any other protocol's types are made from the registry too, each accepted by the
    /// protocol's own parser as that type (Graphorin's strict frames, literals included).
    #[test]
    fn every_graphorin_variant_can_be_made_from_the_registry() {
        let p = &wirecontract::graphorin::PROTOCOL;
        for wire in super::wires(p) {
            let ex = synthesized("graphorin", wire).unwrap_or_else(|why| panic!("{wire}: no frame made from the registry parses ok: {why}"));
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
            let ex = synthesized("graphmind", m.wire).unwrap_or_else(|why| panic!("{}: the made frame does not parse ok: {why}", m.wire));
            assert_eq!(ex.origin, Origin::Registry);
            match graphmind::parse(&ex.frame, &graphmind::ParseOptions::default()) {
                graphmind::ParseOutcome::Ok(env) => assert_eq!(env.message_type(), m.wire),
                other => panic!("{}: {other:?}", m.wire),
            }
            assert!(!ex.frame.contains(r#""ts":0"#) && !ex.frame.contains(r#":"""#), "{}: {}", m.wire, ex.frame);
        }
    }

    /// A protocol read by `parse_by_key` whose loose message keeps its key (`cmd`) and version
    /// (`v`) as unknown members (GraphMind's `ErrorInfo` declares neither), with no helper
    /// object and no enum (also the generator's other tests' scratch protocol).
    pub(crate) static TINY: wirecontract::registry::Protocol = wirecontract::registry::Protocol {
        name: "tiny",
        title: "Tiny",
        spec: "tiny-v1",
        version: ("v", "1"),
        key: Some("cmd"),
        strict: false,
        messages: &[wirecontract::registry::MessageDesc {
            wire: "say",
            variant: "Say",
            payload: &<graphmind::ErrorInfo as wirecontract::wire::Described>::DESC,
            group: wirecontract::registry::MessageGroup::Event,
            direction: wirecontract::registry::Direction::ClientToServer,
            doc: "",
        }],
        unions: &[],
        catalog_enums: &[],
        parse_any: |frame| wirecontract::registry::parse_by_key(frame, &TINY),
        schema: || wirecontract::registry::schema_by_key(&TINY, "https://tiny.example/frame.schema.json"),
    };

    /// The made example of a keyed protocol carries its version and key, and its parser
    /// accepts it.
    #[test]
    fn a_keyed_protocol_example_carries_its_version_and_key() {
        let ex = super::generic(&TINY, "say").unwrap_or_else(|why| panic!("{why}"));
        assert_eq!(ex.frame, r#"{"v":"1","cmd":"say","name":"name-1","message":"message-1"}"#);
        assert!(super::generic(&TINY, "shout").is_err());
    }

    /// Every committed `vectors/examples/<protocol>.jsonl` is compiled in under its name (the
    /// build script lists the directory), so a new protocol's file needs no edit here.
    #[test]
    fn every_examples_file_is_compiled_in() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/examples");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).expect("vectors/examples") {
            let path = entry.expect("entry").path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".jsonl")) else { continue };
            assert_eq!(super::source(name), std::fs::read_to_string(&path).expect("readable"), "{name}");
            seen += 1;
        }
        assert!(seen >= 2, "graphmind and graphorin at least");
        assert_eq!(super::source("no-such-protocol"), "");
    }
}
