//! The conformance cases of graphmind-session §6 (given / when / then), one test each, named
//! after the case; plus viewer-side checks of §5 (`vNN_…`) and one app ↔ viewer loopback.

use crate::common;

use serde_json::{json, Value};
use wirecontract::graphmind::session::{
    Action, AppSession, ConnState, ConnectionId, Decision, GateNode, GateOutcome, Millis, ReleaseCause, SessionConfig, ViewerAction, ViewerConfig,
    ViewerSession,
};
use wirecontract::graphmind::{NodeKind, PausePoint, RawJson, ResumeAction, RunMode};

/// A clock reading of whole milliseconds (the tests step the clock in whole ms, except where
/// fractions are the point).
fn clk(ms: u64) -> Millis {
    Millis::new(ms as f64).expect("a test time is a clock reading")
}

// ----- harness ---------------------------------------------------------------------------------

/// A viewer → app frame.
fn vframe(ty: &str, run: &str, payload: &Value) -> String {
    json!({"gm": 1, "seq": 0, "ts": 1, "runId": run, "type": ty, "payload": payload}).to_string()
}

fn ack(breakpoints: &Value, mode: &str, token: Option<&str>) -> String {
    let mut p = json!({"versions": {"protocol": 1, "viewer": "test/1"}, "capabilities": [], "breakpoints": breakpoints, "mode": mode});
    if let Some(t) = token {
        p["sessionToken"] = json!(t);
    }
    vframe("hello.ack", "*", &p)
}

fn resume(pause: &str, action: &str) -> String {
    vframe("exec.resume", "r", &json!({"pauseId": pause, "action": action}))
}

fn tool(name: &str) -> GateNode {
    GateNode::new(format!("tool:{name}"), NodeKind::Tool, name)
}

fn parse(frame: &str) -> Value {
    serde_json::from_str(frame).expect("sent frames are JSON")
}

/// Frames among `actions`, as JSON.
fn sends(actions: &[Action]) -> Vec<Value> {
    actions.iter().filter_map(|a| if let Action::Send(f) = a { Some(parse(f)) } else { None }).collect()
}

fn seqs(frames: &[Value]) -> Vec<u64> {
    frames.iter().map(|f| f["seq"].as_u64().unwrap_or(u64::MAX)).collect()
}

fn types(frames: &[Value]) -> Vec<String> {
    frames.iter().map(|f| f["type"].as_str().unwrap_or_default().to_owned()).collect()
}

struct Host {
    s: AppSession,
    now: u64,
}

impl Host {
    fn new(config: SessionConfig) -> Self {
        Host { s: AppSession::new(config), now: 1_000 }
    }
    fn default() -> Self {
        Host::new(SessionConfig::default())
    }
    fn drain(&mut self) -> Vec<Action> {
        std::iter::from_fn(|| self.s.poll_action()).collect()
    }
    fn tick(&mut self, ms: u64) -> Vec<Action> {
        self.now += ms;
        self.s.handle_timeout(clk(self.now));
        self.drain()
    }
    /// Runs the timers until the next `Connect`.
    fn until_connect(&mut self) {
        for _ in 0..10 {
            let at = self.s.poll_timeout().expect("a retry is scheduled");
            self.now = self.now.max(at.whole());
            self.s.handle_timeout(clk(self.now));
            if self.drain().iter().any(|a| matches!(a, Action::Connect { .. })) {
                return;
            }
        }
        panic!("no reconnect");
    }
    fn open(&mut self) -> Value {
        self.s.transport_opened(clk(self.now));
        let hello = sends(&self.drain());
        assert_eq!(types(&hello), ["hello"]);
        hello[0].clone()
    }
    fn recv(&mut self, frame: &str) -> Vec<Action> {
        self.s.frame_received(frame.as_bytes(), clk(self.now));
        self.drain()
    }
    /// Starts (T1), opens (T2) and attaches (T7) with the given arming.
    fn attach(&mut self, breakpoints: &Value, mode: &str) -> Vec<Action> {
        if !self.s.is_attached() && self.s.state() == ConnState::Idle && self.s.poll_timeout().is_none() {
            self.s.ready(clk(self.now), None);
            self.drain();
        }
        self.open();
        let out = self.recv(&ack(breakpoints, mode, None));
        assert!(self.s.is_attached());
        out
    }
    fn emit(&mut self, ty: &str, payload: &Value, run: &str) -> u64 {
        self.s.emit_json(ty, &payload.to_string(), Some(run), clk(self.now)).expect("valid event").expect("enabled")
    }
    fn started(&mut self, run: &str, node: &GateNode, instance: &str, parent: Option<&str>) -> u64 {
        let mut p = json!({"nodeId": node.node_id, "kind": "tool", "name": node.name, "instanceId": instance});
        if node.kind == NodeKind::Agent {
            p["kind"] = json!("agent");
        }
        if let Some(parent) = parent {
            p["parentId"] = json!(parent);
        }
        self.emit("node.started", &p, run)
    }
    fn finished(&mut self, run: &str, node_id: &str, instance: &str) -> Value {
        self.emit("node.finished", &json!({"nodeId": node_id, "instanceId": instance, "durationMs": 1, "status": "ok"}), run);
        sends(&self.drain()).pop().expect("node.finished sent")
    }
    fn gate(&mut self, point: PausePoint, node: &GateNode) -> GateOutcome {
        self.s.gate(point, node, Some("r"), clk(self.now))
    }
    /// A gate that must hold; its `exec.paused` is drained.
    fn held(&mut self, point: PausePoint, node: &GateNode) -> String {
        match self.gate(point, node) {
            GateOutcome::Held(id) => {
                self.drain();
                id
            }
            GateOutcome::Continue => panic!("expected a hold at {point:?} of {}", node.node_id),
        }
    }
}

fn releases(actions: &[Action]) -> Vec<(String, Decision, ReleaseCause)> {
    actions
        .iter()
        .filter_map(|a| if let Action::Release { pause_id, decision, cause } = a { Some((pause_id.clone(), decision.clone(), *cause)) } else { None })
        .collect()
}

fn closes(actions: &[Action]) -> usize {
    actions.iter().filter(|a| matches!(a, Action::Close { .. })).count()
}

fn recorded(name: &str, line: usize) -> Value {
    let path = common::shared_dir().join("real-client").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rec = parse(text.lines().nth(line - 1).expect("line exists"));
    parse(rec["frame"].as_str().expect("frame"))
}

// ----- §6 cases -------------------------------------------------------------------------------

#[test]
fn c01_first_hello() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), None);
    assert!(matches!(h.drain()[..], [Action::Connect { .. }]));
    let hello = h.open();
    assert_eq!(hello["seq"], 0);
    assert_eq!(hello["runId"], "*");
    assert_eq!(hello["payload"]["versions"]["protocol"], 1);
    assert!(hello["payload"].get("resumeToken").is_none());
    // Same shape as the real client's first hello (REC basic.jsonl:1).
    let rec = recorded("basic.jsonl", 1);
    assert_eq!((rec["seq"].clone(), rec["runId"].clone(), rec["type"].clone()), (hello["seq"].clone(), hello["runId"].clone(), hello["type"].clone()));
    let keys = |v: &Value| v["payload"].as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    assert_eq!(keys(&rec), keys(&hello));
}

#[test]
fn c02_detached_gates_pass() {
    let mut h = Host::default();
    assert_eq!(h.gate(PausePoint::Before, &tool("t")), GateOutcome::Continue);
    h.open();
    // Matchers [{kind:tool}] exist on the viewer but are not acked yet.
    assert_eq!(h.gate(PausePoint::Before, &tool("t")), GateOutcome::Continue);
    assert!(!types(&sends(&h.drain())).contains(&"exec.paused".to_owned()));
    assert!(h.s.buffered_frames().all(|f| !f.contains("exec.paused")));
}

#[test]
fn c03_pre_ack_emits() {
    let mut h = Host::default();
    for i in 0..10 {
        assert_eq!(h.emit("graph.hint", &json!({"nodes": []}), "r"), i);
    }
    assert!(sends(&h.drain()).is_empty());
    assert_eq!(h.open()["seq"], 10);
    let replay = sends(&h.recv(&ack(&json!([]), "run", None)));
    assert_eq!(seqs(&replay), (0..10).collect::<Vec<_>>());
    h.emit("graph.hint", &json!({"nodes": []}), "r");
    assert_eq!(seqs(&sends(&h.drain())), [11]);
}

#[test]
fn c04_wrong_ack_protocol() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), None);
    h.drain();
    let first = h.open();
    let mut bad = parse(&ack(&json!([]), "run", None));
    bad["payload"]["versions"]["protocol"] = json!(2);
    let out = h.recv(&bad.to_string());
    assert_eq!(closes(&out), 1);
    assert!(sends(&out).is_empty());
    assert!(!h.s.is_attached());
    h.until_connect();
    assert_eq!(h.open()["seq"], first["seq"].as_u64().unwrap_or(0) + 1);
}

#[test]
fn c05_wrong_envelope_gm_on_the_ack() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), None);
    h.drain();
    h.open();
    let mut bad = parse(&ack(&json!([]), "run", None));
    bad["gm"] = json!(2);
    let out = h.recv(&bad.to_string());
    assert_eq!(closes(&out), 1);
    assert!(sends(&out).is_empty());
    assert_eq!(h.s.state(), ConnState::Idle);
}

#[test]
fn c06_handshake_timeout() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), Some(60_000));
    h.drain();
    assert_eq!(h.open()["seq"], 0);
    assert!(h.tick(999).is_empty());
    assert_eq!(closes(&h.tick(1)), 1);
    h.until_connect();
    assert_eq!(h.open()["seq"], 1);
}

#[test]
fn c07_pre_ack_noise() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), None);
    h.drain();
    h.open();
    let noise = h.recv("this is not json");
    assert!(noise.iter().all(|a| matches!(a, Action::Warn(_))));
    let event = vframe("node.started", "r", &json!({"nodeId": "n", "kind": "tool", "name": "n", "instanceId": "i"}));
    assert!(h.recv(&event).is_empty());
    assert_eq!(h.s.state(), ConnState::AwaitingAck);
    h.recv(&ack(&json!([]), "run", None));
    assert!(h.s.is_attached());
}

#[test]
fn c08_invalid_ack_fields() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), Some(60_000));
    h.drain();
    h.open();
    let bad = ack(&json!([{"kind": "tool"}, 5]), "bogus-mode", None);
    let out = h.recv(&bad);
    assert!(matches!(&out[..], [Action::Warn(w)] if w.rule == "invalid-frame"));
    assert!(!h.s.is_attached());
    assert_eq!(closes(&h.tick(1000)), 1, "the handshake times out (TS), the ack is never coerced");
}

#[test]
fn c09_token_carry() {
    let mut h = Host::default();
    h.s.ready(clk(h.now), None);
    h.drain();
    let mut hellos = Vec::new();
    for token in [Some("tok-A"), Some("tok-B"), None, Some("")] {
        hellos.push(h.open()["payload"].get("resumeToken").cloned());
        h.recv(&ack(&json!([]), "run", token));
        h.s.transport_closed(clk(h.now));
        h.drain();
        h.until_connect();
    }
    hellos.push(h.open()["payload"].get("resumeToken").cloned());
    assert_eq!(hellos, [None, Some(json!("tok-A")), Some(json!("tok-B")), Some(json!("tok-B")), Some(json!("tok-B"))]);
}

#[test]
fn c10_second_ack_ignored() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    assert!(h.recv(&ack(&json!([{}]), "step", None)).is_empty());
    assert_eq!(h.s.mode(), RunMode::Run);
    let span = GateNode::new("agent:plan", NodeKind::Agent, "plan");
    assert_eq!(h.gate(PausePoint::Before, &span), GateOutcome::Continue);
}

#[test]
fn c11_shared_counter() {
    // reconnect.jsonl: every socket takes a hello seq, so event seqs skip them.
    let mut h = Host::default();
    let mut event_seqs = Vec::new();
    let mut hello_seqs = vec![];
    h.s.ready(clk(h.now), None);
    h.drain();
    for _ in 0..3 {
        hello_seqs.push(h.open()["seq"].as_u64().unwrap_or(0));
        h.recv(&ack(&json!([]), "run", None));
        for _ in 0..6 {
            event_seqs.push(h.emit("graph.hint", &json!({"nodes": []}), "r"));
        }
        h.s.transport_closed(clk(h.now));
        h.drain();
        h.until_connect();
    }
    assert_eq!(hello_seqs, [0, 7, 14]);
    assert_eq!(event_seqs, (1..21).filter(|s| *s != 7 && *s != 14).collect::<Vec<_>>());
    // handshake-edge.jsonl: four attempts take hellos 0–3, the first event is 4.
    let mut h = Host::default();
    h.s.ready(clk(h.now), Some(60_000));
    h.drain();
    for attempt in 0..3 {
        assert_eq!(h.open()["seq"], attempt);
        h.tick(1000);
        h.until_connect();
    }
    assert_eq!(h.open()["seq"], 3);
    h.recv(&ack(&json!([]), "run", None));
    assert_eq!(h.emit("graph.hint", &json!({"nodes": []}), "r"), 4);
}

#[test]
fn c12_full_replay() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    let mut first_sends: Vec<String> = Vec::new();
    for i in 0..3 {
        h.emit("graph.hint", &json!({"nodes": [], "i": i}), "r");
        first_sends.extend(h.drain().into_iter().filter_map(|a| if let Action::Send(f) = a { Some(f) } else { None }));
    }
    h.s.transport_closed(clk(h.now));
    h.now += 5;
    h.emit("graph.hint", &json!({"nodes": [], "dark": true}), "r");
    let dark: Vec<String> = h.s.buffered_frames().skip(3).map(str::to_owned).collect();
    h.until_connect();
    let hello = h.open();
    let out = h.recv(&ack(&json!([]), "run", None));
    let replay: Vec<String> = out.into_iter().filter_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).collect();
    let expected: Vec<String> = first_sends.iter().chain(dark.iter()).cloned().collect();
    assert_eq!(replay, expected, "oldest first, byte-identical, delivered frames included");
    assert!(seqs(&replay.iter().map(|f| parse(f)).collect::<Vec<_>>()).iter().all(|s| *s < hello["seq"].as_u64().unwrap_or(0)));
    h.emit("graph.hint", &json!({"nodes": []}), "r");
    assert_eq!(seqs(&sends(&h.drain())), [hello["seq"].as_u64().unwrap_or(0) + 1]);
}

#[test]
fn c13_dark_emits() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    h.s.transport_closed(clk(h.now));
    h.drain();
    let a = h.emit("graph.hint", &json!({"nodes": []}), "r");
    let b = h.emit("graph.hint", &json!({"nodes": []}), "r");
    assert!(sends(&h.drain()).is_empty());
    h.until_connect();
    h.open();
    let replay = sends(&h.recv(&ack(&json!([]), "run", None)));
    assert_eq!(seqs(&replay), [a, b]);
}

#[test]
fn c14_overflow() {
    let mut h = Host::new(SessionConfig { ring_max_frames: 25, ..SessionConfig::default() });
    for _ in 0..84 {
        h.emit("graph.hint", &json!({"nodes": []}), "r");
    }
    assert_eq!(h.open()["seq"], 84);
    let out = sends(&h.recv(&ack(&json!([]), "run", None)));
    let replay: Vec<Value> = out.iter().filter(|f| f["payload"].get("gap").is_none()).cloned().collect();
    assert_eq!(seqs(&replay), (59..84).collect::<Vec<_>>());
    // Unlike PY, the TS-normative core marks the hole (Decision 1).
    assert_eq!(out.len(), 26);
    assert_eq!(out[0]["payload"]["gap"]["droppedCount"], 59);
}

#[test]
fn c15_gap_marker() {
    let mut h = Host::new(SessionConfig { ring_max_frames: 20, ..SessionConfig::default() });
    h.attach(&json!([]), "run");
    h.s.transport_closed(clk(h.now));
    for _ in 0..200 {
        h.emit("graph.hint", &json!({"nodes": []}), "r");
    }
    assert_eq!(h.s.lost(), 180);
    h.until_connect();
    let hello = h.open();
    let raw: Vec<String> = h.recv(&ack(&json!([]), "run", None)).into_iter().filter_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).collect();
    let out: Vec<Value> = raw.iter().map(|f| parse(f)).collect();
    let marker = &out[0];
    assert_eq!(marker["type"], "graph.hint");
    assert_eq!(marker["runId"], "r");
    assert_eq!(marker["seq"], hello["seq"].as_u64().unwrap_or(0) + 1);
    assert_eq!(marker["payload"], json!({"nodes": [], "gap": {"droppedCount": 180, "fromSeq": 1, "toSeq": 180, "reason": "buffer-overflow"}}));
    assert_eq!(wirecontract::graphmind::parse(&raw[0], &wirecontract::graphmind::ParseOptions::default()).kind(), "ok", "the marker is schema-valid");
    assert_eq!(out[1]["seq"], 181, "the replay starts at toSeq + 1");
    assert_eq!(out.len(), 21);
}

#[test]
fn c16_delivered_is_not_lost() {
    let mut h = Host::new(SessionConfig { ring_max_frames: 20, ..SessionConfig::default() });
    h.attach(&json!([]), "run");
    for _ in 0..100 {
        h.emit("graph.hint", &json!({"nodes": []}), "r");
    }
    assert_eq!(h.s.lost(), 0);
    assert!(h.s.dropped() > 0);
    h.s.transport_closed(clk(h.now));
    h.until_connect();
    h.open();
    let out = sends(&h.recv(&ack(&json!([]), "run", None)));
    assert!(out.iter().all(|f| f["payload"].get("gap").is_none()));
}

#[test]
fn c17_oversize_item() {
    let mut h = Host::new(SessionConfig { ring_max_bytes: 300, ..SessionConfig::default() });
    h.attach(&json!([]), "run");
    let big = json!({"nodeId": "n", "kind": "tool", "name": "n", "instanceId": "i", "input": "x".repeat(400)});
    let seq = h.emit("node.started", &big, "r");
    assert_eq!(seqs(&sends(&h.drain())), [seq], "sent live when attached");
    assert_eq!(h.s.buffered_frames().count(), 0, "but not buffered");
    assert_eq!(h.s.lost(), 0);
    h.s.transport_closed(clk(h.now));
    let dark = h.emit("node.started", &big, "r");
    assert_eq!(h.s.lost(), 1);
    h.until_connect();
    h.open();
    let out = sends(&h.recv(&ack(&json!([]), "run", None)));
    assert_eq!(out[0]["payload"]["gap"], json!({"droppedCount": 1, "fromSeq": dark, "toSeq": dark, "reason": "buffer-overflow"}));
}

/// The payload text of a sent frame (the envelope writes `payload` last of its own members).
fn payload_text(frame: &str) -> &str {
    let start = frame.find(",\"payload\":").expect("a payload") + ",\"payload\":".len();
    &frame[start..frame.len() - 1]
}

/// §2.3 step 4: `emit` applies the 512 KiB budget by default and sends the reference's shrunk
/// text verbatim (graphmind-shrink §3, §12), whatever the tier; `None` turns it off.
#[test]
fn emit_shrinks_payloads_over_the_budget() {
    use wirecontract::graphmind::{self as gm, shrink_payload_json, Message, ParseOutcome, DEFAULT_MAX_PAYLOAD_BYTES};
    let output = "é".repeat(400_000); // 800,000 bytes of UTF-8
    let payload = json!({"nodeId": "n", "output": output, "durationMs": 2.5, "status": "ok"});
    let sent = |config: SessionConfig| {
        let mut h = Host::new(config);
        h.attach(&json!([]), "run");
        let seq = h.emit("node.finished", &payload, "r");
        let frames: Vec<String> = h.drain().into_iter().filter_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).collect();
        assert_eq!(frames.len(), 1);
        assert_eq!(parse(&frames[0])["seq"], seq);
        assert_eq!(h.s.buffered_frames().collect::<Vec<_>>(), [frames[0].as_str()], "the ring holds the frame sent");
        frames.into_iter().next().unwrap_or_default()
    };
    assert_eq!(SessionConfig::default().max_payload_bytes, Some(DEFAULT_MAX_PAYLOAD_BYTES));
    let whole = sent(SessionConfig { max_payload_bytes: None, ..SessionConfig::default() });
    assert!(payload_text(&whole).len() > 800_000);

    // Default: tier 2, the reference's text byte for byte, a valid node.finished.
    let frame = sent(SessionConfig::default());
    let want = shrink_payload_json(payload_text(&whole), DEFAULT_MAX_PAYLOAD_BYTES, Some("node.finished")).expect("JSON");
    assert_eq!(want.tier, 2);
    assert_eq!(payload_text(&frame), want.json);
    assert!(payload_text(&frame).len() <= DEFAULT_MAX_PAYLOAD_BYTES);
    let ParseOutcome::Ok(env) = gm::parse(&frame, &gm::ParseOptions::default()) else { panic!("shrunk frame must parse ok: {frame:.300}") };
    let Message::NodeFinished(p) = &env.message else { panic!("{:?}", env.message.message_type()) };
    assert_eq!(p.extra.get("__graphmindTruncated").map(RawJson::as_str), Some("true"));

    // A budget only the whole-payload marker fits: tier 4, sent as the reference sends it
    // (the marker is not a valid node.finished payload, so a parser answers invalid).
    let frame = sent(SessionConfig { max_payload_bytes: Some(100), ..SessionConfig::default() });
    let want = shrink_payload_json(payload_text(&whole), 100, Some("node.finished")).expect("JSON");
    assert_eq!((want.tier, payload_text(&frame)), (4, want.json.as_str()));
    assert!(matches!(gm::parse(&frame, &gm::ParseOptions::default()), ParseOutcome::Invalid { .. }));

    // Within budget: the payload's own text, not re-spelled (1e400 stays, graphmind-v1 §5.6).
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    h.s.emit_json("node.finished", r#"{"nodeId":"n","output":[1e400,1.0],"durationMs":1,"status":"ok"}"#, Some("r"), clk(h.now))
        .expect("valid")
        .expect("enabled");
    let frames: Vec<String> = h.drain().into_iter().filter_map(|a| if let Action::Send(f) = a { Some(f) } else { None }).collect();
    assert!(payload_text(&frames[0]).contains(r#""output":[1e400,1.0]"#), "{}", frames[0]);
}

#[test]
fn c18_basic_pause() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let t = tool("lookup");
    h.started("r", &t, "call_1", None);
    h.drain();
    let GateOutcome::Held(pid) = h.gate(PausePoint::Before, &t) else { panic!("expected a hold") };
    let paused = sends(&h.drain());
    assert_eq!(types(&paused), ["exec.paused"], "sent before the wait begins");
    assert_eq!(paused[0]["payload"]["pauseId"], json!(pid));
    let out = h.recv(&resume(&pid, "continue"));
    assert_eq!(types(&sends(&out)), ["exec.resumed"]);
    assert!(matches!(out.last(), Some(Action::Release { decision: Decision::Continue, .. })));
    let finished = h.finished("r", "tool:lookup", "call_1");
    assert!(finished["seq"].as_u64() > sends(&out)[0]["seq"].as_u64());
}

#[test]
fn c19_matchers() {
    let mut h = Host::default();
    h.attach(&json!([{}, {"name": "summarize", "point": "after"}, {"point": "error"}]), "run");
    let span = GateNode::new("agent:plan", NodeKind::Agent, "plan");
    let hold = |h: &mut Host, p, n: &GateNode| match h.gate(p, n) {
        GateOutcome::Held(id) => {
            h.recv(&resume(&id, "continue"));
            true
        }
        GateOutcome::Continue => false,
    };
    assert!(hold(&mut h, PausePoint::Before, &span));
    assert!(hold(&mut h, PausePoint::Before, &tool("lookup")));
    assert!(!hold(&mut h, PausePoint::After, &tool("lookup")));
    assert!(hold(&mut h, PausePoint::After, &tool("summarize")));
    assert!(hold(&mut h, PausePoint::Error, &tool("lookup")));
}

#[test]
fn c20_step_mode() {
    let mut h = Host::default();
    h.attach(&json!([]), "step");
    for node in [tool("t"), GateNode::new("agent:a", NodeKind::Agent, "a"), GateNode::new("llm:m", NodeKind::Llm, "m")] {
        for (point, holds) in [(PausePoint::Before, true), (PausePoint::After, false), (PausePoint::Error, true)] {
            match h.gate(point, &node) {
                GateOutcome::Held(id) => {
                    assert!(holds, "{point:?}");
                    h.recv(&resume(&id, "continue"));
                }
                GateOutcome::Continue => assert!(!holds, "{point:?}"),
            }
        }
    }
}

#[test]
fn c21_controls_in_arrival_order() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    let pid = h.held_after_step(&tool("t"));
    let m = json!({"kind": "tool", "point": "after"});
    for f in [
        vframe("mode.set", "*", &json!({"mode": "run"})),
        vframe("breakpoint.set", "*", &json!({"matcher": m})),
        vframe("breakpoint.set", "*", &json!({"matcher": m})),
        vframe("breakpoint.clear", "*", &json!({"matcher": {"name": "never-set"}})),
        vframe("mode.set", "*", &json!({"mode": "turbo"})),
    ] {
        h.recv(&f);
    }
    h.recv(&resume(&pid, "continue"));
    assert_eq!(h.s.mode(), RunMode::Run, "step→run applied, turbo ignored");
    assert_eq!(h.s.breakpoints().len(), 1, "the duplicate set is deduplicated");
    assert_eq!(h.gate(PausePoint::Before, &tool("t")), GateOutcome::Continue);
    assert!(matches!(h.gate(PausePoint::After, &tool("t")), GateOutcome::Held(_)));
}

fn limit_warnings(actions: &[Action]) -> usize {
    actions.iter().filter(|a| matches!(a, Action::Warn(w) if w.rule == "breakpoint-limit")).count()
}

fn bp_set(name: &str) -> String {
    vframe("breakpoint.set", "*", &json!({"matcher": {"kind": "tool", "name": name}}))
}

/// Issue 40 item 6: distinct `breakpoint.set` frames past `max_breakpoints` are ignored, with
/// one `breakpoint-limit` warning per episode (not one per frame), and clearing one makes
/// room again.
#[test]
fn breakpoint_cap_ignores_sets_past_it_with_one_warning() {
    let mut h = Host::new(SessionConfig { max_breakpoints: 3, ..SessionConfig::default() });
    h.attach(&json!([]), "run");
    let mut warned = 0;
    for i in 0..10 {
        warned += limit_warnings(&h.recv(&bp_set(&format!("n{i}"))));
    }
    assert_eq!(h.s.breakpoints().len(), 3, "the cap holds");
    assert_eq!(warned, 1, "one warning for the whole storm");
    assert_eq!(h.s.breakpoints().iter().map(|m| m.name.clone().unwrap_or_default()).collect::<Vec<_>>(), ["n0", "n1", "n2"], "the first ones stay armed");
    assert_eq!(limit_warnings(&h.recv(&bp_set("n0"))), 0, "a duplicate at the cap is no refusal");
    assert!(matches!(h.gate(PausePoint::Before, &tool("n2")), GateOutcome::Held(_)));
    h.drain();
    assert_eq!(h.gate(PausePoint::Before, &tool("n5")), GateOutcome::Continue, "a refused matcher never pauses");
    h.recv(&vframe("breakpoint.clear", "*", &json!({"matcher": {"kind": "tool", "name": "n1"}})));
    h.recv(&bp_set("n7"));
    assert_eq!(h.s.breakpoints().len(), 3, "the cleared slot is reused");
    assert_eq!(limit_warnings(&h.recv(&bp_set("n8"))), 1, "reaching the cap again warns again");
}

/// A `hello.ack` arming more matchers than the cap arms the first ones, warns once.
#[test]
fn breakpoint_cap_bounds_the_ack() {
    let mut h = Host::new(SessionConfig { max_breakpoints: 2, ..SessionConfig::default() });
    let bps: Vec<Value> = (0..5).map(|i| json!({"name": format!("a{i}")})).chain([json!({"name": "a0"})]).collect();
    let out = h.attach(&json!(bps), "run");
    assert_eq!(limit_warnings(&out), 1);
    assert_eq!(h.s.breakpoints().len(), 2);
}

/// Issue 40 item 6: 40,000 distinct `breakpoint.set` frames are handled in linear time. The
/// de-duplication scanned the armed list per frame (quadratic: about 8·10⁸ matcher comparisons
/// here, tens of seconds in a debug build); the bound is loose for a shared 2-core machine.
#[test]
fn breakpoint_storm_is_not_quadratic() {
    let n = 40_000;
    let mut h = Host::new(SessionConfig { max_breakpoints: n, ..SessionConfig::default() });
    h.attach(&json!([]), "run");
    let frames: Vec<String> = (0..n).map(|i| bp_set(&format!("node-{i}"))).collect();
    let t0 = std::time::Instant::now();
    for f in &frames {
        h.s.frame_received(f.as_bytes(), clk(h.now));
    }
    let took = t0.elapsed();
    assert_eq!(h.drain().len(), 0, "no warning below the cap");
    assert_eq!(h.s.breakpoints().len(), n);
    assert!(took < std::time::Duration::from_secs(6), "{n} breakpoint.set frames took {took:?}");
}

impl Host {
    /// Step mode via a control, then a hold at `before`.
    fn held_after_step(&mut self, node: &GateNode) -> String {
        self.recv(&vframe("mode.set", "*", &json!({"mode": "step"})));
        self.held(PausePoint::Before, node)
    }
}

#[test]
fn c22_concurrent_holds() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let ids: Vec<String> = ["a", "b", "c"].iter().map(|n| h.held(PausePoint::Before, &tool(n))).collect();
    h.drain();
    let mut got = Vec::new();
    for id in ids.iter().rev() {
        let out = h.recv(&resume(id, "continue"));
        assert_eq!(sends(&out)[0]["payload"]["pauseId"], json!(id));
        got.extend(releases(&out).into_iter().map(|r| r.0));
    }
    assert_eq!(got, ids.iter().rev().cloned().collect::<Vec<_>>());
    assert!(h.s.held_pause_ids().is_empty());
}

#[test]
fn c23_stale_resume() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    assert!(h.recv(&resume("pause_unknown_9", "continue")).is_empty());
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.recv(&resume(&pid, "continue"));
    assert!(h.recv(&resume(&pid, "continue")).is_empty());
}

#[test]
fn c24_malformed_resume() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    let no_action = vframe("exec.resume", "r", &json!({"pauseId": pid}));
    let mut neg_seq = parse(&resume(&pid, "continue"));
    neg_seq["seq"] = json!(-1);
    for f in [no_action, neg_seq.to_string()] {
        let out = h.recv(&f);
        assert!(out.iter().all(|a| matches!(a, Action::Warn(w) if w.rule == "invalid-frame")));
    }
    assert_eq!(h.s.held_pause_ids(), [pid]);
}

#[test]
fn c25_out_of_enum_action() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    let out = h.recv(&resume(&pid, "bogus"));
    assert!(sends(&out).is_empty() && releases(&out).is_empty());
    assert_eq!(h.s.held_pause_ids(), [pid]);
}

#[test]
fn c26_resume_details() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    let out = h.recv(&vframe("exec.resume", "*", &json!({"pauseId": pid, "action": "continue", "output": {"ignored": 1}})));
    assert_eq!(releases(&out)[0].1, Decision::Continue);
    assert_eq!(sends(&out)[0]["payload"], json!({"pauseId": pid, "action": "continue"}));
}

#[test]
fn c27_mid_stream_gm_mismatch() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    let mut bad = parse(&resume(&pid, "continue"));
    bad["gm"] = json!(2);
    let out = h.recv(&bad.to_string());
    assert_eq!(closes(&out), 1);
    assert!(sends(&out).is_empty(), "detached: exec.resumed is buffered for the replay");
    assert_eq!(releases(&out), [(pid, Decision::Continue, ReleaseCause::Disconnect)]);
    assert_eq!(h.s.state(), ConnState::Idle);
}

#[test]
fn c28_inject() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    let frame = format!(
        r#"{{"gm":1,"seq":3,"ts":1,"runId":"r","type":"exec.resume","payload":{{"pauseId":"{pid}","action":"inject","output":{{"answer":[1,2.50,"x"]}}}}}}"#
    );
    let out = h.recv(&frame);
    let expected = RawJson::from_json(r#"{"answer":[1,2.50,"x"]}"#).ok();
    assert_eq!(releases(&out)[0].1, Decision::Inject { output: expected });
    assert_eq!(sends(&out)[0]["payload"], json!({"pauseId": pid, "action": "inject"}));
    let pid = h.held(PausePoint::Before, &tool("t"));
    let out = h.recv(&resume(&pid, "inject"));
    assert_eq!(releases(&out)[0].1, Decision::Inject { output: None }, "inject of no value");
}

#[test]
fn c29_retry_at_error() {
    let mut h = Host::default();
    h.attach(&json!([{"point": "error"}]), "run");
    let t = GateNode { instance_id: Some("call_1".into()), ..tool("t") };
    h.started("r", &t, "call_1", None);
    let err = json!({"nodeId": "tool:t", "instanceId": "call_1", "error": {"name": "E", "message": "boom"}});
    h.emit("node.error", &err, "r");
    let first = h.held(PausePoint::Error, &t);
    h.drain();
    let out = h.recv(&resume(&first, "retry"));
    assert_eq!(releases(&out)[0].1, Decision::Retry);
    // The adapter re-runs the body: a new node.error, a new pause, no new node.started.
    h.emit("node.error", &err, "r");
    let GateOutcome::Held(second) = h.gate(PausePoint::Error, &t) else { panic!("expected a hold") };
    assert_ne!(first, second);
    let frames = sends(&h.drain());
    assert_eq!(types(&frames), ["node.error", "exec.paused"]);
    assert_eq!(frames[1]["payload"]["instanceId"], "call_1");
}

#[test]
fn c30_retry_at_after_retry_at_before() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool", "point": "after"}, {"kind": "tool"}]), "run");
    let t = tool("t");
    let a1 = h.held(PausePoint::After, &t);
    assert_eq!(releases(&h.recv(&resume(&a1, "retry")))[0].1, Decision::Retry);
    let a2 = h.held(PausePoint::After, &t);
    assert_ne!(a1, a2, "the re-run pauses at after again");
    h.recv(&resume(&a2, "continue"));
    let b = h.held(PausePoint::Before, &t);
    let out = h.recv(&resume(&b, "retry"));
    assert_eq!(sends(&out)[0]["payload"]["action"], "retry");
    assert_eq!(releases(&out)[0].1, Decision::Retry, "the adapter treats retry at before as continue (§3.7)");
}

#[test]
fn c31_abort() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    let out = h.recv(&resume(&pid, "abort"));
    assert_eq!(types(&sends(&out)), ["exec.resumed"]);
    assert_eq!(sends(&out)[0]["payload"]["action"], "abort");
    let abort_at = out.iter().position(|a| matches!(a, Action::AbortRun { run_id } if run_id == "r"));
    let release_at = out.iter().position(|a| matches!(a, Action::Release { decision: Decision::Abort, .. }));
    assert!(abort_at.is_some() && abort_at < release_at, "the run is aborted before the adapter sees the decision");
    h.emit("node.finished", &json!({"nodeId": "tool:t", "durationMs": 0, "status": "aborted"}), "r");
    h.emit("run.finished", &json!({"status": "aborted"}), "r");
    assert_eq!(types(&sends(&h.drain())), ["node.finished", "run.finished"]);
}

#[test]
fn c32_loop_hold() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    h.emit("run.started", &json!({"app": "a", "sdk": {"name": "s", "version": "1"}}), "r");
    h.started("r", &GateNode::new("agent:root", NodeKind::Agent, "root"), "r", None);
    let t = tool("search");
    let call = |h: &mut Host, i: u32, input: &str| {
        let p = json!({"nodeId": "tool:search", "kind": "tool", "name": "search", "instanceId": format!("call_{i}"), "input": {"q": input, "_meta": i}});
        h.emit("node.started", &p, "r");
    };
    let mut paused = Vec::new();
    for i in 1..=4 {
        call(&mut h, i, "same");
        if let GateOutcome::Held(id) = h.gate(PausePoint::Before, &t) {
            paused.push(sends(&h.drain()).pop().expect("exec.paused"));
            h.recv(&resume(&id, "continue"));
        }
        h.finished("r", "tool:search", &format!("call_{i}"));
    }
    assert_eq!(paused.len(), 2, "the 3rd and 4th identical calls hold");
    for (p, (repeats, last)) in paused.iter().zip([(3, 7), (4, 11)]) {
        assert_eq!(p["payload"]["reason"], "loop");
        assert_eq!(p["payload"]["loop"]["repeats"], repeats);
        assert_eq!(p["payload"]["loop"]["firstSeq"], 3);
        assert_eq!(p["payload"]["loop"]["lastSeq"], last);
    }
    call(&mut h, 5, "different");
    assert_eq!(h.gate(PausePoint::Before, &t), GateOutcome::Continue, "a different input starts a new streak");
}

/// §1 "ignore `_meta`" at every level: an MCP tool call carries `_meta` (a per-request
/// `progressToken`) inside its `arguments`, so identical calls differ only there and must still
/// form a streak (issue 37, bug 2: only a top-level `_meta` was ignored, so the recorded
/// `mcp_call` loop never held).
#[test]
fn c32_loop_hold_ignores_meta_in_mcp_arguments() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    let node = GateNode::new("tool:mcp_call", NodeKind::Tool, "mcp_call");
    let call = |h: &mut Host, i: u32, arguments: Value| {
        let input = json!({"server": "tracker", "tool": "list_issues", "arguments": arguments});
        let p = json!({"nodeId": "tool:mcp_call", "kind": "tool", "name": "mcp_call", "instanceId": format!("call_{i}"), "input": input});
        h.emit("node.started", &p, "r");
    };
    let mut held = Vec::new();
    for i in 1..=4 {
        call(&mut h, i, json!({"repo": "o/r", "labels": [{"name": "bug", "_meta": {"n": i}}], "_meta": {"progressToken": format!("tok-{i}")}}));
        if let GateOutcome::Held(id) = h.gate(PausePoint::Before, &node) {
            let paused = sends(&h.drain()).pop().expect("exec.paused");
            assert_eq!(paused["payload"]["reason"], "loop");
            held.push(paused["payload"]["loop"]["repeats"].clone());
            h.recv(&resume(&id, "continue"));
        }
        h.finished("r", "tool:mcp_call", &format!("call_{i}"));
    }
    assert_eq!(held, [json!(3), json!(4)], "the 3rd and 4th calls that differ only in nested _meta hold");
    call(&mut h, 5, json!({"repo": "o/other", "_meta": {"progressToken": "tok-5"}}));
    assert_eq!(h.gate(PausePoint::Before, &node), GateOutcome::Continue, "other arguments start a new streak");
}

#[test]
fn c33_pause_timeout() {
    let mut h = Host::new(SessionConfig { pause_timeout_ms: Some(500), ..SessionConfig::default() });
    h.attach(&json!([{"kind": "tool"}]), "run");
    let t = tool("t");
    h.started("r", &t, "call_1", None);
    let pid = h.held(PausePoint::Before, &t);
    h.drain();
    assert_eq!(h.s.poll_timeout(), Some(clk(h.now + 500)));
    let out = h.tick(500);
    assert_eq!(sends(&out)[0]["payload"], json!({"pauseId": pid, "action": "continue"}), "sent live");
    assert_eq!(releases(&out), [(pid.clone(), Decision::Continue, ReleaseCause::Timeout)]);
    assert!(h.recv(&resume(&pid, "continue")).is_empty(), "a late resume is ignored");
    assert_eq!(h.finished("r", "tool:t", "call_1")["payload"]["heldMs"], 500.0);
}

#[test]
fn c34_disconnect_while_held() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "step");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    h.s.transport_closed(clk(h.now));
    let out = h.drain();
    assert_eq!(releases(&out), [(pid.clone(), Decision::Continue, ReleaseCause::Disconnect)], "released at once");
    assert!(sends(&out).is_empty());
    assert!(h.s.breakpoints().is_empty() && h.s.mode() == RunMode::Run, "disarmed");
    h.until_connect();
    let hello = h.open();
    let replay = sends(&h.recv(&ack(&json!([]), "run", None)));
    let resumed = replay.iter().find(|f| f["type"] == "exec.resumed").expect("exec.resumed replayed");
    assert_eq!(resumed["payload"], json!({"pauseId": pid, "action": "continue"}));
    assert!(resumed["seq"].as_u64() < hello["seq"].as_u64(), "its seq predates the new hello");
    assert_eq!(h.gate(PausePoint::Before, &tool("t")), GateOutcome::Continue, "the next ack armed []");
}

#[test]
fn c35_dispose_while_held() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    h.s.dispose(clk(h.now));
    let out = h.drain();
    let send_at = out.iter().position(|a| matches!(a, Action::Send(_)));
    let close_at = out.iter().position(|a| matches!(a, Action::Close { code: 1000, .. }));
    assert!(send_at.is_some() && send_at < close_at, "exec.resumed live, then close 1000");
    assert_eq!(sends(&out)[0]["payload"], json!({"pauseId": pid, "action": "continue"}));
    assert_eq!(releases(&out), [(pid, Decision::Continue, ReleaseCause::Dispose)]);
    assert_eq!(h.gate(PausePoint::Before, &tool("t")), GateOutcome::Continue);
}

#[test]
fn c36_cancelled_waiter() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let pid = h.held(PausePoint::Before, &tool("t"));
    h.drain();
    assert!(h.s.cancel(&pid, clk(h.now)));
    let out = h.drain();
    assert_eq!(sends(&out)[0]["payload"], json!({"pauseId": pid, "action": "continue"}));
    assert_eq!(releases(&out)[0].2, ReleaseCause::Cancel);
    assert!(!h.s.cancel(&pid, clk(h.now)));
}

#[test]
fn c37_held_ms_union() {
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let root = GateNode::new("agent:root", NodeKind::Agent, "root");
    let span = GateNode::new("agent:span", NodeKind::Agent, "span");
    let (t1, t2) = (tool("one"), tool("two"));
    h.started("r", &root, "r", None);
    h.started("r", &span, "span_1", Some("agent:root"));
    h.started("r", &t1, "call_1", Some("agent:span"));
    h.started("r", &t2, "call_2", Some("agent:root"));
    let p1 = h.held(PausePoint::Before, &t1);
    h.now += 5;
    let p2 = h.held(PausePoint::Before, &t2);
    h.now += 5;
    h.recv(&resume(&p1, "continue"));
    h.now += 10;
    h.recv(&resume(&p2, "continue"));
    h.drain();
    assert_eq!(h.finished("r", "tool:one", "call_1")["payload"]["heldMs"], 10.0);
    assert_eq!(h.finished("r", "tool:two", "call_2")["payload"]["heldMs"], 15.0);
    assert_eq!(h.finished("r", "agent:span", "span_1")["payload"]["heldMs"], 10.0, "only its own child's hold");
    assert_eq!(h.finished("r", "agent:root", "r")["payload"]["heldMs"], 20.0, "the union, not the sum 25");
}

/// §3.9, guarantee 7 (issue 37, bug 1): the clock carries fractional milliseconds as a
/// monotonic clock gives them, so a sub-millisecond hold shows in `heldMs`, rounded to two
/// decimals (the real client writes 0.87, 1.04, …), while `ts` stays whole milliseconds.
#[test]
fn c37_held_ms_keeps_fractions() {
    let at = |ms: f64| Millis::new(ms).expect("a clock reading");
    let mut h = Host::default();
    h.attach(&json!([{"kind": "tool"}]), "run");
    let (t1, t2) = (tool("one"), tool("two"));
    h.started("r", &t1, "call_1", None);
    h.started("r", &t2, "call_2", None);
    let GateOutcome::Held(p1) = h.s.gate(PausePoint::Before, &t1, Some("r"), at(1000.3)) else { panic!("hold") };
    let GateOutcome::Held(p2) = h.s.gate(PausePoint::Before, &t2, Some("r"), at(1000.4)) else { panic!("hold") };
    h.drain();
    h.s.frame_received(resume(&p1, "continue").as_bytes(), at(1000.55));
    h.s.frame_received(resume(&p2, "continue").as_bytes(), at(1001.3371));
    h.drain();
    let finish = |h: &mut Host, node: &str, instance: &str, now: f64| {
        let p = json!({"nodeId": node, "instanceId": instance, "durationMs": 1, "status": "ok"});
        h.s.emit_json("node.finished", &p.to_string(), Some("r"), at(now)).expect("valid").expect("enabled");
        match h.drain().pop() {
            Some(Action::Send(frame)) => frame,
            other => panic!("node.finished not sent: {other:?}"),
        }
    };
    let f1 = finish(&mut h, "tool:one", "call_1", 1001.9);
    assert!(f1.contains(r#""heldMs":0.25"#), "{f1}");
    assert!(f1.contains(r#""ts":1001,"#), "ts is the reading's whole milliseconds: {f1}");
    let f2 = finish(&mut h, "tool:two", "call_2", 1002.0);
    assert!(f2.contains(r#""heldMs":0.94"#), "0.9371 rounds to two decimals: {f2}");
}

/// Bad clock readings are refused where they are made, with the rule that failed; the cores
/// only ever see valid ones.
#[test]
fn clock_readings_are_checked() {
    use wirecontract::graphmind::session::ClockError;
    assert_eq!(Millis::new(f64::NAN), Err(ClockError::NaN));
    assert_eq!(Millis::new(f64::INFINITY), Err(ClockError::Infinite));
    assert_eq!(Millis::new(-1.0), Err(ClockError::Negative));
    assert_eq!(Millis::new(1e300), Err(ClockError::TooLarge));
    assert_eq!(Millis::new(1000.3).map(Millis::whole), Ok(1000));
}

#[test]
fn c38_fast_reconnect() {
    let mut h = Host::default();
    h.attach(&json!([]), "run");
    let dropped_at = h.now;
    h.s.transport_closed(clk(h.now));
    h.drain();
    let mut delays = Vec::new();
    let mut last = dropped_at;
    for _ in 0..4 {
        let at = h.s.poll_timeout().expect("retry scheduled").whole();
        delays.push(at - last);
        h.now = at;
        h.s.handle_timeout(clk(h.now));
        assert!(h.drain().iter().any(|a| matches!(a, Action::Connect { .. })));
        h.s.transport_failed(clk(h.now));
        last = h.now;
    }
    assert_eq!(delays, [200, 400, 800, 10_000]);
    // Never attached: the interval from the start.
    let mut h = Host::default();
    h.s.ready(clk(h.now), Some(1));
    h.drain();
    h.s.transport_failed(clk(h.now));
    h.tick(1);
    assert_eq!(h.s.poll_timeout(), Some(clk(h.now - 1 + 10_000)));
}

#[test]
fn c39_disabled_session() {
    let mut h = Host::new(SessionConfig { enabled: false, ..SessionConfig::default() });
    let w = h.s.ready(clk(h.now), None);
    assert_eq!(h.gate(PausePoint::Before, &tool("t")), GateOutcome::Continue);
    assert_eq!(h.s.emit_json("graph.hint", r#"{"nodes":[]}"#, None, clk(h.now)), Ok(None));
    assert_eq!(h.drain(), [Action::ReadySettled { waiter: w, attached: false }], "no Connect");
    assert_eq!(h.s.poll_timeout(), None);
}

// ----- viewer side (§5) -----------------------------------------------------------------------

fn app_frame(seq: u64, run: &str, ty: &str, payload: &Value) -> Vec<u8> {
    json!({"gm": 1, "seq": seq, "ts": 1, "runId": run, "type": ty, "payload": payload}).to_string().into_bytes()
}

fn hello_frame(seq: u64, token: Option<&str>) -> Vec<u8> {
    let mut p = json!({"versions": {"protocol": 1, "client": "t"}, "capabilities": ["pause", "step"]});
    if let Some(t) = token {
        p["resumeToken"] = json!(t);
    }
    app_frame(seq, "*", "hello", &p)
}

fn paused_frame(seq: u64, pause: &str) -> Vec<u8> {
    app_frame(seq, "r", "exec.paused", &json!({"pauseId": pause, "nodeId": "n", "point": "before"}))
}

fn vdrain(v: &mut ViewerSession) -> Vec<ViewerAction> {
    std::iter::from_fn(|| v.poll_action()).collect()
}

fn vsends(actions: &[ViewerAction]) -> Vec<(ConnectionId, Value)> {
    actions.iter().filter_map(|a| if let ViewerAction::Send { conn, frame } = a { Some((*conn, parse(frame))) } else { None }).collect()
}

#[test]
fn v01_handshake_acks_every_hello_with_the_full_state() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    let (c1, c2, c3) = (ConnectionId(1), ConnectionId(2), ConnectionId(3));
    v.frame_received(c1, &hello_frame(0, None), clk(5));
    let out = vsends(&vdrain(&mut v));
    let ack = &out[0].1;
    assert_eq!((ack["seq"].clone(), ack["runId"].clone(), ack["type"].clone()), (json!(0), json!("*"), json!("hello.ack")));
    assert_eq!(ack["payload"]["breakpoints"], json!([{"point": "error"}]));
    assert_eq!(ack["payload"]["mode"], "run");
    assert_eq!(ack["payload"]["capabilities"], json!(["pause", "step"]));
    assert_eq!(wirecontract::graphmind::parse(&ack.to_string(), &wirecontract::graphmind::ParseOptions::default()).kind(), "ok");
    let minted = ack["payload"]["sessionToken"].clone();
    v.frame_received(c2, &hello_frame(7, Some("tok-A")), clk(5));
    assert_eq!(vsends(&vdrain(&mut v))[0].1["payload"]["sessionToken"], "tok-A");
    v.frame_received(c3, &hello_frame(7, Some(&"x".repeat(129))), clk(5));
    let long = vsends(&vdrain(&mut v))[0].1["payload"]["sessionToken"].clone();
    assert_ne!(long, json!("x".repeat(129)));
    assert_ne!(long, minted);
}

#[test]
fn v02_dedup_by_run_and_seq_outlives_the_connection() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    let (c1, c2) = (ConnectionId(1), ConnectionId(2));
    let hint = |seq| app_frame(seq, "r", "graph.hint", &json!({"nodes": []}));
    v.frame_received(c1, &hello_frame(0, None), clk(1));
    v.frame_received(c1, &hint(1), clk(1));
    v.frame_received(c1, &hint(2), clk(1));
    v.connection_closed(c1, clk(2));
    v.frame_received(c2, &hello_frame(5, None), clk(3));
    for seq in [1, 2, 3] {
        v.frame_received(c2, &hint(seq), clk(3));
    }
    v.frame_received(c2, &hint(6), clk(3));
    let accepted: Vec<(ConnectionId, u64, bool)> = vdrain(&mut v)
        .into_iter()
        .filter_map(|a| if let ViewerAction::FrameAccepted { conn, envelope, replayed } = a { Some((conn, envelope.seq, replayed)) } else { None })
        .collect();
    assert_eq!(accepted, [(c1, 1, false), (c1, 2, false), (c2, 3, true), (c2, 6, false)]);
}

#[test]
fn v03_pause_bookkeeping_and_routing() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    let (c1, c2) = (ConnectionId(1), ConnectionId(2));
    v.frame_received(c1, &hello_frame(0, None), clk(1));
    v.frame_received(c1, &paused_frame(1, "p1"), clk(1));
    assert!(vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::PauseOpened { pause_id, .. } if pause_id == "p1")));
    v.resume("p1", ResumeAction::Continue, None, None, clk(2)).expect("open");
    let sent = vsends(&vdrain(&mut v));
    assert_eq!(sent[0].0, c1);
    assert_eq!((sent[0].1["type"].clone(), sent[0].1["runId"].clone(), sent[0].1["seq"].clone()), (json!("exec.resume"), json!("r"), json!(1)));
    v.frame_received(c1, &app_frame(2, "r", "exec.refused", &json!({"pauseId": "p1", "code": "placeholder"})), clk(2));
    assert_eq!(v.open_pauses(), ["p1"], "a refusal leaves the pause open");
    v.frame_received(c1, &app_frame(3, "r", "exec.resumed", &json!({"pauseId": "p1", "action": "continue"})), clk(2));
    assert!(vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::PauseClosed { pause_id, action: ResumeAction::Continue } if pause_id == "p1")));
    assert_eq!(v.resume("p1", ResumeAction::Continue, None, None, clk(3)), Err(wirecontract::graphmind::session::ResumeError::UnknownPause));
    // Disconnect releases by fail-open; the replayed exec.paused is never resumable.
    v.frame_received(c1, &paused_frame(4, "p2"), clk(3));
    v.connection_closed(c1, clk(4));
    assert!(vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::PauseReleased { pause_id, .. } if pause_id == "p2")));
    assert_eq!(v.resume("p2", ResumeAction::Continue, None, None, clk(4)), Err(wirecontract::graphmind::session::ResumeError::ReleasedByDisconnect));
    v.frame_received(c2, &hello_frame(9, None), clk(5));
    v.frame_received(c2, &paused_frame(8, "p3"), clk(5));
    assert!(!vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::PauseOpened { .. })));
    assert!(v.open_pauses().is_empty());
    // A resume that is never answered times out.
    v.frame_received(c2, &paused_frame(10, "p4"), clk(5));
    v.resume("p4", ResumeAction::Abort, None, None, clk(5)).expect("open");
    vdrain(&mut v);
    v.handle_timeout(clk(5 + 5000));
    assert!(vdrain(&mut v).contains(&ViewerAction::ResumeTimedOut { pause_id: "p4".into() }));
}

/// §5.4 (issue 37, bug 4): an `exec.resumed` that fails validation (controls-edge:16: the PY
/// client echoes `action:"bogus"`) still says which pause the app released. The pause is
/// closed: no fail-open release at disconnect, no `ResumeTimedOut`, no further resume; the
/// frame is reported.
#[test]
fn v03_invalid_resumed_closes_its_pause() {
    use wirecontract::graphmind::session::ResumeError;
    let mut v = ViewerSession::new(ViewerConfig::default());
    let c1 = ConnectionId(1);
    v.frame_received(c1, &hello_frame(0, None), clk(1));
    v.frame_received(c1, &paused_frame(1, "p1"), clk(1));
    v.frame_received(c1, &paused_frame(2, "p2"), clk(1));
    v.resume("p1", ResumeAction::Continue, None, None, clk(2)).expect("open");
    vdrain(&mut v);
    let bogus = app_frame(3, "r", "exec.resumed", &json!({"pauseId": "p1", "action": "bogus"}));
    let outcome = wirecontract::graphmind::parse(&bogus, &wirecontract::graphmind::ParseOptions::default());
    assert_eq!(v.outcome_received(c1, &bogus, outcome, clk(3)), wirecontract::graphmind::session::Received::Rejected, "the frame is invalid");
    let out = vdrain(&mut v);
    assert!(
        out.iter().any(|a| matches!(a, ViewerAction::Warn { rule: "invalid-resumed", text, .. } if text.contains("p1"))),
        "the invalid frame is reported, naming its pause: {out:?}"
    );
    assert_eq!(v.open_pauses(), ["p2"], "p1 is closed");
    assert_eq!(v.resume("p1", ResumeAction::Continue, None, None, clk(4)), Err(ResumeError::UnknownPause));
    v.handle_timeout(clk(2 + 5000));
    assert!(!vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::ResumeTimedOut { .. })), "no resume wait is left");
    v.connection_closed(c1, clk(6000));
    let released: Vec<String> =
        vdrain(&mut v).into_iter().filter_map(|a| if let ViewerAction::PauseReleased { pause_id, .. } = a { Some(pause_id) } else { None }).collect();
    assert_eq!(released, ["p2"], "only the pause still open is released by fail-open");
    // An invalid exec.resumed naming no known pause is only an invalid frame.
    let c2 = ConnectionId(2);
    v.frame_received(c2, &hello_frame(9, None), clk(7000));
    v.frame_received(c2, &app_frame(10, "r", "exec.resumed", &json!({"pauseId": "zz", "action": "bogus"})), clk(7000));
    assert!(vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::Warn { rule: "invalid-frame", .. })));
}

#[test]
fn v04_broadcast_and_version_mismatch() {
    let mut v = ViewerSession::new(ViewerConfig::default());
    let (c1, c2, c3) = (ConnectionId(1), ConnectionId(2), ConnectionId(3));
    v.frame_received(c1, &hello_frame(0, None), clk(1));
    v.frame_received(c2, &hello_frame(0, None), clk(1));
    v.connection_opened(c3); // no hello yet: not armed, not a target
    vdrain(&mut v);
    let m = wirecontract::graphmind::BreakpointMatcher::new(Some(NodeKind::Tool), None, None);
    assert!(v.set_breakpoint(m.clone(), clk(2)));
    assert!(!v.set_breakpoint(m, clk(2)), "deduplicated");
    v.set_mode(RunMode::Step, clk(2));
    let out = vsends(&vdrain(&mut v));
    let summary: Vec<(ConnectionId, String, String)> =
        out.iter().map(|(c, f)| (*c, f["type"].as_str().unwrap_or_default().into(), f["runId"].as_str().unwrap_or_default().into())).collect();
    assert_eq!(
        summary,
        [
            (c1, "breakpoint.set".into(), "*".into()),
            (c2, "breakpoint.set".into(), "*".into()),
            (c1, "mode.set".into(), "*".into()),
            (c2, "mode.set".into(), "*".into())
        ]
    );
    let mut bad = parse(std::str::from_utf8(&hello_frame(1, None)).unwrap_or_default());
    bad["gm"] = json!(2);
    v.frame_received(c1, bad.to_string().as_bytes(), clk(3));
    assert!(vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::Close { conn, code: 1002, .. } if *conn == c1)));
}

#[test]
fn viewer_closes_instead_of_acking_a_hello_of_another_protocol_version() {
    // The envelope is GraphMind 1, so it parses; `versions.protocol` is the app's, and the
    // viewer answers only its own, as negotiate_hello rules (docs/session.md, guarantee 8).
    let mut v = ViewerSession::new(ViewerConfig::default());
    // A connection per case: each refused one is closed.
    for (id, protocol) in [(1, 2), (2, 0), (3, -1)] {
        let c = ConnectionId(id);
        let mut hello = parse(std::str::from_utf8(&hello_frame(0, None)).unwrap_or_default());
        hello["payload"]["versions"]["protocol"] = json!(protocol);
        let bytes = hello.to_string().into_bytes();
        // outcome_received, not frame_received: it also says what the session did with it.
        let outcome = wirecontract::graphmind::parse(&bytes, &wirecontract::graphmind::ParseOptions::default());
        let received = v.outcome_received(c, &bytes, outcome, clk(1));
        assert_eq!(received, wirecontract::graphmind::session::Received::Rejected, "protocol {protocol}");
        let actions = vdrain(&mut v);
        assert!(actions.iter().any(|a| matches!(a, ViewerAction::Close { conn, code: 1002, .. } if *conn == c)), "protocol {protocol}: {actions:?}");
        assert!(
            actions.iter().any(|a| matches!(a, ViewerAction::Warn { rule: "version-mismatch", text, .. } if text.contains(&format!("protocol {protocol}")))),
            "protocol {protocol}: {actions:?}"
        );
        assert!(!actions.iter().any(|a| matches!(a, ViewerAction::Send { .. } | ViewerAction::AppAttached { .. })), "protocol {protocol}: {actions:?}");
    }
    // Protocol 1 is answered.
    v.frame_received(ConnectionId(4), &hello_frame(0, None), clk(2));
    assert!(vdrain(&mut v).iter().any(|a| matches!(a, ViewerAction::AppAttached { .. })));
}

/// App and viewer wired back to back: a host loop carrying each side's actions to the other.
struct Loopback {
    app: AppSession,
    viewer: ViewerSession,
    conn: Option<ConnectionId>,
    next_conn: u64,
    now: u64,
    released: Vec<(String, Decision, ReleaseCause)>,
    viewer_events: Vec<ViewerAction>,
}

impl Loopback {
    fn pump(&mut self) {
        loop {
            let mut progressed = false;
            while let Some(a) = self.app.poll_action() {
                progressed = true;
                match a {
                    Action::Connect { .. } => {
                        self.next_conn += 1;
                        let c = ConnectionId(self.next_conn);
                        self.conn = Some(c);
                        self.viewer.connection_opened(c);
                        self.app.transport_opened(clk(self.now));
                    }
                    Action::Send(f) => self.viewer.frame_received(self.conn.unwrap_or(ConnectionId(0)), f.as_bytes(), clk(self.now)),
                    Action::Close { .. } => {
                        if let Some(c) = self.conn.take() {
                            self.viewer.connection_closed(c, clk(self.now));
                        }
                    }
                    Action::Release { pause_id, decision, cause } => self.released.push((pause_id, decision, cause)),
                    _ => {}
                }
            }
            while let Some(a) = self.viewer.poll_action() {
                progressed = true;
                match a {
                    ViewerAction::Send { conn, frame } if Some(conn) == self.conn => {
                        self.app.frame_received(frame.as_bytes(), clk(self.now));
                    }
                    other => self.viewer_events.push(other),
                }
            }
            if !progressed {
                return;
            }
        }
    }

    fn drop_connection(&mut self) {
        if let Some(c) = self.conn.take() {
            self.viewer.connection_closed(c, clk(self.now));
            self.app.transport_closed(clk(self.now));
        }
        self.pump();
    }
}

#[test]
fn v05_loopback_app_and_viewer() {
    let mut l = Loopback {
        app: AppSession::new(SessionConfig::default()),
        viewer: ViewerSession::new(ViewerConfig { breakpoints: vec![], ..ViewerConfig::default() }),
        conn: None,
        next_conn: 0,
        now: 10,
        released: vec![],
        viewer_events: vec![],
    };
    l.app.ready(clk(l.now), None);
    l.pump();
    assert!(l.app.is_attached());
    l.viewer.set_breakpoint(wirecontract::graphmind::BreakpointMatcher::new(Some(NodeKind::Tool), None, None), clk(l.now));
    l.pump();
    let GateOutcome::Held(p1) = l.app.gate(PausePoint::Before, &tool("t"), Some("r"), clk(l.now)) else { panic!("hold after broadcast") };
    l.pump();
    l.viewer.resume(&p1, ResumeAction::Continue, None, None, clk(l.now)).expect("open on the viewer");
    l.pump();
    assert_eq!(l.released, [(p1, Decision::Continue, ReleaseCause::Resume)]);
    // Disconnect while held: fail-open on both sides; the replay is deduplicated.
    l.viewer.set_breakpoint(wirecontract::graphmind::BreakpointMatcher::new(Some(NodeKind::Llm), None, None), clk(l.now));
    l.pump();
    let GateOutcome::Held(p2) = l.app.gate(PausePoint::Before, &tool("t"), Some("r"), clk(l.now)) else { panic!("hold") };
    l.pump();
    l.viewer_events.clear();
    l.drop_connection();
    assert!(l.viewer_events.iter().any(|a| matches!(a, ViewerAction::PauseReleased { pause_id, .. } if *pause_id == p2)));
    l.now = l.app.poll_timeout().map_or(l.now, Millis::whole);
    l.app.handle_timeout(clk(l.now));
    l.pump();
    assert!(l.app.is_attached());
    assert_eq!(l.app.breakpoints().len(), 2, "the new ack armed the viewer's full set");
    let replayed: Vec<(String, bool)> =
        l.viewer_events
            .iter()
            .filter_map(|a| {
                if let ViewerAction::FrameAccepted { envelope, replayed, .. } = a {
                    Some((envelope.message_type().to_owned(), *replayed))
                } else {
                    None
                }
            })
            .collect();
    assert_eq!(replayed, [("exec.resumed".to_owned(), true)], "only the unseen exec.resumed is new");
    assert!(l.viewer_events.iter().any(|a| matches!(a, ViewerAction::PauseClosed { pause_id, .. } if *pause_id == p2)));
}

#[test]
fn v06_outcome_received_labels_every_frame() {
    use wirecontract::graphmind as gm;
    use wirecontract::graphmind::session::Received;
    let mut v = ViewerSession::new(ViewerConfig::default());
    let (c1, c2) = (ConnectionId(1), ConnectionId(2));
    let got = |v: &mut ViewerSession, c: ConnectionId, frame: &[u8]| v.outcome_received(c, frame, gm::parse(frame, &gm::ParseOptions::default()), clk(1));
    let hint = |seq| app_frame(seq, "r", "graph.hint", &json!({"nodes": []}));
    assert_eq!(got(&mut v, c1, &hint(0)), Received::Rejected, "an event before hello");
    assert_eq!(got(&mut v, c1, &hello_frame(1, None)), Received::Hello);
    assert_eq!(got(&mut v, c1, &hint(2)), Received::Accepted { replayed: false });
    assert_eq!(got(&mut v, c1, &hint(2)), Received::Duplicate { replayed: false }, "a reused seq on a live connection");
    assert_eq!(got(&mut v, c1, &app_frame(3, "*", "graph.hint", &json!({"nodes": []}))), Received::Wildcard);
    assert_eq!(got(&mut v, c1, b"not json"), Received::Rejected);
    v.connection_closed(c1, clk(2));
    assert_eq!(got(&mut v, c2, &hello_frame(9, None)), Received::Hello);
    assert_eq!(got(&mut v, c2, &hint(2)), Received::Duplicate { replayed: true }, "the replay of a stored frame");
    assert_eq!(got(&mut v, c2, &hint(4)), Received::Accepted { replayed: true }, "buffered while detached");
    assert_eq!(got(&mut v, c2, &hint(10)), Received::Accepted { replayed: false });
    // The actions agree with the labels: one FrameAccepted per Accepted, none for the rest.
    let accepted: Vec<(u64, bool)> = vdrain(&mut v)
        .into_iter()
        .filter_map(|a| if let ViewerAction::FrameAccepted { envelope, replayed, .. } = a { Some((envelope.seq, replayed)) } else { None })
        .collect();
    assert_eq!(accepted, [(2, false), (4, true), (10, false)]);
    // frame_received is the same path: its duplicates queue nothing either.
    v.frame_received(c2, &hint(10), clk(1));
    assert!(vdrain(&mut v).is_empty());
}
