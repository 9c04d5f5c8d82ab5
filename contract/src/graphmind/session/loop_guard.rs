//! Repeat loop guard (graphmind-session §3.4): identical back-to-back `node.started` of one
//! node, per run and node kind, trip a hold with `reason:"loop"`.

use std::collections::VecDeque;

use super::config::{LoopGuardConfig, LoopMode};
use crate::graphmind::{LoopInfo, NodeKind, NodeStarted, RawJson};
use crate::wire::SafeUInt;

#[derive(Debug, Clone)]
struct Streak {
    kind: NodeKind,
    node_id: String,
    fingerprint: String,
    repeats: SafeUInt,
    first_seq: SafeUInt,
    last_seq: SafeUInt,
    /// The highest repeat count that already held: each count holds at most once, so a
    /// `retry` (no new `node.started`) does not hold again.
    tripped: SafeUInt,
}

/// Streaks of the most recently used runs (LRU, `max_runs`).
#[derive(Debug)]
pub(super) struct LoopGuard {
    config: LoopGuardConfig,
    runs: VecDeque<(String, Vec<Streak>)>,
}

/// Deepest level at which `_meta` members are removed; like the reference, deeper values are
/// compared as they are.
const MAX_STRIP_DEPTH: usize = 64;

/// Removes every `_meta` member at every level (graphmind-session §1 "ignore `_meta`"): MCP
/// puts it, with a per-request `progressToken`, inside a call's `arguments`, not only at the
/// top level of the input.
fn strip_meta(value: &mut serde_json::Value, depth: usize) {
    if depth > MAX_STRIP_DEPTH {
        return;
    }
    match value {
        serde_json::Value::Object(map) => {
            map.remove("_meta");
            for v in map.values_mut() {
                strip_meta(v, depth + 1);
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                strip_meta(v, depth + 1);
            }
        }
        _ => {}
    }
}

/// The fingerprint of a call: FNV-1a 64 over the node name and its input with every `_meta`
/// member removed, at any level, as 16 hex digits. Only equality matters.
fn fingerprint(name: &str, input: Option<&RawJson>) -> String {
    let canonical = match input.map(RawJson::to_value) {
        Some(Ok(mut v)) => {
            strip_meta(&mut v, 0);
            v.to_string()
        }
        // Values serde cannot hold (lone surrogates, depth): the raw text is still exact.
        Some(Err(_)) => input.map(|r| r.as_str().to_owned()).unwrap_or_default(),
        None => String::new(),
    };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes().chain([0u8]).chain(canonical.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl LoopGuard {
    pub fn new(config: LoopGuardConfig) -> Self {
        LoopGuard { config, runs: VecDeque::new() }
    }

    fn run_mut(&mut self, run_id: &str) -> Option<&mut Vec<Streak>> {
        let i = self.runs.iter().position(|(r, _)| r == run_id)?;
        let entry = self.runs.remove(i)?;
        self.runs.push_back(entry);
        self.runs.back_mut().map(|(_, s)| s)
    }

    /// Records a `node.started` with its seq (attached or not).
    /// Whether a start of this node is watched: the guard is on (mode not `off`, threshold
    /// not 0), the kind is tracked, and neither the node id nor the name is allowed to repeat
    /// (`GRAPHMIND_LOOP_ALLOW`).
    fn watches(&self, kind: NodeKind, node_id: &str, name: &str) -> bool {
        self.config.mode != LoopMode::Off
            && self.config.threshold > 0
            && self.config.kinds.contains(&kind)
            && !self.config.allow.iter().any(|a| a == node_id || a == name)
    }

    pub fn record(&mut self, run_id: &str, started: &NodeStarted, seq: u64) {
        if !self.watches(started.kind, &started.node_id, &started.name) {
            return;
        }
        let fp = fingerprint(&started.name, started.input.as_ref());
        // Session seqs stay in the safe range (the emitter refuses past it).
        let seq = SafeUInt::new(seq).unwrap_or(SafeUInt::MAX);
        if self.run_mut(run_id).is_none() {
            if self.runs.len() >= self.config.max_runs.max(1) {
                self.runs.pop_front();
            }
            self.runs.push_back((run_id.to_owned(), Vec::new()));
        }
        let Some(streaks) = self.run_mut(run_id) else {
            return;
        };
        match streaks.iter_mut().find(|s| s.kind == started.kind) {
            Some(s) if s.node_id == started.node_id && s.fingerprint == fp => {
                s.repeats = s.repeats.saturating_inc();
                s.last_seq = seq;
            }
            Some(s) => {
                *s = Streak {
                    kind: started.kind,
                    node_id: started.node_id.clone(),
                    fingerprint: fp,
                    repeats: SafeUInt::from(1),
                    first_seq: seq,
                    last_seq: seq,
                    tripped: SafeUInt::ZERO,
                }
            }
            None => streaks.push(Streak {
                kind: started.kind,
                node_id: started.node_id.clone(),
                fingerprint: fp,
                repeats: SafeUInt::from(1),
                first_seq: seq,
                last_seq: seq,
                tripped: SafeUInt::ZERO,
            }),
        }
    }

    /// Consults the streak at a `before` gate: `Some` on a hit not yet tripped at this count
    /// (and marks it tripped). `hold` tells whether the caller holds (mode `pause` and
    /// attached) or only warns.
    pub fn check(&mut self, run_id: &str, kind: NodeKind, node_id: &str, name: &str) -> Option<(LoopInfo, bool)> {
        if !self.watches(kind, node_id, name) {
            return None;
        }
        let threshold = self.config.threshold;
        let pause = self.config.mode == LoopMode::Pause;
        let streaks = self.run_mut(run_id)?;
        let s = streaks.iter_mut().find(|s| s.kind == kind && s.node_id == node_id)?;
        if s.repeats.get() < threshold || s.tripped >= s.repeats {
            return None;
        }
        s.tripped = s.repeats;
        let info = LoopInfo::from_required(s.repeats, s.first_seq, s.last_seq, s.fingerprint.clone());
        Some((info, pause))
    }
}
