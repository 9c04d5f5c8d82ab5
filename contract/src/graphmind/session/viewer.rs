//! The viewer side of a GraphMind session as a sans-IO core (graphmind-session §5):
//! per-connection handshake, `(runId, seq)` de-duplication that outlives connections,
//! pause bookkeeping, resume routing and breakpoint/mode broadcast.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use super::clock::Millis;
use super::deadlines::Deadlines;
use super::viewer_action::{ConnectionId, Received, ViewerAction, ViewerConfig};
use super::viewer_fault_state::FaultState;
use super::viewer_runs::RunTable;
use crate::graphmind::{
    add_breakpoint, hello_ack, negotiate_hello, parse, reusable_resume_token, serialize_envelope_unchecked, BreakpointMatcher, Envelope, Extras, Hello,
    HelloNegotiation, Message, ParseOptions, ParseOutcome, RunMode, PROTOCOL, WILDCARD_RUN_ID,
};
use crate::registry::Direction;

#[derive(Debug, Default)]
pub(super) struct Conn {
    /// Seq of this connection's latest `hello`; frames below it are replays (§5.3).
    pub(super) hello_seq: Option<u64>,
    /// The viewer's own seq counter for this connection, from 0 (§5.1).
    pub(super) next_seq: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PauseState {
    Open(ConnectionId),
    ReleasedByDisconnect,
}

#[derive(Debug)]
pub(super) struct Pause {
    pub(super) run_id: Arc<str>,
    pub(super) state: PauseState,
    /// Position in `ViewerSession::pause_order`.
    order: u64,
}

/// The viewer's session state across all app connections (graphmind-session §5).
#[derive(Debug)]
pub struct ViewerSession {
    pub(super) config: ViewerConfig,
    pub(super) breakpoints: Vec<BreakpointMatcher>,
    pub(super) mode: RunMode,
    pub(super) conns: HashMap<ConnectionId, Conn>,
    /// Per run: the `(runId, seq)` keys of stored frames, which outlive connections (§5.2),
    /// the owning connection and when it left (for the abandon grace, §5.5), and its pause
    /// ids; bounded (`viewer_runs`).
    pub(super) runs: RunTable,
    pub(super) pauses: HashMap<String, Pause>,
    /// Tracked pauses, oldest first, for `max_tracked_pauses`.
    pause_order: BTreeMap<u64, String>,
    next_pause: u64,
    /// Sent resumes waiting for an answer: pause id → deadline.
    pub(super) waiting: Deadlines<String>,
    pub(super) next_token: u64,
    pub(super) actions: VecDeque<ViewerAction>,
    /// Test faults ([`ViewerSession::faults`]): the ack plan and delayed acks.
    pub(super) fault_state: FaultState,
}

impl ViewerSession {
    /// A viewer armed with `config.breakpoints` and `config.mode`.
    pub fn new(config: ViewerConfig) -> Self {
        let mut breakpoints = Vec::new();
        for m in &config.breakpoints {
            add_breakpoint(&mut breakpoints, m.clone());
        }
        ViewerSession {
            mode: config.mode,
            runs: RunTable::new(&config),
            config,
            breakpoints,
            conns: HashMap::new(),
            pauses: HashMap::new(),
            pause_order: BTreeMap::new(),
            next_pause: 0,
            waiting: Deadlines::default(),
            next_token: 0,
            actions: VecDeque::new(),
            fault_state: FaultState::default(),
        }
    }

    /// The next action for the host, oldest first.
    pub fn poll_action(&mut self) -> Option<ViewerAction> {
        self.actions.pop_front()
    }

    /// The earliest deadline: resume waits, abandon graces (and acks a test fault delays).
    pub fn poll_timeout(&self) -> Option<Millis> {
        let grace = self.config.abandon_grace_ms;
        let abandon = self.runs.first_departure().map(|t| t.plus(grace));
        self.waiting.first().into_iter().chain(abandon).chain(self.fault_state.first_deadline()).min()
    }

    /// The current breakpoints (the full set every ack carries).
    pub fn breakpoints(&self) -> &[BreakpointMatcher] {
        &self.breakpoints
    }

    /// The current mode.
    pub fn mode(&self) -> RunMode {
        self.mode
    }

    /// Pause ids that are open (live, unanswered, owner connected), sorted.
    pub fn open_pauses(&self) -> Vec<String> {
        let mut v: Vec<String> = self.pauses.iter().filter(|(_, p)| matches!(p.state, PauseState::Open(_))).map(|(id, _)| id.clone()).collect();
        v.sort();
        v
    }

    /// A new app connection (also implied by its first frame).
    pub fn connection_opened(&mut self, conn: ConnectionId) {
        self.conns.entry(conn).or_default();
    }

    /// `conn` closed: each of its open pauses is released by fail-open
    /// ([`ViewerAction::PauseReleased`]) and its runs start the abandon grace (§5.4, §5.5).
    pub fn connection_closed(&mut self, conn: ConnectionId, now: Millis) {
        self.conns.remove(&conn);
        self.fault_state.forget(conn);
        let mut released: Vec<&String> = self.pauses.iter().filter(|(_, p)| p.state == PauseState::Open(conn)).map(|(id, _)| id).collect();
        released.sort();
        let released: Vec<String> = released.into_iter().cloned().collect();
        for pause_id in released {
            if let Some(p) = self.pauses.get_mut(&pause_id) {
                p.state = PauseState::ReleasedByDisconnect;
            }
            self.waiting.remove(&pause_id);
            self.actions.push_back(ViewerAction::PauseReleased { conn, pause_id });
        }
        self.runs.owner_left(conn, now);
    }

    /// Whether the session still holds state for `run_id` (its de-duplication keys, owner
    /// and pauses). A host that keeps per-run state of its own drops a run the session no
    /// longer retains, so its memory follows the same bounds.
    pub fn retains_run(&self, run_id: &str) -> bool {
        self.runs.contains(run_id)
    }

    /// How many runs the session retains (at most `max_retained_runs`).
    pub fn retained_runs(&self) -> usize {
        self.runs.len()
    }

    /// The approximate bytes of retained run state (kept near `max_retained_bytes`).
    pub fn retained_bytes(&self) -> usize {
        self.runs.bytes()
    }

    /// One text frame from `conn`. Never panics: bad frames become
    /// [`ViewerAction::Warn`], `gm ≠ 1` and a `hello` offering another protocol version close
    /// the connection with 1002 (§5.5).
    pub fn frame_received(&mut self, conn: ConnectionId, bytes: &[u8], now: Millis) {
        self.outcome_received(conn, bytes, parse(bytes, &ParseOptions::default()), now);
    }

    /// [`frame_received`](Self::frame_received) for a frame (`bytes`) the host has already
    /// parsed into `outcome` (with [`parse`](crate::graphmind::parse()) and any options), so a host that
    /// logs or records each frame's verdict parses it once. `bytes` are read again only for an
    /// `exec.resumed` that failed validation, to close its pause.
    /// Returns what the session did with it: hosts that show every frame need to know a
    /// duplicate from a first sighting, which the queued actions alone do not say (a
    /// duplicate queues nothing).
    pub fn outcome_received(&mut self, conn: ConnectionId, bytes: &[u8], outcome: ParseOutcome, now: Millis) -> Received {
        self.conns.entry(conn).or_default();
        let env = match outcome {
            ParseOutcome::Ok(env) | ParseOutcome::UnknownType(env) => env,
            ParseOutcome::VersionMismatch { received, .. } => {
                self.warn(conn, "version-mismatch", format!("app frame has gm {received}; closing"));
                self.actions.push_back(ViewerAction::Close { conn, code: 1002, reason: "protocol version mismatch".to_owned() });
                return Received::Rejected;
            }
            ParseOutcome::Invalid { reason, message_type, .. } => {
                if message_type.as_deref() == Some("exec.resumed") {
                    if let Some(pause_id) = salvage_pause_id(bytes).filter(|id| self.pauses.contains_key(id)) {
                        self.close_on_invalid_answer(conn, &pause_id, &reason);
                        return Received::Rejected;
                    }
                }
                self.warn(conn, "invalid-frame", reason);
                return Received::Rejected;
            }
        };
        if let Message::Hello(hello) = &env.message {
            // The parser takes any `versions.protocol`; the viewer answers only its own, as
            // `negotiate_hello` rules, and closes instead of acking another (docs/session.md, 8).
            if let HelloNegotiation::Refused(reason) = negotiate_hello(hello, &[]) {
                self.warn(conn, "version-mismatch", format!("{reason}; closing"));
                self.actions.push_back(ViewerAction::Close { conn, code: 1002, reason: "protocol version mismatch".to_owned() });
                return Received::Rejected;
            }
            self.answer_hello(conn, env.seq, hello.clone(), now);
            return Received::Hello;
        }
        // The viewer's own messages (controls, `hello.ack`), by the registry's direction.
        if PROTOCOL.message(env.message_type()).is_some_and(|m| m.direction == Direction::ServerToClient) {
            self.warn(conn, "unexpected-type", format!("{} is not sent by apps; ignored", env.message_type()));
            return Received::Rejected;
        }
        if env.run_id == WILDCARD_RUN_ID {
            return Received::Wildcard; // §5.2: "*" frames are neither stored nor de-duplicated.
        }
        let Some(hello_seq) = self.conns.get(&conn).and_then(|c| c.hello_seq) else {
            self.warn(conn, "before-hello", format!("{} before hello; ignored", env.message_type()));
            return Received::Rejected;
        };
        let recorded = self.runs.record(&env.run_id, env.seq, conn);
        for (_, run) in recorded.evicted {
            for pause_id in run.pauses {
                self.forget_pause(&pause_id);
            }
        }
        let replayed = env.seq < hello_seq;
        if !recorded.first_seen {
            return Received::Duplicate { replayed }; // §5.2: a replay of a stored frame.
        }
        self.track_pause(conn, &env, &recorded.run_id, replayed);
        self.actions.push_back(ViewerAction::FrameAccepted { conn, envelope: Box::new(env), replayed });
        Received::Accepted { replayed }
    }

    /// §5.4 bookkeeping for a first-seen frame.
    fn track_pause(&mut self, conn: ConnectionId, env: &Envelope, run_id: &Arc<str>, replayed: bool) {
        match &env.message {
            // A replayed exec.paused refers to a gate already released at detach: never
            // resumable, so it is not recorded.
            Message::ExecPaused(p) if !replayed => {
                self.forget_pause(&p.pause_id); // a reused pause id: the newest wins
                self.next_pause += 1;
                let order = self.next_pause;
                self.pauses.insert(p.pause_id.clone(), Pause { run_id: Arc::clone(run_id), state: PauseState::Open(conn), order });
                self.pause_order.insert(order, p.pause_id.clone());
                self.runs.add_pause(run_id, &p.pause_id);
                while self.pauses.len() > self.config.max_tracked_pauses.max(1) {
                    let Some((_, oldest)) = self.pause_order.first_key_value() else { break };
                    let oldest = oldest.clone();
                    self.forget_pause(&oldest);
                }
                let (run_id, pause_id, node_id, point) = (env.run_id.clone(), p.pause_id.clone(), p.node_id.clone(), p.point);
                self.actions.push_back(ViewerAction::PauseOpened { conn, run_id, pause_id, node_id, point });
            }
            Message::ExecResumed(r) => {
                self.waiting.remove(&r.pause_id);
                if self.forget_pause(&r.pause_id) {
                    self.actions.push_back(ViewerAction::PauseClosed { pause_id: r.pause_id.clone(), action: r.action });
                }
            }
            Message::ExecRefused(r) => {
                self.waiting.remove(&r.pause_id);
                let (pause_id, code, request_id) = (r.pause_id.clone(), r.code, r.request_id.clone());
                self.actions.push_back(ViewerAction::ResumeRefused { pause_id, code, request_id });
            }
            _ => {}
        }
    }

    /// Stops tracking a pause (settled, evicted with its run, or past `max_tracked_pauses`);
    /// returns whether it was tracked.
    fn forget_pause(&mut self, pause_id: &str) -> bool {
        let Some(pause) = self.pauses.remove(pause_id) else { return false };
        self.pause_order.remove(&pause.order);
        self.waiting.remove(pause_id);
        self.runs.remove_pause(&pause.run_id, pause_id);
        true
    }

    /// §5.4: an `exec.resumed` that failed validation (the PY client echoes an out-of-enum
    /// action, §4 D7) still says the app released `pause_id`: the pause is closed (no
    /// fail-open release at disconnect, no resume wait, no further resume), and the frame is
    /// reported as [`ViewerAction::Warn`] `"invalid-resumed"` naming the pause.
    fn close_on_invalid_answer(&mut self, conn: ConnectionId, pause_id: &str, reason: &str) {
        self.forget_pause(pause_id);
        self.warn(conn, "invalid-resumed", format!("exec.resumed for {pause_id} is invalid ({reason}); the pause is closed"));
    }

    /// §5.1: one `hello.ack` per `hello`, seq from this connection's own counter, the full
    /// current breakpoints and mode, the app's capabilities echoed, and a session token:
    /// the hello's `resumeToken` when non-empty and short enough, else a new one.
    fn answer_hello(&mut self, conn: ConnectionId, seq: u64, hello: Hello, now: Millis) {
        let token = if let Some(t) = reusable_resume_token(&hello, self.config.max_resume_token_len) {
            t.to_owned()
        } else {
            self.next_token += 1;
            format!("{}{}", self.config.token_prefix, self.next_token)
        };
        let ack = hello_ack(&hello, &self.config.viewer_version, &self.breakpoints, self.mode, Some(&token), self.config.hub_capabilities.as_deref());
        if let Some(c) = self.conns.get_mut(&conn) {
            c.hello_seq = Some(seq);
        }
        if let Some(frame) = self.frame(conn, WILDCARD_RUN_ID, ack.into(), now) {
            // A test fault may withhold, delay or replace it (`viewer_faults`).
            if let Some(frame) = self.fault_ack(conn, frame, now) {
                self.actions.push_back(ViewerAction::Send { conn, frame });
            }
        }
        self.actions.push_back(ViewerAction::AppAttached { conn, session_token: token, hello: Box::new(hello) });
    }

    pub(super) fn send(&mut self, conn: ConnectionId, run_id: &str, message: Message, now: Millis) {
        if let Some(frame) = self.frame(conn, run_id, message, now) {
            self.actions.push_back(ViewerAction::Send { conn, frame });
        }
    }

    /// The frame text of `message` for `conn`, taking the connection's next viewer seq;
    /// `None` when `conn` is not open.
    fn frame(&mut self, conn: ConnectionId, run_id: &str, message: Message, now: Millis) -> Option<String> {
        let c = self.conns.get_mut(&conn)?;
        let seq = c.next_seq;
        c.next_seq += 1;
        let env = Envelope { seq, ts: now.whole(), run_id: run_id.to_owned(), message, extra: Extras::new() };
        Some(serialize_envelope_unchecked(&env))
    }

    fn warn(&mut self, conn: ConnectionId, rule: &'static str, text: impl Into<String>) {
        self.actions.push_back(ViewerAction::Warn { conn, rule, text: text.into() });
    }
}

/// `payload.pauseId` of a frame that passed the envelope checks but whose payload did not,
/// when it is a string.
fn salvage_pause_id(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Frame {
        payload: Payload,
    }
    #[derive(serde::Deserialize)]
    struct Payload {
        #[serde(rename = "pauseId")]
        pause_id: String,
    }
    serde_json::from_slice::<Frame>(bytes).ok().map(|f| f.payload.pause_id)
}
