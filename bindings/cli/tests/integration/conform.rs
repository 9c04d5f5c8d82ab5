//! `wirecontract conform` without an adapter behind it: the listing, usage errors, and an app
//! that never connects, which must fail the scenario, the guarantees on frames (G1, G2)
//! included, since nothing arrived to show them (and pass only when `--expect` names exactly
//! the checks that fail). The kit against real adapters runs in scripts/test: the
//! Python asyncio and synchronous hosts (step 30), Kotlin (step 40) and Swift (step 45), every
//! scenario passing, and the real graphmind-ai client (step 35, its expected report).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_wirecontract");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wirecontract-conform-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn list_names_every_scenario() {
    let out = Command::new(BIN).args(["conform", "--list"]).output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let names: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names.len(), 21, "{text}");
    for want in [
        "continue",
        "inject-error",
        "abort-after",
        "step",
        "controls",
        "malformed",
        "gm-mismatch",
        "ack-protocol",
        "reconnect",
        "rearm",
        "late-attach",
        "overflow",
        "pause-timeout",
        "dispose",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
}

#[test]
fn an_unknown_scenario_is_a_usage_error() {
    let out = Command::new(BIN).args(["conform", "--scenario", "nope", "--", "true"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no scenario \"nope\""));
}

#[test]
fn an_app_that_never_connects_fails_and_expect_names_what_failed() {
    let dir = scratch("silent");
    let json = dir.join("report.json");
    let junit = dir.join("junit.xml");
    let out = Command::new(BIN)
        .args(["conform", "--scenario", "late-attach", "--json"])
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .args(["--", "true"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let report: Value = serde_json::from_slice(&std::fs::read(&json).expect("json report")).expect("json");
    let scenario = &report["scenarios"][0];
    assert_eq!(scenario["name"], "late-attach");
    assert_eq!(scenario["passed"], false);
    let failed: Vec<&str> = scenario["checks"].as_array().expect("checks").iter().filter(|c| c["status"] == "fail").filter_map(|c| c["id"].as_str()).collect();
    assert_eq!(failed, ["G1", "G2", "behaviour"], "{scenario}");
    let detail = scenario["checks"].as_array().and_then(|c| c.iter().find(|c| c["id"] == "behaviour")).map(|c| c["detail"].to_string()).unwrap_or_default();
    assert!(detail.contains("no run.finished arrived"), "{detail}");
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(xml.contains("<failure message=") && xml.contains("classname=\"conform.late-attach\""), "{xml}");

    let expect = dir.join("expect.json");
    std::fs::write(&expect, r#"{"late-attach": ["G1", "G2", "behaviour"]}"#).expect("write");
    let out = Command::new(BIN).args(["conform", "--scenario", "late-attach", "--expect"]).arg(&expect).args(["--", "true"]).output().expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    std::fs::write(&expect, r#"{"late-attach": ["G4"]}"#).expect("write");
    let out = Command::new(BIN).args(["conform", "--scenario", "late-attach", "--expect"]).arg(&expect).args(["--", "true"]).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
