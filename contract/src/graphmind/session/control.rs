//! Incoming frames: the handshake (T4–T8) and controls while attached (T9–T15)
//! (graphmind-session §2.2, §3.6). Every frame is parsed strictly (Decision 1): an invalid
//! one is warned about and dropped, never coerced, and never panics.

use super::app::{AppSession, ConnState};
use super::clock::Millis;
use super::gate::Armed;
use super::{Decision, ReleaseCause};
use crate::graphmind::{parse, BreakpointMatcher, ExecResume, HelloAck, Message, ParseOptions, ParseOutcome, RefusalCode, ResumeAction, PROTOCOL_VERSION};

/// The truncation markers of graphmind-v1 §3 that must not be injected back (§3.6 guard).
const TRUNCATION_MARKERS: &[&str] = &["\"__graphmindTruncated\"", "[graphmind: truncated]"];

impl AppSession {
    /// One text frame from the viewer (`bytes` is the frame's UTF-8). Ignored unless
    /// awaiting an ack or attached (a stale socket's frame). Bad frames produce an
    /// [`Action::Warn`](super::Action::Warn) naming the rule.
    pub fn frame_received(&mut self, bytes: &[u8], now: Millis) {
        match self.conn {
            ConnState::AwaitingAck => self.handshake_frame(bytes, now),
            ConnState::Attached => self.attached_frame(bytes, now),
            ConnState::Idle | ConnState::Connecting | ConnState::Disposed => {}
        }
    }

    fn handshake_frame(&mut self, bytes: &[u8], now: Millis) {
        match parse(bytes, &ParseOptions::default()) {
            // T4: the viewer speaks another protocol: stop talking.
            ParseOutcome::VersionMismatch { received, .. } => {
                self.warn("version-mismatch", format!("viewer frame has gm {received}; closing"));
                self.abandon_attempt(now, 1002, "protocol version mismatch");
            }
            ParseOutcome::Ok(env) => match env.message {
                Message::HelloAck(ack) if ack.versions.protocol != PROTOCOL_VERSION => {
                    // T6.
                    self.warn("ack-protocol", format!("hello.ack speaks protocol {}; closing", ack.versions.protocol));
                    self.abandon_attempt(now, 1002, "protocol version mismatch");
                }
                Message::HelloAck(ack) => self.attach(ack, now),
                // T5: other known types before the ack are ignored.
                _ => {}
            },
            ParseOutcome::Invalid { reason, .. } => self.warn("invalid-frame", format!("ignored before hello.ack: {reason}")),
            ParseOutcome::UnknownType(_) => {}
        }
    }

    /// T7 (a)–(f).
    fn attach(&mut self, ack: HelloAck, now: Millis) {
        self.handshake_deadline = None;
        if let Some(token) = ack.session_token.filter(|t| !t.is_empty()) {
            self.session_token = Some(token);
        }
        self.hub_capabilities = ack.hub_capabilities;
        let refused = self.gates.arm(&ack.breakpoints, ack.mode);
        if refused > 0 && self.gates.report_cap() {
            let max = self.gates.max_breakpoints();
            self.warn("breakpoint-limit", format!("hello.ack: {refused} breakpoints not armed: max_breakpoints is {max}"));
        }
        self.send_gaps_and_replay(now);
        self.conn = ConnState::Attached;
        self.settle_waiters(true);
    }

    fn attached_frame(&mut self, bytes: &[u8], now: Millis) {
        match parse(bytes, &ParseOptions::default()) {
            // T15 (TS, §4 D6): close, then detach with fail-open.
            ParseOutcome::VersionMismatch { received, .. } => {
                self.warn("version-mismatch", format!("viewer frame has gm {received}; closing"));
                self.actions.push_back(super::Action::Close { code: 1002, reason: "protocol version mismatch".to_owned() });
                self.detach(now);
            }
            ParseOutcome::Invalid { reason, .. } => {
                self.warn("invalid-frame", format!("ignored: {reason}"));
            }
            ParseOutcome::Ok(env) => match env.message {
                Message::ExecResume(r) => self.resume(r, now),
                Message::BreakpointSet(b) => self.breakpoint_set(b.matcher),
                Message::BreakpointClear(b) => self.gates.clear_breakpoint(&b.matcher),
                Message::ModeSet(m) => self.gates.mode = m.mode,
                // T13: a second ack does not re-arm; events are not for the app.
                _ => {}
            },
            ParseOutcome::UnknownType(_) => {}
        }
    }

    /// T10, bounded by `max_breakpoints`: past the cap the matcher is ignored, with one
    /// `breakpoint-limit` warning per episode.
    fn breakpoint_set(&mut self, matcher: BreakpointMatcher) {
        if self.gates.set_breakpoint(matcher) == Armed::AtCap && self.gates.report_cap() {
            let max = self.gates.max_breakpoints();
            let text = format!("breakpoint.set ignored: {max} breakpoints armed (max_breakpoints); more are ignored silently until one is cleared");
            self.warn("breakpoint-limit", text);
        }
    }

    /// T9, §3.6: an unknown or settled pause id is ignored silently; `runId` is not checked.
    /// A resume carrying `input` (edit-input, not implemented) or an `inject` whose output
    /// still holds a placeholder or truncation marker is refused with `exec.refused` and the
    /// gate stays held. Otherwise the gate settles.
    fn resume(&mut self, r: ExecResume, now: Millis) {
        if !self.gates.contains(&r.pause_id) {
            return;
        }
        let refusal = if r.input.is_some() {
            Some((RefusalCode::Unsupported, "edit-input is not supported by this session"))
        } else if r.action == ResumeAction::Inject {
            self.inject_guard(r.output.as_ref().map(crate::graphmind::RawJson::as_str).unwrap_or_default())
        } else {
            None
        };
        if let Some((code, message)) = refusal {
            self.refuse(&r.pause_id, code, message, r.request_id, now);
            return;
        }
        let decision = match r.action {
            ResumeAction::Continue => Decision::Continue,
            ResumeAction::Retry => Decision::Retry,
            ResumeAction::Inject => Decision::Inject { output: r.output },
            ResumeAction::Abort => Decision::Abort,
        };
        if let Some(gate) = self.gates.take(&r.pause_id) {
            self.settle(gate, decision, ReleaseCause::Resume, r.request_id, now);
        }
    }

    /// §3.6 TS 0.6 inject guard.
    fn inject_guard(&self, output: &str) -> Option<(RefusalCode, &'static str)> {
        if TRUNCATION_MARKERS.iter().any(|m| output.contains(m)) {
            return Some((RefusalCode::Truncated, "the injected output still holds a truncation marker"));
        }
        let placeholder = self.config.redaction_placeholder.as_deref().filter(|p| !p.is_empty())?;
        let quoted = crate::graphmind::RawJson::from_value(&serde_json::Value::String(placeholder.to_owned()));
        output.contains(quoted.as_str()).then_some((RefusalCode::Placeholder, "the injected output still holds the redaction placeholder"))
    }
}
