//! The gate engine: armed breakpoints and mode, held gates, pause ids
//! (graphmind-session §3.1–§3.3, §3.5).

use std::collections::HashSet;

use super::clock::Millis;
use crate::graphmind::{pause_reason, BreakpointMatcher, NodeKind, PausePoint, PauseReason, RunMode};

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

/// What matcher equality compares (graphmind-v1 §5.12): `kind`, `name`, effective point.
type MatcherKey = (Option<NodeKind>, Option<String>, PausePoint);

fn key(m: &BreakpointMatcher) -> MatcherKey {
    (m.kind, m.name.clone(), m.effective_point())
}

/// What [`Gates::set_breakpoint`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Armed {
    /// Added.
    Added,
    /// An equal matcher (§5.12) is armed already: nothing changed.
    Duplicate,
    /// `max_breakpoints` matchers are armed: not added.
    AtCap,
}

/// Arming state and the held gates, in insertion order (releaseAll order, T16).
///
/// The armed matchers keep their arrival order in `breakpoints`; `keys` holds their
/// equality keys so a `breakpoint.set` de-duplicates in O(1) instead of scanning the list
/// (a storm of distinct sets was quadratic). At most `max_breakpoints` are armed.
#[derive(Debug)]
pub(super) struct Gates {
    breakpoints: Vec<BreakpointMatcher>,
    keys: HashSet<MatcherKey>,
    max_breakpoints: usize,
    /// Whether a refusal at the cap was reported since the set last changed (one warning
    /// per episode, not one per frame of a storm).
    cap_reported: bool,
    pub mode: RunMode,
    held: Vec<HeldGate>,
    id_base: String,
    next_pause: u64,
}

impl Gates {
    pub fn new(id_base: &str, max_breakpoints: usize) -> Self {
        Gates {
            breakpoints: Vec::new(),
            keys: HashSet::new(),
            max_breakpoints,
            cap_reported: false,
            mode: RunMode::Run,
            held: Vec::new(),
            id_base: id_base.to_owned(),
            next_pause: 0,
        }
    }

    /// The armed matchers, in arrival order.
    pub fn breakpoints(&self) -> &[BreakpointMatcher] {
        &self.breakpoints
    }

    /// T7(c): replaces breakpoints and mode wholesale from a valid `hello.ack`. Duplicate
    /// matchers in the ack collapse by matcher equality (graphmind-v1 §5.12, Decision 2).
    /// Returns how many distinct matchers were not armed because of `max_breakpoints`.
    pub fn arm(&mut self, breakpoints: &[BreakpointMatcher], mode: RunMode) -> usize {
        self.clear_all();
        let refused = breakpoints.iter().filter(|m| self.set_breakpoint((*m).clone()) == Armed::AtCap).count();
        self.mode = mode;
        refused
    }

    /// T16(b): the previous arming is forgotten at detach.
    pub fn disarm(&mut self) {
        self.clear_all();
        self.mode = RunMode::Run;
    }

    fn clear_all(&mut self) {
        self.breakpoints.clear();
        self.keys.clear();
        self.cap_reported = false;
    }

    /// The cap in force.
    pub fn max_breakpoints(&self) -> usize {
        self.max_breakpoints
    }

    /// Whether a refusal at the cap should be reported now: true once, then false until the
    /// armed set is cleared or shrinks.
    pub fn report_cap(&mut self) -> bool {
        !std::mem::replace(&mut self.cap_reported, true)
    }

    /// T10, bounded: a matcher equal to an armed one changes nothing; a new one past
    /// `max_breakpoints` is not armed.
    pub fn set_breakpoint(&mut self, m: BreakpointMatcher) -> Armed {
        let k = key(&m);
        if self.keys.contains(&k) {
            return Armed::Duplicate;
        }
        if self.breakpoints.len() >= self.max_breakpoints {
            return Armed::AtCap;
        }
        self.keys.insert(k);
        self.breakpoints.push(m);
        Armed::Added
    }

    /// T11: removes the matcher equal to `m`, if armed (one list pass only then).
    pub fn clear_breakpoint(&mut self, m: &BreakpointMatcher) {
        if self.keys.remove(&key(m)) {
            self.breakpoints.retain(|b| !b.same_as(m));
            self.cap_reported = false;
        }
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
