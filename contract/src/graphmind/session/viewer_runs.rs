//! The viewer's retained per-run state and its bounds: the `(runId, seq)` de-duplication keys
//! (graphmind-session §5.2), each run's owning connection (§5.5) and the pause ids tracked for
//! it, kept for at most [`ViewerConfig::max_retained_runs`] runs, about
//! [`ViewerConfig::max_retained_bytes`] bytes, and [`ViewerConfig::max_seqs_per_run`] seqs a
//! run.
//!
//! Eviction rule (docs/robustness.md, "Resource limits"):
//! - per run, the **newest** `max_seqs_per_run` seqs are kept; a frame below the oldest kept
//!   seq counts as already seen. An app's ring replays only its newest frames (5000 in the
//!   reference client), so with `max_seqs_per_run` at least the app's ring size, de-duplication
//!   stays exact;
//! - past the run or byte bound, the **least recently active** run (by its last frame) is
//!   forgotten, preferring one with no tracked pause among the oldest few. A replay of a frame
//!   of a forgotten run is taken as new (guarantee 9 of docs/session.md is bounded to the
//!   retained runs), and a resume for its pauses is refused as an unknown pause.
//!
//! The run that just received a frame is never the one evicted, so one run's own state is
//! bounded by `max_seqs_per_run`, its `runId` (at most a frame) and the pause bound.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::deadlines::Deadlines;
use super::viewer_action::{ConnectionId, ViewerConfig};

/// Approximate heap bytes of one retained run besides its `runId` (map entries, set root).
const RUN_COST: usize = 160;
/// Approximate heap bytes of one retained seq in a run's set.
const SEQ_COST: usize = 16;
/// Approximate heap bytes of one tracked pause besides its id (map entry, run link).
pub(super) const PAUSE_COST: usize = 96;
/// How many of the least recently active runs are looked at for one without pauses.
const EVICTION_SCAN: usize = 16;

/// One retained run.
#[derive(Debug)]
pub(super) struct RunState {
    /// The connection owning the run and, once it closed, when (§5.5); `None` once abandoned.
    pub(super) owner: Option<(ConnectionId, Option<u64>)>,
    /// Retained seqs; every seq below `floor` counts as seen.
    seqs: BTreeSet<u64>,
    floor: u64,
    /// Pause ids tracked for this run (open or released by a disconnect).
    pub(super) pauses: Vec<String>,
    /// Position in `RunTable::lru`.
    touched: u64,
    /// What this run counts towards `max_retained_bytes`.
    bytes: usize,
}

/// Every retained run, with the least-recently-active order used for eviction.
#[derive(Debug)]
pub(super) struct RunTable {
    runs: HashMap<Arc<str>, RunState>,
    lru: BTreeMap<u64, Arc<str>>,
    /// Runs whose owner left, by when (the abandon grace).
    departures: Deadlines<Arc<str>>,
    clock: u64,
    bytes: usize,
    max_runs: usize,
    max_bytes: usize,
    max_seqs: usize,
}

/// What [`RunTable::record`] found.
pub(super) struct Recorded {
    /// The run's shared id.
    pub(super) run_id: Arc<str>,
    /// Whether `(runId, seq)` was new.
    pub(super) first_seen: bool,
    /// Runs forgotten to make room, with their state (the session drops their pauses).
    pub(super) evicted: Vec<(Arc<str>, RunState)>,
}

impl RunTable {
    pub(super) fn new(config: &ViewerConfig) -> Self {
        RunTable {
            runs: HashMap::new(),
            lru: BTreeMap::new(),
            departures: Deadlines::default(),
            clock: 0,
            bytes: 0,
            max_runs: config.max_retained_runs.max(1),
            max_bytes: config.max_retained_bytes,
            max_seqs: config.max_seqs_per_run.max(1),
        }
    }

    /// A frame `(run_id, seq)` arrived on `conn`: the run becomes the most recently active,
    /// `conn` its owner, and the seq is kept (evicting as needed).
    pub(super) fn record(&mut self, run_id: &str, seq: u64, conn: ConnectionId) -> Recorded {
        self.clock += 1;
        let touched = self.clock;
        let key: Arc<str> = if let Some((k, _)) = self.runs.get_key_value(run_id) {
            Arc::clone(k)
        } else {
            let key: Arc<str> = Arc::from(run_id);
            let bytes = RUN_COST + key.len();
            self.bytes += bytes;
            self.runs.insert(Arc::clone(&key), RunState { owner: None, seqs: BTreeSet::new(), floor: 0, pauses: Vec::new(), touched, bytes });
            key
        };
        let mut first_seen = false;
        if let Some(run) = self.runs.get_mut(&key) {
            self.lru.remove(&run.touched);
            run.touched = touched;
            if matches!(run.owner, Some((_, Some(_)))) {
                self.departures.remove(&key);
            }
            run.owner = Some((conn, None));
            if seq >= run.floor && run.seqs.insert(seq) {
                first_seen = true;
                run.bytes += SEQ_COST;
                self.bytes += SEQ_COST;
                if run.seqs.len() > self.max_seqs {
                    if let Some(oldest) = run.seqs.pop_first() {
                        run.floor = oldest.saturating_add(1);
                        run.bytes -= SEQ_COST;
                        self.bytes -= SEQ_COST;
                    }
                }
            }
        }
        self.lru.insert(touched, Arc::clone(&key));
        let evicted = self.evict_except(&key);
        Recorded { run_id: key, first_seen, evicted }
    }

    /// Forgets least recently active runs other than `keep` until both bounds hold.
    fn evict_except(&mut self, keep: &Arc<str>) -> Vec<(Arc<str>, RunState)> {
        let mut evicted = Vec::new();
        while self.runs.len() > self.max_runs || self.bytes > self.max_bytes {
            let candidates: Vec<&Arc<str>> = self.lru.values().filter(|k| *k != keep).take(EVICTION_SCAN).collect();
            let victim = candidates.iter().find(|k| self.runs.get(k.as_ref()).is_some_and(|r| r.pauses.is_empty())).or(candidates.first());
            let Some(victim) = victim.map(|k| Arc::clone(k)) else { break };
            if let Some(run) = self.runs.remove(&victim) {
                self.lru.remove(&run.touched);
                self.departures.remove(&victim);
                self.bytes -= run.bytes;
                evicted.push((victim, run));
            }
        }
        evicted
    }

    pub(super) fn get(&self, run_id: &str) -> Option<&RunState> {
        self.runs.get(run_id)
    }

    pub(super) fn contains(&self, run_id: &str) -> bool {
        self.runs.contains_key(run_id)
    }

    pub(super) fn len(&self) -> usize {
        self.runs.len()
    }

    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Links a tracked pause to its run (counted in the run's bytes).
    pub(super) fn add_pause(&mut self, run_id: &str, pause_id: &str) {
        if let Some(run) = self.runs.get_mut(run_id) {
            run.pauses.push(pause_id.to_owned());
            let cost = PAUSE_COST + 2 * pause_id.len();
            run.bytes += cost;
            self.bytes += cost;
        }
    }

    /// Unlinks a pause that is no longer tracked.
    pub(super) fn remove_pause(&mut self, run_id: &str, pause_id: &str) {
        if let Some(run) = self.runs.get_mut(run_id) {
            if let Some(i) = run.pauses.iter().position(|p| p == pause_id) {
                run.pauses.swap_remove(i);
                let cost = PAUSE_COST + 2 * pause_id.len();
                run.bytes -= cost;
                self.bytes -= cost;
            }
        }
    }

    /// `conn` closed at `now`: its runs start the abandon grace.
    pub(super) fn owner_left(&mut self, conn: ConnectionId, now: u64) {
        for (key, run) in &mut self.runs {
            if let Some((owner, left @ None)) = run.owner.as_mut() {
                if *owner == conn {
                    *left = Some(now);
                    self.departures.insert(Arc::clone(key), now);
                }
            }
        }
    }

    /// When the earliest owner left, of the runs still in their grace.
    pub(super) fn first_departure(&self) -> Option<u64> {
        self.departures.first()
    }

    /// Runs whose owner left at or before `left_by` are abandoned: they have no owner any more
    /// (their de-duplication keys and pauses are kept). Returns them.
    pub(super) fn abandon_due(&mut self, left_by: u64) -> Vec<Arc<str>> {
        let due = self.departures.pop_due(left_by);
        for key in &due {
            if let Some(run) = self.runs.get_mut(key) {
                run.owner = None;
            }
        }
        due
    }
}
