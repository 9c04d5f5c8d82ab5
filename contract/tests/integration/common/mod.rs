//! Locating and reading the shared conformance material.
#![allow(dead_code)]

use std::path::PathBuf;

/// `shared/` beside the repository (override with `WIRECONTRACT_SHARED`).
pub fn shared_dir() -> PathBuf {
    if let Ok(p) = std::env::var("WIRECONTRACT_SHARED") {
        return PathBuf::from(p);
    }
    repo_dir().join("../shared")
}

/// The repository root: the nearest ancestor of the test's crate that holds `Cargo.lock`
/// (this file is also included by `scripts/gen/tests`, one level deeper).
pub fn repo_dir() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().find(|d| d.join("Cargo.lock").is_file()).map_or_else(|| manifest.join(".."), PathBuf::from)
}

/// One vector: a frame and its expected verdict.
#[derive(Debug, Clone)]
pub struct Vector {
    pub source: String,
    pub name: String,
    pub frame: String,
    pub expect: String,
    pub message_type: Option<String>,
}

fn read_jsonl(path: &PathBuf) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("vector line is JSON")).collect()
}

/// Every GraphMind vector: shared conformance, our own extra vectors, and every real-client
/// frame. Panics when the shared material is missing: a test that finds nothing must fail.
pub fn graphmind_vectors() -> Vec<Vector> {
    let mut out = Vec::new();
    let shared = shared_dir();
    let conf = shared.join("vectors/graphmind/conformance.jsonl");
    let own = repo_dir().join("vectors/graphmind/extra.jsonl");
    for (label, path) in [("conformance", conf), ("extra", own)] {
        for v in read_jsonl(&path) {
            out.push(Vector {
                source: label.into(),
                name: v["name"].as_str().unwrap().into(),
                frame: v["frame"].as_str().unwrap().into(),
                expect: v["expect"].as_str().unwrap().into(),
                message_type: v.get("type").and_then(|t| t.as_str()).map(Into::into),
            });
        }
    }
    let mut files: Vec<_> = std::fs::read_dir(shared.join("real-client"))
        .expect("real-client dir")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "expected the 8 real-client captures");
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        for (i, v) in read_jsonl(&f).into_iter().enumerate() {
            out.push(Vector {
                source: "real-client".into(),
                name: format!("{stem}:{}", i + 1),
                frame: v["frame"].as_str().unwrap().into(),
                expect: v["expect"].as_str().unwrap().into(),
                message_type: v.get("type").and_then(|t| t.as_str()).map(Into::into),
            });
        }
    }
    assert!(out.len() > 500, "vectors missing: found {}", out.len());
    out
}

/// Parts `(type, payload text, seq, runId)` that test the builders from JSON text at their
/// edges, each against the general path (`tests/build_frame_json.rs`,
/// `tests/create_envelope_json.rs`): payload texts that are not one JSON value (a second
/// member spliced in after the payload, in the writer's own form), valid payloads the writer
/// does not reproduce byte for byte (order, spacing, escapes, duplicates), counters and
/// `runId`s out of range, and an unknown type.
pub fn builder_edge_cases() -> Vec<(&'static str, &'static str, u64, &'static str)> {
    let max = 9_007_199_254_740_991u64;
    vec![
        ("node.token", r#"{"nodeId":"n","deltas":[]}"#, max + 1, "r"),
        ("node.token", r#"{"nodeId":1,"deltas":[]}"#, 0, "r"),
        ("node.token", r#"{"nodeId":"n","deltas":[]},"x":{"#, 0, "r"),
        ("node.token", r#"{"nodeId":"n","deltas":[]},"runId":"s""#, 0, "r"),
        // A second payload member spliced in: the spliced frame parses, with the last payload.
        ("node.token", r#"{"nodeId":"a","deltas":[]},"payload":{"nodeId":"b","deltas":[]}"#, 0, "r"),
        ("node.token", r#"{"nodeId":"a","deltas":[]},"type":"node.token""#, 0, "r"),
        ("node.token", r#"{"nodeId":"a","deltas":[]},"seq":0"#, 0, "r"),
        ("node.token", r#"{"nodeId":"a","deltas":[]}   "#, 0, "r"),
        ("node.token", r#"{"deltas":[],"nodeId":"n"}"#, 0, "r"),
        ("node.token", r#" { "nodeId" : "n\/" , "deltas" : [ { "t" : "text" , "v" : "é" } ] } "#, 0, "r"),
        ("node.token", r#"{"nodeId":"n","nodeId":"m","deltas":[]}"#, 0, "r"),
        ("node.token", r#"{"nodeId":"n","deltas":[]}"#, 0, "a\u{0}b"),
        ("node.token", "{", 0, "r"),
        ("node.token", "", 0, "r"),
        ("x.future", "[1e400, 1.0]", 0, "r"),
        ("mode.set", r#" { "mode" : "step" , "z" : [ 1 ] } "#, 0, "r"),
    ]
}
