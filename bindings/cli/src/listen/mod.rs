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

mod net;
mod show;
mod spec;
mod tree;

use std::collections::{HashMap, VecDeque};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use tokio::net::TcpListener;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::task::JoinSet;
use wirecontract::graphmind::session::{ConnectionId, Millis, Received, ViewerAction, ViewerConfig, ViewerSession};
use wirecontract::graphmind::{self, BreakpointMatcher, PausePoint, RawJson, ResumeAction, RunMode};

use self::net::{Event, Out, INGEST_PATH};
use self::show::{matcher_text, Dir, FrameInfo, Recorder};
use self::spec::{BreakSpec, Policy};
use super::Failure;

/// Arguments of `wirecontract listen`.
#[derive(Debug, Args)]
#[command(after_help = concat!(
    "Breakpoints (--break): KIND[:NAME][@POINT]. KIND is a node kind (agent, llm, tool, chain, retriever, server, resource, prompt, custom) ",
    "or `*`/empty for any kind; NAME is everything after the first `:`; POINT (before, after, error; default before) follows the last `@`. ",
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
    "Exit codes: 0 after --exit-after-runs runs or Ctrl-C, 1 on I/O errors (address in use, record file), 2 on usage errors."
))]
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
}

/// How long connections get to close after the listener decides to stop.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

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
        ..ViewerConfig::default()
    };
    let mut host = Host::new(ViewerSession::new(config), record, policy, args.exit_after_runs);
    host.say(format!("listening on ws://{addr}{INGEST_PATH}"));
    host.say(format!(
        "== armed: breakpoints [{}], mode {}, on pause: {}",
        host.session.breakpoints().iter().map(matcher_text).collect::<Vec<_>>().join(", "),
        host.session.mode(),
        host.policy.as_ref().map_or_else(|| "ask on the terminal".to_owned(), policy_text),
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
        Policy::Resume(action, Some(output)) => format!("{action} {output}"),
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
    conns: HashMap<ConnectionId, UnboundedSender<Out>>,
    next_conn: u64,
    tasks: JoinSet<()>,
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
}

impl Host {
    fn new(session: ViewerSession, record: Recorder, policy: Option<Policy>, exit_after_runs: Option<u64>) -> Self {
        Host {
            session,
            clock: Clock::new(),
            conns: HashMap::new(),
            next_conn: 1,
            tasks: JoinSet::new(),
            record,
            runs: tree::Runs::default(),
            policy,
            asking: VecDeque::new(),
            exit_after_runs,
            finished_runs: 0,
            stored: 0,
            duplicates: 0,
            record_error: None,
        }
    }

    /// One line on standard output. A closed stdout (`| head`) must not stop the listener,
    /// so write errors are ignored.
    #[allow(clippy::unused_self)] // a method so every line goes through one place
    fn say(&self, line: impl AsRef<str>) {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{}", line.as_ref());
        let _ = out.flush();
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
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, peer)) => {
                        let conn = ConnectionId(self.next_conn);
                        self.next_conn += 1;
                        self.tasks.spawn(net::serve(stream, peer, conn, events_tx.clone()));
                    }
                    Err(e) => self.say(format!("== accept failed: {e}")),
                },
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

    fn on_event(&mut self, event: Event) {
        let now = self.clock.now();
        match event {
            Event::Opened { conn, peer, out } => {
                self.conns.insert(conn, out);
                self.say(format!("== [c{}] connected from {peer}", conn.0));
                self.session.connection_opened(conn);
            }
            Event::Frame { conn, bytes } => {
                let outcome = graphmind::parse_envelope_json_bytes(&bytes);
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
            }
            Event::Closed { conn, detail } => {
                self.conns.remove(&conn);
                self.say(format!("== [c{}] {detail}", conn.0));
                self.session.connection_closed(conn, now);
            }
            Event::Refused { peer, detail } => self.say(format!("== refused {peer}: {detail}")),
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
                let info = FrameInfo::of(&graphmind::parse_envelope_json(&frame));
                self.say(info.line(conn.0, Dir::ViewerToApp, None));
                self.write_record(conn, Dir::ViewerToApp, &frame, &info, None);
                if let Some(out) = self.conns.get(&conn) {
                    let _ = out.send(Out::Text(frame));
                }
            }
            ViewerAction::Close { conn, code, reason } => {
                self.say(format!("== [c{}] closing: {code} {reason}", conn.0));
                if let Some(out) = self.conns.get(&conn) {
                    let _ = out.send(Out::Close(code, reason));
                }
            }
            ViewerAction::AppAttached { conn, session_token, hello } => {
                let resumed = hello.resume_token.as_deref() == Some(session_token.as_str());
                self.say(format!(
                    "== [c{}] attached: app {}, client {}, {} session {session_token}",
                    conn.0,
                    hello.app.as_deref().unwrap_or("-"),
                    hello.versions.client,
                    if resumed { "resumed" } else { "new" },
                ));
            }
            ViewerAction::FrameAccepted { envelope, .. } => {
                if self.runs.add(&envelope) {
                    self.finished_runs += 1;
                    self.say(self.runs.render(&envelope.run_id));
                }
            }
            ViewerAction::PauseOpened { conn, run_id, pause_id, node_id, point } => self.on_pause(conn, &run_id, pause_id, &node_id, point),
            ViewerAction::PauseClosed { pause_id, action } => {
                self.say(format!("== pause {pause_id} settled: {action}"));
                self.reprompt_if_gone(&pause_id);
            }
            ViewerAction::PauseReleased { conn, pause_id } => {
                self.say(format!("== pause {pause_id} released: [c{}] closed, the app continued on its own (fail-open)", conn.0));
                self.reprompt_if_gone(&pause_id);
            }
            ViewerAction::ResumeRefused { pause_id, code, .. } => self.say(format!("== pause {pause_id}: resume refused ({code}); still open")),
            ViewerAction::ResumeTimedOut { pause_id } => self.say(format!("== pause {pause_id}: no exec.resumed for the resume sent")),
            ViewerAction::RunAbandoned { run_id } => self.say(format!("== run {run_id} abandoned: its app stayed away")),
            ViewerAction::Warn { conn, rule, text } => self.say(format!("== [c{}] warning {rule}: {text}", conn.0)),
        }
    }

    fn on_pause(&mut self, conn: ConnectionId, run_id: &str, pause_id: String, node_id: &str, point: PausePoint) {
        let what = format!("{node_id} {point} (run {run_id}, [c{}])", conn.0);
        match self.policy.clone() {
            Some(Policy::Hold) => self.say(format!("== pause {pause_id} at {what}: holding")),
            Some(Policy::Resume(action, output)) => {
                self.say(format!("== pause {pause_id} at {what}: {action}"));
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

    fn resume(&mut self, pause_id: &str, action: ResumeAction, output: Option<RawJson>) {
        if let Err(e) = self.session.resume(pause_id, action, output, None, self.clock.now()) {
            self.say(format!("== pause {pause_id}: not resumed: {e}"));
        }
    }

    /// The prompt goes to stderr: it is for the person at the terminal, while stdout may be
    /// piped to a file.
    fn prompt(&self) {
        if let Some((pause_id, what)) = self.asking.front() {
            let mut err = io::stderr().lock();
            let _ = write!(err, "pause {pause_id} at {what}: [c]ontinue, [r]etry, [a]bort, [i] JSON to inject? ");
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
            Some(Err(e)) => self.say(format!("== {e}")),
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
            let _ = out.send(Out::Close(1000, "wirecontract listen: done".to_owned()));
        }
        self.conns.clear();
        let _ = tokio::time::timeout(CLOSE_GRACE, async { while self.tasks.join_next().await.is_some() {} }).await;
        self.tasks.abort_all();
        for run_id in self.runs.unfinished() {
            self.say(self.runs.render(run_id));
        }
        self.say(format!(
            "== done: {} run(s) finished, {} frame(s) stored, {} duplicate(s) ignored, {} pause(s) still open",
            self.finished_runs,
            self.stored,
            self.duplicates,
            self.session.open_pauses().len()
        ));
    }
}
