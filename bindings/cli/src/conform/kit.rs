//! The conformance kit's viewer: a tokio host over the contract's [`ViewerSession`] (the
//! handshake, de-duplication, pause bookkeeping and resume routing are the session's), the
//! listener's socket tasks ([`crate::listen::net`]), a recording of every frame in both
//! directions, and the faults a test viewer needs: the session's own
//! ([`ViewerSession::faults`]: acks withheld, delayed or replaced, raw text, frames in any
//! state, closes with a chosen code) and binary frames, which are the socket's.

use std::collections::{BTreeMap, HashMap};
use std::process::{Child, ExitStatus};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::Instant;
use wirecontract::graphmind::session::{AckFault, ConnectionId, Millis, ViewerAction, ViewerConfig, ViewerSession};
use wirecontract::graphmind::{self, BreakpointMatcher, ParseOutcome, RawJson, ResumeAction, RunMode};

use crate::listen::net::{self, Event, Limits, Outbox, INBOUND_BUDGET_BYTES, INGEST_PATH};

/// Who sent a recorded frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// The app under test.
    App,
    /// The kit.
    Viewer,
}

/// One frame on the wire, as sent or received.
#[derive(Debug, Clone)]
pub struct Rec {
    /// Position in the recording, from 1 (reports cite it as `#n`).
    pub n: usize,
    /// Milliseconds since the scenario started.
    pub t: f64,
    /// Direction.
    pub dir: Dir,
    /// Connection number.
    pub conn: u64,
    /// The frame's text (a binary frame's bytes, lossily).
    pub text: String,
    /// A binary frame.
    pub binary: bool,
    /// The contract's verdict: `ok`, `unknown-type`, `version-mismatch` or `invalid`.
    pub verdict: &'static str,
    /// The frame as JSON, when it is JSON.
    pub json: Option<Value>,
}

impl Rec {
    /// `type`, when the frame names one.
    pub fn ty(&self) -> &str {
        self.json.as_ref().and_then(|j| j.get("type")).and_then(Value::as_str).unwrap_or("")
    }

    /// `seq`, when it is an unsigned integer.
    pub fn seq(&self) -> Option<u64> {
        self.json.as_ref().and_then(|j| j.get("seq")).and_then(Value::as_u64)
    }

    /// `runId`, when it is a string.
    pub fn run_id(&self) -> &str {
        self.json.as_ref().and_then(|j| j.get("runId")).and_then(Value::as_str).unwrap_or("")
    }

    /// `payload`, or `null`.
    pub fn payload(&self) -> &Value {
        self.json.as_ref().and_then(|j| j.get("payload")).unwrap_or(&Value::Null)
    }

    /// A payload member as a string.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.payload().get(name).and_then(Value::as_str)
    }

    /// How a report cites this frame: `#n [cK] type seq=S`.
    pub fn cite(&self) -> String {
        let who = if self.dir == Dir::App { "app" } else { "kit" };
        match self.seq() {
            Some(s) => format!("#{} [c{} {who}] {} seq={s}", self.n, self.conn, if self.ty().is_empty() { "?" } else { self.ty() }),
            None => format!("#{} [c{} {who}] {}", self.n, self.conn, if self.ty().is_empty() { "(not an envelope)" } else { self.ty() }),
        }
    }
}

/// One app connection's life.
#[derive(Debug, Clone, Default)]
pub struct ConnLife {
    /// When the WebSocket opened.
    pub opened: f64,
    /// When it closed, and how.
    pub closed: Option<(f64, String)>,
    /// Closed by the kit (a fault or its own close), not the app.
    pub closed_by_kit: bool,
}

/// A pause the session opened (a live, first-seen `exec.paused`).
#[derive(Debug, Clone)]
#[allow(clippy::struct_field_names)] // the wire's names
pub struct Pause {
    /// Pause id.
    pub pause_id: String,
    /// Node id.
    pub node_id: String,
    /// Gate point.
    pub point: String,
    /// Connection.
    pub conn: u64,
}

/// The kit's viewer for one scenario.
pub struct Kit {
    session: ViewerSession,
    epoch_ms: f64,
    start: Instant,
    listener: TcpListener,
    url: String,
    events: UnboundedReceiver<Event>,
    events_tx: UnboundedSender<Event>,
    tasks: JoinSet<()>,
    inbound: Arc<Semaphore>,
    outs: HashMap<ConnectionId, Outbox>,
    next_conn: u64,
    /// Every frame, both directions, in wire order.
    pub rec: Vec<Rec>,
    /// Every connection.
    pub conns: BTreeMap<u64, ConnLife>,
    /// Every pause opened, in order.
    pub pauses: Vec<Pause>,
    taken_pauses: usize,
    /// The resumes the kit sent through the session: pause id, action, when.
    pub resumes: Vec<(String, ResumeAction, f64)>,
    /// Session warnings (invalid frames and the like).
    pub warnings: Vec<String>,
    /// The app process, while it runs.
    pub child: Option<Child>,
    /// How it ended.
    pub exit: Option<ExitStatus>,
}

impl Kit {
    /// Listens on `addr` with a session configured as given.
    pub async fn bind(addr: &str, config: ViewerConfig) -> std::io::Result<Kit> {
        let listener = TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        let (events_tx, events) = unbounded_channel();
        let epoch_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        Ok(Kit {
            session: ViewerSession::new(config),
            epoch_ms,
            start: Instant::now(),
            listener,
            url: format!("ws://{local}{INGEST_PATH}"),
            events,
            events_tx,
            tasks: JoinSet::new(),
            inbound: Arc::new(Semaphore::new(INBOUND_BUDGET_BYTES)),
            outs: HashMap::new(),
            next_conn: 1,
            rec: Vec::new(),
            conns: BTreeMap::new(),
            pauses: Vec::new(),
            taken_pauses: 0,
            resumes: Vec::new(),
            warnings: Vec::new(),
            child: None,
            exit: None,
        })
    }

    /// `ws://HOST:PORT/ingest`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The wall-clock time (epoch milliseconds, as apps stamp `ts`) of `t`, milliseconds
    /// since the scenario started.
    pub fn epoch_at(&self, t: f64) -> f64 {
        self.epoch_ms + t
    }

    /// Milliseconds since the scenario started.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1000.0
    }

    fn now(&self) -> Millis {
        Millis::new((self.epoch_ms + self.elapsed()).clamp(0.0, Millis::MAX)).unwrap_or(Millis::from(0))
    }

    /// Handles events until `deadline`, or until `done` holds; returns whether it does.
    pub async fn wait(&mut self, timeout: Duration, done: impl Fn(&Kit) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if done(self) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            self.turn(deadline).await;
        }
    }

    /// Handles events for `d` whatever happens.
    pub async fn idle(&mut self, d: Duration) {
        self.wait(d, |_| false).await;
    }

    async fn turn(&mut self, deadline: Instant) {
        let session_at = self.session.poll_timeout().map(|at| {
            let ms = (at.get() - self.now().get()).max(0.0);
            Instant::now() + Duration::from_secs_f64(ms / 1000.0)
        });
        // The app process is polled every 20 ms: std's Child has no async wait.
        let tick = Instant::now() + Duration::from_millis(20);
        let wake = [Some(deadline), session_at, self.child.as_ref().map(|_| tick)].into_iter().flatten().min().unwrap_or(deadline);
        tokio::select! {
            accepted = self.listener.accept() => if let Ok((stream, peer)) = accepted {
                let conn = ConnectionId(self.next_conn);
                self.next_conn += 1;
                let limits = Limits { handshake: Duration::from_secs(10), idle: None, stall: Duration::from_secs(30) };
                self.tasks.spawn(net::serve(stream, peer, conn, self.events_tx.clone(), Arc::clone(&self.inbound), limits));
            },
            Some(_) = self.tasks.join_next(), if !self.tasks.is_empty() => {}
            Some(event) = self.events.recv() => self.on_event(event),
            () = tokio::time::sleep_until(wake) => {}
        }
        let now = Instant::now();
        if session_at.is_some_and(|at| at <= now) {
            self.session.handle_timeout(self.now());
            self.drain();
        }
        if let Some(child) = self.child.as_mut() {
            if let Ok(Some(status)) = child.try_wait() {
                self.exit = Some(status);
                self.child = None;
            }
        }
    }

    fn on_event(&mut self, event: Event) {
        let now = self.now();
        match event {
            Event::Opened { conn, out, .. } => {
                self.outs.insert(conn, out);
                self.conns.insert(conn.0, ConnLife { opened: self.elapsed(), ..ConnLife::default() });
                self.session.connection_opened(conn);
            }
            Event::Frame { conn, bytes, budget } => {
                let outcome = graphmind::parse(&bytes, &graphmind::ParseOptions::default());
                self.record(Dir::App, conn, String::from_utf8_lossy(&bytes).into_owned(), false, Some(&outcome));
                self.session.outcome_received(conn, &bytes, outcome, now);
                drop(budget);
            }
            Event::Closed { conn, detail } => {
                self.outs.remove(&conn);
                let t = self.elapsed();
                if let Some(life) = self.conns.get_mut(&conn.0) {
                    life.closed = Some((t, detail));
                }
                self.session.connection_closed(conn, now);
            }
            Event::Refused { .. } | Event::Line(_) => {}
        }
        self.drain();
    }

    fn record(&mut self, dir: Dir, conn: ConnectionId, text: String, binary: bool, outcome: Option<&ParseOutcome>) {
        let verdict = match outcome {
            Some(ParseOutcome::Ok(_)) => "ok",
            Some(ParseOutcome::UnknownType(_)) => "unknown-type",
            Some(ParseOutcome::VersionMismatch { .. }) => "version-mismatch",
            Some(ParseOutcome::Invalid { .. }) => "invalid",
            None => match graphmind::parse(&text, &graphmind::ParseOptions::default()) {
                ParseOutcome::Ok(_) => "ok",
                ParseOutcome::UnknownType(_) => "unknown-type",
                ParseOutcome::VersionMismatch { .. } => "version-mismatch",
                ParseOutcome::Invalid { .. } => "invalid",
            },
        };
        let json = serde_json::from_str(&text).ok();
        let n = self.rec.len() + 1;
        self.rec.push(Rec { n, t: self.elapsed(), dir, conn: conn.0, text, binary, verdict, json });
    }

    fn drain(&mut self) {
        while let Some(action) = self.session.poll_action() {
            match action {
                ViewerAction::Send { conn, frame } => self.send_text(conn, frame),
                ViewerAction::Close { conn, code, reason } => {
                    if let Some(out) = self.outs.get(&conn) {
                        out.close(code, reason);
                        if let Some(life) = self.conns.get_mut(&conn.0) {
                            life.closed_by_kit = true;
                        }
                    }
                }
                ViewerAction::PauseOpened { conn, pause_id, node_id, point, .. } => {
                    self.pauses.push(Pause { pause_id, node_id, point: point.to_string(), conn: conn.0 });
                }
                ViewerAction::Warn { conn, rule, text } => self.warnings.push(format!("[c{}] {rule}: {text}", conn.0)),
                _ => {}
            }
        }
    }

    fn send_text(&mut self, conn: ConnectionId, frame: String) {
        if let Some(out) = self.outs.get(&conn) {
            out.send_text(frame.clone());
            self.record(Dir::Viewer, conn, frame, false, None);
        }
    }

    /// The next pause not yet taken, waiting up to `timeout` for one.
    /// While the app process runs, the wait goes on past `timeout` (the scenario's budget
    /// bounds it): a JVM on a loaded machine can take tens of seconds to its first frame.
    pub async fn next_pause(&mut self, timeout: Duration) -> Option<Pause> {
        let taken = self.taken_pauses;
        loop {
            if self.wait(timeout, |k| k.pauses.len() > taken || k.exit.is_some()).await && self.pauses.len() > taken {
                self.taken_pauses += 1;
                return Some(self.pauses[taken].clone());
            }
            // The app exited (or connects on its own and has not come): no pause.
            self.child.as_ref()?;
        }
    }

    /// Answers a pause through the session (routing, resume wait); `false` when the session
    /// refuses (not open, owner gone).
    pub fn resume(&mut self, pause_id: &str, action: ResumeAction, output: Option<&Value>) -> bool {
        let output = output.and_then(|v| RawJson::from_json(&v.to_string()).ok());
        let now = self.now();
        let sent = self.session.resume(pause_id, action, output, None, now).is_ok();
        if sent {
            self.resumes.push((pause_id.to_owned(), action, self.elapsed()));
        }
        self.drain();
        sent
    }

    /// How many pauses were taken with [`Kit::next_pause`] or [`Kit::take_pause`].
    pub fn taken_pauses(&self) -> usize {
        self.taken_pauses
    }

    /// The next pause not yet taken, if one is there.
    pub fn take_pause(&mut self) -> Option<Pause> {
        let p = self.pauses.get(self.taken_pauses).cloned()?;
        self.taken_pauses += 1;
        Some(p)
    }

    /// Adds a breakpoint through the session (which broadcasts `breakpoint.set`).
    pub fn set_breakpoint(&mut self, m: BreakpointMatcher) {
        let now = self.now();
        self.session.set_breakpoint(m, now);
        self.drain();
    }

    /// Clears a breakpoint through the session (which broadcasts `breakpoint.clear`).
    pub fn clear_breakpoint(&mut self, m: &BreakpointMatcher) {
        let now = self.now();
        self.session.clear_breakpoint(m, now);
        self.drain();
    }

    /// Sets the mode through the session (which broadcasts `mode.set`).
    pub fn set_mode(&mut self, mode: RunMode) {
        let now = self.now();
        self.session.set_mode(mode, now);
        self.drain();
    }

    /// How many runs a `run.finished` arrived for (replays counted once).
    pub fn runs_finished(&self) -> usize {
        let runs: std::collections::BTreeSet<&str> = self.rec.iter().filter(|r| r.dir == Dir::App && r.ty() == "run.finished").map(Rec::run_id).collect();
        runs.len()
    }

    /// Whether connection `conn` is closed.
    pub fn closed(&self, conn: u64) -> bool {
        self.conns.get(&conn).is_some_and(|c| c.closed.is_some())
    }

    /// Connections that are open now.
    pub fn open_conns(&self) -> Vec<u64> {
        self.conns.iter().filter(|(_, c)| c.closed.is_none()).map(|(id, _)| *id).collect()
    }

    // ---- faults: frames and closes no well-behaved viewer sends ---------------------------

    /// Plans the session's faults for the next acks, one per hello in order.
    pub fn plan_acks(&mut self, plan: impl IntoIterator<Item = AckFault>) {
        for fault in plan {
            self.session.faults().ack(fault);
        }
    }

    /// Fault: a raw text frame, whatever it holds (nothing when `conn` is closed).
    pub fn send_raw(&mut self, conn: u64, text: &str) {
        let _ = self.session.faults().send_text(ConnectionId(conn), text);
        self.drain();
    }

    /// Fault: a binary frame.
    pub fn send_binary(&mut self, conn: u64, bytes: &[u8]) {
        if let Some(out) = self.outs.get(&ConnectionId(conn)) {
            out.send_binary(bytes.to_vec());
            self.record(Dir::Viewer, ConnectionId(conn), String::from_utf8_lossy(bytes).into_owned(), true, None);
        }
    }

    /// Fault: an envelope of any type in any state (no session check: a duplicate
    /// `breakpoint.set`, a resume for an unknown or settled pause), with envelope `gm`.
    pub fn send_envelope(&mut self, conn: u64, gm: i64, run_id: &str, ty: &str, payload: &Value) {
        let now = self.now();
        let _ = self.session.faults().send(ConnectionId(conn), gm, None, run_id, ty, &payload.to_string(), now);
        self.drain();
    }

    /// Fault: closes `conn` with `code` (the app sees a dropped viewer).
    pub fn close(&mut self, conn: u64, code: u16, reason: &str) {
        let _ = self.session.faults().close(ConnectionId(conn), code, reason);
        self.drain();
    }

    /// Closes every connection and waits briefly for the tasks.
    pub async fn finish(&mut self) {
        let open: Vec<u64> = self.open_conns();
        for conn in open {
            if let Some(out) = self.outs.get(&ConnectionId(conn)) {
                out.close(1000, "wirecontract conform: scenario over".to_owned());
            }
        }
        self.idle(Duration::from_millis(100)).await;
        self.outs.clear();
        let _ = tokio::time::timeout(Duration::from_secs(1), async { while self.tasks.join_next().await.is_some() {} }).await;
        self.tasks.abort_all();
    }
}
