//! State-machine property tests of the app-side session core against a small reference model
//! (graphmind-session §2, §3). Random input sequences (transport open/close/fail, acks,
//! controls, emits, gates, resumes, cancels, timers, garbage, dispose) must keep:
//!
//! - every `exec.paused` emitted is answered by exactly one `exec.resumed` for its pause id
//!   (after dispose at the latest), and every hold by exactly one `Release` (§3.8);
//! - seqs strictly increase across live sends (hello included); a replayed frame is
//!   byte-identical to every other sending of its seq (§2.2 T7(e));
//! - no gate is held while detached, and attachment, arming and held gates follow the model.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use serde_json::{json, Value};
use wirecontract::graphmind::session::{Action, AppSession, GateNode, GateOutcome, LoopGuardConfig, LoopMode, Millis, SessionConfig};
use wirecontract::graphmind::{should_pause, BreakpointMatcher, NodeKind, PausePoint, RunMode};

/// A clock reading of whole milliseconds (the tests step the clock in whole ms, except where
/// fractions are the point).
fn clk(ms: u64) -> Millis {
    Millis::new(ms as f64).expect("a test time is a clock reading")
}

#[derive(Debug, Clone)]
enum Op {
    Ready,
    Open,
    Close,
    Fail,
    Ack { bps: u8, step: bool, protocol: i64 },
    SetMode(bool),
    SetBreakpoint(u8),
    ClearBreakpoint(u8),
    Emit(u8),
    Gate { point: u8, kind: u8 },
    Resume { idx: usize, action: u8 },
    StaleResume,
    Cancel(usize),
    Garbage(Vec<u8>),
    Tick(u64),
    Dispose,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Ready),
        3 => Just(Op::Open),
        1 => Just(Op::Close),
        1 => Just(Op::Fail),
        3 => (any::<u8>(), any::<bool>(), prop_oneof![9 => Just(1i64), 1 => Just(2i64)]).prop_map(|(bps, step, protocol)| Op::Ack { bps, step, protocol }),
        1 => any::<bool>().prop_map(Op::SetMode),
        1 => any::<u8>().prop_map(Op::SetBreakpoint),
        1 => any::<u8>().prop_map(Op::ClearBreakpoint),
        3 => any::<u8>().prop_map(Op::Emit),
        5 => (0u8..3, 0u8..3).prop_map(|(point, kind)| Op::Gate { point, kind }),
        4 => (0usize..4, 0u8..4).prop_map(|(idx, action)| Op::Resume { idx, action }),
        1 => Just(Op::StaleResume),
        1 => (0usize..4).prop_map(Op::Cancel),
        1 => proptest::collection::vec(any::<u8>(), 0..40).prop_map(Op::Garbage),
        3 => prop_oneof![Just(1u64), Just(150), Just(300), Just(1000), Just(5000)].prop_map(Op::Tick),
        1 => Just(Op::Dispose),
    ]
}

const POINTS: [PausePoint; 3] = [PausePoint::Before, PausePoint::After, PausePoint::Error];
const KINDS: [NodeKind; 3] = [NodeKind::Tool, NodeKind::Llm, NodeKind::Agent];
const ACTIONS: [&str; 4] = ["continue", "retry", "inject", "abort"];

fn matcher(bits: u8) -> BreakpointMatcher {
    let kind = [None, Some(NodeKind::Tool), Some(NodeKind::Llm)][usize::from(bits % 3)];
    let point = [None, Some(PausePoint::After), Some(PausePoint::Error)][usize::from((bits / 3) % 3)];
    BreakpointMatcher::new(kind, None, point)
}

fn matcher_json(m: &BreakpointMatcher) -> Value {
    let mut v = json!({});
    if let Some(k) = m.kind {
        v["kind"] = json!(if k == NodeKind::Tool { "tool" } else { "llm" });
    }
    if let Some(p) = m.point {
        v["point"] = json!(if p == PausePoint::After { "after" } else { "error" });
    }
    v
}

fn vframe(ty: &str, payload: &Value) -> String {
    json!({"gm": 1, "seq": 0, "ts": 0, "runId": "*", "type": ty, "payload": payload}).to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Connecting,
    AwaitingAck,
    Attached,
    Disposed,
}

/// The reference model: what the spec says the observable state is.
struct Model {
    phase: Phase,
    started: bool,
    breakpoints: Vec<BreakpointMatcher>,
    mode: RunMode,
    held: Vec<(String, u64)>,
    connect_deadline: u64,
    handshake_deadline: u64,
}

const PAUSE_TIMEOUT: u64 = 700;

impl Model {
    fn start(&mut self, now: u64) {
        if !self.started && self.phase != Phase::Disposed {
            self.started = true;
            self.phase = Phase::Connecting;
            self.connect_deadline = now + 300;
        }
    }
    fn detach(&mut self) {
        self.phase = Phase::Idle;
        self.breakpoints.clear();
        self.mode = RunMode::Run;
        self.held.clear();
    }
}

/// Everything the host saw, for the end-of-run checks.
#[derive(Default)]
struct Wire {
    /// Per connection: the frames sent on it.
    conns: Vec<Vec<String>>,
    holds: Vec<String>,
    releases: HashMap<String, usize>,
    connects: usize,
}

/// One input to the core and the model's expectation of it.
fn apply(s: &mut AppSession, m: &mut Model, w: &mut Wire, op: &Op, now: &mut u64) -> Result<(), TestCaseError> {
    let before = s.next_seq();
    if !transport_input(s, m, op, now) {
        gate_input(s, m, w, op, *now)?;
    }
    observe(s, m, w, before, *now)
}

/// Transport, handshake, timer and dispose inputs; `false` for any other op.
fn transport_input(s: &mut AppSession, m: &mut Model, op: &Op, now: &mut u64) -> bool {
    match op {
        Op::Ready => {
            s.ready(clk(*now), None);
            if m.phase != Phase::Disposed {
                if m.started && m.phase == Phase::Idle {
                    m.phase = Phase::Connecting;
                    m.connect_deadline = *now + 300;
                }
                m.start(*now);
            }
        }
        Op::Open => {
            s.transport_opened(clk(*now));
            if m.phase == Phase::Connecting {
                m.phase = Phase::AwaitingAck;
                m.handshake_deadline = *now + 1000;
            }
        }
        Op::Close | Op::Fail => {
            if matches!(op, Op::Close) {
                s.transport_closed(clk(*now));
            } else {
                s.transport_failed(clk(*now));
            }
            match m.phase {
                Phase::Attached => m.detach(),
                Phase::Connecting | Phase::AwaitingAck => m.phase = Phase::Idle,
                _ => {}
            }
        }
        Op::Ack { bps, step, protocol } => {
            let ms: Vec<BreakpointMatcher> = (0..3).filter(|i| bps & (1 << i) != 0).map(|i| matcher(bps.wrapping_add(i * 5))).collect();
            let mode = if *step { "step" } else { "run" };
            let payload = json!({"versions": {"protocol": protocol, "viewer": "p"}, "capabilities": [], "breakpoints": ms.iter().map(matcher_json).collect::<Vec<_>>(), "mode": mode});
            s.frame_received(vframe("hello.ack", &payload).as_bytes(), clk(*now));
            if m.phase == Phase::AwaitingAck {
                if *protocol == 1 {
                    m.phase = Phase::Attached;
                    m.breakpoints.clear();
                    for x in ms {
                        wirecontract::graphmind::add_breakpoint(&mut m.breakpoints, x);
                    }
                    m.mode = if *step { RunMode::Step } else { RunMode::Run };
                } else {
                    m.phase = Phase::Idle;
                }
            }
        }
        Op::Tick(dt) => {
            *now += dt;
            s.handle_timeout(clk(*now));
            if m.phase == Phase::Connecting && m.connect_deadline <= *now {
                m.phase = Phase::Idle;
            }
            if m.phase == Phase::AwaitingAck && m.handshake_deadline <= *now {
                m.phase = Phase::Idle;
            }
            m.held.retain(|h| h.1 > *now);
        }
        Op::Dispose => {
            s.dispose(clk(*now));
            m.phase = Phase::Disposed;
            m.held.clear();
        }
        _ => return false,
    }
    true
}

/// Controls, emits, gates, resumes, cancels and garbage.
fn gate_input(s: &mut AppSession, m: &mut Model, w: &mut Wire, op: &Op, now: u64) -> Result<(), TestCaseError> {
    let now = &now;
    match op {
        Op::SetMode(step) => {
            s.frame_received(vframe("mode.set", &json!({"mode": if *step { "step" } else { "run" }})).as_bytes(), clk(*now));
            if m.phase == Phase::Attached {
                m.mode = if *step { RunMode::Step } else { RunMode::Run };
            }
        }
        Op::SetBreakpoint(bits) | Op::ClearBreakpoint(bits) => {
            let x = matcher(*bits);
            let set = matches!(op, Op::SetBreakpoint(_));
            s.frame_received(vframe(if set { "breakpoint.set" } else { "breakpoint.clear" }, &json!({"matcher": matcher_json(&x)})).as_bytes(), clk(*now));
            if m.phase == Phase::Attached {
                if set {
                    wirecontract::graphmind::add_breakpoint(&mut m.breakpoints, x);
                } else {
                    wirecontract::graphmind::clear_breakpoint(&mut m.breakpoints, &x);
                }
            }
        }
        Op::Emit(i) => {
            let payload = json!({"nodeId": format!("n{}", i % 4), "kind": "tool", "name": "t", "instanceId": format!("i{i}"), "input": {"i": i}});
            let out = s.emit_json("node.started", &payload.to_string(), Some("r"), clk(*now)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(out.is_some(), m.phase != Phase::Disposed);
            m.start(*now);
        }
        Op::Gate { point, kind } => {
            let (point, kind) = (POINTS[usize::from(*point)], KINDS[usize::from(*kind)]);
            let node = GateNode::new("n", kind, "t");
            let outcome = s.gate(point, &node, Some("r"), clk(*now));
            m.start(*now);
            let expect = m.phase == Phase::Attached && should_pause(m.mode, &m.breakpoints, kind, "t", point);
            match outcome {
                GateOutcome::Held(id) => {
                    prop_assert!(expect, "held but the model continues");
                    w.holds.push(id.clone());
                    m.held.push((id, *now + PAUSE_TIMEOUT));
                }
                GateOutcome::Continue => prop_assert!(!expect, "continued but the model holds"),
            }
        }
        Op::Resume { idx, action } => {
            let id = m.held.get(*idx).map_or_else(|| "pause_gone".to_owned(), |h| h.0.clone());
            s.frame_received(vframe("exec.resume", &json!({"pauseId": id, "action": ACTIONS[usize::from(*action)]})).as_bytes(), clk(*now));
            if m.phase == Phase::Attached && *idx < m.held.len() {
                m.held.remove(*idx);
            }
        }
        Op::StaleResume => s.frame_received(vframe("exec.resume", &json!({"pauseId": "pause_x_0", "action": "continue"})).as_bytes(), clk(*now)),
        Op::Cancel(idx) => {
            let id = m.held.get(*idx).map(|h| h.0.clone());
            let cancelled = s.cancel(id.as_deref().unwrap_or("nope"), clk(*now));
            prop_assert_eq!(cancelled, id.is_some());
            if id.is_some() {
                m.held.remove(*idx);
            }
        }
        Op::Garbage(bytes) => s.frame_received(bytes, clk(*now)),
        _ => {}
    }
    Ok(())
}

/// Carries out the actions like a host and checks the state against the model.
fn observe(s: &mut AppSession, m: &mut Model, w: &mut Wire, before: u64, now: u64) -> Result<(), TestCaseError> {
    let now = &now;
    // A retry's Connect is the one transition the model learns from the core (the retry
    // schedule is covered by case c38).
    while let Some(a) = s.poll_action() {
        match a {
            Action::Connect { .. } => {
                w.connects += 1;
                w.conns.push(Vec::new());
                if m.phase == Phase::Idle && m.started {
                    m.phase = Phase::Connecting;
                    m.connect_deadline = *now;
                }
                prop_assert_eq!(m.phase, Phase::Connecting, "Connect only from idle");
                m.connect_deadline = *now + 300;
            }
            Action::Send(frame) => match w.conns.last_mut() {
                Some(conn) => conn.push(frame),
                None => prop_assert!(false, "Send without a connection"),
            },
            Action::Release { pause_id, .. } => *w.releases.entry(pause_id).or_default() += 1,
            _ => {}
        }
    }
    prop_assert!(s.next_seq() >= before);
    let phase_ok = match m.phase {
        Phase::Attached => s.is_attached(),
        _ => !s.is_attached(),
    };
    prop_assert!(phase_ok, "attachment differs from the model: {:?} vs {:?}", m.phase, s.state());
    let held: Vec<String> = m.held.iter().map(|h| h.0.clone()).collect();
    prop_assert_eq!(s.held_pause_ids(), held);
    prop_assert!(s.is_attached() || s.held_pause_ids().is_empty(), "a gate is held while detached");
    if m.phase == Phase::Attached {
        prop_assert_eq!(s.mode(), m.mode);
        prop_assert_eq!(s.breakpoints(), &m.breakpoints[..]);
    }
    Ok(())
}

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v["payload"][k].as_str().unwrap_or_default()
}

fn check_wire(s: &AppSession, w: &Wire) -> Result<(), TestCaseError> {
    // Byte identity per seq, live seqs strictly increasing, replays increasing below hello.
    let mut by_seq: BTreeMap<u64, String> = BTreeMap::new();
    let mut last_live: Option<u64> = None;
    for conn in &w.conns {
        let Some(hello) = conn.first() else { continue };
        let hello_seq = serde_json::from_str::<Value>(hello).map_err(|e| TestCaseError::fail(e.to_string()))?["seq"].as_u64().unwrap_or(0);
        let mut last_replay: Option<u64> = None;
        for f in conn {
            let v: Value = serde_json::from_str(f).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let seq = v["seq"].as_u64().unwrap_or(u64::MAX);
            if seq < hello_seq {
                prop_assert!(last_replay.is_none_or(|l| seq > l), "replay out of order");
                last_replay = Some(seq);
            } else {
                prop_assert!(last_live.is_none_or(|l| seq > l), "live seq {} after {:?}", seq, last_live);
                last_live = Some(seq);
            }
            if let Some(prev) = by_seq.insert(seq, f.clone()) {
                prop_assert_eq!(&prev, f, "seq {} sent with different bytes", seq);
            }
        }
    }
    // Every emitted frame: what was sent plus what is still buffered (the ring is big enough
    // here never to evict).
    for f in s.buffered_frames() {
        let v: Value = serde_json::from_str(f).map_err(|e| TestCaseError::fail(e.to_string()))?;
        by_seq.insert(v["seq"].as_u64().unwrap_or(u64::MAX), f.to_owned());
    }
    let mut paused: HashMap<String, usize> = HashMap::new();
    let mut resumed: HashMap<String, usize> = HashMap::new();
    for f in by_seq.values() {
        let v: Value = serde_json::from_str(f).map_err(|e| TestCaseError::fail(e.to_string()))?;
        match v["type"].as_str() {
            Some("exec.paused") => *paused.entry(field(&v, "pauseId").to_owned()).or_default() += 1,
            Some("exec.resumed") => {
                *resumed.entry(field(&v, "pauseId").to_owned()).or_default() += 1;
            }
            _ => {}
        }
    }
    for id in &w.holds {
        prop_assert_eq!(paused.get(id), Some(&1), "exec.paused of {}", id);
        prop_assert_eq!(resumed.get(id), Some(&1), "exactly one exec.resumed for {}", id);
        prop_assert_eq!(w.releases.get(id), Some(&1), "exactly one Release for {}", id);
    }
    prop_assert_eq!(paused.len(), w.holds.len());
    prop_assert_eq!(resumed.len(), w.holds.len());
    Ok(())
}

fn config(ring_max_frames: usize) -> SessionConfig {
    SessionConfig {
        ring_max_frames,
        pause_timeout_ms: Some(PAUSE_TIMEOUT),
        loop_guard: LoopGuardConfig { mode: LoopMode::Off, ..LoopGuardConfig::default() },
        ..SessionConfig::default()
    }
}

fn run(ops: &[Op], ring_max_frames: usize) -> Result<(Wire, AppSession), TestCaseError> {
    let mut s = AppSession::new(config(ring_max_frames));
    let mut m = Model { phase: Phase::Idle, started: false, breakpoints: vec![], mode: RunMode::Run, held: vec![], connect_deadline: 0, handshake_deadline: 0 };
    let mut w = Wire::default();
    let mut now = 1_000;
    for op in ops {
        apply(&mut s, &mut m, &mut w, op, &mut now)?;
    }
    apply(&mut s, &mut m, &mut w, &Op::Dispose, &mut now)?;
    Ok((w, s))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn session_follows_the_model_and_owes_every_resumed(ops in proptest::collection::vec(op(), 1..80)) {
        let (w, s) = run(&ops, 100_000)?;
        check_wire(&s, &w)?;
    }

    #[test]
    fn small_ring_keeps_seq_and_replay_identity(ops in proptest::collection::vec(op(), 1..80)) {
        // Evictions lose frames, so only the wire-order and byte-identity rules are checked.
        let (w, _) = run(&ops, 6)?;
        let mut by_seq: BTreeMap<u64, &String> = BTreeMap::new();
        for f in w.conns.iter().flatten() {
            let v: Value = serde_json::from_str(f).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Some(prev) = by_seq.insert(v["seq"].as_u64().unwrap_or(u64::MAX), f) {
                prop_assert_eq!(prev, f);
            }
        }
        for id in &w.holds {
            prop_assert_eq!(w.releases.get(id), Some(&1));
        }
    }
}
