//! The viewer's outbound side: breakpoint/mode broadcast, resume routing and its timers
//! (graphmind-session §5.1, §5.4, §5.5).

use super::clock::Millis;
use super::viewer::{PauseState, ViewerSession};
use super::viewer_action::{ConnectionId, ResumeError, ViewerAction};
use crate::graphmind::{
    add_breakpoint, clear_breakpoint, BreakpointClear, BreakpointMatcher, BreakpointSet, ExecResume, Message, ModeSet, RawJson, ResumeAction, RunMode,
    WILDCARD_RUN_ID,
};

impl ViewerSession {
    /// Sends `message` with `runId "*"` to every connection that has said hello (§5.1: the
    /// ack arms only once, so later changes must be broadcast).
    fn broadcast(&mut self, message: &Message, now: Millis) {
        let mut targets: Vec<ConnectionId> = self.conns.iter().filter(|(_, c)| c.hello_seq.is_some()).map(|(id, _)| *id).collect();
        targets.sort();
        for conn in targets {
            self.send(conn, WILDCARD_RUN_ID, message.clone(), now);
        }
    }

    /// Adds a breakpoint unless an equal one exists (graphmind-v1 §5.12) and broadcasts
    /// `breakpoint.set`; returns whether it was added.
    pub fn set_breakpoint(&mut self, matcher: BreakpointMatcher, now: Millis) -> bool {
        if !add_breakpoint(&mut self.breakpoints, matcher.clone()) {
            return false;
        }
        self.broadcast(&BreakpointSet::from_required(matcher).into(), now);
        true
    }

    /// Removes every equal breakpoint and broadcasts `breakpoint.clear` when one was there;
    /// returns how many were removed.
    pub fn clear_breakpoint(&mut self, matcher: &BreakpointMatcher, now: Millis) -> usize {
        let n = clear_breakpoint(&mut self.breakpoints, matcher);
        if n > 0 {
            self.broadcast(&BreakpointClear::from_required(matcher.clone()).into(), now);
        }
        n
    }

    /// Sets the mode and broadcasts `mode.set` when it changed.
    pub fn set_mode(&mut self, mode: RunMode, now: Millis) {
        if self.mode != mode {
            self.mode = mode;
            self.broadcast(&ModeSet::from_required(mode).into(), now);
        }
    }

    /// §5.5: sends `exec.resume` for an open pause to the connection owning its run, and
    /// waits `resume_wait_ms` for the answer. `output` is for `inject` (sent as given with any
    /// action, like the reference); `request_id` is echoed by the app.
    ///
    /// # Errors
    /// [`ResumeError`] when the pause is not open or its owner is gone; nothing is sent.
    pub fn resume(
        &mut self,
        pause_id: &str,
        action: ResumeAction,
        output: Option<RawJson>,
        request_id: Option<String>,
        now: Millis,
    ) -> Result<(), ResumeError> {
        let pause = self.pauses.get(pause_id).ok_or(ResumeError::UnknownPause)?;
        if pause.state == PauseState::ReleasedByDisconnect {
            return Err(ResumeError::ReleasedByDisconnect);
        }
        let conn = match self.runs.get(&pause.run_id).and_then(|r| r.owner) {
            Some((conn, None)) if self.conns.contains_key(&conn) => conn,
            _ => return Err(ResumeError::OwnerGone),
        };
        let run_id = pause.run_id.to_string();
        let resume = ExecResume { output, request_id, ..ExecResume::from_required(pause_id.to_owned(), action) };
        self.send(conn, &run_id, resume.into(), now);
        self.waiting.insert(pause_id.to_owned(), now.plus(self.config.resume_wait_ms));
        Ok(())
    }

    /// Fires resume waits ([`ViewerAction::ResumeTimedOut`]) and abandon graces
    /// ([`ViewerAction::RunAbandoned`]) due at `now`, and sends the acks a test fault delayed
    /// until then.
    pub fn handle_timeout(&mut self, now: Millis) {
        self.send_due_acks(now);
        let mut due = self.waiting.pop_due(now);
        due.sort();
        for pause_id in due {
            self.actions.push_back(ViewerAction::ResumeTimedOut { pause_id });
        }
        let grace = self.config.abandon_grace_ms;
        // Owners that left at or before `now - grace`; none before the grace has passed once.
        let Ok(left_by) = Millis::new(now.get() - grace as f64) else { return };
        let mut gone: Vec<String> = self.runs.abandon_due(left_by).iter().map(ToString::to_string).collect();
        gone.sort();
        for run_id in gone {
            self.actions.push_back(ViewerAction::RunAbandoned { run_id });
        }
    }
}
