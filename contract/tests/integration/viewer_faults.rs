//! The viewer core's test faults (`ViewerSession::faults`): raw text frames, envelopes of any
//! type, `gm` and `seq` in any state (a duplicate `breakpoint.set`, a resume for a late or
//! unknown pause), closes with a chosen code, and the next `hello.ack` withheld, delayed,
//! replaced or edited. Each comes out as the session's ordinary `Send`/`Close`, in order with
//! its own actions, and leaves the session's bookkeeping alone.

use serde_json::{json, Value};
use wirecontract::graphmind::session::{AckFault, ConnectionId, FaultError, Millis, ResumeError, ViewerAction, ViewerConfig, ViewerSession, FAULT_SEQ_BASE};
use wirecontract::graphmind::ResumeAction;

const C1: ConnectionId = ConnectionId(1);
const C2: ConnectionId = ConnectionId(2);

fn clk(ms: u64) -> Millis {
    Millis::new(ms as f64).expect("a test time is a clock reading")
}

fn frame(seq: u64, run: &str, ty: &str, payload: &Value) -> Vec<u8> {
    json!({"gm": 1, "seq": seq, "ts": 1, "runId": run, "type": ty, "payload": payload}).to_string().into_bytes()
}

fn hello(seq: u64) -> Vec<u8> {
    frame(seq, "*", "hello", &json!({"versions": {"protocol": 1, "client": "t"}, "capabilities": ["pause"]}))
}

fn actions(v: &mut ViewerSession) -> Vec<ViewerAction> {
    std::iter::from_fn(|| v.poll_action()).collect()
}

/// The text frames sent on `conn`.
fn sent(actions: &[ViewerAction], conn: ConnectionId) -> Vec<String> {
    actions.iter().filter_map(|a| if let ViewerAction::Send { conn: c, frame } = a { (*c == conn).then(|| frame.clone()) } else { None }).collect()
}

fn attached(v: &mut ViewerSession, conn: ConnectionId, at: u64) -> Vec<ViewerAction> {
    v.connection_opened(conn);
    v.frame_received(conn, &hello(0), clk(at));
    actions(v)
}

fn ty(frame: &str) -> String {
    serde_json::from_str::<Value>(frame).ok().and_then(|v| v["type"].as_str().map(ToOwned::to_owned)).unwrap_or_default()
}

#[test]
fn raw_text_and_any_envelope_go_out_unchecked_in_order() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    attached(&mut v, C1, 10);
    v.faults().send_text(C1, "this is not JSON").expect("open");
    let dup = r#"{"matcher":{"kind":"llm"}}"#;
    let first = v.faults().send(C1, 1, None, "*", "breakpoint.set", dup, clk(20)).expect("open");
    let second = v.faults().send(C1, 2, Some(-1), "*", "breakpoint.set", dup, clk(21)).expect("open");
    v.faults().send(C1, 1, None, "run_1", "conform.unknown", "not json either", clk(22)).expect("open");
    let out = sent(&actions(&mut v), C1);
    assert_eq!(out[0], "this is not JSON");
    assert_eq!(out[1], first);
    let first: Value = serde_json::from_str(&first).expect("json");
    assert_eq!(first, json!({"gm": 1, "seq": FAULT_SEQ_BASE + 1, "ts": 20, "runId": "*", "type": "breakpoint.set", "payload": {"matcher": {"kind": "llm"}}}));
    assert_eq!(out[2], second);
    let second: Value = serde_json::from_str(&second).expect("json");
    assert_eq!((second["gm"].as_i64(), second["seq"].as_i64()), (Some(2), Some(-1)), "gm and seq as given");
    assert_eq!(out[3], format!(r#"{{"gm":1,"seq":{},"ts":22,"runId":"run_1","type":"conform.unknown","payload":not json either}}"#, FAULT_SEQ_BASE + 2));
    // None of it is the session's: the breakpoint set is unchanged (a duplicate set is the
    // app's problem), and its own frames keep their per-connection seqs.
    assert_eq!(v.breakpoints().len(), 1);
    v.set_breakpoint(wirecontract::graphmind::BreakpointMatcher::new(Some(wirecontract::graphmind::NodeKind::Tool), None, None), clk(30));
    let own: Value = serde_json::from_str(&sent(&actions(&mut v), C1)[0]).expect("json");
    assert_eq!(own["seq"], 1, "the ack took seq 0; faults take none of the session's");
}

#[test]
fn a_resume_for_an_unknown_or_settled_pause_is_sent_where_the_session_refuses() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    attached(&mut v, C1, 10);
    v.frame_received(C1, &frame(1, "run_1", "exec.paused", &json!({"pauseId": "p1", "nodeId": "tool:t", "point": "before"})), clk(11));
    v.frame_received(C1, &frame(2, "run_1", "exec.resumed", &json!({"pauseId": "p1", "action": "continue"})), clk(12));
    actions(&mut v);
    assert_eq!(v.resume("p1", ResumeAction::Continue, None, None, clk(13)), Err(ResumeError::UnknownPause), "settled: the session refuses");
    let late = v.faults().resume(C1, "run_1", "p1", "continue", None, clk(14)).expect("open");
    let bogus = v.faults().resume(C1, "run_1", "pause_unknown", "bogus", Some(r#"{"x":1}"#), clk(15)).expect("open");
    assert_eq!(sent(&actions(&mut v), C1), vec![late.clone(), bogus.clone()]);
    let late: Value = serde_json::from_str(&late).expect("json");
    assert_eq!(late["payload"], json!({"pauseId": "p1", "action": "continue"}));
    assert_eq!(late["type"], "exec.resume");
    let bogus: Value = serde_json::from_str(&bogus).expect("json");
    assert_eq!(bogus["payload"], json!({"pauseId": "pause_unknown", "action": "bogus", "output": {"x": 1}}));
    // No resume wait was started for them: no ResumeTimedOut ever comes.
    assert_eq!(v.poll_timeout(), None);
}

#[test]
fn close_with_a_chosen_code_and_unknown_connections_are_refused() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    attached(&mut v, C1, 10);
    v.faults().close(C1, 4321, "conform says bye").expect("open");
    assert_eq!(actions(&mut v), vec![ViewerAction::Close { conn: C1, code: 4321, reason: "conform says bye".to_owned() }]);
    assert_eq!(v.faults().send_text(C2, "x"), Err(FaultError::UnknownConnection));
    assert_eq!(v.faults().close(C2, 1000, ""), Err(FaultError::UnknownConnection));
    assert_eq!(v.faults().send(C2, 1, None, "*", "mode.set", "{}", clk(1)), Err(FaultError::UnknownConnection));
    v.connection_closed(C1, clk(20));
    assert_eq!(v.faults().send_text(C1, "x"), Err(FaultError::UnknownConnection), "closed");
    assert!(actions(&mut v).iter().all(|a| !matches!(a, ViewerAction::Send { .. })));
}

#[test]
fn acks_are_withheld_replaced_edited_or_sent_in_hello_order() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    v.faults().withhold_ack();
    v.faults().replace_ack("replaced");
    v.faults().ack(AckFault::Edit(|ack| ack.replace(r#""protocol":1"#, r#""protocol":2"#)));
    assert_eq!(v.faults().pending_ack_faults(), 3);
    let first = attached(&mut v, C1, 10);
    assert!(sent(&first, C1).is_empty(), "withheld");
    assert!(first.iter().any(|a| matches!(a, ViewerAction::AppAttached { conn: C1, .. })), "the session still counts the app attached");
    assert_eq!(sent(&attached(&mut v, C2, 11), C2), vec!["replaced".to_owned()]);
    let c3 = ConnectionId(3);
    let edited = sent(&attached(&mut v, c3, 12), c3);
    let edited: Value = serde_json::from_str(&edited[0]).expect("json");
    assert_eq!((edited["type"].as_str(), edited["payload"]["versions"]["protocol"].as_i64()), (Some("hello.ack"), Some(2)));
    // The plan is used up: the next hello gets its ack as is.
    let c4 = ConnectionId(4);
    let plain = sent(&attached(&mut v, c4, 13), c4);
    assert_eq!(plain.iter().map(|f| ty(f)).collect::<Vec<_>>(), ["hello.ack"]);
    assert_eq!(v.faults().pending_ack_faults(), 0);
}

#[test]
fn a_delayed_ack_goes_out_at_its_deadline_unless_its_connection_closed() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    v.faults().delay_ack(500);
    v.faults().delay_ack(500);
    assert!(sent(&attached(&mut v, C1, 1000), C1).is_empty());
    assert_eq!(v.poll_timeout(), Some(clk(1500)));
    v.handle_timeout(clk(1499));
    assert!(sent(&actions(&mut v), C1).is_empty(), "not before its deadline");
    v.handle_timeout(clk(1500));
    let out = sent(&actions(&mut v), C1);
    assert_eq!(out.iter().map(|f| ty(f)).collect::<Vec<_>>(), ["hello.ack"]);
    let ack: Value = serde_json::from_str(&out[0]).expect("json");
    assert_eq!(ack["ts"], 1000, "the ack as the session made it at the hello");
    // A connection that closes before its delayed ack is due never gets it.
    assert!(sent(&attached(&mut v, C2, 2000), C2).is_empty());
    v.connection_closed(C2, clk(2100));
    assert_eq!(v.poll_timeout(), None, "the dropped ack's deadline is gone");
    v.handle_timeout(clk(2500));
    assert!(actions(&mut v).iter().all(|a| !matches!(a, ViewerAction::Send { .. })));
}
