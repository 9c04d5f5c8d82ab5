//! `wirecontract listen`: a headless GraphMind viewer for testing an adapter.
//!
//! The host loop owns the sockets, the clock and the terminal; every protocol decision
//! (answering `hello`, de-duplicating replays by `(runId, seq)`, which pauses are open,
//! where an `exec.resume` goes, fail-open on disconnect) is the contract's sans-IO
//! [`ViewerSession`]. Data flow, one task per app connection ([`net`]) and one loop here:
//!
//! ```text
//! socket ─► net::serve ─Event::Frame─► parse once ─► print + record ─► ViewerSession
//!                                                                        │ actions
//! socket ◄─ net::serve ◄─Out::Text── print + record ◄─ Send ◄────────────┤
//!                          tree (tree::Runs) ◄─ FrameAccepted ◄──────────┤
//!            --on-pause / terminal answer ─► ViewerSession::resume ◄─ PauseOpened
//! ```

mod faults;
mod log;
pub(crate) mod net;
mod show;
mod spec;
mod tree;

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tokio::net::TcpListener;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::Instant;
use wirecontract::graphmind::session::{AckFault, ConnectionId, Millis, Received, ViewerAction, ViewerConfig, ViewerSession};
use wirecontract::graphmind::{self, BreakpointMatcher, PausePoint, RawJson, ResumeAction, RunMode};

use self::faults::PauseFault;
use self::log::{field, Log, Peer};
use self::net::{secs, Event, Limits, Outbox, INBOUND_BUDGET_BYTES, INGEST_PATH};
use self::show::{matcher_text, Dir, FrameInfo, Recorder};
use self::spec::{BreakSpec, Policy};
use super::Failure;

/// The text after `wirecontract listen --help`'s options. The node kinds and pause points come
/// from the contract's enums, so a value added there is listed here too.
fn help_text() -> String {
    format!(
        "Breakpoints (--break): KIND[:NAME][@POINT]. KIND is a node kind ({}) or `*`/empty for any kind; NAME is everything after the first \
         `:`; POINT ({}; default before) follows the last `@`. {}",
        graphmind::NodeKind::VALUES.join(", "),
        PausePoint::VALUES.join(", "),
        concat!(
            "Examples: `tool`, `tool:get_weather`, `llm:step@after`, `*:compose`, `@error`. An empty NAME (`tool:`) matches only nodes named \"\" ",
            "(names may be empty on the wire). Without --break the listener arms `@error` ",
            "(the reference hub's default); `--break none` arms nothing.\n\n",
            "Pauses: --on-pause continue|abort|inject=JSON|hold answers every exec.paused (hold: never answer, so the app's pause timeout or ",
            "fail-open releases it). Without --on-pause the listener asks on the terminal when standard input is one ",
            "(c = continue, r = retry, a = abort, i JSON = inject), and continues otherwise.\n\n",
            "Output: the first line is `listening on ws://HOST:PORT/ingest`; then one line per frame, `[cN] <-|-> VERDICT TYPE run=… seq=… node=…` ",
            "(`<-` from the app), lines starting with `==` for session events, and each run's tree when its run.finished arrives.\n\n",
            "Record (--record FILE): one JSON object per frame, in wire order: {\"dir\": \"app->viewer\"|\"viewer->app\", \"frame\": TEXT, ",
            "\"expect\": ok|unknown-type|version-mismatch|invalid, \"type\"?: TYPE, \"conn\": N, \"replayed\"?: true, \"duplicate\"?: true}. ",
            "`replayed`: the frame's seq is below its connection's hello seq (the app buffered it while detached); `duplicate`: its ",
            "(runId, seq) was already received, so it was ignored.\n\n",
            "Peer text (run ids, names, tokens, close reasons) is printed with control characters escaped (\\n, \\u{1b}, …) and cut to 200 characters.\n\n",
            "Limits (docs/robustness.md, \"Resource limits\"): frames over 16 MiB are closed with 1009; an app that does not read what the listener ",
            "sends is dropped with 1013 once --max-queued-mib is queued for it or one write stalls for --slow-reader-timeout; past --max-connections ",
            "a new connection gets HTTP 503; a silent connection is closed with 1008 after --idle-timeout; accept errors (out of file descriptors) ",
            "back off from 10 ms to 1 s; per-run state is kept for the --max-runs most recently active runs within --max-run-state-mib; log lines past --log-rate are counted, not printed.\n\n",
            "Test only (docs/session.md, \"Testing an adapter with wirecontract listen\"): --fault-ack and --fault-at-pause make the listener misbehave ",
            "on purpose, to check that an adapter survives it; no viewer in use needs them.\n\n",
            "Exit codes: 0 after --exit-after-runs runs or Ctrl-C, 1 on I/O errors (address in use, record file), 2 on usage errors."
        )
    )
}

/// Arguments of `wirecontract listen`.
#[derive(Debug, Args)]
#[command(after_help = help_text())]
pub struct ListenArgs {
    /// Address to listen on; port 0 picks a free port (the first output line names it).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:4747", value_parser = spec::parse_address)]
    listen: String,
    /// Arm a breakpoint, KIND[:NAME][@POINT] (repeatable; see below).
    #[arg(long = "break", value_name = "SPEC", value_parser = spec::parse_break)]
    breaks: Vec<BreakSpec>,
    /// Step mode: apps pause at every node's before and error gates.
    #[arg(long)]
    step: bool,
    /// Answer every pause: continue, abort, inject=JSON or hold.
    #[arg(long, value_name = "POLICY", value_parser = spec::parse_policy)]
    on_pause: Option<Policy>,
    /// Record every frame, both directions, to this NDJSON file (truncated first).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Exit after this many runs have finished (their run.finished received).
    #[arg(long, value_name = "N")]
    exit_after_runs: Option<u64>,
    /// Most connections open at once (handshaking or attached); more get HTTP 503.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// Drop an app with close 1013 once this many MiB wait to be sent to it (a slow reader).
    #[arg(long, value_name = "MIB", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_queued_mib: u32,
    /// Drop an app with close 1013 when one write to it stalls this long (a slow reader).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = spec::parse_seconds)]
    slow_reader_timeout: Duration,
    /// Close a connection that sent nothing (no frame, ping or pong) this long, with 1008; 0: never.
    #[arg(long, value_name = "SECONDS", default_value = "600", value_parser = spec::parse_seconds_or_zero)]
    idle_timeout: Duration,
    /// Drop a client that has not finished the WebSocket handshake after this long.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = spec::parse_seconds)]
    handshake_timeout: Duration,
    /// Keep de-duplication keys, owner and pauses for at most this many runs (least recently active forgotten first).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    max_runs: u32,
    /// Keep about this many MiB of per-run state (run ids, seqs, pause ids) before forgetting runs.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_run_state_mib: u32,
    /// Print at most this many lines a second (bursts up to as many); the rest are counted. 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    log_rate: u32,
    /// Test only: the next hello.ack is sent as is (send), never (withhold), MS late (delay=MS) or replaced by TEXT (replace=TEXT); repeatable, one per hello in order.
    #[arg(long = "fault-ack", value_name = "FAULT", value_parser = faults::parse_ack_fault)]
    fault_acks: Vec<AckFault>,
    /// Test only: at the first pause, before the --on-pause answer, send on its connection: text=TEXT (a raw text frame), binary=TEXT (its bytes as a binary frame), break=SPEC (an unchecked breakpoint.set), resume=ACTION (an unchecked exec.resume for the pause), resume-unknown (one for a pause nobody opened), close=CODE; repeatable, in order.
    #[arg(long = "fault-at-pause", value_name = "FAULT", value_parser = faults::parse_pause_fault)]
    fault_at_pause: Vec<PauseFault>,
}

/// How long connections get to close after the listener decides to stop.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// The first and the longest wait after a failed `accept` (out of file descriptors, say).
const ACCEPT_BACKOFF_MIN: Duration = Duration::from_millis(10);
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// What a connection past `--max-connections` gets before it is closed.
const BUSY_RESPONSE: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/// Runs the listener until `--exit-after-runs` is reached or Ctrl-C.
pub fn run(args: &ListenArgs) -> Result<(), Failure> {
    let breakpoints = armed_breakpoints(&args.breaks)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| Failure::Io(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(listen(args, breakpoints))
}

/// The matchers to arm: the `--break` flags, `@error` without any, nothing for `none`.
fn armed_breakpoints(specs: &[BreakSpec]) -> Result<Vec<BreakpointMatcher>, Failure> {
    if specs.is_empty() {
        return Ok(vec![BreakpointMatcher::new(None, None, Some(PausePoint::Error))]);
    }
    if specs.contains(&BreakSpec::None) {
        return if specs.len() == 1 { Ok(vec![]) } else { Err(Failure::Usage("--break none cannot be combined with other --break flags".into())) };
    }
    Ok(specs.iter().filter_map(|s| if let BreakSpec::Matcher(m) = s { Some(m.clone()) } else { None }).collect())
}

async fn listen(args: &ListenArgs, breakpoints: Vec<BreakpointMatcher>) -> Result<(), Failure> {
    let listener = TcpListener::bind(&args.listen).await.map_err(|e| Failure::Io(format!("cannot listen on {}: {e}", args.listen)))?;
    let addr = listener.local_addr().map_err(|e| Failure::Io(format!("cannot listen on {}: {e}", args.listen)))?;
    let record = Recorder::create(args.record.as_deref()).map_err(|e| Failure::Io(format!("cannot create the record file: {e}")))?;
    let (events_tx, events) = unbounded_channel();
    let ask = args.on_pause.is_none() && io::stdin().is_terminal();
    if ask {
        spawn_stdin_reader(events_tx.clone());
    }
    let policy = match (&args.on_pause, ask) {
        (Some(p), _) => Some(p.clone()),
        (None, true) => None,
        (None, false) => Some(Policy::Resume(ResumeAction::Continue, None)),
    };
    let config = ViewerConfig {
        viewer_version: concat!("wirecontract-listen/", env!("CARGO_PKG_VERSION")).to_owned(),
        breakpoints,
        mode: if args.step { RunMode::Step } else { RunMode::Run },
        token_prefix: token_prefix(),
        max_retained_runs: usize::try_from(args.max_runs).unwrap_or(usize::MAX),
        max_retained_bytes: usize::try_from(args.max_run_state_mib).unwrap_or(usize::MAX).saturating_mul(1 << 20),
        ..ViewerConfig::default()
    };
    let mut session = ViewerSession::new(config);
    for fault in &args.fault_acks {
        session.faults().ack(fault.clone());
    }
    let mut host = Host::new(session, record, policy, args);
    host.log.always(&format!("listening on ws://{addr}{INGEST_PATH}"));
    host.log.always(&format!(
        "== armed: breakpoints [{}], mode {}, on pause: {}",
        host.session.breakpoints().iter().map(matcher_text).collect::<Vec<_>>().join(", "),
        host.session.mode(),
        host.policy.as_ref().map_or_else(|| "ask on the terminal".to_owned(), policy_text),
    ));
    host.log.always(&format!(
        "== limits: {} connections, {} MiB queued or a {} s stalled write per app, idle {}, handshake {} s, {} runs in {} MiB, {} log lines/s",
        args.max_connections,
        args.max_queued_mib,
        secs(args.slow_reader_timeout),
        if args.idle_timeout.is_zero() { "never".to_owned() } else { format!("{} s", secs(args.idle_timeout)) },
        secs(args.handshake_timeout),
        args.max_runs,
        args.max_run_state_mib,
        if args.log_rate == 0 { "unlimited".to_owned() } else { args.log_rate.to_string() },
    ));
    let result = host.serve(&listener, events, &events_tx).await;
    host.finish().await;
    result
}

/// The terminal's answers arrive as events from a plain thread: stdin has no portable
/// non-blocking read, and the thread ends with the process.
fn spawn_stdin_reader(events: UnboundedSender<Event>) {
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if events.send(Event::Line(Some(line))).is_err() {
                return;
            }
        }
        let _ = events.send(Event::Line(None));
    });
}

/// The session core has no randomness (its docs ask hosts for a random prefix); process id
/// and clock make minted tokens differ between listener runs.
fn token_prefix() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    format!("tok_{:x}{nanos:08x}_", std::process::id())
}

fn policy_text(p: &Policy) -> String {
    match p {
        Policy::Hold => "hold".to_owned(),
        Policy::Resume(action, Some(output)) => format!("{action} {}", log::one_line(&output.to_string(), 200)),
        Policy::Resume(action, None) => action.to_string(),
    }
}

/// Epoch milliseconds read from a monotonic clock, fractions kept: the session core's clock
/// input (it never steps back, so resume waits and abandon graces survive wall-clock
/// adjustments; its whole part is the `ts` of the frames the listener sends).
struct Clock {
    epoch_ms: f64,
    start: std::time::Instant,
}

impl Clock {
    fn new() -> Self {
        let epoch_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        Clock { epoch_ms, start: std::time::Instant::now() }
    }

    fn now(&self) -> Millis {
        let ms = self.epoch_ms + self.start.elapsed().as_secs_f64() * 1000.0;
        // A system clock outside [0, 2^53 - 1] ms is not a time the core can stamp; clamp it.
        Millis::new(ms.clamp(0.0, Millis::MAX)).unwrap_or(Millis::from(0))
    }
}

/// The listener's I/O state around the session.
struct Host {
    session: ViewerSession,
    clock: Clock,
    /// Writers of open connections.
    conns: HashMap<ConnectionId, Outbox>,
    next_conn: u64,
    /// One task per connection, handshaking or open (at most `max_connections`).
    tasks: JoinSet<()>,
    max_connections: usize,
    max_queued_bytes: usize,
    limits: Limits,
    /// Received frames not yet handled, in bytes ([`INBOUND_BUDGET_BYTES`]).
    inbound: Arc<Semaphore>,
    /// After a failed accept: the current wait, and until when accepting pauses.
    accept_backoff: Duration,
    accept_paused_until: Option<Instant>,
    log: Log,
    record: Recorder,
    runs: tree::Runs,
    /// `None`: ask on the terminal.
    policy: Option<Policy>,
    /// Pauses waiting for a terminal answer, oldest first (the prompt names the first).
    asking: VecDeque<(String, String)>,
    exit_after_runs: Option<u64>,
    finished_runs: u64,
    stored: u64,
    duplicates: u64,
    /// A write to the record file failed: the listener stops with exit 1.
    record_error: Option<String>,
    /// `--fault-at-pause`, played at the first pause.
    pause_faults: Vec<PauseFault>,
}

impl Host {
    fn new(session: ViewerSession, record: Recorder, policy: Option<Policy>, args: &ListenArgs) -> Self {
        Host {
            session,
            clock: Clock::new(),
            conns: HashMap::new(),
            next_conn: 1,
            tasks: JoinSet::new(),
            max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
            max_queued_bytes: usize::try_from(args.max_queued_mib).unwrap_or(usize::MAX).saturating_mul(1 << 20),
            limits: Limits {
                handshake: args.handshake_timeout,
                idle: (!args.idle_timeout.is_zero()).then_some(args.idle_timeout),
                stall: args.slow_reader_timeout,
            },
            inbound: Arc::new(Semaphore::new(INBOUND_BUDGET_BYTES)),
            accept_backoff: Duration::ZERO,
            accept_paused_until: None,
            log: Log::new(args.log_rate),
            record,
            runs: tree::Runs::default(),
            policy,
            asking: VecDeque::new(),
            exit_after_runs: args.exit_after_runs,
            finished_runs: 0,
            stored: 0,
            duplicates: 0,
            record_error: None,
            pause_faults: args.fault_at_pause.clone(),
        }
    }

    /// One line on standard output, within `--log-rate`. Peer text in it must already be
    /// escaped ([`Peer`], [`field`]).
    fn say(&mut self, line: impl AsRef<str>) {
        self.log.line(line.as_ref());
    }

    fn done(&self) -> bool {
        self.record_error.is_some() || self.exit_after_runs.is_some_and(|n| self.finished_runs >= n)
    }

    /// The select loop: accept, frames and closes from connections, terminal answers, the
    /// session's timers, Ctrl-C.
    async fn serve(&mut self, listener: &TcpListener, mut events: UnboundedReceiver<Event>, events_tx: &UnboundedSender<Event>) -> Result<(), Failure> {
        let ctrl_c = tokio::signal::ctrl_c();
        tokio::pin!(ctrl_c);
        while !self.done() {
            let sleep = self.session.poll_timeout().map(|at| Duration::try_from_secs_f64(at.since(self.clock.now()) / 1000.0).unwrap_or(Duration::MAX));
            let paused_until = self.accept_paused_until;
            tokio::select! {
                accepted = listener.accept(), if paused_until.is_none() => match accepted {
                    Ok((stream, peer)) => {
                        self.accept_backoff = Duration::ZERO;
                        self.accepted(stream, peer, events_tx);
                    }
                    Err(e) => self.accept_failed(&e),
                },
                () = tokio::time::sleep_until(paused_until.unwrap_or_else(Instant::now)), if paused_until.is_some() => self.accept_paused_until = None,
                Some(_) = self.tasks.join_next(), if !self.tasks.is_empty() => {}
                Some(event) = events.recv() => self.on_event(event),
                () = tokio::time::sleep(sleep.unwrap_or_default()), if sleep.is_some() => {
                    self.session.handle_timeout(self.clock.now());
                    self.drain();
                }
                _ = &mut ctrl_c => {
                    self.say("== interrupted");
                    break;
                }
            }
        }
        match self.record_error.take() {
            Some(e) => Err(Failure::Io(format!("cannot write the record file: {e}"))),
            None => Ok(()),
        }
    }

    /// A new TCP connection: served, or refused with HTTP 503 past `--max-connections`.
    fn accepted(&mut self, stream: tokio::net::TcpStream, peer: std::net::SocketAddr, events_tx: &UnboundedSender<Event>) {
        if self.tasks.len() >= self.max_connections {
            // Non-blocking and best effort: a refused peer gets no task and no wait.
            let _ = stream.try_write(BUSY_RESPONSE);
            self.say(format!("== refused {peer}: {} connections open (--max-connections), answered 503", self.tasks.len()));
            return;
        }
        let conn = ConnectionId(self.next_conn);
        self.next_conn += 1;
        self.tasks.spawn(net::serve(stream, peer, conn, events_tx.clone(), Arc::clone(&self.inbound), self.limits));
    }

    /// `accept` failed: out of file descriptors or memory, or a connection that died in the
    /// backlog. Accepting pauses, 10 ms after the first failure, doubling up to 1 s, so the
    /// loop never spins; the next success resets it.
    fn accept_failed(&mut self, e: &io::Error) {
        use io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted, WouldBlock};
        if matches!(e.kind(), ConnectionAborted | ConnectionReset | Interrupted | WouldBlock) {
            return self.say(format!("== accept failed: {e}"));
        }
        self.accept_backoff = (self.accept_backoff * 2).clamp(ACCEPT_BACKOFF_MIN, ACCEPT_BACKOFF_MAX);
        self.accept_paused_until = Some(Instant::now() + self.accept_backoff);
        self.say(format!("== accept failed: {e}; accepting again in {} ms", self.accept_backoff.as_millis()));
    }

    fn on_event(&mut self, event: Event) {
        let now = self.clock.now();
        match event {
            Event::Opened { conn, peer, out } => {
                self.conns.insert(conn, out);
                self.say(format!("== [c{}] connected from {peer}", conn.0));
                self.session.connection_opened(conn);
            }
            Event::Frame { conn, bytes, budget } => {
                let outcome = graphmind::parse(&bytes, &graphmind::ParseOptions::default());
                let info = FrameInfo::of(&outcome);
                let received = self.session.outcome_received(conn, &bytes, outcome, now);
                match received {
                    Received::Accepted { .. } => self.stored += 1,
                    Received::Duplicate { .. } => self.duplicates += 1,
                    _ => {}
                }
                self.say(info.line(conn.0, Dir::AppToViewer, Some(received)));
                let text = String::from_utf8_lossy(&bytes);
                self.write_record(conn, Dir::AppToViewer, &text, &info, Some(received));
                drop(budget);
            }
            Event::Closed { conn, detail } => {
                self.conns.remove(&conn);
                self.say(format!("== [c{}] {}", conn.0, field(&detail)));
                self.session.connection_closed(conn, now);
            }
            Event::Refused { peer, detail } => self.say(format!("== refused {peer}: {}", field(&detail))),
            Event::Line(line) => self.on_answer(line),
        }
        self.drain();
    }

    fn write_record(&mut self, conn: ConnectionId, dir: Dir, frame: &str, info: &FrameInfo, received: Option<Received>) {
        if let Err(e) = self.record.write(conn.0, dir, frame, info, received) {
            self.record_error.get_or_insert_with(|| e.to_string());
        }
    }

    /// Carries out every queued session action (answering a pause queues more).
    fn drain(&mut self) {
        while let Some(action) = self.session.poll_action() {
            self.on_action(action);
        }
    }

    fn on_action(&mut self, action: ViewerAction) {
        match action {
            ViewerAction::Send { conn, frame } => {
                let info = FrameInfo::of(&graphmind::parse(&frame, &graphmind::ParseOptions::default()));
                self.say(info.line(conn.0, Dir::ViewerToApp, None));
                self.write_record(conn, Dir::ViewerToApp, &frame, &info, None);
                self.send(conn, frame);
            }
            ViewerAction::Close { conn, code, reason } => {
                self.say(format!("== [c{}] closing: {code} {}", conn.0, field(&reason)));
                if let Some(out) = self.conns.get(&conn) {
                    out.close(code, reason);
                }
            }
            ViewerAction::AppAttached { conn, session_token, hello } => {
                let resumed = hello.resume_token.as_deref() == Some(session_token.as_str());
                self.say(format!(
                    "== [c{}] attached: app {}, client {}, {} session {}",
                    conn.0,
                    field(hello.app.as_deref().unwrap_or("-")),
                    field(&hello.versions.client),
                    if resumed { "resumed" } else { "new" },
                    field(&session_token),
                ));
            }
            ViewerAction::FrameAccepted { envelope, .. } => {
                if self.runs.add(&envelope) {
                    self.finished_runs += 1;
                    let tree = self.runs.render(&envelope.run_id);
                    self.say(tree);
                }
                self.prune_trees();
            }
            ViewerAction::PauseOpened { conn, run_id, pause_id, node_id, point } => self.on_pause(conn, &run_id, pause_id, &node_id, point),
            ViewerAction::PauseClosed { pause_id, action } => {
                self.say(format!("== pause {} settled: {action}", field(&pause_id)));
                self.reprompt_if_gone(&pause_id);
            }
            ViewerAction::PauseReleased { conn, pause_id } => {
                self.say(format!("== pause {} released: [c{}] closed, the app continued on its own (fail-open)", field(&pause_id), conn.0));
                self.reprompt_if_gone(&pause_id);
            }
            ViewerAction::ResumeRefused { pause_id, code, .. } => self.say(format!("== pause {}: resume refused ({code}); still open", field(&pause_id))),
            ViewerAction::ResumeTimedOut { pause_id } => self.say(format!("== pause {}: no exec.resumed for the resume sent", field(&pause_id))),
            ViewerAction::RunAbandoned { run_id } => self.say(format!("== run {} abandoned: its app stayed away", field(&run_id))),
            ViewerAction::Warn { conn, rule, text } => self.say(format!("== [c{}] warning {rule}: {}", conn.0, log::one_line(&text, 300))),
        }
    }

    /// Queues a frame for `conn`; an app with more than `--max-queued-mib` waiting is a
    /// slow reader and is dropped with 1013 (its close event follows from its task).
    fn send(&mut self, conn: ConnectionId, frame: String) {
        let Some(out) = self.conns.get(&conn) else { return };
        let len = frame.len();
        let queued = out.send_text(frame);
        if queued.saturating_add(len) > self.max_queued_bytes {
            out.kill();
            self.conns.remove(&conn);
            self.say(format!(
                "== [c{}] slow reader: {} bytes queued, over --max-queued-mib {}; dropping it with 1013",
                conn.0,
                queued + len,
                self.max_queued_bytes >> 20
            ));
        }
    }

    /// Drops the trees of runs the session no longer retains, so the listener's own per-run
    /// state follows the session's bound. Checked with a quarter's slack so the scan is rare.
    fn prune_trees(&mut self) {
        let (runs, key_bytes) = self.runs.size();
        let (kept_runs, kept_bytes) = (self.session.retained_runs(), self.session.retained_bytes());
        if runs > kept_runs + kept_runs / 4 + 16 || key_bytes > kept_bytes + kept_bytes / 4 + (1 << 20) {
            let session = &self.session;
            self.runs.prune(|id| session.retains_run(id));
        }
    }

    fn on_pause(&mut self, conn: ConnectionId, run_id: &str, pause_id: String, node_id: &str, point: PausePoint) {
        let what = format!("{} {point} (run {}, [c{}])", field(node_id), field(run_id), conn.0);
        let shown = field(&pause_id);
        self.play_pause_faults(conn, run_id, &pause_id);
        match self.policy.clone() {
            Some(Policy::Hold) => self.say(format!("== pause {shown} at {what}: holding")),
            Some(Policy::Resume(action, output)) => {
                self.say(format!("== pause {shown} at {what}: {action}"));
                self.resume(&pause_id, action, output);
            }
            None => {
                self.asking.push_back((pause_id, what));
                if self.asking.len() == 1 {
                    self.prompt();
                }
            }
        }
    }

    /// `--fault-at-pause`, once: each fault in order on the paused connection.
    fn play_pause_faults(&mut self, conn: ConnectionId, run_id: &str, pause_id: &str) {
        let now = self.clock.now();
        for fault in std::mem::take(&mut self.pause_faults) {
            let mut f = self.session.faults();
            let sent = match &fault {
                PauseFault::Text(text) => f.send_text(conn, text.clone()),
                PauseFault::Break(payload) => f.send(conn, 1, None, "*", "breakpoint.set", payload, now).map(drop),
                PauseFault::Resume(action) => f.resume(conn, run_id, pause_id, action, None, now).map(drop),
                PauseFault::ResumeUnknown => f.resume(conn, run_id, "pause_listen_unknown", "continue", None, now).map(drop),
                PauseFault::Close(code) => f.close(conn, *code, "wirecontract listen: --fault-at-pause"),
                PauseFault::Binary(bytes) => {
                    self.drain(); // what was queued before it goes first
                    self.send_binary(conn, bytes.clone());
                    Ok(())
                }
            };
            if let Err(e) = sent {
                self.say(format!("== [c{}] --fault-at-pause not sent: {e}", conn.0));
            }
            self.drain();
        }
    }

    /// A binary frame (a `--fault-at-pause` fault), logged and recorded as its text.
    fn send_binary(&mut self, conn: ConnectionId, bytes: Vec<u8>) {
        let Some(out) = self.conns.get(&conn) else { return };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        out.send_binary(bytes);
        let info = FrameInfo::of(&graphmind::parse(&text, &graphmind::ParseOptions::default()));
        self.say(format!("{} (binary)", info.line(conn.0, Dir::ViewerToApp, None)));
        self.write_record(conn, Dir::ViewerToApp, &text, &info, None);
    }

    fn resume(&mut self, pause_id: &str, action: ResumeAction, output: Option<RawJson>) {
        if let Err(e) = self.session.resume(pause_id, action, output, None, self.clock.now()) {
            self.say(format!("== pause {}: not resumed: {e}", field(pause_id)));
        }
    }

    /// The prompt goes to stderr: it is for the person at the terminal, while stdout may be
    /// piped to a file.
    fn prompt(&self) {
        if let Some((pause_id, what)) = self.asking.front() {
            let mut err = io::stderr().lock();
            let _ = write!(err, "pause {} at {what}: [c]ontinue, [r]etry, [a]bort, [i] JSON to inject? ", Peer(pause_id));
            let _ = err.flush();
        }
    }

    fn on_answer(&mut self, line: Option<String>) {
        let Some(line) = line else {
            // End of terminal input: nobody is left to ask, so continue from now on.
            self.policy = Some(Policy::Resume(ResumeAction::Continue, None));
            while let Some((pause_id, _)) = self.asking.pop_front() {
                self.resume(&pause_id, ResumeAction::Continue, None);
            }
            return;
        };
        let Some((pause_id, _)) = self.asking.front().cloned() else { return };
        match spec::parse_answer(&line) {
            Some(Ok((action, output))) => {
                self.asking.pop_front();
                self.resume(&pause_id, action, output);
            }
            Some(Err(e)) => self.say(format!("== {}", field(&e))),
            None => self.say("== answer c, r, a, or i followed by JSON"),
        }
        self.prompt();
    }

    /// A pause the prompt is waiting on was settled elsewhere: drop it and ask the next.
    fn reprompt_if_gone(&mut self, pause_id: &str) {
        let was_first = self.asking.front().is_some_and(|(p, _)| p == pause_id);
        self.asking.retain(|(p, _)| p != pause_id);
        if was_first {
            self.prompt();
        }
    }

    /// Closes every connection, waits briefly for them, prints unfinished runs and a summary.
    async fn finish(&mut self) {
        for out in self.conns.values() {
            out.close(1000, "wirecontract listen: done".to_owned());
        }
        self.conns.clear();
        let _ = tokio::time::timeout(CLOSE_GRACE, async { while self.tasks.join_next().await.is_some() {} }).await;
        self.tasks.abort_all();
        let trees: Vec<String> = self.runs.unfinished().into_iter().map(|r| self.runs.render(r)).collect();
        for tree in trees {
            self.say(tree);
        }
        self.log.always(&format!(
            "== done: {} run(s) finished, {} frame(s) stored, {} duplicate(s) ignored, {} pause(s) still open",
            self.finished_runs,
            self.stored,
            self.duplicates,
            self.session.open_pauses().len()
        ));
    }
}
