//! Hostile input against the documented limits (spec graphmind-v1 §5.8 depth, §5.10 size) and
//! the bounds promised in docs/robustness.md: deep nesting never touches the call stack, an
//! over-cap frame is refused before it is read, and huge strings, objects and numbers cost
//! time and memory linear in the frame.
//!
//! Memory is measured in a child process (this test binary run again on one scenario, see
//! [`child_process_entry`]) as peak RSS (`VmHWM`) above the child's baseline, so one test's
//! allocations never blur another's. Time bounds are generous: they only prove "not
//! quadratic".

use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use wirecontract::graphmind::{parse, serialize_envelope, Message, ParseOptions, ParseOutcome, DEFAULT_MAX_DEPTH, DEFAULT_MAX_FRAME_BYTES};

const HEAD: &str = r#"{"gm":1,"seq":1,"ts":1756200000000,"runId":"r","#;

fn frame(message_type: &str, payload: &str) -> String {
    format!(r#"{HEAD}"type":"{message_type}","payload":{payload}}}"#)
}

fn node_started_with_input(input: &str) -> String {
    frame("node.started", &format!(r#"{{"nodeId":"n","kind":"tool","name":"x","instanceId":"i","input":{input}}}"#))
}

fn nested_arrays(levels: usize) -> String {
    "[".repeat(levels) + &"]".repeat(levels)
}

fn nested_objects(levels: usize) -> String {
    r#"{"a":"#.repeat(levels - 1) + "{}" + &"}".repeat(levels - 1)
}

/// Runs `f` on a thread with a 64 KiB stack: any recursion over the nesting would overflow it.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(64 * 1024).spawn(f).expect("spawn").join().expect("no panic, no stack overflow")
}

fn assert_round_trips(out: &ParseOutcome) {
    let env = out.envelope().unwrap_or_else(|| panic!("expected an envelope, got {}", out.kind()));
    let text = serialize_envelope(env).expect("a parsed envelope serializes");
    assert_eq!(&parse(&text, &ParseOptions::default()), out, "serialize → parse changes the value");
}

// ---------------------------------------------------------------------------------------------
// Depth (§5.8)
// ---------------------------------------------------------------------------------------------

#[test]
fn nesting_of_10_000_levels_inside_every_kind_of_opaque_value_parses_on_a_small_stack() {
    on_small_stack(|| {
        for nest in [nested_arrays(10_000), nested_objects(10_000), format!("[{{\"a\":{}}}]", nested_arrays(9_998))] {
            let cases = [
                ("input", node_started_with_input(&nest)),
                ("output", frame("node.finished", &format!(r#"{{"nodeId":"n","durationMs":1,"status":"ok","output":{nest}}}"#))),
                ("meta value", frame("run.started", &format!(r#"{{"app":"a","sdk":{{"name":"n","version":"1"}},"meta":{{"k":{nest}}}}}"#))),
                ("edited.after", frame("exec.resumed", &format!(r#"{{"pauseId":"p","action":"inject","edited":{{"after":{nest}}}}}"#))),
                ("unknown payload field", frame("mode.set", &format!(r#"{{"mode":"run","x":{nest}}}"#))),
                ("unknown envelope field", format!(r#"{HEAD}"type":"mode.set","payload":{{"mode":"run"}},"x":{nest}}}"#)),
                ("unknown type's payload", frame("future.x", &nest)),
            ];
            for (what, f) in cases {
                let out = parse(&f, &ParseOptions::default());
                assert!(matches!(out, ParseOutcome::Ok(_) | ParseOutcome::UnknownType(_)), "{what}: {}", out.kind());
                assert_round_trips(&out);
                assert_eq!(serialize_envelope(out.envelope().unwrap()).unwrap().len(), f.len(), "{what}: opaque text kept byte for byte");
            }
        }
    });
}

#[test]
fn nesting_of_1_000_000_levels_is_invalid_with_a_clear_reason_on_a_small_stack() {
    on_small_stack(|| {
        let deep = 1_000_000;
        let cases = [
            ("arrays", node_started_with_input(&nested_arrays(deep))),
            ("objects", node_started_with_input(&nested_objects(deep))),
            ("unclosed arrays", node_started_with_input(&"[".repeat(deep))),
            ("mixed", node_started_with_input(&(r#"[{"a":"#.repeat(deep / 2) + &"}]".repeat(deep / 2)))),
            ("the frame itself", "[".repeat(deep) + &"]".repeat(deep)),
        ];
        for (what, f) in cases {
            let out = parse(&f, &ParseOptions::default());
            let ParseOutcome::Invalid { reason, issues, .. } = &out else { panic!("{what}: {}", out.kind()) };
            assert!(reason.starts_with(&format!("frame nests deeper than {DEFAULT_MAX_DEPTH} levels (at byte ")), "{what}: {reason}");
            assert_eq!(issues, &None, "{what}");
            assert_eq!(parse(f.as_bytes(), &ParseOptions::default()), out, "{what}: bytes entry point");
        }
    });
}

#[test]
fn the_depth_cap_counts_from_the_frame_root_and_is_exact() {
    // The frame object is level 1, so an unknown type's payload of k nested arrays reaches k + 1.
    let at_cap = frame("future.x", &nested_arrays(DEFAULT_MAX_DEPTH - 1));
    assert_eq!(parse(&at_cap, &ParseOptions::default()).kind(), "unknown-type");
    let over = frame("future.x", &nested_arrays(DEFAULT_MAX_DEPTH));
    assert_eq!(parse(&over, &ParseOptions::default()).kind(), "invalid");
    // A custom cap moves the boundary.
    let opts = ParseOptions { max_depth: 10, ..ParseOptions::default() };
    assert_eq!(parse(&frame("future.x", &nested_arrays(9)), &opts).kind(), "unknown-type");
    let ParseOutcome::Invalid { reason, .. } = parse(&frame("future.x", &nested_arrays(10)), &opts) else { panic!() };
    assert!(reason.starts_with("frame nests deeper than 10 levels"), "{reason}");
}

// ---------------------------------------------------------------------------------------------
// Size (§5.10)
// ---------------------------------------------------------------------------------------------

fn frame_of_len(len: usize) -> String {
    let base = frame("mode.set", r#"{"mode":"run","pad":""}"#);
    let pad = "p".repeat(len - base.len());
    frame("mode.set", &format!(r#"{{"mode":"run","pad":"{pad}"}}"#))
}

#[test]
fn frames_above_the_size_cap_are_rejected_before_they_are_read() {
    let opts = ParseOptions { max_frame_bytes: 1024, ..ParseOptions::default() };
    let too_big = ParseOutcome::invalid("frame exceeds 1024 bytes", None);
    // At the cap: read as usual. One byte over: refused, text and bytes alike.
    assert_eq!(parse(&frame_of_len(1024), &opts).kind(), "ok");
    assert_eq!(parse(&frame_of_len(1025), &opts), too_big);
    assert_eq!(parse(frame_of_len(1025).as_bytes(), &opts), too_big);
    // Not read at all: neither invalid UTF-8, nor bad syntax, nor depth is reported first.
    assert_eq!(parse(&[0xff; 1025], &opts), too_big);
    assert_eq!(parse(&"[".repeat(1025), &opts), too_big);
    assert_eq!(parse(&"x".repeat(1025), &opts), too_big);
}

#[test]
fn the_default_size_cap_is_16_mib() {
    assert_eq!(DEFAULT_MAX_FRAME_BYTES, 16 * 1024 * 1024);
    let huge = "[".repeat(DEFAULT_MAX_FRAME_BYTES + 1);
    let start = Instant::now();
    for _ in 0..1000 {
        assert_eq!(parse(&huge, &ParseOptions::default()), ParseOutcome::invalid(format!("frame exceeds {DEFAULT_MAX_FRAME_BYTES} bytes"), None));
    }
    // A thousand refusals of a 16 MiB frame would take minutes if the frame were scanned.
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
}

// ---------------------------------------------------------------------------------------------
// Huge strings, objects and numbers: bounded time and memory
// ---------------------------------------------------------------------------------------------

/// One scenario of [`child_process_entry`]: its frame and the verdict it must get.
fn scenario(name: &str) -> (String, &'static str) {
    match name {
        "string_100mb" => {
            let mut f = String::with_capacity(100_000_200);
            f.push_str(
                r#"{"gm":1,"seq":1,"ts":1,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"tool","name":"x","instanceId":"i","input":""#,
            );
            f.extend(std::iter::repeat_n('x', 100_000_000));
            f.push_str(r#""}}"#);
            (f, "ok")
        }
        "keys_1m_meta" => (frame("run.started", &format!(r#"{{"app":"a","sdk":{{"name":"n","version":"1"}},"meta":{}}}"#, million_keys())), "ok"),
        "keys_1m_payload_extra" => (frame("mode.set", &format!(r#"{{"mode":"run",{}"#, &million_keys()[1..])), "ok"),
        "keys_1m_unknown_type" => (frame("future.x", &million_keys()), "unknown-type"),
        "keys_1m_envelope_extra" => (format!(r#"{HEAD}"type":"mode.set","payload":{{"mode":"run"}},{}"#, &million_keys()[1..]), "ok"),
        "keys_1m_duplicates" => (frame("mode.set", &format!(r#"{{"mode":"run",{}"x":0}}"#, r#""x":1,"#.repeat(1_000_000))), "ok"),
        "issues_1m" => (frame("node.token", &format!(r#"{{"nodeId":"n","deltas":[{}0]}}"#, "0,".repeat(999_999))), "invalid"),
        other => panic!("unknown scenario {other}"),
    }
}

/// Parses a scenario's frame and re-serializes an accepted one (both results alive at the
/// end, as a host that logs what it received would have them).
fn parse_and_serialize(name: &str, f: &str, expect: &str) -> (ParseOutcome, Option<String>) {
    let out = parse(f, &ParseOptions { max_frame_bytes: 256 << 20, ..ParseOptions::default() });
    assert_eq!(out.kind(), expect, "{name}");
    if let ParseOutcome::Invalid { issues: Some(issues), .. } = &out {
        assert_eq!(issues.len(), 1_000_000, "{name}: every issue is reported (§5.3)");
    }
    let text = out.envelope().map(|e| serialize_envelope(e).expect("a parsed envelope serializes"));
    match (&text, name) {
        (Some(t), "keys_1m_duplicates") => assert_eq!(t, &frame("mode.set", r#"{"mode":"run","x":0}"#)),
        (Some(t), _) => assert_eq!(t.len(), f.len(), "{name}: round trip keeps every member"),
        (None, _) => {}
    }
    (out, text)
}

/// `{"k0":0,"k1":1,…}` with 1,000,000 members (about 16 MB).
fn million_keys() -> String {
    let mut s = String::with_capacity(17_000_000);
    s.push('{');
    for i in 0..1_000_000 {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, r#""k{i}":{i}"#);
    }
    s.push('}');
    s
}

/// A `kB` field of `/proc/self/status`, in bytes (Linux only).
fn proc_status(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse::<usize>().ok().map(|kb| kb * 1024)
}

const SCENARIO_ENV: &str = "WIRECONTRACT_LIMITS_SCENARIO";

/// Not a test of its own: the entry point of the child processes that the memory tests start
/// (`WIRECONTRACT_LIMITS_SCENARIO=<name>`). Without that variable it does nothing.
///
/// It builds the frame, then resets the peak-RSS mark (`/proc/self/clear_refs`, so building
/// the frame is not counted), parses and serializes, and prints the peak above the resident
/// size it started from: the memory the contract needed beyond the frame itself.
#[test]
fn child_process_entry() {
    let Ok(name) = std::env::var(SCENARIO_ENV) else { return };
    let (f, expect) = scenario(&name);
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let baseline = if reset { proc_status("VmRSS:") } else { proc_status("VmHWM:") }.unwrap_or(0);
    let start = Instant::now();
    let kept = parse_and_serialize(&name, &f, expect);
    let secs = start.elapsed().as_secs_f64();
    let peak = proc_status("VmHWM:").unwrap_or(0);
    println!("LIMITS frame_bytes={} extra_peak_bytes={} seconds={secs:.3}", f.len(), peak.saturating_sub(baseline));
    drop(kept);
}

struct Measured {
    frame_bytes: usize,
    extra_peak_bytes: usize,
    seconds: f64,
}

fn measure(name: &str) -> Measured {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "limits::child_process_entry", "--nocapture", "--test-threads=1"])
        .env(SCENARIO_ENV, name)
        .output()
        .expect("child process");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{name}: child failed\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    // libtest may print its own "test … " prefix on the same line.
    let line = stdout.lines().find_map(|l| l.find("LIMITS ").map(|i| &l[i..])).unwrap_or_else(|| panic!("{name}: no LIMITS line in\n{stdout}"));
    let field = |k: &str| line.split_whitespace().find_map(|kv| kv.strip_prefix(k)?.strip_prefix('=')).unwrap_or_else(|| panic!("{k} in {line}"));
    let m = Measured {
        frame_bytes: field("frame_bytes").parse().unwrap(),
        extra_peak_bytes: field("extra_peak_bytes").parse().unwrap(),
        seconds: field("seconds").parse().unwrap(),
    };
    eprintln!(
        "{name}: frame {} B, peak +{} B ({:.2}× the frame), {:.2} s",
        m.frame_bytes,
        m.extra_peak_bytes,
        m.extra_peak_bytes as f64 / m.frame_bytes as f64,
        m.seconds
    );
    m
}

/// Asserts a scenario's peak memory beyond the frame itself stays within `multiple` × the
/// frame's size, and its time within `max_secs`.
fn assert_bounded(name: &str, multiple: f64, max_secs: f64) {
    let m = measure(name);
    if cfg!(target_os = "linux") {
        assert!(
            m.extra_peak_bytes as f64 <= multiple * m.frame_bytes as f64,
            "{name}: peak {} B is over {multiple}× the {} B frame",
            m.extra_peak_bytes,
            m.frame_bytes
        );
    }
    assert!(m.seconds < max_secs, "{name}: {:.1} s", m.seconds);
}

#[test]
fn a_100_mb_string_value_costs_linear_time_and_memory() {
    // The opaque copy and the serialized text, with Vec growth slack.
    assert_bounded("string_100mb", 4.0, 20.0);
}

#[test]
fn one_million_keys_in_one_object_cost_linear_time_and_memory() {
    // Opaque: one copy of the text.
    assert_bounded("keys_1m_unknown_type", 4.0, 20.0);
    // Unknown members kept one by one (with a name index past 16 members): about 230 bytes per
    // member (a `RawJson` is wider since it may be a span of a shared frame), so 14–15× a frame
    // made only of tiny members like `"k1":1`.
    for name in ["keys_1m_meta", "keys_1m_payload_extra", "keys_1m_envelope_extra"] {
        assert_bounded(name, 16.0, 20.0);
    }
    // The same key a million times: last one wins, one member kept.
    assert_bounded("keys_1m_duplicates", 4.0, 20.0);
}

#[test]
fn one_million_issues_cost_linear_time_and_memory() {
    // A 2 MB frame whose every array element is wrong: each issue owns its path and message,
    // about 200 bytes per issue, so ~100× a frame of 2-byte errors; the peak also counts the
    // code pages of this test binary that the first parse touches (docs/robustness.md).
    assert_bounded("issues_1m", 110.0, 20.0);
}

#[test]
fn numbers_with_100_000_digits_are_read_in_linear_time() {
    let digits = "7".repeat(100_000);
    let zeros = "0".repeat(100_000);
    let start = Instant::now();
    // Opaque: kept exactly.
    for n in [digits.clone(), format!("-{digits}.{digits}e-{digits}"), format!("0.{zeros}1"), format!("1e{digits}")] {
        let f = node_started_with_input(&format!("[{n},{n}]"));
        let out = parse(&f, &ParseOptions::default());
        assert_eq!(out.kind(), "ok");
        assert!(serialize_envelope(out.envelope().unwrap()).unwrap().contains(&format!("[{n},{n}]")));
    }
    // Typed number fields: the double `JSON.parse` would give, or invalid when it is Infinity.
    let duration = |n: &str| parse(&frame("node.finished", &format!(r#"{{"nodeId":"n","durationMs":{n},"status":"ok"}}"#)), &ParseOptions::default());
    assert!(matches!(duration(&format!("0.{zeros}1")), ParseOutcome::Ok(_)));
    assert!(matches!(duration(&format!("1{zeros}e-{}", 100_000)), ParseOutcome::Ok(ref e) if serialize_envelope(e).unwrap().contains(r#""durationMs":1,"#)));
    let ParseOutcome::Invalid { issues: Some(issues), .. } = duration(&digits) else { panic!("Infinity is not a number") };
    assert_eq!(issues[0].dotted_path(), "payload.durationMs");
    // Integer fields: a 100,000-digit seq is not a safe integer.
    let f = format!(r#"{{"gm":1,"seq":{digits},"ts":1,"runId":"r","type":"mode.set","payload":{{"mode":"run"}}}}"#);
    let ParseOutcome::Invalid { issues: Some(issues), .. } = parse(&f, &ParseOptions::default()) else { panic!() };
    assert_eq!(issues[0].dotted_path(), "seq");
    // A thousand such numbers in one frame.
    let many = format!("[{}]", vec![digits.as_str(); 1000].join(","));
    let out = parse(&node_started_with_input(&many), &ParseOptions { max_frame_bytes: 256 << 20, ..ParseOptions::default() });
    assert!(matches!(out, ParseOutcome::Ok(ref e) if matches!(e.message, Message::NodeStarted(_))));
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
}
