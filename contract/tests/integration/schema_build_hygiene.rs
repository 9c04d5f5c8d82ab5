//! Build hygiene: no crate in the workspace's build turns on serde_json's
//! `arbitrary_precision`. Cargo unifies features, so one crate enabling it anywhere changes how
//! every crate's `serde_json::Number` behaves: numbers become strings inside serde, `1e400`
//! parses, `as_f64` and `Value` equality change, and the schema export, the typify round trip
//! and every test that reads JSON through serde_json would silently stop meaning what they say.

use std::process::Command;

#[test]
fn no_crate_in_the_build_enables_serde_json_arbitrary_precision() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");

    // The resolved graph: every serde_json node with the features it is built with (unified
    // over every workspace member and target).
    let nodes = meta["resolve"]["nodes"].as_array().expect("resolve.nodes");
    let serde_json_nodes: Vec<&serde_json::Value> = nodes.iter().filter(|n| n["id"].as_str().is_some_and(|id| id.contains("serde_json"))).collect();
    assert!(!serde_json_nodes.is_empty(), "serde_json is in the build; cargo metadata must show it");
    for node in &serde_json_nodes {
        let features: Vec<&str> = node["features"].as_array().unwrap().iter().filter_map(serde_json::Value::as_str).collect();
        assert!(!features.contains(&"arbitrary_precision"), "{} is built with arbitrary_precision (features {features:?})", node["id"]);
    }

    // And no package asks for it, in any dependency declaration (named or through a feature).
    let packages = meta["packages"].as_array().expect("packages");
    let mut askers = Vec::new();
    for p in packages {
        for dep in p["dependencies"].as_array().into_iter().flatten() {
            let features = dep["features"].as_array().into_iter().flatten().filter_map(serde_json::Value::as_str);
            if dep["name"] == "serde_json" && features.clone().any(|f| f == "arbitrary_precision") {
                askers.push(format!("{} (dependency on serde_json)", p["name"]));
            }
        }
        for (feature, enables) in p["features"].as_object().into_iter().flatten() {
            if enables.as_array().into_iter().flatten().filter_map(serde_json::Value::as_str).any(|e| e.ends_with("serde_json/arbitrary_precision")) {
                askers.push(format!("{} (its feature `{feature}`)", p["name"]));
            }
        }
    }
    // Optional features of registry crates that nobody turns on are fine; the resolved graph
    // above is the real check. Workspace members must not even offer it.
    let members: Vec<&str> = meta["workspace_members"].as_array().unwrap().iter().filter_map(serde_json::Value::as_str).collect();
    let member_names: Vec<String> =
        packages.iter().filter(|p| members.contains(&p["id"].as_str().unwrap_or_default())).map(|p| p["name"].to_string()).collect();
    let from_members: Vec<&String> = askers.iter().filter(|a| member_names.iter().any(|m| a.starts_with(m.as_str()))).collect();
    assert!(from_members.is_empty(), "workspace crates ask for serde_json/arbitrary_precision: {from_members:?}");
}
