//! One minimal OLD/NEW schema pair per rule, under `tests/fixtures/<case>/`, with the changes
//! and verdicts it must produce in `expected.json` (`rule`, `path`, both verdicts, and, where
//! given, `side`, `messages` and the policy verdict). The list of changes must match exactly,
//! in order: nothing missing, nothing extra.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use wirecontract_schema_diff::{diff, Options, Rule};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fields of a change that `expected` names.
fn project(change: &Value, expected: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for key in expected.as_object().expect("expected change is an object").keys() {
        out.insert(key.clone(), change.get(key).cloned().unwrap_or(Value::Null));
    }
    Value::Object(out)
}

#[test]
fn every_fixture_pair_gets_exactly_its_expected_changes_and_verdicts() {
    let mut cases: Vec<PathBuf> =
        std::fs::read_dir(fixtures_dir()).expect("fixtures dir").map(|e| e.expect("dir entry").path()).filter(|p| p.is_dir()).collect();
    cases.sort();
    assert!(cases.len() >= 40, "fixtures missing: found {}", cases.len());
    let mut failures = Vec::new();
    for dir in &cases {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let expected = read(&dir.join("expected.json"));
        let d = diff(&read(&dir.join("old.json")), &read(&dir.join("new.json")), &Options::assuming_same_protocol()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got: Vec<Value> = d.changes.iter().map(|c| serde_json::to_value(c).unwrap()).collect();
        let want = expected["changes"].as_array().expect("changes");
        let got_projected: Vec<Value> = got
            .iter()
            .zip(want.iter().chain(std::iter::repeat(&json!({"rule": 0, "path": 0, "old_receivers": 0, "old_senders": 0}))))
            .map(|(g, w)| project(g, w))
            .collect();
        if got_projected != *want {
            failures.push(format!("{name}:\n  expected {}\n  got      {}", serde_json::to_string(want).unwrap(), serde_json::to_string(&got).unwrap()));
        }
        if let Some(policy) = expected.get("policy") {
            let got_policy = serde_json::to_value(d.policy()).unwrap();
            if got_policy != *policy {
                failures.push(format!("{name}: policy expected {policy}, got {got_policy}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} fixture(s) disagree:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_rule_has_a_fixture() {
    let mut seen = std::collections::HashSet::new();
    for entry in std::fs::read_dir(fixtures_dir()).unwrap() {
        let dir = entry.unwrap().path();
        if let Some(changes) = read(&dir.join("expected.json"))["changes"].as_array() {
            for c in changes {
                seen.insert(c["rule"].as_str().unwrap().to_owned());
            }
        }
    }
    let missing: Vec<String> = Rule::ALL.iter().map(|r| r.name()).filter(|n| !seen.contains(n)).collect();
    assert!(missing.is_empty(), "rules without a fixture: {missing:?}");
}

#[test]
fn a_diff_is_empty_when_both_sides_are_the_same_file() {
    for entry in std::fs::read_dir(fixtures_dir()).unwrap() {
        let dir = entry.unwrap().path();
        for side in ["old.json", "new.json"] {
            let v = read(&dir.join(side));
            let d = diff(&v, &v, &Options::assuming_same_protocol()).unwrap();
            assert!(d.changes.is_empty(), "{}/{side} differs from itself: {:?}", dir.display(), d.changes);
        }
    }
}

#[test]
fn swapping_old_and_new_swaps_the_directions() {
    // Widening one way is narrowing the other way: the verdicts trade places.
    for case in ["enum-value-added", "object-closed", "bound-tightened", "became-nullable", "type-changed-widened"] {
        let dir = fixtures_dir().join(case);
        let (old, new) = (read(&dir.join("old.json")), read(&dir.join("new.json")));
        let forward = diff(&old, &new, &Options::assuming_same_protocol()).unwrap();
        let backward = diff(&new, &old, &Options::assuming_same_protocol()).unwrap();
        assert_eq!(forward.changes.len(), 1, "{case}");
        assert_eq!(backward.changes.len(), 1, "{case}");
        assert_eq!(forward.changes[0].old_receivers, backward.changes[0].old_senders, "{case}");
        assert_eq!(forward.changes[0].old_senders, backward.changes[0].old_receivers, "{case}");
    }
}
