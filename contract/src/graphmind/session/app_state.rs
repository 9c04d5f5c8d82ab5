//! The state types [`AppSession`](super::AppSession) holds for the impl blocks of other files:
//! the open explicit runs ([`OpenRuns`], kept by `run.rs`) and the pending token batches
//! ([`Batches`], kept by `tokens.rs`). Their own files add methods to `AppSession` and so name
//! it; these types name nothing of the session, so `app.rs` can hold them without importing
//! those files back.

use std::collections::VecDeque;

use super::clock::Millis;
use crate::graphmind::TokenDelta;

/// Explicit runs whose root node is open, oldest first, at most this many (the held ledger's
/// bound, §1): a run forgotten past it finishes without its root `node.finished`.
const MAX_OPEN_RUNS: usize = 10_000;

/// Runs started with a root node and not finished: `(run id, name, start time)`.
#[derive(Debug, Default)]
pub(super) struct OpenRuns(VecDeque<(String, String, Millis)>);

impl OpenRuns {
    pub fn open(&mut self, run_id: &str, name: &str, now: Millis) {
        self.0.retain(|(r, _, _)| r != run_id);
        if self.0.len() >= MAX_OPEN_RUNS {
            self.0.pop_front();
        }
        self.0.push_back((run_id.to_owned(), name.to_owned(), now));
    }

    pub fn close(&mut self, run_id: &str) -> Option<(String, Millis)> {
        let i = self.0.iter().position(|(r, _, _)| r == run_id)?;
        self.0.remove(i).map(|(_, name, at)| (name, at))
    }
}

/// One node's waiting deltas.
#[derive(Debug)]
pub(super) struct Pending {
    pub run_id: String,
    pub node_id: String,
    pub deltas: Vec<TokenDelta>,
}

/// The batcher's state: pending batches in order of their first delta, and the flush time.
#[derive(Debug, Default)]
pub(super) struct Batches {
    pub pending: Vec<Pending>,
    pub flush_at: Option<Millis>,
}
