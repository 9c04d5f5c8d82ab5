//! The replay ring and loss accounting (graphmind-session §1 `ring`, `lost`, §2.4).
//!
//! Every emitted frame is kept as its exact text so a replay is byte-identical to the first
//! sending (same seq and ts). Eviction is drop-oldest under a frame and a byte bound;
//! only evictions of frames never sent count as lost and feed the gap markers.

use std::collections::VecDeque;

/// One buffered frame.
#[derive(Debug, Clone)]
pub(super) struct RingItem {
    pub frame: String,
    pub seq: u64,
    pub run_id: String,
    pub sent: bool,
}

/// Frame- and byte-bounded drop-oldest buffer (§1: 5000 frames, 8 MiB).
#[derive(Debug)]
pub(super) struct Ring {
    items: VecDeque<RingItem>,
    bytes: usize,
    max_frames: usize,
    max_bytes: usize,
    /// Every eviction, delivered or not (§1 `dropped`).
    pub dropped: u64,
}

/// What a push did.
pub(super) enum Pushed {
    /// Kept; these older items were evicted to make room.
    Kept(Vec<RingItem>),
    /// Larger than the byte bound on its own: not kept (§2.3 "refused as oversize").
    Refused(RingItem),
}

impl Ring {
    pub fn new(max_frames: usize, max_bytes: usize) -> Self {
        Ring { items: VecDeque::new(), bytes: 0, max_frames, max_bytes, dropped: 0 }
    }

    pub fn push(&mut self, item: RingItem) -> Pushed {
        if item.frame.len() > self.max_bytes || self.max_frames == 0 {
            return Pushed::Refused(item);
        }
        let mut evicted = Vec::new();
        while !self.items.is_empty() && (self.items.len() >= self.max_frames || self.bytes + item.frame.len() > self.max_bytes) {
            if let Some(old) = self.items.pop_front() {
                self.bytes -= old.frame.len();
                self.dropped += 1;
                evicted.push(old);
            }
        }
        self.bytes += item.frame.len();
        self.items.push_back(item);
        Pushed::Kept(evicted)
    }

    pub fn iter(&self) -> impl Iterator<Item = &RingItem> {
        self.items.iter()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut RingItem> {
        self.items.iter_mut()
    }
}

/// The loss record of one run: `fromSeq..toSeq` bounds the lost seqs, which need not be
/// contiguous when runs interleave (§2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Gap {
    pub dropped_count: u64,
    pub from_seq: u64,
    pub to_seq: u64,
}

/// `lost`, `pending_gaps`, `unattributed_lost` (§1, TS `recordEviction`).
#[derive(Debug)]
pub(super) struct Gaps {
    /// Unsent frames lost in total.
    pub lost: u64,
    /// Per run, in first-loss order; flushed as markers at the next attach.
    pending: Vec<(String, Gap)>,
    /// Losses of runs beyond `max_runs` (counted only).
    pub unattributed: u64,
    max_runs: usize,
}

impl Gaps {
    pub fn new(max_runs: usize) -> Self {
        Gaps { lost: 0, pending: Vec::new(), unattributed: 0, max_runs }
    }

    /// Counts one unsent frame of `run_id` with `seq` as lost.
    pub fn record(&mut self, run_id: &str, seq: u64) {
        self.lost += 1;
        if let Some((_, g)) = self.pending.iter_mut().find(|(r, _)| r == run_id) {
            g.dropped_count += 1;
            g.from_seq = g.from_seq.min(seq);
            g.to_seq = g.to_seq.max(seq);
        } else if self.pending.len() < self.max_runs {
            self.pending.push((run_id.to_owned(), Gap { dropped_count: 1, from_seq: seq, to_seq: seq }));
        } else {
            self.unattributed += 1;
        }
    }

    /// Takes every pending record for the markers of an attach (§2.4).
    pub fn take(&mut self) -> Vec<(String, Gap)> {
        std::mem::take(&mut self.pending)
    }
}
