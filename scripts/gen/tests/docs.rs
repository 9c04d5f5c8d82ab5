//! The generated documents against the registry: the Markdown references
//! (`generated/docs/*.md`) document every message type, frame variant, object and enum of
//! every protocol under its anchor, and every link in them resolves (intra-document anchors
//! and relative files); the AsyncAPI documents (`generated/asyncapi/*.yaml`) hold exactly one
//! message per registry message or variant. The lists come from `wirecontract::registry`, never
//! from a hand list. (`scripts/check-drift` proves the committed files are current; step
//! `55-asyncapi` runs the official AsyncAPI parser on them.)

#[path = "../../../contract/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;
use std::path::Path;

use wirecontract::registry::{protocols, Protocol};

fn read(rel: &str) -> String {
    let path = common::repo_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e} (run scripts/regen)"))
}

fn reference_path(p: &Protocol) -> String {
    format!("generated/docs/{}.v1.md", p.name)
}

fn asyncapi_path(p: &Protocol) -> String {
    format!("generated/asyncapi/{}.v1.asyncapi.yaml", p.name)
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

#[test]
fn the_reference_documents_every_message_object_and_enum_of_the_registry() {
    for p in protocols() {
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

#[test]
fn every_link_in_the_references_resolves() {
    for p in protocols() {
        let rel = reference_path(p);
        let md = read(&rel);
        let ids = anchors(&md);
        let dir = common::repo_dir().join(Path::new(&rel).parent().unwrap());
        let mut broken = Vec::new();
        let targets = link_targets(&md);
        assert!(targets.len() > wires(p).len(), "{rel}: expected links to every message, found {}", targets.len());
        for target in targets {
            if let Some(anchor) = target.strip_prefix('#') {
                if !ids.contains(anchor) {
                    broken.push(target);
                }
            } else if target.contains("://") {
                broken.push(format!("{target} (absolute URL; link a file of the repository)"));
            } else {
                let file = target.split('#').next().unwrap();
                if !dir.join(file).exists() {
                    broken.push(target);
                }
            }
        }
        assert!(broken.is_empty(), "{rel}: broken links: {broken:?}");
    }
}

#[test]
fn the_asyncapi_documents_hold_one_message_per_registry_message() {
    for p in protocols() {
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
