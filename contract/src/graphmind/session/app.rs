//! The app-side session core: state, transport lifecycle, timers, `ready` and `dispose`
//! (graphmind-session §1, §2.1, §2.2 T1–T8, T16–T17, T21–T22, §2.5).
//!
//! Sans-IO: no socket, thread or clock. The host feeds inputs stamped with `now` (a
//! [`Millis`] reading: fractional milliseconds; its whole part is the frames' `ts`) and
//! carries out the [`Action`]s it polls.
//! Emitting is in `emit.rs`, explicit runs in `run.rs`, incoming frames in `control.rs`,
//! gates in `hold.rs`; the open runs' and the token batches' state types in `app_state.rs`.

use std::collections::VecDeque;

use super::action::{Action, ReadyId, ReleaseCause, Warning};
use super::app_state::{Batches, OpenRuns};
use super::clock::Millis;
use super::config::SessionConfig;
use super::gate::Gates;
use super::held::HeldLedger;
use super::loop_guard::LoopGuard;
use super::redact::Redactor;
use super::ring::{Gaps, Ring};
use crate::graphmind::{BreakpointMatcher, RunMode};

/// Connection state (graphmind-session §1 `conn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConnState {
    /// No socket (not started yet, or waiting for a retry).
    Idle,
    /// `Connect` issued, waiting for `transport_opened`.
    Connecting,
    /// `hello` sent, waiting for a valid `hello.ack`.
    AwaitingAck,
    /// Attached: frames go out live, gates can hold.
    Attached,
    /// Disposed: one-way.
    Disposed,
}

/// The app side of a GraphMind session as a sans-IO state machine (graphmind-session §2.1).
///
/// Owns the one seq counter (hello included), the handshake, the replay ring with gap
/// markers, controls, gates with their `exec.resumed` obligations, and `heldMs`.
#[derive(Debug)]
pub struct AppSession {
    pub(super) config: SessionConfig,
    pub(super) conn: ConnState,
    pub(super) started: bool,
    pub(super) disposed: bool,
    pub(super) next_seq: u64,
    pub(super) session_token: Option<String>,
    pub(super) hub_capabilities: Option<Vec<String>>,
    pub(super) ring: Ring,
    pub(super) gaps: Gaps,
    pub(super) last_loss_warn: Option<Millis>,
    pub(super) gates: Gates,
    pub(super) ledger: HeldLedger,
    pub(super) loop_guard: LoopGuard,
    pub(super) implicit_run: Option<String>,
    /// Runs the viewer aborted (§3.7), oldest first, at most `run::MAX_ABORTED_RUNS`: their
    /// `finish_run` says `aborted`.
    pub(super) aborted_runs: VecDeque<String>,
    pub(super) next_hold: u64,
    pub(super) redactor: Redactor,
    pub(super) batches: Batches,
    /// Explicit runs started and not finished: their root node's name and start time.
    pub(super) open_runs: OpenRuns,
    connect_deadline: Option<Millis>,
    pub(super) handshake_deadline: Option<Millis>,
    retry_at: Option<Millis>,
    fast_retry_step: usize,
    waiters: Vec<(ReadyId, Millis)>,
    next_waiter: u64,
    pub(super) actions: VecDeque<Action>,
}

impl AppSession {
    /// A new, not yet started session (§1 initial state). Nothing happens until the first
    /// `emit`, `gate` or `ready` (T1).
    /// The environment's floors ([`SessionConfig::env_floor`]) apply here: the kill switch
    /// disables, and the hide switches it turned on stay on.
    pub fn new(config: SessionConfig) -> Self {
        let config = config.effective();
        let fast_retry_step = config.fast_retry_ms.len();
        AppSession {
            ring: Ring::new(config.ring_max_frames, config.ring_max_bytes),
            gaps: Gaps::new(config.max_tracked_gap_runs),
            gates: Gates::new(&config.id_base, config.max_breakpoints),
            ledger: HeldLedger::new(config.max_held_instances),
            loop_guard: LoopGuard::new(config.loop_guard.clone()),
            redactor: Redactor::new(config.redaction),
            batches: Batches::default(),
            open_runs: OpenRuns::default(),
            config,
            conn: ConnState::Idle,
            started: false,
            disposed: false,
            next_seq: 0,
            session_token: None,
            hub_capabilities: None,
            last_loss_warn: None,
            implicit_run: None,
            aborted_runs: VecDeque::new(),
            next_hold: 0,
            connect_deadline: None,
            handshake_deadline: None,
            retry_at: None,
            fast_retry_step,
            waiters: Vec::new(),
            next_waiter: 0,
            actions: VecDeque::new(),
        }
    }

    /// The next action for the host, oldest first; `None` when there is nothing to do.
    pub fn poll_action(&mut self) -> Option<Action> {
        self.actions.pop_front()
    }

    /// The earliest deadline at which the host must call
    /// [`handle_timeout`](Self::handle_timeout): connect, handshake, retry, each held gate,
    /// each ready waiter (§2.1), the token batch window. `None` when no timer runs.
    pub fn poll_timeout(&self) -> Option<Millis> {
        [
            self.connect_deadline,
            self.handshake_deadline,
            self.retry_at,
            self.gates.next_deadline(),
            self.waiters.iter().map(|w| w.1).min(),
            self.batches.flush_at,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The current connection state.
    pub fn state(&self) -> ConnState {
        self.conn
    }

    /// Whether a valid `hello.ack` attached the current connection.
    pub fn is_attached(&self) -> bool {
        self.conn == ConnState::Attached
    }

    /// The seq the next frame will take (§1 `seq`).
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// The last non-empty `hello.ack.sessionToken`; never cleared (§1).
    pub fn session_token(&self) -> Option<&str> {
        self.session_token.as_deref()
    }

    /// `hello.ack.hubCapabilities` of the current attachment; cleared on detach (§1).
    pub fn hub_capabilities(&self) -> Option<&[String]> {
        self.hub_capabilities.as_deref()
    }

    /// Armed breakpoints (`[]` while detached).
    pub fn breakpoints(&self) -> &[BreakpointMatcher] {
        self.gates.breakpoints()
    }

    /// Armed mode (`run` while detached).
    pub fn mode(&self) -> RunMode {
        self.gates.mode
    }

    /// Pause ids of the gates held now, in hold order.
    pub fn held_pause_ids(&self) -> Vec<String> {
        self.gates.pause_ids().map(str::to_owned).collect()
    }

    /// The ring's frames, oldest first, exactly as they are (re)sent.
    pub fn buffered_frames(&self) -> impl Iterator<Item = &str> {
        self.ring.iter().map(|i| i.frame.as_str())
    }

    /// Unsent frames lost to eviction or oversize (§1 `lost`).
    pub fn lost(&self) -> u64 {
        self.gaps.lost
    }

    /// Every eviction from the ring, delivered or not (§1 `dropped`).
    pub fn dropped(&self) -> u64 {
        self.ring.dropped
    }

    pub(super) fn warn(&mut self, rule: &'static str, text: impl Into<String>) {
        self.actions.push_back(Action::Warn(Warning { rule, text: text.into() }));
    }

    pub(super) fn take_seq(&mut self) -> u64 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    /// T1: the first use starts the lazy connection.
    pub(super) fn ensure_started(&mut self, now: Millis) {
        if self.config.enabled && !self.disposed && !self.started {
            self.started = true;
            self.connect(now);
        }
    }

    fn connect(&mut self, now: Millis) {
        self.conn = ConnState::Connecting;
        self.retry_at = None;
        self.connect_deadline = Some(now.plus(self.config.connect_timeout_ms));
        self.actions.push_back(Action::Connect { url: self.config.url.clone() });
    }

    /// After a drop: the fast burst when armed by a lost attachment, else the interval (§1
    /// retry interval, §4 D5).
    fn schedule_retry(&mut self, now: Millis) {
        let delay = match self.config.fast_retry_ms.get(self.fast_retry_step) {
            Some(d) => {
                self.fast_retry_step += 1;
                (*d).min(self.config.retry_interval_ms)
            }
            None => self.config.retry_interval_ms,
        };
        self.retry_at = Some(now.plus(delay));
    }

    /// T3/T4/T6/T8: give up on the current attempt, close it, retry later.
    pub(super) fn abandon_attempt(&mut self, now: Millis, code: u16, reason: &str) {
        self.connect_deadline = None;
        self.handshake_deadline = None;
        self.conn = ConnState::Idle;
        self.actions.push_back(Action::Close { code, reason: reason.to_owned() });
        self.schedule_retry(now);
    }

    /// T2: the socket is open; send `hello` with the next seq. Ignored in any state but
    /// Connecting (a stale socket).
    pub fn transport_opened(&mut self, now: Millis) {
        if self.conn != ConnState::Connecting {
            return;
        }
        self.connect_deadline = None;
        self.send_hello(now);
        self.conn = ConnState::AwaitingAck;
        self.handshake_deadline = Some(now.plus(self.config.handshake_timeout_ms));
    }

    /// T3: the connect attempt failed. Same as [`transport_closed`](Self::transport_closed).
    pub fn transport_failed(&mut self, now: Millis) {
        self.transport_closed(now);
    }

    /// T16 (attached) or T3 (still connecting): the socket is gone. When attached: disarm,
    /// release every held gate with `exec.resumed{continue}` (buffered, unsent), then
    /// schedule the fast reconnect burst. Ignored when idle or disposed.
    pub fn transport_closed(&mut self, now: Millis) {
        match self.conn {
            ConnState::Attached => self.detach(now),
            ConnState::Connecting | ConnState::AwaitingAck => {
                self.connect_deadline = None;
                self.handshake_deadline = None;
                self.conn = ConnState::Idle;
                self.schedule_retry(now);
            }
            ConnState::Idle | ConnState::Disposed => {}
        }
    }

    /// T16 steps (a)–(d).
    pub(super) fn detach(&mut self, now: Millis) {
        self.conn = ConnState::Idle;
        self.gates.disarm();
        self.hub_capabilities = None;
        self.release_all(ReleaseCause::Disconnect, now);
        self.fast_retry_step = 0;
        self.schedule_retry(now);
    }

    /// Fires every deadline `≤ now`: connect (T3), handshake (T8), retry (T17), pause
    /// timeouts (T18, §3.8), ready waiters (T22) and the token batch window (§1).
    pub fn handle_timeout(&mut self, now: Millis) {
        self.flush_due(now);
        if self.connect_deadline.is_some_and(|d| d <= now) && self.conn == ConnState::Connecting {
            self.warn("connect-timeout", format!("no socket within {} ms", self.config.connect_timeout_ms));
            self.abandon_attempt(now, 1000, "connect timeout");
        }
        if self.handshake_deadline.is_some_and(|d| d <= now) && self.conn == ConnState::AwaitingAck {
            self.warn("handshake-timeout", format!("no valid hello.ack within {} ms", self.config.handshake_timeout_ms));
            self.abandon_attempt(now, 1000, "handshake timeout");
        }
        if self.retry_at.is_some_and(|d| d <= now) && self.conn == ConnState::Idle && !self.disposed {
            self.connect(now);
        }
        for gate in self.gates.take_expired(now) {
            self.settle(gate, super::Decision::Continue, ReleaseCause::Timeout, None, now);
        }
        let (due, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.waiters).into_iter().partition(|w| w.1 <= now);
        self.waiters = kept;
        for (waiter, _) in due {
            self.actions.push_back(Action::ReadySettled { waiter, attached: false });
        }
    }

    /// T22: resolves when attached. Settles `false` at once when disabled or disposed and
    /// `true` at once when attached; otherwise starts the session, connects now when idle
    /// (cancelling the retry timer), and settles at the ack (`true`) or after `timeout_ms`
    /// (default `ready_timeout_ms`) with `false`.
    pub fn ready(&mut self, now: Millis, timeout_ms: Option<u64>) -> ReadyId {
        self.next_waiter += 1;
        let waiter = ReadyId(self.next_waiter);
        if !self.config.enabled || self.disposed || self.conn == ConnState::Attached {
            let attached = self.conn == ConnState::Attached;
            self.actions.push_back(Action::ReadySettled { waiter, attached });
            return waiter;
        }
        if !self.started {
            self.ensure_started(now);
        } else if self.conn == ConnState::Idle {
            self.connect(now);
        }
        self.waiters.push((waiter, now.plus(timeout_ms.unwrap_or(self.config.ready_timeout_ms))));
        waiter
    }

    /// T7(f): every waiter settles `true`.
    pub(super) fn settle_waiters(&mut self, attached: bool) {
        for (waiter, _) in std::mem::take(&mut self.waiters) {
            self.actions.push_back(Action::ReadySettled { waiter, attached });
        }
    }

    /// §2.5 (TS order, normative; PY's token flush first): send the pending token batches,
    /// release every gate (`exec.resumed{continue}` live when
    /// attached), disarm, finish the implicit run, `Close(1000, "session disposed")` when a
    /// socket exists, settle waiters `false`. Afterwards `emit` is a no-op and `gate`
    /// continues. Idempotent.
    pub fn dispose(&mut self, now: Millis) {
        if self.disposed {
            return;
        }
        if self.config.enabled {
            self.flush_tokens(now);
        }
        self.disposed = true;
        self.release_all(ReleaseCause::Dispose, now);
        self.gates.disarm();
        self.finish_implicit_run(now);
        if self.conn != ConnState::Idle {
            self.actions.push_back(Action::Close { code: 1000, reason: "session disposed".to_owned() });
        }
        self.conn = ConnState::Disposed;
        self.hub_capabilities = None;
        self.connect_deadline = None;
        self.handshake_deadline = None;
        self.retry_at = None;
        self.settle_waiters(false);
    }
}
