//! End-to-end tests of the `wirecontract` binary: verdicts on every shared vector and real
//! client frame, schema output, exit codes, byte-level line splitting and broken pipes.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use wirecontract::graphmind;

const BIN: &str = env!("CARGO_BIN_EXE_wirecontract");

/// Runs the binary with `args`, feeding `stdin` from a thread so large inputs cannot deadlock.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn wirecontract");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may exit before reading everything (usage errors); that is fine.
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for wirecontract");
    writer.join().expect("stdin writer");
    out
}

fn stdout_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("verdict line is not JSON ({e}): {l}")))
        .collect()
}

fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("WIRECONTRACT_SHARED").map_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")), PathBuf::from);
    assert!(dir.is_dir(), "shared dir {} is missing (set WIRECONTRACT_SHARED to the shared/ folder)", dir.display());
    dir
}

/// One frame with the verdict it must get.
struct Case {
    source: String,
    frame: String,
    expect: String,
    message_type: Option<String>,
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read vector file {}: {e}", path.display()));
    let cases: Vec<Case> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: not JSON: {e}", path.display(), i + 1));
            let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
            let name = field("name").unwrap_or_else(|| format!("line {}", i + 1));
            Case {
                source: format!("{} {name}", path.file_name().unwrap().to_string_lossy()),
                frame: field("frame").unwrap_or_else(|| panic!("{}:{}: no frame", path.display(), i + 1)),
                expect: field("expect").unwrap_or_else(|| panic!("{}:{}: no expect", path.display(), i + 1)),
                message_type: field("type"),
            }
        })
        .collect();
    assert!(!cases.is_empty(), "{} holds no vectors", path.display());
    cases
}

/// Every shared conformance vector, every real-client frame and every repo-local extra vector.
fn all_cases() -> Vec<Case> {
    let shared = shared_dir();
    let mut cases = read_cases(&shared.join("vectors/graphmind/conformance.jsonl"));
    let real = shared.join("real-client");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&real)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", real.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no real-client captures in {}", real.display());
    for f in &files {
        cases.extend(read_cases(f));
    }
    cases.extend(read_cases(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/graphmind/extra.jsonl")));
    cases
}

fn assert_verdict(case_source: &str, got: &Value, expect: &str, message_type: Option<&str>) {
    assert_eq!(got["kind"], expect, "{case_source}: wrong kind, verdict {got}");
    match expect {
        "ok" | "unknown-type" => assert_eq!(got["type"].as_str(), message_type, "{case_source}: wrong type, verdict {got}"),
        "version-mismatch" => {
            assert!(got["received"].is_i64() && got["supported"] == 1, "{case_source}: mismatch must carry received and supported: {got}");
            assert!(got.get("type").is_none(), "{case_source}: {got}");
        }
        _ => {
            assert!(got["reason"].is_string(), "{case_source}: invalid must carry a reason: {got}");
            // Salvage: seq, ts, runId and type all present exactly when only the payload failed.
            let payload_failed = got["reason"].as_str().is_some_and(|r| r.starts_with("invalid payload for message type"));
            for key in ["seq", "ts", "runId", "type"] {
                assert_eq!(got.get(key).is_some(), payload_failed, "{case_source}: salvage key {key}: {got}");
            }
            if payload_failed {
                assert!(got["seq"].is_u64() && got["ts"].is_u64() && got["runId"].is_string() && got["type"].is_string(), "{case_source}: {got}");
            }
        }
    }
}

#[test]
fn every_vector_and_real_client_frame_gets_its_verdict_in_one_invocation() {
    // A frame holding a raw `\n` cannot travel through the line protocol: it is two lines.
    // Those go through `frames_with_a_raw_newline_are_one_frame_per_line` instead.
    let (single, _): (Vec<Case>, Vec<Case>) = all_cases().into_iter().partition(|c| !c.frame.contains('\n'));
    let mut input = Vec::new();
    for c in &single {
        input.extend_from_slice(c.frame.as_bytes());
        input.push(b'\n');
    }
    let out = run(&["parse", "-"], &input);
    assert!(out.status.success(), "exit {:?}, stderr: {}", out.status, String::from_utf8_lossy(&out.stderr));
    let verdicts = stdout_lines(&out);
    assert_eq!(verdicts.len(), single.len(), "one verdict per frame");
    for (c, got) in single.iter().zip(&verdicts) {
        assert_verdict(&c.source, got, &c.expect, c.message_type.as_deref());
    }
}

#[test]
fn frames_with_a_raw_newline_are_one_frame_per_line() {
    // Documented behaviour: `parse` splits on `\n` and nothing else, so a vector whose frame
    // contains a raw newline (e.g. `json.leading_whitespace`, `json.ndjson_two_lines`) is read
    // as one frame per line, each judged on its own bytes exactly as the library judges them.
    let dir = std::env::temp_dir().join(format!("wirecontract-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, c) in all_cases().iter().filter(|c| c.frame.contains('\n')).enumerate() {
        let file = dir.join(format!("frame-{i}.txt"));
        std::fs::write(&file, c.frame.as_bytes()).expect("write frame file");
        let out = run(&["parse", file.to_str().expect("UTF-8 temp path")], b"");
        assert!(out.status.success(), "{}: exit {:?}", c.source, out.status);
        let verdicts = stdout_lines(&out);
        let pieces: Vec<&str> = c.frame.strip_suffix('\n').unwrap_or(&c.frame).split('\n').collect();
        assert_eq!(verdicts.len(), pieces.len(), "{}: one verdict per line", c.source);
        for (piece, got) in pieces.iter().zip(&verdicts) {
            let want = graphmind::parse(piece.as_bytes(), &graphmind::ParseOptions::default());
            assert_verdict(&c.source, got, want.kind(), want.envelope().map(graphmind::Envelope::message_type));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn leading_newline_frame_splits_into_an_empty_invalid_frame_and_an_ok_frame() {
    let out = run(&["parse"], b"\n\t {\"gm\":1,\"seq\":42,\"ts\":1,\"runId\":\"r\",\"type\":\"run.finished\",\"payload\":{\"status\":\"ok\"}}");
    let verdicts = stdout_lines(&out);
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["kind"], "invalid");
    assert_eq!(verdicts[1], serde_json::json!({"kind": "ok", "type": "run.finished"}));
}

#[test]
fn schema_output_equals_the_library_export() {
    let out = run(&["schema", "graphmind"], b"");
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).expect("UTF-8"), graphmind::export_json_schema_string());
}

#[test]
fn every_registry_protocol_has_its_schema_and_a_parse() {
    // No protocol is named here: each of the registry's is printed and parsed by name, with the
    // generated examples (one accepted frame per message or variant) as input.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for p in wirecontract::registry::protocols() {
        let out = run(&["schema", p.name], b"");
        assert!(out.status.success(), "schema {}", p.name);
        assert_eq!(String::from_utf8(out.stdout).expect("UTF-8"), p.schema_string(), "schema {}", p.name);
        let examples = std::fs::read_to_string(root.join(format!("generated/examples/{}.jsonl", p.name))).expect("generated examples");
        let mut frames = String::new();
        for line in examples.lines() {
            let example: Value = serde_json::from_str(line).expect("example line");
            frames.push_str(example["frame"].as_str().expect("frame text"));
            frames.push('\n');
        }
        // A protocol whose frames depend on the sending side asks for --direction (a usage
        // error without it); an example is then accepted from one side or the other.
        let plain = run(&["parse", "--protocol", p.name], frames.as_bytes());
        let verdicts: Vec<Vec<Value>> = if plain.status.code() == Some(2) {
            assert!(String::from_utf8_lossy(&plain.stderr).contains("--direction"), "{}: {}", p.name, String::from_utf8_lossy(&plain.stderr));
            ["server", "client"].iter().map(|d| stdout_lines(&run(&["parse", "--protocol", p.name, "--direction", d], frames.as_bytes()))).collect()
        } else {
            vec![stdout_lines(&plain)]
        };
        for (i, line) in examples.lines().enumerate() {
            assert!(
                verdicts.iter().any(|v| v[i]["kind"] == "ok"),
                "{}: example {line} is not ok: {:?}",
                p.name,
                verdicts.iter().map(|v| &v[i]).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn usage_errors_exit_2_with_a_message_on_stderr() {
    for args in [
        &[][..],
        &["bogus"],
        &["parse", "--bogus"],
        &["parse", "--protocol", "nope"],
        &["parse", "--protocol"],
        &["schema"],
        &["schema", "nope"],
        &["parse", "/nonexistent/wirecontract/frames.jsonl"],
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?} must be a usage error");
        assert!(out.stdout.is_empty(), "{args:?} must print nothing on stdout");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"), "{args:?}: stderr must say what is wrong");
    }
    let out = run(&["parse", "--protocol", "nope"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("graphmind"), "an unknown protocol lists the known ones");
}

#[test]
fn help_explains_each_command() {
    for (args, needle) in [(&["--help"][..], "parse"), (&["parse", "--help"], "one JSON verdict per frame"), (&["schema", "--help"], "JSON Schema")] {
        let out = run(args, b"");
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains(needle), "{args:?} help must mention {needle:?}");
    }
    // `--direction` is a flag of `parse`; `schema` has none, so its help must not offer it.
    let out = run(&["schema", "--help"], b"");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("--direction"), "schema --help mentions --direction");
    let out = run(&["parse", "--help"], b"");
    assert!(String::from_utf8_lossy(&out.stdout).contains("--direction"), "parse --help explains --direction");
}

#[test]
fn listen_help_lists_every_node_kind_and_pause_point_of_the_contract() {
    use wirecontract::graphmind::{NodeKind, PausePoint};
    let out = run(&["listen", "--help"], b"");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    let kinds = format!("KIND is a node kind ({})", NodeKind::VALUES.join(", "));
    let points = format!("POINT ({}; default before)", PausePoint::VALUES.join(", "));
    assert!(help.contains(&kinds), "listen --help must say {kinds:?}:\n{help}");
    assert!(help.contains(&points), "listen --help must say {points:?}:\n{help}");
}

#[cfg(unix)]
#[test]
fn read_errors_exit_1() {
    let out = run(&["parse", env!("CARGO_MANIFEST_DIR")], b"");
    assert_eq!(out.status.code(), Some(1), "reading a directory is an I/O error");
    assert!(!out.stderr.is_empty());
}

#[test]
fn invalid_utf8_lines_are_invalid_frames() {
    let out = run(&["parse"], b"\xff\n{\"gm\":1,\"seq\":0,\"ts\":0,\"runId\":\"r\",\"type\":\"x\"}\n\"\xc3\"\n");
    assert!(out.status.success());
    let verdicts = stdout_lines(&out);
    let kinds: Vec<&str> = verdicts.iter().map(|v| v["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["invalid", "unknown-type", "invalid"]);
    assert!(verdicts[0]["reason"].as_str().unwrap().contains("UTF-8"));
    assert!(verdicts[0].get("issues").is_none(), "a frame that is not JSON has no issues");
}

#[test]
fn empty_input_prints_nothing_and_exits_0() {
    let out = run(&["parse", "-"], b"");
    assert!(out.status.success());
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn empty_lines_are_frames_but_a_final_newline_is_not() {
    let out = run(&["parse"], b"\n\n");
    assert_eq!(stdout_lines(&out).len(), 2);
    let out = run(&["parse"], b"\r\n");
    let verdicts = stdout_lines(&out);
    assert_eq!(verdicts.len(), 1, "`\\r` stays in the frame and does not split it");
    assert_eq!(verdicts[0]["kind"], "invalid");
}

#[test]
fn verdicts_carry_the_fields_of_their_kind() {
    let input = b"{\"gm\":2}\n{\"gm\":2,\"seq\":0,\"ts\":0,\"runId\":\"r\",\"type\":\"hello\"}\n{\"gm\":1,\"seq\":0,\"ts\":0,\"runId\":\"r\",\"type\":\"run.finished\",\"payload\":{}}\n";
    let verdicts = stdout_lines(&run(&["parse"], input));
    assert_eq!(verdicts[0]["kind"], "invalid");
    assert_eq!(verdicts[0]["reason"], graphmind::REASON_NOT_AN_ENVELOPE);
    assert!(verdicts[0]["issues"].as_array().is_some_and(|i| i.iter().all(|i| i["path"].is_string() && i["message"].is_string())));
    assert_eq!(verdicts[1], serde_json::json!({"kind": "version-mismatch", "received": 2, "supported": 1}));
    assert_eq!(verdicts[2]["kind"], "invalid");
    assert_eq!(verdicts[2]["reason"], "invalid payload for message type \"run.finished\"");
    assert_eq!(verdicts[2]["issues"][0]["path"], "payload.status");
}

#[test]
fn a_line_over_the_frame_cap_is_invalid_and_the_next_line_still_parses() {
    let mut input = vec![b' '; graphmind::DEFAULT_MAX_FRAME_BYTES + 10];
    input.extend_from_slice(b"\n{\"gm\":1,\"seq\":0,\"ts\":0,\"runId\":\"r\",\"type\":\"x\"}\n");
    let verdicts = stdout_lines(&run(&["parse"], &input));
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["kind"], "invalid");
    assert!(verdicts[0]["reason"].as_str().unwrap().contains("exceeds"), "{}", verdicts[0]);
    assert_eq!(verdicts[1]["kind"], "unknown-type");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let mut child = Command::new(BIN).arg("parse").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let line = b"{\"gm\":1,\"seq\":0,\"ts\":0,\"runId\":\"r\",\"type\":\"x\"}\n";
        for _ in 0..200_000 {
            if stdin.write_all(line).is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("first verdict");
    assert_eq!(first, "{\"kind\":\"unknown-type\",\"type\":\"x\"}\n");
    // The reader is dropped here: the command's next flush hits a broken pipe.
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    assert!(out.status.success(), "exit {:?}", out.status);
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
}

/// Every Graphorin vector through `parse --protocol graphorin --direction <side>`, one
/// invocation per direction: the verdict, and the variant of every `ok` frame. The one vector
/// whose frame contains a raw newline (`srv.whitespace_and_key_order`) cannot travel the
/// line protocol; it is checked through the library in contract/tests and bindings/python.
#[test]
fn every_graphorin_vector_gets_its_verdict_per_direction() {
    let path = shared_dir().join("vectors/graphorin/conformance.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let vectors: Vec<Value> = text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(vectors.len() >= 100, "graphorin vectors missing");
    let mut checked = 0;
    for direction in ["server", "client"] {
        let cases: Vec<&Value> = vectors.iter().filter(|v| v["direction"] == direction && !v["frame"].as_str().unwrap().contains('\n')).collect();
        let mut input = Vec::new();
        for c in &cases {
            input.extend_from_slice(c["frame"].as_str().unwrap().as_bytes());
            input.push(b'\n');
        }
        let out = run(&["parse", "--protocol", "graphorin", "--direction", direction, "-"], &input);
        assert!(out.status.success());
        let got = stdout_lines(&out);
        assert_eq!(got.len(), cases.len());
        for (c, g) in cases.iter().zip(&got) {
            assert_eq!(g["kind"], c["expect"], "{}: {g}", c["name"]);
            if c["expect"] == "ok" {
                assert_eq!(g["variant"], c["variant"], "{}", c["name"]);
            } else {
                assert!(g["reason"].is_string(), "{}", c["name"]);
            }
            checked += 1;
        }
    }
    assert!(checked >= 100);
    // --direction is required for graphorin and refused for graphmind.
    assert_eq!(run(&["parse", "--protocol", "graphorin", "-"], b"").status.code(), Some(2));
    assert_eq!(run(&["parse", "--direction", "server", "-"], b"").status.code(), Some(2));
    let schema = run(&["schema", "graphorin"], b"");
    assert_eq!(String::from_utf8(schema.stdout).unwrap(), wirecontract::graphorin::export_json_schema_string());
}

#[test]
fn graphorin_verdicts_put_kind_first_as_graphmind_does() {
    let out = run(&["parse", "--protocol", "graphorin", "--direction", "client"], b"{\"v\":\"1\",\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nope\"}\n{\n");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    for line in text.lines() {
        assert!(line.starts_with(r#"{"kind":"invalid","reason":"#), "{line}");
    }
    assert!(text.contains(r#""issues":[{"path":"method","code":"invalid_discriminator","message":"#), "{text}");
}

#[test]
fn env_config_prints_what_the_environment_resolves_to() {
    let clean = |c: &mut Command| {
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().contains("ENV") || k.to_string_lossy().starts_with("GRAPHMIND") {
                c.env_remove(k);
            }
        }
    };
    let mut cmd = Command::new(BIN);
    cmd.arg("env-config");
    clean(&mut cmd);
    let out = cmd
        .env("GRAPHMIND_URL", "ws://h:9/ingest")
        .env("GRAPHMIND_HIDE_TOOL_ARGS", "1")
        .env("GRAPHMIND_LOOP_ALLOW", "poll, beat")
        .env("GRAPHMIND_ON_LOOP", "warn")
        .output()
        .expect("run");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["enabled"], true);
    assert_eq!(v["url"], "ws://h:9/ingest");
    assert_eq!(v["hideToolArgs"], true);
    assert_eq!(v["hideInputs"], false);
    assert_eq!(v["loopMode"], "warn");
    assert_eq!(v["loopAllow"], serde_json::json!(["poll", "beat"]));
    assert_eq!(v["variables"]["GRAPHMIND_URL"], "ws://h:9/ingest");
    let mut off = Command::new(BIN);
    off.arg("env-config");
    clean(&mut off);
    let v: Value = serde_json::from_slice(&off.env("NODE_ENV", "production").output().expect("run").stdout).expect("json");
    assert_eq!((v["enabled"].clone(), v["killSwitch"].clone()), (Value::Bool(false), Value::Bool(false)));
    let mut killed = Command::new(BIN);
    killed.arg("env-config");
    clean(&mut killed);
    let v: Value = serde_json::from_slice(&killed.env("GRAPHMIND_DISABLED", "yes").env("GRAPHMIND", "1").output().expect("run").stdout).expect("json");
    assert_eq!((v["enabled"].clone(), v["killSwitch"].clone()), (Value::Bool(false), Value::Bool(true)));
}

/// The CLI's one app-side path (it hosts no app session: `listen` and `conform` are viewers):
/// `env-config` under the environment of each adapter-core scenario
/// (`vectors/graphmind/adapter-core/scenarios.json`, played by the Rust, Python, Kotlin and Swift
/// checks against the real client's recordings) reports the settings that scenario's recording
/// pins, under the real clients' names and spellings (`"true"` and `"1"`, a padded allow-list).
#[test]
fn env_config_reads_each_adapter_core_scenario_as_the_hosts_do() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/graphmind/adapter-core/scenarios.json");
    let scenarios: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("scenarios.json")).expect("JSON");
    let hides = |inputs: bool, outputs: bool, args: bool, results: bool| serde_json::json!([inputs, outputs, args, results]);
    let expected = [
        ("redact-tool-args", hides(false, false, true, false), 3, serde_json::json!([])),
        ("redact-tool-results", hides(false, false, false, true), 3, serde_json::json!([])),
        ("redact-inputs-outputs", hides(true, true, false, false), 3, serde_json::json!([])),
        ("tokens-batch", hides(false, false, false, false), 3, serde_json::json!([])),
        ("loop-guard-env", hides(false, false, false, false), 2, serde_json::json!(["poll", "tool:other"])),
    ];
    assert_eq!(scenarios.as_object().expect("object").len(), expected.len(), "a scenario without an expectation here");
    for (name, hidden, threshold, allow) in expected {
        let mut cmd = Command::new(BIN);
        cmd.arg("env-config").env_clear();
        for (k, v) in scenarios[name]["env"].as_object().unwrap_or_else(|| panic!("{name}: env")) {
            cmd.env(k, v.as_str().expect("a string"));
        }
        let out = cmd.output().expect("run");
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(serde_json::json!([v["hideInputs"], v["hideOutputs"], v["hideToolArgs"], v["hideToolResults"]]), hidden, "{name}");
        assert_eq!(
            (v["loopThreshold"].clone(), v["loopAllow"].clone(), v["loopMode"].clone()),
            (serde_json::json!(threshold), allow, serde_json::json!("pause")),
            "{name}"
        );
        assert_eq!((v["enabled"].clone(), v["url"].clone()), (Value::Bool(true), serde_json::json!("ws://127.0.0.1:4747/ingest")), "{name}");
    }
}
