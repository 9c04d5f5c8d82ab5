//! Keys with deadlines, ordered by deadline: the viewer's resume waits and abandon graces.
//! The earliest deadline and the due keys come from the order, so `poll_timeout` and
//! `handle_timeout` cost a lookup, not a scan of every pause or run.

use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;

/// Each key has at most one deadline.
#[derive(Debug)]
pub(super) struct Deadlines<K: Ord + Hash + Clone> {
    at: HashMap<K, u64>,
    order: BTreeSet<(u64, K)>,
}

impl<K: Ord + Hash + Clone> Default for Deadlines<K> {
    fn default() -> Self {
        Deadlines { at: HashMap::new(), order: BTreeSet::new() }
    }
}

impl<K: Ord + Hash + Clone> Deadlines<K> {
    /// Sets (or moves) `key`'s deadline.
    pub(super) fn insert(&mut self, key: K, deadline: u64) {
        if let Some(old) = self.at.insert(key.clone(), deadline) {
            self.order.remove(&(old, key.clone()));
        }
        self.order.insert((deadline, key));
    }

    /// Drops `key`'s deadline; returns whether it had one.
    pub(super) fn remove<Q>(&mut self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        match self.at.remove_entry(key) {
            Some((k, at)) => {
                self.order.remove(&(at, k));
                true
            }
            None => false,
        }
    }

    /// The earliest deadline.
    pub(super) fn first(&self) -> Option<u64> {
        self.order.first().map(|(at, _)| *at)
    }

    /// Removes and returns every key due at `now` (deadline ≤ now), earliest first.
    pub(super) fn pop_due(&mut self, now: u64) -> Vec<K> {
        let mut due = Vec::new();
        while let Some((at, _)) = self.order.first() {
            if *at > now {
                break;
            }
            if let Some((_, key)) = self.order.pop_first() {
                self.at.remove(&key);
                due.push(key);
            }
        }
        due
    }
}
