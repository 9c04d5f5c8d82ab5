//! A [`Diff`] with the suppression file applied: which breaking changes fail the check, which
//! are accepted (and why), and which entries of the file matched nothing.

use crate::{Accept, Change, Diff, Policy, Suppressions, Verdict};

/// How the inputs are named in the output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Labels {
    /// The old schema: a file name or `REV:path`.
    pub old: String,
    /// The new schema: a file name or `REV:path`.
    pub new: String,
    /// The new schema's file, relative to the repository root, for annotations (`file=`).
    pub file: Option<String>,
}

impl Labels {
    /// The new schema's file name up to its first dot: `graphmind.v1.schema.json` →
    /// `graphmind`. Only a fallback name: see [`Review::protocol_name`].
    pub fn file_stem(&self) -> &str {
        let file = self.new.rsplit(['/', ':']).next().unwrap_or(&self.new);
        file.split('.').next().unwrap_or(file)
    }
}

/// What a change means for the check once suppressions and the policy are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Safe in both directions.
    Safe,
    /// Breaking and not accepted: the check fails.
    Breaking,
    /// Breaking, accepted by an entry of the suppression file.
    Accepted,
    /// Breaking, allowed by a protocol-version bump (policy mode only).
    AllowedByBump,
}

impl Status {
    /// The status as printed (`allowed-by-version-bump`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Safe => "safe",
            Status::Breaking => "breaking",
            Status::Accepted => "accepted",
            Status::AllowedByBump => "allowed-by-version-bump",
        }
    }
}

/// Why a suppression entry accepted nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnusedReason {
    /// No change has its rule and pointer.
    NoMatch,
    /// The changes with its rule and pointer are all safe: there is nothing to accept.
    NotBreaking,
    /// Its `until_version` is reached: the change it accepted is reported again.
    Expired,
}

/// A suppression entry that accepted nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Unused {
    /// The entry.
    pub entry: Accept,
    /// Why it accepted nothing.
    pub reason: UnusedReason,
}

/// A diff with its suppressions applied, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The comparison.
    pub diff: Diff,
    /// How the inputs are named.
    pub labels: Labels,
    /// Policy mode: a protocol-version bump allows breaking changes.
    pub policy_mode: bool,
    /// The suppression file's name, when one was read.
    pub suppressions: Option<String>,
    /// Per change (same index as `diff.changes`), the entry that accepted it.
    pub accepted_by: Vec<Option<Accept>>,
    /// The entries that accepted nothing.
    pub unused: Vec<Unused>,
}

impl Review {
    /// Applies `suppressions` (if any) to `diff`. An entry accepts every breaking change with
    /// its rule and exactly its pointer, unless its `until_version` is reached.
    pub fn new(diff: Diff, labels: Labels, suppressions: Option<&Suppressions>, policy_mode: bool) -> Review {
        let mut accepted_by = vec![None; diff.changes.len()];
        let mut unused = Vec::new();
        for entry in suppressions.map_or(&[][..], |s| &s.entries) {
            let matching: Vec<usize> = (0..diff.changes.len())
                .filter(|&i| {
                    let c = &diff.changes[i];
                    c.rule == entry.rule && c.path == entry.pointer
                })
                .collect();
            let breaking: Vec<usize> = matching.iter().copied().filter(|&i| diff.changes[i].is_breaking() && accepted_by[i].is_none()).collect();
            let reason = if matching.is_empty() {
                Some(UnusedReason::NoMatch)
            } else if breaking.is_empty() {
                Some(UnusedReason::NotBreaking)
            } else if entry.expired_at(diff.new_version.as_ref()) {
                Some(UnusedReason::Expired)
            } else {
                None
            };
            match reason {
                Some(reason) => unused.push(Unused { entry: entry.clone(), reason }),
                None => {
                    for i in breaking {
                        accepted_by[i] = Some(entry.clone());
                    }
                }
            }
        }
        Review { diff, labels, policy_mode, suppressions: suppressions.map(|s| s.source.clone()), accepted_by, unused }
    }

    /// The status of change number `i`.
    pub fn status(&self, i: usize) -> Status {
        let Some(c) = self.diff.changes.get(i) else {
            return Status::Safe;
        };
        if !c.is_breaking() {
            Status::Safe
        } else if self.accepted_by.get(i).is_some_and(Option::is_some) {
            Status::Accepted
        } else if self.policy_mode && self.diff.version_bumped() {
            Status::AllowedByBump
        } else {
            Status::Breaking
        }
    }

    /// Every change with its index, status and accepting entry.
    pub fn entries(&self) -> impl Iterator<Item = (usize, &Change, Status, Option<&Accept>)> {
        self.diff.changes.iter().enumerate().map(|(i, c)| {
            let by = self.accepted_by.get(i).and_then(Option::as_ref);
            (i, c, self.status(i), by)
        })
    }

    /// How many changes have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.entries().filter(|e| e.2 == status).count()
    }

    /// The versioning policy's verdict with accepted changes set aside.
    pub fn policy(&self) -> Policy {
        let accepted = self.count(Status::Accepted);
        let unaccepted = self.entries().any(|(_, c, status, _)| c.is_breaking() && status != Status::Accepted);
        match self.diff.policy() {
            Policy::BreakingWithoutVersionBump if !unaccepted && accepted > 0 => Policy::BreakingAccepted,
            p => p,
        }
    }

    /// Whether the check fails: a breaking change that is not accepted (in policy mode, and
    /// not allowed by a protocol-version bump either).
    pub fn fails(&self) -> bool {
        self.count(Status::Breaking) > 0
    }

    /// Whether a breaking change is left once the accepted ones are set aside (a change a
    /// version bump allows is still breaking: it breaks the old peers).
    pub fn is_breaking(&self) -> bool {
        self.entries().any(|e| matches!(e.2, Status::Breaking | Status::AllowedByBump))
    }

    /// How many breaking changes are left once the accepted ones are set aside: in all, for
    /// old receivers, for old senders.
    pub fn breaking_counts(&self) -> (usize, usize, usize) {
        let left: Vec<&Change> = self.entries().filter(|e| matches!(e.2, Status::Breaking | Status::AllowedByBump)).map(|e| e.1).collect();
        let recv = left.iter().filter(|c| c.old_receivers == Verdict::Breaking).count();
        let send = left.iter().filter(|c| c.old_senders == Verdict::Breaking).count();
        (left.len(), recv, send)
    }

    /// `3 changes: 1 breaking (for old receivers: 0, for old senders: 1), 1 accepted, 1 safe`:
    /// accepted changes are counted apart from the breaking ones (`, N accepted` only when
    /// there are some, so that without suppressions this is [`crate::summary_line`]).
    pub fn summary_line(&self) -> String {
        let n = self.diff.changes.len();
        let (breaking, recv, send) = self.breaking_counts();
        let accepted = self.count(Status::Accepted);
        let accepted_text = if accepted > 0 { format!(", {accepted} accepted") } else { String::new() };
        format!(
            "{n} change{}: {breaking} breaking (for old receivers: {recv}, for old senders: {send}){accepted_text}, {} safe",
            if n == 1 { "" } else { "s" },
            self.count(Status::Safe)
        )
    }

    /// The protocol's name for headings and reports: the schema's `title` (else its `$id`),
    /// the file name only when the schema states neither.
    pub fn protocol_name(&self) -> &str {
        self.diff.title.as_deref().unwrap_or_else(|| self.labels.file_stem())
    }

    /// [`Review::protocol_name`] as an identifier (JUnit class names): lower-case ASCII letters
    /// and digits, runs of anything else as one `-` (`GraphMind wire envelope (protocol v1)` →
    /// `graphmind-wire-envelope-protocol-v1`); `schema` when nothing is left.
    pub fn protocol_id(&self) -> String {
        let name = self.protocol_name();
        let name = name.split_once("://").map_or(name, |(_, rest)| rest);
        let mut out = String::new();
        for ch in name.chars() {
            if ch.is_ascii_alphanumeric() {
                out.push(ch.to_ascii_lowercase());
            } else if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
        let out = out.trim_end_matches('-');
        if out.is_empty() {
            "schema".to_owned()
        } else {
            out.to_owned()
        }
    }

    /// One line per unused entry, for people.
    pub fn unused_lines(&self) -> Vec<String> {
        let source = self.suppressions.as_deref().unwrap_or("suppressions");
        self.unused
            .iter()
            .map(|u| {
                let e = &u.entry;
                let why = match u.reason {
                    UnusedReason::NoMatch => "matches no change: remove it".to_owned(),
                    UnusedReason::NotBreaking => "matches only safe changes, there is nothing to accept: remove it".to_owned(),
                    UnusedReason::Expired => format!(
                        "expired (until_version {}, protocol version now {}): the change is reported again",
                        e.until_version.as_ref().map_or_else(String::new, ToString::to_string),
                        self.diff.new_version.as_ref().map_or_else(|| "(none)".to_owned(), ToString::to_string)
                    ),
                };
                format!("{}: unused suppression of {} at {}: {why}", e.location(source), e.rule.name(), show_pointer(&e.pointer))
            })
            .collect()
    }
}

/// A pointer for prose: the empty pointer (the whole document) is shown as `""`.
pub(crate) fn show_pointer(p: &str) -> &str {
    if p.is_empty() {
        "\"\""
    } else {
        p
    }
}
