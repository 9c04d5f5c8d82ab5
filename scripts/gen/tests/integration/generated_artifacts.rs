//! The drift guard's Rust half: every file under `generated/` (the schema, the Python stubs,
//! the typify crate, the Kotlin and Swift bindings, whatever exists) has an insta snapshot, so
//! a change to generated output is reviewed with `cargo insta review` like any other; and
//! generation is deterministic: two runs of `scripts/generate-into` are byte-identical.
//! (`scripts/check-drift` proves the committed files are what the contract generates now.)

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every file under `dir`, keyed by its path relative to `dir` with `/` separators, sorted.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Files under `generated/` that people maintain, checked by their own tests and skipped by
/// `scripts/check-drift`: the known-disagreements lists and the released `baseline/` schemas.
fn hand_maintained(rel: &str) -> bool {
    rel.ends_with(".known-disagreements.json") || rel.split('/').any(|c| c == "baseline")
}

#[test]
fn generated_file() {
    let generated = common::repo_dir().join("generated");
    let files = tree(&generated);
    assert!(
        files.contains_key("schema/graphmind.v1.schema.json") && files.contains_key("python/wirecontract/graphmind/__init__.pyi"),
        "generated/ is missing the schema or the stubs"
    );
    let mut failed = Vec::new();
    for (rel, bytes) in files.iter().filter(|(rel, _)| !hand_maintained(rel)) {
        // One snapshot per file, named after this test: generated_file@<path with / as __>.
        let suffix = rel.replace('/', "__");
        let text = String::from_utf8(bytes.clone()).unwrap_or_else(|_| format!("<{} bytes, not UTF-8>", bytes.len()));
        let result = std::panic::catch_unwind(|| {
            // The snapshots keep the names and folder they had when this was a test binary of its own.
            insta::with_settings!({ snapshot_path => "../snapshots", snapshot_suffix => suffix, prepend_module_to_snapshot => false, omit_expression => true, description => format!("generated/{rel}") }, {
                insta::assert_snapshot!("generated_artifacts__generated_file", text);
            });
        });
        if result.is_err() {
            failed.push(rel.clone());
        }
    }
    assert!(
        failed.is_empty(),
        "{} generated file(s) differ from their reviewed snapshot: {failed:?}\n\
         If the change is intended (you ran scripts/regen), review and accept it: `cargo insta review`\n\
         (cargo install cargo-insta), or `INSTA_UPDATE=always cargo test -p wirecontract-gen --test\n\
         integration generated_file` and read `git diff scripts/gen/tests/snapshots`. Commit the .snap files.",
        failed.len()
    );
}

#[test]
fn every_snapshot_belongs_to_a_generated_file() {
    // A snapshot whose generated file is gone is stale and must be deleted with it.
    let prefix = "generated_artifacts__generated_file@";
    let expected: std::collections::BTreeSet<String> = tree(&common::repo_dir().join("generated"))
        .into_keys()
        .filter(|rel| !hand_maintained(rel))
        .map(|rel| format!("{prefix}{}.snap", rel.replace('/', "__")))
        .collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let stale: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|name| name.starts_with(prefix) && std::path::Path::new(name).extension().is_some_and(|e| e == "snap") && !expected.contains(name))
        .collect();
    assert!(stale.is_empty(), "snapshots without a generated file (delete them): {stale:?}");
}

/// Runs `scripts/generate-into` into a fresh temporary directory.
fn generate_into(label: &str) -> (PathBuf, BTreeMap<String, Vec<u8>>) {
    let dir = std::env::temp_dir().join(format!("wirecontract-determinism-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let status = Command::new("bash")
        .arg(common::repo_dir().join("scripts/generate-into"))
        .arg(&dir)
        .current_dir(common::repo_dir())
        .status()
        .expect("run scripts/generate-into");
    assert!(status.success(), "scripts/generate-into {} failed: {status}", dir.display());
    let files = tree(&dir);
    (dir, files)
}

#[test]
fn generation_is_deterministic_two_runs_are_byte_identical() {
    let (dir_a, a) = generate_into("a");
    let (dir_b, b) = generate_into("b");
    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
    assert!(
        a.contains_key("schema/graphmind.v1.schema.json") && a.contains_key("typify/src/graphmind.rs"),
        "generate-into wrote {:?}",
        a.keys().collect::<Vec<_>>()
    );
    let names_a: Vec<&String> = a.keys().collect();
    let names_b: Vec<&String> = b.keys().collect();
    assert_eq!(names_a, names_b, "the two runs wrote different files");
    let differing: Vec<&String> = a.iter().filter(|(k, v)| b.get(*k) != Some(v)).map(|(k, _)| k).collect();
    assert!(differing.is_empty(), "not deterministic: these files differ between two runs: {differing:?}");
}
