//! The viewer core's bounds on retained per-run state (`ViewerConfig::max_retained_runs`,
//! `max_retained_bytes`, `max_seqs_per_run`, `max_tracked_pauses`) and the guarantees its
//! eviction rule keeps: exact de-duplication of an app's ring replay, and open pauses kept
//! over idle runs.

use serde_json::{json, Value};
use wirecontract::graphmind::session::{ConnectionId, Millis, Received, ResumeError, ViewerAction, ViewerConfig, ViewerSession};
use wirecontract::graphmind::{parse, ParseOptions, ResumeAction};

const C1: ConnectionId = ConnectionId(1);
const C2: ConnectionId = ConnectionId(2);

fn clk(ms: u64) -> Millis {
    Millis::new(ms as f64).expect("a test time is a clock reading")
}

fn frame(seq: u64, run: &str, ty: &str, payload: &Value) -> Vec<u8> {
    json!({"gm": 1, "seq": seq, "ts": 1, "runId": run, "type": ty, "payload": payload}).to_string().into_bytes()
}

fn hint(seq: u64, run: &str) -> Vec<u8> {
    frame(seq, run, "graph.hint", &json!({"nodes": []}))
}

fn hello(seq: u64) -> Vec<u8> {
    frame(seq, "*", "hello", &json!({"versions": {"protocol": 1, "client": "t"}, "capabilities": ["pause"]}))
}

fn paused(seq: u64, run: &str, pause: &str) -> Vec<u8> {
    frame(seq, run, "exec.paused", &json!({"pauseId": pause, "nodeId": "n", "point": "before"}))
}

fn got(v: &mut ViewerSession, conn: ConnectionId, bytes: &[u8]) -> Received {
    let r = v.outcome_received(conn, bytes, parse(bytes, &ParseOptions::default()), clk(1));
    while v.poll_action().is_some() {}
    r
}

fn viewer(config: ViewerConfig) -> ViewerSession {
    let mut v = ViewerSession::new(config);
    assert_eq!(got(&mut v, C1, &hello(0)), Received::Hello);
    v
}

#[test]
fn runs_past_the_bound_are_forgotten_least_recently_active_first() {
    let mut v = viewer(ViewerConfig { max_retained_runs: 3, ..ViewerConfig::default() });
    for (seq, run) in [(1, "a"), (2, "b"), (3, "c"), (4, "a")] {
        assert_eq!(got(&mut v, C1, &hint(seq, run)), Received::Accepted { replayed: false });
    }
    assert_eq!(got(&mut v, C1, &hint(5, "d")), Received::Accepted { replayed: false });
    assert_eq!(v.retained_runs(), 3);
    assert!(!v.retains_run("b"), "b was the least recently active");
    assert!(v.retains_run("a") && v.retains_run("c") && v.retains_run("d"));
    // Retained runs keep exact de-duplication; a forgotten run's frame is taken as new.
    assert_eq!(got(&mut v, C1, &hint(4, "a")), Received::Duplicate { replayed: false });
    assert_eq!(got(&mut v, C1, &hint(2, "b")), Received::Accepted { replayed: false });
}

#[test]
fn megabyte_run_ids_and_ten_thousand_runs_stay_within_the_bounds() {
    let max = 8 << 20;
    let mut v = viewer(ViewerConfig { max_retained_bytes: max, ..ViewerConfig::default() });
    let big = "r".repeat(1 << 20);
    for i in 0..100_u64 {
        let run = format!("{i}{big}");
        assert_eq!(got(&mut v, C1, &hint(i + 1, &run)), Received::Accepted { replayed: false });
        assert!(v.retained_bytes() <= max + (2 << 20), "{} bytes retained after {i} runs", v.retained_bytes());
    }
    assert!(v.retained_runs() <= 8, "{} runs of 1 MiB retained under 8 MiB", v.retained_runs());
    // 10,000 small runs: bounded by count.
    let mut v = viewer(ViewerConfig { max_retained_runs: 1000, ..ViewerConfig::default() });
    for i in 0..10_000_u64 {
        got(&mut v, C1, &hint(i + 1, &format!("run-{i}")));
    }
    assert_eq!(v.retained_runs(), 1000);
    assert!(v.retains_run("run-9999") && !v.retains_run("run-8999"));
}

#[test]
fn a_ring_replay_is_deduplicated_exactly_within_the_seq_bound() {
    // The app's ring replays its newest frames; with max_seqs_per_run at least the ring size
    // every replayed frame is recognised, and older seqs count as seen.
    let mut v = viewer(ViewerConfig { max_seqs_per_run: 100, ..ViewerConfig::default() });
    for seq in 1..=1000 {
        assert_eq!(got(&mut v, C1, &hint(seq, "r")), Received::Accepted { replayed: false });
    }
    v.connection_closed(C1, clk(2));
    assert_eq!(got(&mut v, C2, &hello(1002)), Received::Hello);
    for seq in 901..=1000 {
        assert_eq!(got(&mut v, C2, &hint(seq, "r")), Received::Duplicate { replayed: true }, "seq {seq}");
    }
    assert_eq!(got(&mut v, C2, &hint(1001, "r")), Received::Accepted { replayed: true }, "a dark frame is new");
    assert_eq!(got(&mut v, C2, &hint(5, "r")), Received::Duplicate { replayed: true }, "below the kept seqs: seen");
}

#[test]
fn runs_with_open_pauses_outlive_idle_runs() {
    let mut v = viewer(ViewerConfig { max_retained_runs: 3, ..ViewerConfig::default() });
    got(&mut v, C1, &paused(1, "held", "p1"));
    for (i, run) in ["x", "y", "z", "w"].iter().enumerate() {
        got(&mut v, C1, &hint(2 + i as u64, run));
    }
    assert!(v.retains_run("held"), "the run with an open pause is kept");
    assert_eq!(v.open_pauses(), ["p1"]);
    v.resume("p1", ResumeAction::Continue, None, None, clk(2)).expect("the pause is still resumable");
    let sent = std::iter::from_fn(|| v.poll_action()).any(|a| matches!(a, ViewerAction::Send { conn, .. } if conn == C1));
    assert!(sent, "the resume goes to the owner");
}

#[test]
fn tracked_pauses_are_bounded_oldest_first() {
    let mut v = viewer(ViewerConfig { max_tracked_pauses: 2, ..ViewerConfig::default() });
    for (seq, p) in [(1, "p1"), (2, "p2"), (3, "p3")] {
        got(&mut v, C1, &paused(seq, "r", p));
    }
    assert_eq!(v.open_pauses(), ["p2", "p3"]);
    assert_eq!(v.resume("p1", ResumeAction::Continue, None, None, clk(2)), Err(ResumeError::UnknownPause));
    // 30,000 pauses never answered stay at the bound.
    let mut v = viewer(ViewerConfig::default());
    for seq in 1..=30_000 {
        got(&mut v, C1, &paused(seq, "r", &format!("p{seq}")));
    }
    assert_eq!(v.open_pauses().len(), 10_000);
    v.connection_closed(C1, clk(5));
    let released = std::iter::from_fn(|| v.poll_action()).filter(|a| matches!(a, ViewerAction::PauseReleased { .. })).count();
    assert_eq!(released, 10_000);
}

#[test]
fn abandon_graces_and_resume_waits_come_due_in_order() {
    let mut v = viewer(ViewerConfig::default());
    for (seq, run) in [(1, "b"), (2, "a"), (3, "c")] {
        got(&mut v, C1, &hint(seq, run));
    }
    got(&mut v, C1, &paused(4, "c", "p"));
    v.resume("p", ResumeAction::Continue, None, None, clk(100)).expect("open");
    while v.poll_action().is_some() {}
    assert_eq!(v.poll_timeout(), Some(clk(5100)), "the resume wait");
    v.handle_timeout(clk(5100));
    assert_eq!(v.poll_action(), Some(ViewerAction::ResumeTimedOut { pause_id: "p".into() }));
    v.connection_closed(C1, clk(200));
    while v.poll_action().is_some() {}
    assert_eq!(v.poll_timeout(), Some(clk(15_200)), "the abandon grace");
    v.handle_timeout(clk(15_199));
    assert_eq!(v.poll_action(), None);
    // A run that came back on a new connection is not abandoned.
    assert_eq!(got(&mut v, C2, &hello(9)), Received::Hello);
    got(&mut v, C2, &hint(10, "b"));
    v.handle_timeout(clk(15_200));
    let gone: Vec<ViewerAction> = std::iter::from_fn(|| v.poll_action()).collect();
    assert_eq!(gone, [ViewerAction::RunAbandoned { run_id: "a".into() }, ViewerAction::RunAbandoned { run_id: "c".into() }]);
    assert_eq!(v.poll_timeout(), None);
    assert!(v.retains_run("a"), "an abandoned run keeps its de-duplication keys");
}

#[test]
fn the_seqs_kept_per_run_are_bounded() {
    // One run of 10,000 frames keeps its newest `max_seqs_per_run` seqs: what it retains
    // stops growing once it holds that many (the de-duplication guarantee is the test above).
    let mut v = viewer(ViewerConfig { max_seqs_per_run: 100, ..ViewerConfig::default() });
    for seq in 1..=100 {
        got(&mut v, C1, &hint(seq, "r"));
    }
    let at_the_bound = v.retained_bytes();
    for seq in 101..=10_000 {
        got(&mut v, C1, &hint(seq, "r"));
    }
    assert_eq!(v.retained_bytes(), at_the_bound, "bytes retained by one run of 10,000 frames, 100 seqs kept");
    assert_eq!(got(&mut v, C1, &hint(9_901, "r")), Received::Duplicate { replayed: false }, "the newest seqs are kept");
}

#[test]
fn the_run_that_just_received_a_frame_is_never_the_one_evicted() {
    // A runId larger than the whole byte bound: its run stays (bounded by the frame cap),
    // so its frames are still de-duplicated; the other runs make room instead.
    let mut v = viewer(ViewerConfig { max_retained_bytes: 1000, ..ViewerConfig::default() });
    got(&mut v, C1, &hint(1, "small"));
    let big = "b".repeat(4000);
    assert_eq!(got(&mut v, C1, &hint(2, &big)), Received::Accepted { replayed: false });
    assert!(v.retains_run(&big) && !v.retains_run("small"));
    assert_eq!(got(&mut v, C1, &hint(2, &big)), Received::Duplicate { replayed: false });
}

/// The viewer refuses its own messages from an app by the registry's direction, not a hand
/// list: every declared type sent by the listening side (controls, `hello.ack`) is rejected
/// with an `unexpected-type` warning, and every type the app sends is not. One valid frame per
/// type comes from the generated examples, so a message type added to the contract is covered.
#[test]
fn the_viewer_rejects_exactly_the_types_the_registry_says_it_sends() {
    use wirecontract::graphmind::PROTOCOL;
    use wirecontract::registry::Direction;
    let examples = std::fs::read_to_string(crate::common::repo_dir().join("generated/examples/graphmind.jsonl")).expect("examples");
    let mut seen = 0;
    for line in examples.lines() {
        let example: Value = serde_json::from_str(line).expect("an example line");
        let (Some(ty), Some(text)) = (example["type"].as_str(), example["frame"].as_str()) else { continue };
        if ty == "hello" {
            continue;
        }
        let mut frame: Value = serde_json::from_str(text).expect("an example frame");
        frame["seq"] = json!(1);
        let bytes = frame.to_string().into_bytes();
        let mut v = viewer(ViewerConfig::default());
        let r = v.outcome_received(C1, &bytes, parse(&bytes, &ParseOptions::default()), clk(1));
        let unexpected = std::iter::from_fn(|| v.poll_action()).any(|a| matches!(a, ViewerAction::Warn { rule, .. } if rule == "unexpected-type"));
        let viewer_sends = PROTOCOL.message(ty).expect("declared").direction == Direction::ServerToClient;
        assert_eq!((unexpected, r == Received::Rejected), (viewer_sends, viewer_sends), "{ty}: {r:?}");
        seen += 1;
    }
    assert_eq!(seen, PROTOCOL.messages.len() - 1, "one example per declared type but hello");
}
