//! Fault injection for a test viewer: what a misbehaving viewer sends, to check that an
//! adapter survives it (`wirecontract conform`, `wirecontract listen --fault-*`). No production
//! viewer needs any of it, so none of it is a method of [`ViewerSession`]: a host reaches it
//! only through [`ViewerSession::faults`], by name.
//!
//! The session keeps every protocol rule for the frames it produces; these go around it, with
//! no check and no bookkeeping: raw text frames, envelopes of any type with any `gm`, `seq` and
//! payload in any state (a duplicate `breakpoint.set`, a resume for a late or unknown pause),
//! closes with any code, and the next `hello.ack` withheld, delayed or replaced. They come out
//! as the ordinary [`ViewerAction::Send`] and [`ViewerAction::Close`], in order with the
//! session's own actions. Binary frames are the transport's: a host sends them itself.
//! The semantics are those of the Python `wirecontract.graphmind.testing.ViewerFaults`.

use super::clock::Millis;
use super::viewer::ViewerSession;
use super::viewer_action::{ConnectionId, ViewerAction};
use super::viewer_fault_state::AckFault;

/// Envelopes sent by [`ViewerFaults::send`] without a `seq` take seqs from here up, apart from
/// the session's own per-connection counters (apps do not check viewer seqs).
pub const FAULT_SEQ_BASE: u64 = 1_000_000;

/// Why a fault was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultError {
    /// The connection is not open (never opened, or closed).
    UnknownConnection,
}

impl std::fmt::Display for FaultError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultError::UnknownConnection => f.write_str("the connection is not open"),
        }
    }
}

impl std::error::Error for FaultError {}

/// The fault controls of one [`ViewerSession`], borrowed with [`ViewerSession::faults`].
#[derive(Debug)]
pub struct ViewerFaults<'a> {
    session: &'a mut ViewerSession,
}

impl ViewerSession {
    /// The fault controls, for a test viewer only (module docs: `viewer_faults`).
    pub fn faults(&mut self) -> ViewerFaults<'_> {
        ViewerFaults { session: self }
    }

    /// Applies the planned fault, if any, to the ack `frame` for `conn`; returns the frame
    /// to send now, if any.
    pub(super) fn fault_ack(&mut self, conn: ConnectionId, frame: String, now: Millis) -> Option<String> {
        match self.fault_state.next_ack() {
            None | Some(AckFault::Send) => Some(frame),
            Some(AckFault::Withhold) => None,
            Some(AckFault::Delay(ms)) => {
                self.fault_state.delay(now.plus(ms), conn, frame);
                None
            }
            Some(AckFault::Replace(text)) => Some(text),
            Some(AckFault::Edit(edit)) => Some(edit(&frame)),
        }
    }

    /// Sends the delayed acks due at `now` whose connections are still open.
    pub(super) fn send_due_acks(&mut self, now: Millis) {
        for (conn, frame) in self.fault_state.due(now) {
            if self.conns.contains_key(&conn) {
                self.actions.push_back(ViewerAction::Send { conn, frame });
            }
        }
    }
}

impl ViewerFaults<'_> {
    fn open(&self, conn: ConnectionId) -> Result<(), FaultError> {
        if self.session.conns.contains_key(&conn) {
            Ok(())
        } else {
            Err(FaultError::UnknownConnection)
        }
    }

    /// Sends `text` as a text frame, whatever it holds (not JSON, not an envelope).
    ///
    /// # Errors
    /// [`FaultError::UnknownConnection`] when `conn` is not open; nothing is sent.
    pub fn send_text(&mut self, conn: ConnectionId, text: impl Into<String>) -> Result<(), FaultError> {
        self.open(conn)?;
        self.session.actions.push_back(ViewerAction::Send { conn, frame: text.into() });
        Ok(())
    }

    /// Sends an envelope of any `ty` in any state, unchecked: `{"gm":gm,"seq":seq,"ts":now,
    /// "runId":run_id,"type":ty,"payload":payload}` with `payload` inserted as given (JSON text,
    /// or not). `seq` defaults to the next from [`FAULT_SEQ_BASE`]. Returns the frame.
    ///
    /// # Errors
    /// [`FaultError::UnknownConnection`] when `conn` is not open; nothing is sent.
    #[allow(clippy::too_many_arguments)] // every envelope member is the test's to choose
    pub fn send(&mut self, conn: ConnectionId, gm: i64, seq: Option<i64>, run_id: &str, ty: &str, payload: &str, now: Millis) -> Result<String, FaultError> {
        self.open(conn)?;
        let seq = seq.map_or_else(
            || {
                self.session.fault_state.next_seq += 1;
                (FAULT_SEQ_BASE + self.session.fault_state.next_seq).to_string()
            },
            |s| s.to_string(),
        );
        let frame = format!(r#"{{"gm":{gm},"seq":{seq},"ts":{},"runId":{},"type":{},"payload":{payload}}}"#, now.whole(), json_string(run_id), json_string(ty));
        self.session.actions.push_back(ViewerAction::Send { conn, frame: frame.clone() });
        Ok(frame)
    }

    /// Sends `exec.resume` for any `pause_id` (late, settled, unknown) with any `action` text
    /// and, when given, `output` (JSON text), where [`ViewerSession::resume`] would refuse; the
    /// session expects no answer for it. Returns the frame.
    ///
    /// # Errors
    /// [`FaultError::UnknownConnection`] when `conn` is not open; nothing is sent.
    pub fn resume(&mut self, conn: ConnectionId, run_id: &str, pause_id: &str, action: &str, output: Option<&str>, now: Millis) -> Result<String, FaultError> {
        let output = output.map_or_else(String::new, |o| format!(r#","output":{o}"#));
        let payload = format!(r#"{{"pauseId":{},"action":{}{output}}}"#, json_string(pause_id), json_string(action));
        self.send(conn, 1, None, run_id, "exec.resume", &payload, now)
    }

    /// Closes `conn` with `code` and `reason`, after the frames queued before it. The session
    /// learns the connection is gone from its host ([`ViewerSession::connection_closed`]).
    ///
    /// # Errors
    /// [`FaultError::UnknownConnection`] when `conn` is not open; nothing is queued.
    pub fn close(&mut self, conn: ConnectionId, code: u16, reason: impl Into<String>) -> Result<(), FaultError> {
        self.open(conn)?;
        self.session.actions.push_back(ViewerAction::Close { conn, code, reason: reason.into() });
        Ok(())
    }

    /// Plans a fault for the next `hello.ack` not yet planned for (one per hello, in order).
    pub fn ack(&mut self, fault: AckFault) {
        self.session.fault_state.acks.push_back(fault);
    }

    /// The next `hello.ack` is never sent.
    pub fn withhold_ack(&mut self) {
        self.ack(AckFault::Withhold);
    }

    /// The next `hello.ack` goes out `ms` milliseconds late.
    pub fn delay_ack(&mut self, ms: u64) {
        self.ack(AckFault::Delay(ms));
    }

    /// The next `hello.ack` is replaced by `text`.
    pub fn replace_ack(&mut self, text: impl Into<String>) {
        self.ack(AckFault::Replace(text.into()));
    }

    /// Ack faults not yet applied.
    pub fn pending_ack_faults(&self) -> usize {
        self.session.fault_state.acks.len()
    }
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}
