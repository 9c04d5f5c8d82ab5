//! The GraphMind session runtime as a sans-IO core (spec `graphmind-session.md`).
//!
//! - [`AppSession`]: the instrumented app's side: seq, handshake, replay ring with gap
//!   markers, controls, gates and their `exec.resumed` obligations, `heldMs` (§1–§3), and
//!   the `run.started`/`run.finished` of explicit runs (`start_run`, `finish_run`).
//! - The adapter core, configured per session with the real clients' defaults:
//!   [`SessionConfig::from_env`] reads the `GRAPHMIND_*` environment once for every host
//!   (`env.rs`); runs carry their root node `agent:<name>` and session meta (`run.rs`, the
//!   implicit run's meta in `emit.rs`); redaction with `__REDACTED__` (`redact.rs`), token
//!   batching (`tokens.rs`, `push_token`) and the emit depth cap (`depth.rs`).
//! - [`ViewerSession`]: the viewer's side: per-connection handshake, `(runId, seq)`
//!   de-duplication that outlives connections, pause bookkeeping and routing (§5); a test
//!   viewer's faults (raw frames, out-of-state envelopes, close codes, acks withheld, delayed
//!   or replaced) only through [`ViewerSession::faults`] (`viewer_faults.rs`; the state it
//!   plans and delays in `viewer_fault_state.rs`).
//!
//! Neither owns a socket, a thread or a clock (Decision 4): the host passes its clock reading
//! ([`Millis`]: milliseconds with fractions, as a monotonic clock gives them) with each input, carries out the actions it polls, and calls `handle_timeout` at
//! `poll_timeout()`.
//!
//! Deliberate difference from both reference clients (Decision 2): breakpoint equality uses
//! the *effective* point (graphmind-v1 §5.12), so `{}` and `{point:"before"}` are the same
//! breakpoint here; both references compare the raw `point`.

mod action;
mod app;
mod app_state;
mod clock;
mod config;
mod control;
mod deadlines;
mod depth;
mod emit;
mod env;
mod gate;
mod held;
mod hold;
mod loop_guard;
mod redact;
mod ring;
mod run;
mod tokens;
mod viewer;
mod viewer_action;
mod viewer_fault_state;
mod viewer_faults;
mod viewer_out;
mod viewer_runs;

pub use action::{Action, Decision, GateNode, GateOutcome, ReadyId, ReleaseCause, Warning};
pub use app::{AppSession, ConnState};
pub use clock::{ClockError, Millis};
pub use config::{
    EnvFloor, LoopGuardConfig, LoopMode, RedactionConfig, SessionConfig, DEFAULT_MAX_VALUE_DEPTH, DEFAULT_TOKEN_BATCH_MS, DEFAULT_URL, REDACTED_PLACEHOLDER,
    SESSION_CAPABILITIES,
};
pub use emit::EmitError;
pub use env::{ENV_VARS, PRODUCTION_ENV_VARS};
pub use run::RunEnd;
pub use viewer::ViewerSession;
pub use viewer_action::{ConnectionId, Received, ResumeError, ViewerAction, ViewerConfig};
pub use viewer_fault_state::AckFault;
pub use viewer_faults::{FaultError, ViewerFaults, FAULT_SEQ_BASE};
