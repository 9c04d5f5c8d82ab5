//! The gate engine: armed breakpoints and mode, held gates, pause ids
//! (graphmind-session §3.1–§3.3, §3.5).

use super::clock::Millis;
use crate::graphmind::{add_breakpoint, clear_breakpoint, pause_reason, BreakpointMatcher, NodeKind, PausePoint, PauseReason, RunMode};

/// One held gate (§1 `held`).
#[derive(Debug, Clone)]
pub(super) struct HeldGate {
    pub pause_id: String,
    pub run_id: String,
    /// Absolute deadline when a pause timeout is configured.
    pub deadline: Option<Millis>,
    /// The held-ledger hold opened for it (§3.9).
    pub hold: u64,
}

/// Arming state and the held gates, in insertion order (releaseAll order, T16).
#[derive(Debug)]
pub(super) struct Gates {
    pub breakpoints: Vec<BreakpointMatcher>,
    pub mode: RunMode,
    held: Vec<HeldGate>,
    id_base: String,
    next_pause: u64,
}

impl Gates {
    pub fn new(id_base: &str) -> Self {
        Gates { breakpoints: Vec::new(), mode: RunMode::Run, held: Vec::new(), id_base: id_base.to_owned(), next_pause: 0 }
    }

    /// T7(c): replaces breakpoints and mode wholesale from a valid `hello.ack`. Duplicate
    /// matchers in the ack collapse by matcher equality (graphmind-v1 §5.12, Decision 2).
    pub fn arm(&mut self, breakpoints: &[BreakpointMatcher], mode: RunMode) {
        self.breakpoints.clear();
        for m in breakpoints {
            add_breakpoint(&mut self.breakpoints, m.clone());
        }
        self.mode = mode;
    }

    /// T16(b): the previous arming is forgotten at detach.
    pub fn disarm(&mut self) {
        self.breakpoints.clear();
        self.mode = RunMode::Run;
    }

    /// T10.
    pub fn set_breakpoint(&mut self, m: BreakpointMatcher) {
        add_breakpoint(&mut self.breakpoints, m);
    }

    /// T11.
    pub fn clear_breakpoint(&mut self, m: &BreakpointMatcher) {
        clear_breakpoint(&mut self.breakpoints, m);
    }

    /// The pause reason without loop or smart hits (§3.1 precedence): `error` at an error
    /// point, `breakpoint` when a matcher matches, else `step`; `None` when nothing pauses.
    pub fn reason(&self, kind: NodeKind, name: &str, point: PausePoint) -> Option<PauseReason> {
        let reason = pause_reason(self.mode, &self.breakpoints, kind, name, point)?;
        Some(if point == PausePoint::Error { PauseReason::Error } else { reason })
    }

    /// §3.3: `pause_<base>_<n>`, n from 1, never reset (unique across reconnects).
    pub fn mint(&mut self) -> String {
        self.next_pause += 1;
        format!("pause_{}_{}", self.id_base, self.next_pause)
    }

    pub fn insert(&mut self, gate: HeldGate) {
        self.held.push(gate);
    }

    pub fn take(&mut self, pause_id: &str) -> Option<HeldGate> {
        let i = self.held.iter().position(|g| g.pause_id == pause_id)?;
        Some(self.held.remove(i))
    }

    pub fn run_of(&self, pause_id: &str) -> Option<String> {
        self.held.iter().find(|g| g.pause_id == pause_id).map(|g| g.run_id.clone())
    }

    pub fn contains(&self, pause_id: &str) -> bool {
        self.held.iter().any(|g| g.pause_id == pause_id)
    }

    pub fn take_all(&mut self) -> Vec<HeldGate> {
        std::mem::take(&mut self.held)
    }

    /// Removes and returns every gate whose deadline is `≤ now`, in insertion order.
    pub fn take_expired(&mut self, now: Millis) -> Vec<HeldGate> {
        let (expired, kept) = std::mem::take(&mut self.held).into_iter().partition(|g| g.deadline.is_some_and(|d| d <= now));
        self.held = kept;
        expired
    }

    pub fn next_deadline(&self) -> Option<Millis> {
        self.held.iter().filter_map(|g| g.deadline).min()
    }

    pub fn pause_ids(&self) -> impl Iterator<Item = &str> {
        self.held.iter().map(|g| g.pause_id.as_str())
    }
}
