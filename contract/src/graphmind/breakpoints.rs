//! Breakpoint matchers (§5.12): matcher equality and matching ([`BreakpointMatcher::same_as`],
//! [`BreakpointMatcher::matches`]), [`pause_reason`] and [`should_pause`], and the list
//! helpers [`add_breakpoint`] and [`clear_breakpoint`].

use super::{BreakpointMatcher, NodeKind, PausePoint, PauseReason, RunMode};

impl BreakpointMatcher {
    /// A matcher with the given fields and no unknown members.
    pub fn new(kind: Option<NodeKind>, name: Option<String>, point: Option<PausePoint>) -> Self {
        BreakpointMatcher { kind, name, point, ..BreakpointMatcher::from_required() }
    }

    /// The point used for matching and equality: absent means `before` (§5.12).
    pub fn effective_point(&self) -> PausePoint {
        self.point.unwrap_or(PausePoint::Before)
    }

    /// Matcher equality for dedupe and `breakpoint.clear` (§5.12): same `kind`, `name` and
    /// effective point; unknown members do not take part.
    pub fn same_as(&self, other: &BreakpointMatcher) -> bool {
        self.kind == other.kind && self.name == other.name && self.effective_point() == other.effective_point()
    }

    /// Whether this matcher selects a gate (§5.12): effective point equals the gate's, then
    /// `kind` if present, then `name` if present.
    pub fn matches(&self, kind: NodeKind, name: &str, point: PausePoint) -> bool {
        self.effective_point() == point && self.kind.is_none_or(|k| k == kind) && self.name.as_deref().is_none_or(|n| n == name)
    }
}

/// Whether a gate pauses: in step mode at every `before` and `error` point, otherwise when any
/// breakpoint matches (§5.12). The same decision as [`pause_reason`]`(…).is_some()`.
pub fn should_pause(mode: RunMode, breakpoints: &[BreakpointMatcher], kind: NodeKind, name: &str, point: PausePoint) -> bool {
    pause_reason(mode, breakpoints, kind, name, point).is_some()
}

/// Why a gate pauses, or `None` when it does not (§5.12): [`PauseReason::Breakpoint`] when
/// any matcher matches (checked first: the more specific reason), else
/// [`PauseReason::Step`] in step mode at a `before` or `error` point. Only those two
/// reasons come from matching; `error` and `loop` in `exec.paused.reason` are the app's
/// precedence on top (graphmind-session §3.1).
pub fn pause_reason(mode: RunMode, breakpoints: &[BreakpointMatcher], kind: NodeKind, name: &str, point: PausePoint) -> Option<PauseReason> {
    if breakpoints.iter().any(|m| m.matches(kind, name, point)) {
        Some(PauseReason::Breakpoint)
    } else if mode == RunMode::Step && matches!(point, PausePoint::Before | PausePoint::Error) {
        Some(PauseReason::Step)
    } else {
        None
    }
}

/// Adds a matcher unless an equal one (§5.12) is present; returns whether it was added.
pub fn add_breakpoint(breakpoints: &mut Vec<BreakpointMatcher>, matcher: BreakpointMatcher) -> bool {
    if breakpoints.iter().any(|m| m.same_as(&matcher)) {
        return false;
    }
    breakpoints.push(matcher);
    true
}

/// Removes every matcher equal (§5.12) to `matcher`; returns how many were removed.
pub fn clear_breakpoint(breakpoints: &mut Vec<BreakpointMatcher>, matcher: &BreakpointMatcher) -> usize {
    let before = breakpoints.len();
    breakpoints.retain(|m| !m.same_as(matcher));
    before - breakpoints.len()
}
