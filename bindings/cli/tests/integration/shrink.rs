//! `wirecontract shrink` over every vector of `shared/vectors/graphmind/shrink.jsonl`
//! (graphmind-shrink §15): one run of the binary per (budget, type) group, output text byte
//! for byte and tier.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_wirecontract");

fn shared_dir() -> PathBuf {
    std::env::var_os("WIRECONTRACT_SHARED").map_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")), PathBuf::from)
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn wirecontract");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for wirecontract");
    writer.join().expect("stdin writer");
    out
}

#[test]
fn every_vector_through_the_binary() {
    let path = shared_dir().join("vectors/graphmind/shrink.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let cases: Vec<Value> = text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("vector line is JSON")).collect();
    assert_eq!(cases.len(), 233);
    let mut groups: BTreeMap<(u64, Option<String>), Vec<&Value>> = BTreeMap::new();
    for c in &cases {
        groups.entry((c["max_bytes"].as_u64().expect("max_bytes"), c["type"].as_str().map(Into::into))).or_default().push(c);
    }
    let mut failures = Vec::new();
    let mut passed = 0;
    for ((max_bytes, ty), group) in &groups {
        // A newline in JSON text can only be whitespace; a space keeps one payload per line.
        let input: String = group.iter().map(|c| c["payload_json"].as_str().expect("payload_json").replace('\n', " ") + "\n").collect();
        let max = max_bytes.to_string();
        let mut args = vec!["shrink", "--max-bytes", &max];
        if let Some(t) = ty {
            args.extend(["--type", t]);
        }
        let out = run(&args, input.as_bytes());
        assert!(out.status.success(), "exit {:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
        let lines: Vec<Value> = String::from_utf8(out.stdout).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("result line is JSON")).collect();
        assert_eq!(lines.len(), group.len(), "one result line per payload");
        for (c, got) in group.iter().zip(&lines) {
            if got["json"] == c["expect_json"] && got["tier"] == c["tier"] {
                passed += 1;
            } else {
                failures.push(format!("{}: got {got}, want tier {} {}", c["name"], c["tier"], c["expect_json"]));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert_eq!(passed, 233);
}

#[test]
fn a_line_that_is_not_json_gets_an_error_and_the_stream_goes_on() {
    let out = run(&["shrink", "--max-bytes", "10"], b"{\"a\":\nnot json\n\"\\ud800\"\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0]["error"].is_string() && lines[1]["error"].is_string());
    assert_eq!(lines[2], serde_json::json!({"tier": 1, "json": "\"\\ud800\""}));
}

#[test]
fn an_unknown_type_is_shrunk_and_named_on_stderr() {
    let out = run(&["shrink", "--type", "node.finshed"], b"{\"a\":1}\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"tier":1,"json":"{\"a\":1}"}"#);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"node.finshed\" is not a GraphMind message type"), "{err}");
    let out = run(&["shrink", "--type", "node.finished"], b"{\"a\":1}\n");
    assert!(out.stderr.is_empty(), "a known type prints no note");
}

/// Payloads past the 16 MiB frame cap are shrunk too, byte for byte as the contract's
/// `shrink_payload_json` (what the Python and Node bindings call) shrinks them: 50 MB and
/// 70 MB, as in issue 40 item 10.
#[test]
fn payloads_over_the_frame_cap_are_shrunk_exactly_as_the_bindings_shrink_them() {
    let big_string = format!(r#"{{"nodeId":"tool:t","instanceId":"c1","durationMs":1,"status":"ok","output":"{}"}}"#, "x".repeat(50_000_000));
    let items: Vec<String> = (0..70_000).map(|i| format!(r#"{{"i":{i},"text":"é{}"}}"#, "y".repeat(1000))).collect();
    let big_list = format!(r#"{{"nodeId":"n","instanceId":"c2","durationMs":2,"status":"ok","output":[{}],"meta":{{"k":"v"}}}}"#, items.join(","));
    assert!(big_list.len() > 70_000_000, "{}", big_list.len());
    for (payload, ty) in [(&big_string, Some("node.finished")), (&big_list, None)] {
        let want = wirecontract::graphmind::shrink_payload_json(payload, wirecontract::graphmind::DEFAULT_MAX_PAYLOAD_BYTES, ty).expect("JSON");
        let mut args = vec!["shrink"];
        if let Some(t) = ty {
            args.extend(["--type", t]);
        }
        let out = run(&args, format!("{payload}\n").as_bytes());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(got["tier"], want.tier, "{ty:?}");
        assert!(got["json"].as_str() == Some(want.json.as_str()), "{ty:?}: got {got}");
        assert!(want.tier > 1);
    }
}

#[test]
fn a_line_over_max_input_bytes_is_refused_with_an_error_naming_the_flag() {
    let out = run(&["shrink", "--max-input-bytes", "10"], b"[1,2,3,4,5,6,7,8]\n[1]\n");
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["error"].as_str().is_some_and(|e| e.contains("--max-input-bytes 10")), "{}", lines[0]);
    assert_eq!(lines[1], serde_json::json!({"tier": 1, "json": "[1]"}));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("note: line 1: payload line is over --max-input-bytes 10 bytes"), "{err}");
}
