//! Issue 37, the adapter core against the real client: each scenario of
//! `vectors/graphmind/adapter-core/scenarios.json` (redaction, token batching, the loop-guard
//! environment), played on the sans-IO core configured from the scenario's environment, puts
//! the same frames on the wire as the real `graphmind-ai` 0.5.1 client did in the recording
//! next to it (ids, timestamps, seqs, durations and the loop fingerprint normalized, as
//! `bindings/python/tests/adapter_core_scenarios.py` does). The hosts are checked over real
//! sockets with the same scenarios: Python by `test_adapter_core.py`, Kotlin by
//! `AdapterCoreTest.kt`, Swift by `AdapterCoreTests.swift`.

use crate::common;

use serde_json::{json, Map, Value};
use wirecontract::graphmind::session::{Action, AppSession, GateNode, GateOutcome, Millis, RunEnd, SessionConfig};
use wirecontract::graphmind::{NodeKind, PausePoint, SdkInfo};

fn data_dir() -> std::path::PathBuf {
    common::repo_dir().join("vectors/graphmind/adapter-core")
}

fn read_json(name: &str) -> Value {
    let path = data_dir().join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).expect("JSON")
}

fn recording(name: &str) -> Vec<Value> {
    let path = data_dir().join(format!("{name}.jsonl"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

/// The frames the app sent, as `{dir, frame}` entries like a capture.
struct Wire {
    log: Vec<Value>,
}

impl Wire {
    fn drain(&mut self, s: &mut AppSession) -> Vec<Value> {
        let mut paused = Vec::new();
        while let Some(a) = s.poll_action() {
            if let Action::Send(f) = a {
                let frame: Value = serde_json::from_str(&f).expect("frame JSON");
                if frame["type"] == "exec.paused" {
                    paused.push(frame.clone());
                }
                self.log.push(json!({"dir": "app->viewer", "frame": f}));
            }
        }
        paused
    }
}

fn kind(text: &str) -> NodeKind {
    NodeKind::from_wire(text).expect("a node kind")
}

/// Plays scenario `name` on the core, as the scenario code does on a host.
fn play(name: &str, scenario: &Value) -> Vec<Value> {
    let env: Vec<(String, String)> = scenario["env"].as_object().expect("env").iter().map(|(k, v)| (k.clone(), v.as_str().expect("str").to_owned())).collect();
    let mut config = SessionConfig::from_env(env);
    "adapter-core".clone_into(&mut config.app);
    config.sdk = SdkInfo::from_required("adapter-core".to_owned(), "1".to_owned());
    let mut s = AppSession::new(config);
    let mut wire = Wire { log: Vec::new() };
    let mut t = 1000.0;
    let mut now = || {
        t += 0.25;
        Millis::new(t).expect("finite")
    };
    s.ready(now(), None);
    s.transport_opened(now());
    let ack = r#"{"gm":1,"seq":0,"ts":1,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"t"},"capabilities":[],"breakpoints":[],"mode":"run"}}"#;
    s.frame_received(ack.as_bytes(), now());
    wire.drain(&mut s);
    let run = "run_scenario";
    s.start_run(run, name, None, now()).expect("start_run");
    for step in scenario["steps"].as_array().expect("steps") {
        let step = step.as_array().expect("step");
        let text = |i: usize| step[i].as_str().expect("str").to_owned();
        match text(0).as_str() {
            "start" => {
                let mut p = json!({"nodeId": text(1), "kind": text(2), "name": text(3), "instanceId": text(4)});
                if !step[5].is_null() {
                    p["input"] = step[5].clone();
                }
                s.emit_json("node.started", &p.to_string(), Some(run), now()).expect("node.started");
            }
            "token" => s.push_token_str(&text(1), &text(2), &text(3), Some(run), now()).expect("token"),
            "gate" => {
                let node = GateNode::new(text(1), kind(&text(2)), text(3));
                if let GateOutcome::Held(pause) = s.gate(PausePoint::Before, &node, Some(run), now()) {
                    wire.drain(&mut s);
                    let resume = json!({"gm":1,"seq":1,"ts":1,"runId":run,"type":"exec.resume","payload":{"pauseId":pause,"action":"continue"}});
                    s.frame_received(resume.to_string().as_bytes(), now());
                }
            }
            "finish" => {
                let mut p = json!({"nodeId": text(1), "instanceId": text(2), "durationMs": 1.0, "status": "ok"});
                if !step[3].is_null() {
                    p["output"] = step[3].clone();
                }
                s.emit_json("node.finished", &p.to_string(), Some(run), now()).expect("node.finished");
            }
            other => panic!("unknown step {other}"),
        }
        wire.drain(&mut s);
    }
    s.finish_run(run, RunEnd::Ok, now()).expect("finish_run");
    s.dispose(now());
    wire.drain(&mut s);
    wire.log
}

const VOLATILE: &[&str] = &["durationMs", "heldMs", "fingerprint", "pauseId", "firstSeq", "lastSeq"];

fn scrub(value: &Value, run_id: &str, placeholder: &str) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let v = if VOLATILE.contains(&k.as_str()) {
                        json!(format!("<{k}>"))
                    } else if v == run_id {
                        json!(placeholder)
                    } else {
                        scrub(v, run_id, placeholder)
                    };
                    (k.clone(), v)
                })
                .collect::<Map<_, _>>(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| scrub(v, run_id, placeholder)).collect()),
        v => v.clone(),
    }
}

/// The app's frames after the handshake, normalized (the Python `normalize`).
fn normalize(log: &[Value]) -> Vec<Value> {
    let mut runs: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for entry in log.iter().filter(|e| e["dir"] == "app->viewer") {
        let frame: Value = serde_json::from_str(entry["frame"].as_str().expect("frame")).expect("JSON");
        if frame["type"] == "hello" {
            continue;
        }
        let run_id = frame["runId"].as_str().expect("runId").to_owned();
        let index = runs.iter().position(|r| *r == run_id).unwrap_or_else(|| {
            runs.push(run_id.clone());
            runs.len() - 1
        });
        let placeholder = format!("<run{index}>");
        out.push(json!({"type": frame["type"], "runId": placeholder, "payload": scrub(&frame["payload"], &run_id, &placeholder)}));
    }
    out
}

#[test]
fn every_scenario_matches_the_real_client_recording() {
    let scenarios = read_json("scenarios.json");
    let scenarios = scenarios.as_object().expect("object");
    assert_eq!(scenarios.len(), 5);
    for (name, scenario) in scenarios {
        let expected = normalize(&recording(name));
        assert!(!expected.is_empty(), "{name}: the recording holds frames");
        let ours = normalize(&play(name, scenario));
        assert_eq!(ours, expected, "{name}");
    }
}
