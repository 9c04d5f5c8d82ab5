//! The viewer side's configuration, ids and the actions/events it hands its host
//! (graphmind-session §5).

use crate::graphmind::{BreakpointMatcher, Envelope, Hello, PausePoint, RefusalCode, ResumeAction, RunMode};

/// Opaque id of one app connection, chosen by the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnectionId(pub u64);

/// Configuration of a [`ViewerSession`](super::ViewerSession). `Default` gives the HUB's
/// values (graphmind-session §5). Times are milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewerConfig {
    /// `hello.ack.versions.viewer`. Default `"wirecontract/<crate version>"`.
    pub viewer_version: String,
    /// `hello.ack.hubCapabilities` (what this viewer implements). Default `None` (omitted).
    pub hub_capabilities: Option<Vec<String>>,
    /// Initial breakpoints (§5.1: a fresh HUB arms `[{point:"error"}]`).
    pub breakpoints: Vec<BreakpointMatcher>,
    /// Initial mode (§5.1: `run`).
    pub mode: RunMode,
    /// Minted session tokens are `<prefix><n>`. The core has no randomness: hosts should
    /// pass a random prefix. Default `"tok_"`.
    pub token_prefix: String,
    /// Longest `resumeToken` reused, in UTF-16 units like the HUB (§5.1: 128).
    pub max_resume_token_len: usize,
    /// How long a sent `exec.resume` waits for its `exec.resumed`/`exec.refused` before
    /// [`ViewerAction::ResumeTimedOut`] (§5.4: about 5000).
    pub resume_wait_ms: u64,
    /// How long a run whose owner disconnected stays "running" before
    /// [`ViewerAction::RunAbandoned`] (§5.5: 15 000).
    pub abandon_grace_ms: u64,
    /// Most runs whose state (de-duplication keys, owner, pauses) is kept; past it the least
    /// recently active run is forgotten (docs/robustness.md, "Resource limits"). Default 10 000.
    pub max_retained_runs: usize,
    /// Approximate bytes of retained run state (`runId`s, seqs, pause ids) kept before the
    /// least recently active runs are forgotten. Default 64 MiB.
    pub max_retained_bytes: usize,
    /// Seqs kept per run, the newest; a frame below the oldest kept counts as already seen.
    /// Exact de-duplication needs at least the app's ring size (5000 in the reference
    /// client). Default 8192.
    pub max_seqs_per_run: usize,
    /// Pauses tracked (open, or released by a disconnect and not yet answered in a replay);
    /// past it the oldest is forgotten and a resume for it is refused as unknown. Default
    /// 10 000.
    pub max_tracked_pauses: usize,
}

impl Default for ViewerConfig {
    fn default() -> Self {
        ViewerConfig {
            viewer_version: concat!("wirecontract/", env!("CARGO_PKG_VERSION")).to_owned(),
            hub_capabilities: None,
            breakpoints: vec![BreakpointMatcher::new(None, None, Some(PausePoint::Error))],
            mode: RunMode::Run,
            token_prefix: "tok_".to_owned(),
            max_resume_token_len: 128,
            resume_wait_ms: 5000,
            abandon_grace_ms: 15_000,
            max_retained_runs: 10_000,
            max_retained_bytes: 64 << 20,
            max_seqs_per_run: 8192,
            max_tracked_pauses: 10_000,
        }
    }
}

/// Why [`ViewerSession::resume`](super::ViewerSession::resume) sent nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeError {
    /// No live `exec.paused` with this id was seen (or it was a replay: never resumable).
    UnknownPause,
    /// The pause was released by fail-open when its connection closed (§5.4).
    ReleasedByDisconnect,
    /// The owning connection of the run is gone.
    OwnerGone,
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ResumeError::UnknownPause => "no open pause with this id",
            ResumeError::ReleasedByDisconnect => "the pause was released when its app disconnected",
            ResumeError::OwnerGone => "the run's app connection is gone",
        })
    }
}

impl std::error::Error for ResumeError {}

/// What [`ViewerSession::outcome_received`](super::ViewerSession::outcome_received) did with
/// one frame. The actions it queued say what to do; this says how to label the frame in a
/// log or a recording, including the frames that queue nothing (duplicates, `"*"` frames).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// A `hello`: answered with a `hello.ack` ([`ViewerAction::Send`], then
    /// [`ViewerAction::AppAttached`]).
    Hello,
    /// A first-seen `(runId, seq)`, stored ([`ViewerAction::FrameAccepted`]). `replayed`
    /// when its seq is below the connection's hello seq (buffered before this connection).
    Accepted {
        /// Whether it arrived as a replay.
        replayed: bool,
    },
    /// An already seen `(runId, seq)`, dropped (§5.2): nothing is queued. `replayed` as for
    /// `Accepted`; a duplicate that is not a replay means the app reused a seq.
    Duplicate {
        /// Whether it arrived as a replay.
        replayed: bool,
    },
    /// A frame with `runId "*"` other than `hello`: neither stored nor de-duplicated (§5.2).
    Wildcard,
    /// Not taken: invalid, `gm ≠ 1` or a `hello` of another protocol version (a
    /// [`ViewerAction::Close`] is queued), a viewer-side type, or an event before `hello`; a
    /// [`ViewerAction::Warn`] says which.
    Rejected,
}

/// One thing for the viewer's host, polled with
/// [`ViewerSession::poll_action`](super::ViewerSession::poll_action) in order.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewerAction {
    /// Send this text frame on `conn`.
    Send {
        /// Target connection.
        conn: ConnectionId,
        /// The frame.
        frame: String,
    },
    /// Close `conn` (1002 for `gm ≠ 1` or a `hello` of another protocol version, §5.5).
    Close {
        /// Target connection.
        conn: ConnectionId,
        /// WebSocket close code.
        code: u16,
        /// Close reason text.
        reason: String,
    },
    /// `conn` sent `hello` and was answered with `hello.ack` carrying `session_token`.
    AppAttached {
        /// The connection.
        conn: ConnectionId,
        /// The token in the ack (reused or minted).
        session_token: String,
        /// The app's hello.
        hello: Box<Hello>,
    },
    /// A first-seen event frame (by `(runId, seq)`, §5.2) to store and render. `replayed`
    /// when its seq is below the connection's hello seq: it was buffered before this
    /// connection existed (§5.3).
    FrameAccepted {
        /// The connection it arrived on.
        conn: ConnectionId,
        /// The parsed frame (ok or unknown type).
        envelope: Box<Envelope>,
        /// Whether it arrived as a replay.
        replayed: bool,
    },
    /// A live, first-seen `exec.paused`: the pause is open and resumable (§5.4).
    PauseOpened {
        /// Owning connection.
        conn: ConnectionId,
        /// Run.
        run_id: String,
        /// Pause id.
        pause_id: String,
        /// Node.
        node_id: String,
        /// Gate point.
        point: PausePoint,
    },
    /// `exec.resumed` arrived for a known pause: it is settled.
    PauseClosed {
        /// Pause id.
        pause_id: String,
        /// The action the app applied.
        action: ResumeAction,
    },
    /// The owning connection closed while the pause was open: the app continued on its own
    /// (fail-open, §5.4); its `exec.resumed` comes in a later replay, if ever.
    PauseReleased {
        /// The closed connection.
        conn: ConnectionId,
        /// Pause id.
        pause_id: String,
    },
    /// `exec.refused`: the pause stays open (§5.4).
    ResumeRefused {
        /// Pause id.
        pause_id: String,
        /// Refusal code.
        code: RefusalCode,
        /// Echoed request id.
        request_id: Option<String>,
    },
    /// A sent `exec.resume` got no answer within `resume_wait_ms`.
    ResumeTimedOut {
        /// Pause id.
        pause_id: String,
    },
    /// A run's owner stayed away for `abandon_grace_ms`.
    RunAbandoned {
        /// Run.
        run_id: String,
    },
    /// Log this; `rule` is a stable key (`"invalid-frame"`, `"version-mismatch"`,
    /// `"before-hello"`, `"unexpected-type"`, and `"invalid-resumed"` for an invalid
    /// `exec.resumed` whose pause it closed).
    Warn {
        /// The connection.
        conn: ConnectionId,
        /// Stable rule key.
        rule: &'static str,
        /// Human-readable detail.
        text: String,
    },
}
