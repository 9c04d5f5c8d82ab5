//! The generated Python stubs against the registry: every registered protocol has one (the
//! curated `wirecontract.graphmind` / `wirecontract.graphorin` package stubs, or the generic
//! `generated/python/protocols/<name>.pyi` of a protocol without a curated module), and it
//! declares a class for every object of the protocol, a `Literal` alias for every enum, and
//! names every message type or frame variant the binding's `parse_frame` reports. The lists
//! come from `wirecontract::registry`; `scripts/check-drift` proves the files are current.

use crate::common;

use wirecontract::registry::{protocols, Protocol};

/// Where the generator writes the stub of `p`.
fn stub_path(p: &Protocol) -> String {
    match p.name {
        "graphmind" => "generated/python/wirecontract/graphmind/__init__.pyi".to_owned(),
        "graphorin" => "generated/python/wirecontract/graphorin.pyi".to_owned(),
        other => format!("generated/python/protocols/{other}.pyi"),
    }
}

#[test]
fn every_protocol_has_a_stub_with_its_objects_enums_and_messages() {
    let all = protocols();
    assert!(all.len() >= 2, "the registry lists {} protocols", all.len());
    let mut missing = Vec::new();
    for p in all {
        let rel = stub_path(p);
        let path = common::repo_dir().join(&rel);
        let stub = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e} (run scripts/regen)"));
        for o in p.objects() {
            if !stub.contains(&format!("\nclass {}(WireObject):\n", o.name)) {
                missing.push(format!("{rel}: class {}", o.name));
            }
            for f in o.fields {
                if !stub.contains(&format!("    def {}(self) -> ", f.rust)) {
                    missing.push(format!("{rel}: {}.{}", o.name, f.rust));
                }
            }
        }
        for e in p.enums() {
            if !stub.contains(&format!("\n{}: TypeAlias = Literal[", e.name)) {
                missing.push(format!("{rel}: enum {}", e.name));
            }
        }
        // The wire names: GraphMind's stub lists them in its MessageType alias, Graphorin's in
        // its variant aliases, a generic stub in MessageName.
        for wire in p.messages.iter().map(|m| m.wire).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.wire)) {
            if !stub.contains(&format!("{wire:?}")) {
                missing.push(format!("{rel}: message {wire}"));
            }
        }
    }
    assert!(missing.is_empty(), "the stubs do not declare: {missing:#?}");
}

/// The generic stub, where the registry has a protocol without a curated module, is valid
/// Python syntax (no interpreter here: balanced brackets and one `parse_frame` overload typed
/// with its own name, enough to catch a generator slip; the Python suite type-checks the
/// curated stubs with stubtest).
#[test]
fn a_generic_stub_types_parse_frame_for_its_protocol() {
    for p in protocols().iter().filter(|p| !["graphmind", "graphorin"].contains(&p.name)) {
        let rel = stub_path(p);
        let stub = std::fs::read_to_string(common::repo_dir().join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(stub.contains(&format!("def parse_frame(protocol: Literal[{:?}], data: str)", p.name)), "{rel}");
        for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
            assert_eq!(stub.matches(open).count(), stub.matches(close).count(), "{rel}: unbalanced {open}{close}");
        }
    }
}
