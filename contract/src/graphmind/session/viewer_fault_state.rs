//! The fault state a [`ViewerSession`](super::ViewerSession) holds for a test viewer: the plan
//! for the next `hello.ack`s ([`AckFault`]) and the acks it delays. `viewer_faults.rs` fills
//! it (through [`ViewerSession::faults`](super::ViewerSession::faults)) and applies it;
//! `viewer.rs` holds it and asks it for its deadlines. It names nothing of the session, so
//! the session can hold it without importing `viewer_faults.rs` back.

use std::collections::VecDeque;

use super::clock::Millis;
use super::viewer_action::ConnectionId;

/// What happens to the next `hello.ack` the session answers a `hello` with.
#[derive(Debug, Clone)]
pub enum AckFault {
    /// It goes out as is (a plan's place holder, so that a later ack can be faulted).
    Send,
    /// It is never sent (the app's handshake times out). The session still counts the app as
    /// attached ([`ViewerAction::AppAttached`](super::ViewerAction::AppAttached)).
    Withhold,
    /// It goes out this many milliseconds later
    /// ([`ViewerSession::poll_timeout`](super::ViewerSession::poll_timeout) includes it),
    /// unless its connection closed meanwhile.
    Delay(u64),
    /// This text goes out instead.
    Replace(String),
    /// What the function returns for the ack's text goes out instead (an ack announcing
    /// protocol 2, say).
    Edit(fn(&str) -> String),
}

/// The session's fault state: the ack plan and the acks it delays.
#[derive(Debug, Default)]
pub(super) struct FaultState {
    pub(super) acks: VecDeque<AckFault>,
    /// Delayed acks: when, where, what.
    delayed: Vec<(Millis, ConnectionId, String)>,
    pub(super) next_seq: u64,
}

impl FaultState {
    /// The fault for the ack about to go out, if one is planned.
    pub(super) fn next_ack(&mut self) -> Option<AckFault> {
        self.acks.pop_front()
    }

    /// The earliest delayed ack.
    pub(super) fn first_deadline(&self) -> Option<Millis> {
        self.delayed.iter().map(|(at, ..)| *at).min_by(|a, b| a.get().total_cmp(&b.get()))
    }

    /// Delayed acks due at `now`, in deadline order.
    pub(super) fn due(&mut self, now: Millis) -> Vec<(ConnectionId, String)> {
        let (mut due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed).into_iter().partition(|(at, ..)| at.get() <= now.get());
        self.delayed = later;
        due.sort_by(|a, b| a.0.get().total_cmp(&b.0.get()));
        due.into_iter().map(|(_, conn, frame)| (conn, frame)).collect()
    }

    /// `conn` closed: its delayed acks are dropped.
    pub(super) fn forget(&mut self, conn: ConnectionId) {
        self.delayed.retain(|(_, c, _)| *c != conn);
    }

    pub(super) fn delay(&mut self, at: Millis, conn: ConnectionId, frame: String) {
        self.delayed.push((at, conn, frame));
    }
}
