//! The held ledger: `heldMs` per node instance as the union of the intervals during which at
//! least one hold pinned to it was open (graphmind-session §3.9).
//!
//! Times are the host's [`Millis`] readings, fractions included (a sub-millisecond hold
//! counts); differences saturate at 0, so a clock that steps back never yields a negative
//! duration (§3.9 normalisation: `≤ 0` becomes 0).

use std::collections::HashMap;

use super::clock::Millis;
use crate::graphmind::PausePoint;

/// Most parent hops followed when pinning a hold to ancestors (§3.9).
const MAX_ANCESTOR_HOPS: usize = 64;

#[derive(Debug)]
struct Instance {
    key: u64,
    run_id: String,
    node_id: String,
    id: String,
    parent_id: Option<String>,
    /// Set by `node.error`; preferred by the next `error` gate, which clears it.
    errored: bool,
    open_holds: u32,
    open_since: Millis,
    total_ms: f64,
}

impl Instance {
    fn value(&self, now: Millis) -> f64 {
        let open = if self.open_holds > 0 { now.since(self.open_since) } else { 0.0 };
        self.total_ms + open
    }
}

/// Open instances (oldest first) and the open holds with the instances they pin.
#[derive(Debug)]
pub(super) struct HeldLedger {
    instances: Vec<Instance>,
    holds: HashMap<u64, Vec<u64>>,
    next_key: u64,
    max_instances: usize,
}

impl HeldLedger {
    pub fn new(max_instances: usize) -> Self {
        HeldLedger { instances: Vec::new(), holds: HashMap::new(), next_key: 0, max_instances }
    }

    /// `node.started`: a new open instance.
    pub fn started(&mut self, run_id: &str, node_id: &str, instance_id: &str, parent_id: Option<&str>) {
        if self.max_instances == 0 {
            return;
        }
        if self.instances.len() >= self.max_instances {
            self.instances.remove(0);
        }
        self.next_key += 1;
        self.instances.push(Instance {
            key: self.next_key,
            run_id: run_id.to_owned(),
            node_id: node_id.to_owned(),
            id: instance_id.to_owned(),
            parent_id: parent_id.map(str::to_owned),
            errored: false,
            open_holds: 0,
            open_since: Millis::from(0),
            total_ms: 0.0,
        });
    }

    fn newest(&self, run_id: &str, node_id: &str) -> Option<usize> {
        self.instances.iter().rposition(|i| i.run_id == run_id && i.node_id == node_id)
    }

    fn find(&self, run_id: &str, node_id: &str, instance_id: Option<&str>) -> Option<usize> {
        match instance_id {
            Some(id) => self.instances.iter().rposition(|i| i.run_id == run_id && i.id == id),
            None => self.newest(run_id, node_id),
        }
    }

    /// Opens hold `hold` for a gate: pins the target chosen by point, its open ancestors and
    /// the run root (§3.9 "Pinning a hold").
    pub fn open_hold(&mut self, hold: u64, run_id: &str, node_id: &str, point: PausePoint, instance_id: Option<&str>, now: Millis) {
        let target = match (instance_id, point) {
            (Some(_), _) => self.find(run_id, node_id, instance_id),
            (None, PausePoint::After) => self.instances.iter().position(|i| i.run_id == run_id && i.node_id == node_id),
            (None, PausePoint::Error) => {
                let flagged = self.instances.iter().rposition(|i| i.run_id == run_id && i.node_id == node_id && i.errored);
                flagged.or_else(|| self.newest(run_id, node_id))
            }
            (None, PausePoint::Before) => self.newest(run_id, node_id),
        };
        let mut pinned: Vec<usize> = Vec::new();
        if let Some(t) = target {
            if point == PausePoint::Error {
                self.instances[t].errored = false;
            }
            pinned.push(t);
            let mut cur = t;
            for _ in 0..MAX_ANCESTOR_HOPS {
                let Some(parent) = self.instances[cur].parent_id.clone() else {
                    break;
                };
                let Some(p) = self.newest(run_id, &parent) else {
                    break;
                };
                if pinned.contains(&p) {
                    break;
                }
                pinned.push(p);
                cur = p;
            }
        }
        if let Some(root) = self.instances.iter().rposition(|i| i.run_id == run_id && i.id == run_id) {
            if !pinned.contains(&root) {
                pinned.push(root);
            }
        }
        let mut keys = Vec::with_capacity(pinned.len());
        for i in pinned {
            let inst = &mut self.instances[i];
            if inst.open_holds == 0 {
                inst.open_since = now;
            }
            inst.open_holds += 1;
            keys.push(inst.key);
        }
        self.holds.insert(hold, keys);
    }

    /// Closes hold `hold` (settle, §3.6 step 2).
    pub fn close_hold(&mut self, hold: u64, now: Millis) {
        let Some(keys) = self.holds.remove(&hold) else {
            return;
        };
        for inst in self.instances.iter_mut().filter(|i| keys.contains(&i.key)) {
            inst.open_holds = inst.open_holds.saturating_sub(1);
            if inst.open_holds == 0 {
                inst.total_ms += now.since(inst.open_since);
            }
        }
    }

    /// `node.error`: flags the instance and returns its total so far; `None` when unknown.
    pub fn errored(&mut self, run_id: &str, node_id: &str, instance_id: Option<&str>, now: Millis) -> Option<f64> {
        let i = self.find(run_id, node_id, instance_id)?;
        self.instances[i].errored = true;
        Some(self.instances[i].value(now))
    }

    /// `node.finished`: returns the final total and forgets the instance; `None` when
    /// unknown.
    pub fn finished(&mut self, run_id: &str, node_id: &str, instance_id: Option<&str>, now: Millis) -> Option<f64> {
        let i = self.find(run_id, node_id, instance_id)?;
        Some(self.instances.remove(i).value(now))
    }
}
