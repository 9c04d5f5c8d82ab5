//! What the app-side core hands back to its host: actions to carry out, gate outcomes and
//! decisions (graphmind-session §2.1).

use crate::graphmind::{NodeKind, RawJson, ResumeAction};

/// Opaque id of one [`AppSession::ready`](super::AppSession::ready) call; settled once by
/// [`Action::ReadySettled`] (graphmind-session §2.1, T22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReadyId(pub u64);

/// What a released gate tells the adapter to do (graphmind-session §3.7). The core only
/// returns it; the adapter acts on it.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Run the body / return the real result / rethrow the original error.
    Continue,
    /// Re-run from the top at `after`/`error`; same as continue at `before`.
    Retry,
    /// Use `output` instead of running (or instead of the result/error). `None` is an
    /// inject of "no value" (graphmind-session §3.6), distinct from `Some(null)`.
    Inject {
        /// The `exec.resume.output`, verbatim.
        output: Option<RawJson>,
    },
    /// Finish `aborted` and raise; [`Action::AbortRun`] was already issued for the run.
    Abort,
}

impl Decision {
    /// The wire action echoed in `exec.resumed`.
    pub fn action(&self) -> ResumeAction {
        match self {
            Decision::Continue => ResumeAction::Continue,
            Decision::Retry => ResumeAction::Retry,
            Decision::Inject { .. } => ResumeAction::Inject,
            Decision::Abort => ResumeAction::Abort,
        }
    }
}

/// Why a held gate was released (graphmind-session §3.8); each one is answered by exactly one
/// `exec.resumed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReleaseCause {
    /// A valid `exec.resume` from the viewer (§3.6).
    Resume,
    /// The configured pause timeout expired (§3.8).
    Timeout,
    /// The connection was lost while held: fail-open (T16).
    Disconnect,
    /// [`AppSession::dispose`](super::AppSession::dispose) (§2.5).
    Dispose,
    /// The host cancelled the waiter (§3.8, §4 D16).
    Cancel,
}

/// The result of [`AppSession::gate`](super::AppSession::gate) (graphmind-session §3.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateOutcome {
    /// Proceed now; nothing was sent.
    Continue,
    /// `exec.paused` with this pause id was emitted; wait for the matching
    /// [`Action::Release`].
    Held(String),
}

/// The node a gate sits on (graphmind-session §3.1, §3.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateNode {
    /// `nodeId`, as in `node.started`.
    pub node_id: String,
    /// Node kind, for matchers and the loop guard.
    pub kind: NodeKind,
    /// Node name, for matchers.
    pub name: String,
    /// The instance this gate belongs to; pins the hold exactly (TS 0.6, §3.9) and is copied
    /// into `exec.paused.instanceId`.
    pub instance_id: Option<String>,
}

impl GateNode {
    /// A node without an instance id.
    pub fn new(node_id: impl Into<String>, kind: NodeKind, name: impl Into<String>) -> Self {
        GateNode { node_id: node_id.into(), kind, name: name.into(), instance_id: None }
    }
}

/// A warning for the host's log: `rule` is a stable key naming the rule that fired
/// (`"invalid-frame"`, `"version-mismatch"`, `"ack-protocol"`, `"handshake-timeout"`,
/// `"connect-timeout"`, `"buffer-overflow"`, `"loop-detected"`, `"bad-run-id"`, `"breakpoint-limit"`), `text` is
/// for humans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Stable rule key.
    pub rule: &'static str,
    /// Human-readable detail.
    pub text: String,
}

/// One thing the host must do, polled with
/// [`AppSession::poll_action`](super::AppSession::poll_action) in order
/// (graphmind-session §2.1).
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Open a WebSocket to `url`; answer with `transport_opened` or `transport_failed`.
    Connect {
        /// Endpoint.
        url: String,
    },
    /// Send this text frame on the open socket.
    Send(String),
    /// Close the socket (or abandon the attempt). The core is already detached; a later
    /// `transport_closed` for it is ignored.
    Close {
        /// WebSocket close code: 1000 normal/timeouts, 1002 protocol error.
        code: u16,
        /// Close reason text.
        reason: String,
    },
    /// Wake the gate `pause_id` with `decision`. Always preceded by its `exec.resumed`.
    Release {
        /// The pause id returned by `gate`.
        pause_id: String,
        /// What the adapter must do (§3.7).
        decision: Decision,
        /// Why it was released.
        cause: ReleaseCause,
    },
    /// Abort the run's context before the `Abort` decision reaches the adapter (§3.7).
    AbortRun {
        /// The run to abort.
        run_id: String,
    },
    /// A `ready()` call settled: `true` when attached (T22).
    ReadySettled {
        /// Which call.
        waiter: ReadyId,
        /// Whether the session is attached.
        attached: bool,
    },
    /// Log this.
    Warn(Warning),
}
