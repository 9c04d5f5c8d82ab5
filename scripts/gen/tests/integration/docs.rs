//! The generated documents against the registry: the Markdown references
//! (`generated/docs/*.md`) document every message type, frame variant, object and enum of
//! every protocol under its anchor, and every link in them resolves (intra-document anchors,
//! relative files, anchors in the repository's Markdown files they link, and those files' own
//! links); the AsyncAPI documents (`generated/asyncapi/*.yaml`) hold exactly one message per
//! registry message or variant; every example frame in both is an `ok` frame of its message,
//! plain, realistic, and traceable to the shared material. The lists come from
//! `wirecontract::registry`, never from a hand list. (`scripts/check-drift` proves the committed
//! files are current; step `55-asyncapi` runs the official AsyncAPI parser on them.)

use crate::common;

/// The generator's YAML writer, to render an example the way the AsyncAPI document holds it.
#[allow(dead_code)]
#[path = "../../src/yaml.rs"]
mod yaml;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use wirecontract::registry::{protocols, AnyOutcome, ObjectDesc, Protocol, Ty};

fn read(rel: &str) -> String {
    let path = common::repo_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e} (run scripts/regen)"))
}

fn reference_path(p: &Protocol) -> String {
    format!("generated/docs/{}.v{}.md", p.name, p.version.1)
}

fn asyncapi_path(p: &Protocol) -> String {
    format!("generated/asyncapi/{}.v{}.asyncapi.yaml", p.name, p.version.1)
}

/// The anchor the generator gives a message type or variant (`message-node-started`).
fn message_anchor(wire: &str) -> String {
    let slug: String = wire.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    format!("message-{slug}")
}

/// Every wire name of the protocol: message types and union variants, in registry order.
fn wires(p: &Protocol) -> Vec<&'static str> {
    p.messages.iter().map(|m| m.wire).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.wire)).collect()
}

/// Explicit anchors (`<a id="x">`) and GitHub heading anchors of a Markdown text.
fn anchors(md: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in md.match_indices("<a id=\"") {
        let rest = &md[i + 7..];
        out.insert(rest[..rest.find('"').expect("closed id")].to_owned());
    }
    for line in md.lines().filter(|l| l.starts_with('#')) {
        let text = line.trim_start_matches('#').trim().to_lowercase();
        let slug: String =
            text.chars().filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_').map(|c| if c == ' ' { '-' } else { c }).collect();
        out.insert(slug);
    }
    out
}

/// The targets of every inline link `[text](target)`.
fn link_targets(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in md.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if in_code {
            continue;
        }
        for (i, _) in line.match_indices("](") {
            let rest = &line[i + 2..];
            let end = rest.find(')').unwrap_or_else(|| panic!("unclosed link in {line:?}"));
            out.push(rest[..end].to_owned());
        }
    }
    out
}

/// Every registered protocol: the generator writes a Markdown reference for each (GraphMind's
/// and Graphorin's hand-shaped, any other from its registry entry alone), so a missing one is a
/// failure, not a skip.
fn documented() -> Vec<&'static Protocol> {
    let out: Vec<&'static Protocol> = protocols().to_vec();
    for p in &out {
        assert!(common::repo_dir().join(reference_path(p)).exists(), "{} is missing (run scripts/regen)", reference_path(p));
    }
    assert!(out.len() >= 2, "the registry lists {} protocols", out.len());
    out
}

/// The protocols with an AsyncAPI document: GraphMind and Graphorin (a protocol added later
/// gets a reference, a schema and a stub from its registry entry; an AsyncAPI document is an
/// optional hand-shaped addition, ARCHITECTURE.md "Add a protocol"). Those two must be there,
/// so the checks below cannot pass over nothing.
fn with_asyncapi() -> Vec<&'static Protocol> {
    let out: Vec<&'static Protocol> = protocols().iter().copied().filter(|p| common::repo_dir().join(asyncapi_path(p)).exists()).collect();
    for name in ["graphmind", "graphorin"] {
        assert!(
            out.iter().any(|p| p.name == name),
            "{} is missing (run scripts/regen)",
            asyncapi_path(wirecontract::registry::protocol(name).expect("registered"))
        );
    }
    out
}

#[test]
fn the_reference_documents_every_message_object_and_enum_of_the_registry() {
    for p in documented() {
        let md = read(&reference_path(p));
        let ids = anchors(&md);
        let mut missing = Vec::new();
        for wire in wires(p) {
            if !ids.contains(&message_anchor(wire)) || !md.contains(&format!("### `{wire}`\n")) {
                missing.push(format!("message {wire}"));
            }
        }
        for o in p.objects() {
            if !ids.contains(&format!("object-{}", o.name)) {
                missing.push(format!("object {}", o.name));
            }
            for f in o.fields {
                if !md.contains(&format!("| `{}` |", f.wire)) {
                    missing.push(format!("field {}.{}", o.name, f.wire));
                }
            }
        }
        for e in p.enums() {
            if !ids.contains(&format!("enum-{}", e.name)) {
                missing.push(format!("enum {}", e.name));
            }
            for v in e.values {
                if !md.contains(&format!("| `{}` |", v.wire)) {
                    missing.push(format!("enum value {}.{}", e.name, v.wire));
                }
            }
        }
        assert!(missing.is_empty(), "{} does not document: {missing:?}", reference_path(p));
        assert_eq!(md.matches("```json\n").count(), wires(p).len(), "{}: one example frame per message", reference_path(p));
    }
}

#[test]
fn the_graphmind_reference_states_the_parse_outcomes_in_decision_order() {
    let md = read("generated/docs/graphmind.v1.md");
    for verdict in ["`ok`", "`unknown-type`", "`version-mismatch`", "`invalid`"] {
        assert!(md.contains(&format!("| {verdict} |")), "verdict {verdict} missing");
    }
    let order: Vec<usize> = ["1. **JSON**", "2. **Envelope**", "3. **gm**", "4. **type**", "5. **payload**"]
        .iter()
        .map(|s| md.find(s).unwrap_or_else(|| panic!("step {s} missing")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "decision steps out of order");
}

/// The broken links of the Markdown file `rel` (relative to the repository), and the
/// repository Markdown files it links to.
fn broken_links(rel: &str) -> (Vec<String>, Vec<String>) {
    let md = read(rel);
    let ids = anchors(&md);
    let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
    let (mut broken, mut linked) = (Vec::new(), Vec::new());
    for target in link_targets(&md) {
        if let Some(anchor) = target.strip_prefix('#') {
            if !ids.contains(anchor) {
                broken.push(target);
            }
            continue;
        }
        if target.contains("://") {
            broken.push(format!("{target} (absolute URL; link a file of the repository)"));
            continue;
        }
        let (file, anchor) = target.split_once('#').map_or((target.as_str(), None), |(f, a)| (f, Some(a)));
        let Some(path) = normalize(&dir.join(file)) else {
            broken.push(format!("{target} (leaves the repository)"));
            continue;
        };
        let abs = common::repo_dir().join(&path);
        if !abs.exists() {
            broken.push(target);
            continue;
        }
        let is_md = path.extension().is_some_and(|e| e == "md");
        if let Some(anchor) = anchor {
            let found = is_md && std::fs::read_to_string(&abs).is_ok_and(|text| anchors(&text).contains(anchor));
            if !found {
                broken.push(format!("{target} (no such anchor in {})", path.display()));
            }
        }
        if is_md {
            linked.push(path.display().to_string());
        }
    }
    (broken, linked)
}

/// `p` with `.` and `..` resolved, relative to the repository root; `None` when it leaves it.
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in p.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[test]
fn every_link_in_the_references_resolves() {
    // The references, then every repository Markdown file they link to, and so on: a link
    // into docs/ is only as good as the links of the page it lands on.
    let mut queue: Vec<String> = documented().iter().map(|p| reference_path(p)).collect();
    for p in documented() {
        let targets = link_targets(&read(&reference_path(p)));
        assert!(targets.len() > wires(p).len(), "{}: expected links to every message, found {}", reference_path(p), targets.len());
    }
    let mut seen = BTreeSet::new();
    let mut broken = Vec::new();
    while let Some(rel) = queue.pop() {
        if !seen.insert(rel.clone()) {
            continue;
        }
        let (bad, linked) = broken_links(&rel);
        broken.extend(bad.into_iter().map(|b| format!("{rel}: {b}")));
        queue.extend(linked);
    }
    assert!(seen.contains("docs/session.md"), "the crawl never reached docs/session.md: {seen:?}");
    assert!(broken.is_empty(), "broken links: {broken:#?}");
}

#[test]
fn the_graphmind_reference_links_the_session_guarantees_inside_the_repository() {
    let md = read("generated/docs/graphmind.v1.md");
    let rules = &md[md.find("## Session rules").expect("a session rules section")..];
    let rules = &rules[..rules[3..].find("\n## ").map_or(rules.len(), |i| i + 3)];
    assert!(rules.contains("](../../docs/session.md#guarantees)"), "the session rules must link docs/session.md#guarantees:\n{rules}");
    let session = read("docs/session.md");
    assert!(session.contains("\n## Guarantees\n"), "docs/session.md has no Guarantees section");
}

/// One example of a generated reference: the message, where it says it comes from, the frame.
struct Example {
    wire: String,
    source: String,
    frame: String,
}

/// The examples of a reference, in order: each `### `wire`` section's `Example (...)` block.
fn examples(md: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut wire = None;
    let mut lines = md.lines();
    while let Some(line) = lines.next() {
        if let Some(w) = line.strip_prefix("### `").and_then(|l| l.strip_suffix('`')) {
            wire = Some(w.to_owned());
        }
        if let Some(source) = line.strip_prefix("Example (").and_then(|l| l.strip_suffix("):")) {
            let fence = lines.by_ref().find(|l| !l.is_empty()).expect("a code block after Example");
            assert_eq!(fence, "```json");
            let frame = lines.next().expect("the frame").to_owned();
            assert_eq!(lines.next(), Some("```"));
            out.push(Example { wire: wire.clone().expect("an example inside a message section"), source: source.to_owned(), frame });
        }
    }
    out
}

/// Members of `v` that `o` does not declare, at any depth (opaque values not looked into).
fn unknown_members(v: &Value, o: &ObjectDesc, path: &str, out: &mut Vec<String>) {
    let Some(members) = v.as_object() else { return };
    for (k, val) in members {
        if o.literals.iter().any(|(lk, _)| lk == k) {
            continue;
        }
        match o.fields.iter().find(|f| f.wire == k) {
            Some(f) => unknown_in(val, &f.ty, &format!("{path}.{k}"), out),
            None => out.push(format!("{path}.{k}")),
        }
    }
}

fn unknown_in(v: &Value, ty: &Ty, path: &str, out: &mut Vec<String>) {
    match ty {
        Ty::Object(o) => unknown_members(v, o, path, out),
        Ty::List(item) => {
            for (i, x) in v.as_array().into_iter().flatten().enumerate() {
                unknown_in(x, item, &format!("{path}[{i}]"), out);
            }
        }
        // Enum values and scalars have no members; opaque values are anyone's.
        Ty::Enum(_) | Ty::Scalar(_) => {}
    }
}

/// The object an example frame of `wire` is checked against, and whether the frame is an
/// envelope around it (`type` naming the message, the object under `payload`, as in GraphMind)
/// rather than the object itself (a union variant, or a protocol read by `parse_by_key`).
fn frame_object(p: &Protocol, wire: &str, frame: &Value) -> (&'static ObjectDesc, bool) {
    if let Some(m) = p.message(wire) {
        return (m.payload, frame["type"] == wire && frame.get("payload").is_some());
    }
    let v = p.unions.iter().flat_map(|u| u.variants).find(|v| v.wire == wire).unwrap_or_else(|| panic!("{}: no message {wire}", p.name));
    (v.frame, false)
}

/// Whether `frame` is the frame the shared material holds under `source`, or why not.
fn traced(p: &Protocol, source: &str, frame: &Value) -> Result<(), String> {
    let shared = common::shared_dir();
    if let Some(name) = source.strip_prefix("conformance vector `").and_then(|s| s.strip_suffix('`')) {
        let file = shared.join("vectors").join(p.name).join("conformance.jsonl");
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let v: Value = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["name"] == name)
            .ok_or_else(|| format!("no conformance vector {name}"))?;
        let theirs: Value = serde_json::from_str(v["frame"].as_str().unwrap_or_default()).map_err(|e| e.to_string())?;
        return if v["expect"] == "ok" && theirs == *frame { Ok(()) } else { Err(format!("vector {name} is not this ok frame")) };
    }
    if let Some(rest) = source.strip_prefix("a frame of the real client's traffic, shared `real-client/") {
        let (file, rest) = rest.split_once("` line ").ok_or("no line")?;
        let line: usize = rest.split(',').next().unwrap_or_default().trim().parse().map_err(|_| "bad line number")?;
        let path = shared.join("real-client").join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v: Value = serde_json::from_str(text.lines().nth(line - 1).ok_or("no such line")?).map_err(|e| e.to_string())?;
        let theirs: Value = serde_json::from_str(v["frame"].as_str().unwrap_or_default()).map_err(|e| e.to_string())?;
        return if v["expect"] == "ok" && theirs == *frame { Ok(()) } else { Err(format!("{file}:{line} is not this ok frame")) };
    }
    if source.starts_with("made from the registry") {
        return Ok(()); // a type no shared frame shows yet; checked like the others
    }
    Err(format!("unknown example source {source:?}"))
}

#[test]
fn every_example_is_a_realistic_ok_frame_from_the_shared_material() {
    for p in documented() {
        let rel = reference_path(p);
        let md = read(&rel);
        // The AsyncAPI document, where the protocol has one, holds the same examples.
        let yaml_doc = common::repo_dir().join(asyncapi_path(p)).exists().then(|| read(&asyncapi_path(p)));
        let found = examples(&md);
        assert_eq!(found.iter().map(|e| e.wire.as_str()).collect::<Vec<_>>(), wires(p), "{rel}: one example per message, in order");
        let mut problems = Vec::new();
        for ex in &found {
            let at = format!("{rel}: {}", ex.wire);
            // The contract's own parser accepts it as this message.
            match (p.parse_any)(&ex.frame) {
                AnyOutcome::Ok { message, .. } if message == ex.wire => {}
                AnyOutcome::Ok { message, .. } => problems.push(format!("{at}: parses as {message}")),
                AnyOutcome::Invalid { reason, issues } => problems.push(format!("{at}: invalid: {reason} {issues:?}")),
                AnyOutcome::Other { kind, .. } => problems.push(format!("{at}: {kind}")),
            }
            let frame: Value = serde_json::from_str(&ex.frame).expect("JSON");
            // Plain: nothing a test vector adds to probe the parser (unknown members).
            let (object, envelope) = frame_object(p, &ex.wire, &frame);
            let mut unknown = Vec::new();
            if envelope {
                for k in frame.as_object().expect("an object").keys() {
                    if !["gm", "seq", "ts", "runId", "type", "payload"].contains(&k.as_str()) {
                        unknown.push(format!("$.{k}"));
                    }
                }
                unknown_members(&frame["payload"], object, "$.payload", &mut unknown);
            } else {
                unknown_members(&frame, object, "$", &mut unknown);
                // A protocol read by `parse_by_key` puts its version and key in every frame,
                // declared by the object or not.
                if p.key.is_some() {
                    unknown.retain(|u| ![p.version.0, p.key.unwrap_or_default()].iter().any(|k| *u == format!("$.{k}")));
                }
            }
            if !unknown.is_empty() {
                problems.push(format!("{at}: members the contract does not declare: {unknown:?}"));
            }
            // Realistic: the protocol version it is framed in (every frame has it), and
            // announces in a handshake.
            let version = &frame[p.version.0];
            if version.as_str().map_or_else(|| version.to_string(), str::to_owned) != p.version.1 {
                problems.push(format!("{at}: {} is {version}, not {}", p.version.0, p.version.1));
            }
            if let Some(announced) = frame["payload"]["versions"].get("protocol") {
                if announced != version {
                    problems.push(format!("{at}: announces protocol {announced} in a frame of {} {version}", p.version.0));
                }
            }
            if let Err(why) = traced(p, &ex.source, &frame) {
                problems.push(format!("{at}: {why}"));
            }
            // The AsyncAPI document holds the same frame as its example.
            let mut block = String::from("          payload:\n");
            for line in yaml::document("", &yaml::Node::from_json_text(&ex.frame).expect("JSON")).lines() {
                block.push_str("            ");
                block.push_str(line);
                block.push('\n');
            }
            let Some(yaml_doc) = &yaml_doc else { continue };
            let section = yaml_doc.find(&format!("      name: {:?}\n", ex.wire)).map(|i| &yaml_doc[i..]);
            let section = section.map(|s| &s[..s[1..].find("\n      name: ").map_or(s.len(), |j| j + 1)]);
            if !section.is_some_and(|s| s.contains(&block)) {
                problems.push(format!("{}: {}: the example is not the reference's frame", asyncapi_path(p), ex.wire));
            }
        }
        assert!(problems.is_empty(), "{} example problem(s):\n  {}", problems.len(), problems.join("\n  "));
    }
}

#[test]
fn the_asyncapi_documents_hold_one_message_per_registry_message() {
    for p in with_asyncapi() {
        let rel = asyncapi_path(p);
        let yaml = read(&rel);
        assert!(yaml.contains("\nasyncapi: \"3.0.0\"\n"), "{rel}: not AsyncAPI 3.0.0");
        // Message objects sit at `components/messages/<key>` (indent 4), their `name` at indent 6.
        let names: Vec<&str> = yaml.lines().filter_map(|l| l.strip_prefix("      name: ")).collect();
        let expected: Vec<String> = wires(p).iter().map(|w| format!("{w:?}")).collect();
        assert_eq!(names, expected, "{rel}: the messages are not the registry's, one each, in order");
        let keys: Vec<&str> = p.messages.iter().map(|m| m.variant).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.name)).collect();
        for key in keys {
            assert!(yaml.contains(&format!("\n    {key}:\n      name: ")), "{rel}: no components/messages/{key}");
            assert!(yaml.contains("$ref: \"#/channels/") && yaml.contains(&format!("/messages/{key}\"")), "{rel}: {key} is in no operation");
        }
    }
}
