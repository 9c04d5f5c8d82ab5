//! The `json` format: inputs, the protocol's name, versions, verdict, counts and every change.
//! Each change has a `status` (`safe`, `breaking`, `accepted`, `allowed-by-version-bump`); an
//! accepted one also carries `accepted` (reason and entry). `breaking` and the `summary`'s
//! breaking counts leave the accepted changes out: when every breaking change is accepted,
//! `breaking` is `false`. `summary.accepted`, `suppressions` and `unused_suppressions` appear
//! only when there is something to say.

use serde::Serialize;
use serde_json::Value;

use crate::{Change, Policy, Review, Status, UnusedReason};

/// The JSON report (field order is the output order).
#[derive(Serialize)]
struct Report<'a> {
    old: &'a str,
    new: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    version_field: Option<&'a str>,
    old_version: Option<&'a Value>,
    new_version: Option<&'a Value>,
    breaking: bool,
    policy: Policy,
    summary: Summary,
    changes: Vec<ChangeOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suppressions: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unused_suppressions: Vec<UnusedOut>,
}

/// Counts in the JSON report.
#[derive(Serialize)]
struct Summary {
    changes: usize,
    breaking: usize,
    breaking_for_old_receivers: usize,
    breaking_for_old_senders: usize,
    #[serde(skip_serializing_if = "is_zero")]
    accepted: usize,
}

/// A change, with its status and its acceptance when it has one.
#[derive(Serialize)]
struct ChangeOut<'a> {
    #[serde(flatten)]
    change: &'a Change,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    accepted: Option<AcceptedOut<'a>>,
}

/// Why a change is accepted, and by which entry.
#[derive(Serialize)]
struct AcceptedOut<'a> {
    reason: &'a str,
    suppression: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    until_version: Option<&'a Value>,
}

/// An entry of the suppression file that accepted nothing.
#[derive(Serialize)]
struct UnusedOut {
    suppression: String,
    rule: String,
    pointer: String,
    why: &'static str,
}

/// `skip_serializing_if` for counts.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Renders the review as pretty-printed JSON and a newline.
pub(crate) fn render(r: &Review) -> String {
    let d = &r.diff;
    let (breaking, breaking_for_old_receivers, breaking_for_old_senders) = r.breaking_counts();
    let source = r.suppressions.as_deref().unwrap_or("suppressions");
    let report = Report {
        old: &r.labels.old,
        new: &r.labels.new,
        title: d.title.as_deref(),
        version_field: d.version_field.as_deref(),
        old_version: d.old_version.as_ref(),
        new_version: d.new_version.as_ref(),
        breaking: r.is_breaking(),
        policy: r.policy(),
        summary: Summary { changes: d.changes.len(), breaking, breaking_for_old_receivers, breaking_for_old_senders, accepted: r.count(Status::Accepted) },
        changes: r
            .entries()
            .map(|(_, change, status, by)| ChangeOut {
                change,
                status: status.name(),
                accepted: by.filter(|_| status == Status::Accepted).map(|a| AcceptedOut {
                    reason: &a.reason,
                    suppression: a.location(source),
                    until_version: a.until_version.as_ref(),
                }),
            })
            .collect(),
        suppressions: r.suppressions.as_deref(),
        unused_suppressions: r
            .unused
            .iter()
            .map(|u| UnusedOut {
                suppression: u.entry.location(source),
                rule: u.entry.rule.name(),
                pointer: u.entry.pointer.clone(),
                why: match u.reason {
                    UnusedReason::NoMatch => "no-match",
                    UnusedReason::NotBreaking => "not-breaking",
                    UnusedReason::Expired => "expired",
                },
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&report).unwrap_or_default();
    s.push('\n');
    s
}
