//! Rendering a [`Diff`]: a table for people and the policy verdict (JSON and the other
//! formats: [`crate::format`]).

use std::fmt::Write as _;

use serde_json::Value;

use crate::{Change, Diff, Labels, Policy, Review, Verdict};

/// How many message names a table row shows before `+N`.
const MESSAGES_SHOWN: usize = 3;

impl Diff {
    /// The changes as an aligned table, one row per change, then a summary line.
    /// `old`/`new` label the inputs (file names or `REV:path`).
    pub fn to_table(&self, old: &str, new: &str) -> String {
        table(self, old, new, &|_| false, &summary_line(self))
    }

    /// The diff as pretty-printed JSON (keys in a fixed order): inputs, versions, policy
    /// verdict, counts and every change.
    pub fn to_json(&self, old: &str, new: &str) -> String {
        let labels = Labels { old: old.to_owned(), new: new.to_owned(), file: None };
        crate::format::json::render(&Review::new(self.clone(), labels, None, false))
    }

    /// The policy verdict in one or more lines; a disallowed change is printed loudly.
    pub fn policy_text(&self, name: &str) -> String {
        policy_text(self, self.policy(), &self.breaking().collect::<Vec<_>>(), name)
    }
}

/// The table of [`Diff::to_table`]: a breaking verdict of a change for which `accepted(i)`
/// holds reads `accepted`; `summary` is the last line.
pub(crate) fn table(d: &Diff, old: &str, new: &str, accepted: &dyn Fn(usize) -> bool, summary: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "old: {old}");
    let _ = writeln!(out, "new: {new}");
    let _ = writeln!(out, "{}", version_line(d));
    out.push('\n');
    if d.changes.is_empty() {
        out.push_str("no changes: both schemas accept the same frames\n");
        return out;
    }
    let header = ["#", "OLD RECEIVERS", "OLD SENDERS", "RULE", "PATH", "CHANGE"];
    let rows: Vec<[String; 6]> = d
        .changes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut change = c.change.clone();
            if !c.messages.is_empty() {
                let mut shown: Vec<&str> = c.messages.iter().take(MESSAGES_SHOWN).map(String::as_str).collect();
                let more = c.messages.len().saturating_sub(MESSAGES_SHOWN);
                let more_text = format!("+{more}");
                if more > 0 {
                    shown.push(&more_text);
                }
                let _ = write!(change, " [{}]", shown.join(", "));
            }
            let shown_path = crate::review::show_pointer(&c.path);
            let path = if c.side == crate::Side::Old { format!("{shown_path} (old)") } else { shown_path.to_owned() };
            let cell = |v: Verdict| if v == Verdict::Breaking && accepted(i) { "accepted".to_owned() } else { v.label().to_owned() };
            [(i + 1).to_string(), cell(c.old_receivers), cell(c.old_senders), c.rule.name(), path, change]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 6]| {
        let mut s = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i == cells.len() - 1 {
                s.push_str(cell);
            } else {
                let _ = write!(s, "{cell:<w$}  ", w = widths[i]);
            }
        }
        s.trim_end().to_owned()
    };
    let _ = writeln!(out, "{}", line(header));
    for row in &rows {
        let _ = writeln!(out, "{}", line(row.each_ref().map(String::as_str)));
    }
    out.push('\n');
    let _ = writeln!(out, "{summary}");
    out
}

/// The policy verdict `policy` of `d`, with the changes that make it fail.
pub(crate) fn policy_text(d: &Diff, policy: Policy, failing: &[&Change], name: &str) -> String {
    let field = d.version_field.as_deref().unwrap_or("version");
    let breaking = d.breaking().count();
    match policy {
        Policy::Unchanged => format!("evolution: {name}: no wire change since the baseline"),
        Policy::Additive => format!(
            "evolution: {name}: {} additive change(s), none breaking: allowed without a {field} bump",
            d.changes.len()
        ),
        Policy::VersionBumped => format!(
            "evolution: {name}: protocol version bumped ({field} {} -> {}) with {} other breaking change(s): allowed; re-baseline when the new version is released",
            show_version(d.old_version.as_ref()),
            show_version(d.new_version.as_ref()),
            breaking.saturating_sub(1)
        ),
        Policy::BreakingAccepted => format!(
            "evolution: {name}: {breaking} breaking change(s) without a {field} bump, each accepted in the suppression file with a reason: allowed"
        ),
        Policy::BreakingWithoutVersionBump => {
            let bar = "!".repeat(78);
            // Two stated versions that differ are a bump, so both stated means unchanged.
            let version = match (&d.old_version, &d.new_version) {
                (Some(_), Some(v)) => format!("{field} is still {v}"),
                (_, None) => format!("the new schema states no {field}"),
                (None, Some(_)) => format!("the old schema states no {field}"),
            };
            let mut s = format!("{bar}\n!!! evolution: {name}: {} BREAKING CHANGE(S) WITHOUT A PROTOCOL VERSION BUMP ({version})\n", failing.len());
            for c in failing {
                let _ = writeln!(s, "!!!   {} {}: {}", c.rule.name(), crate::review::show_pointer(&c.path), c.change);
            }
            let _ = write!(
                s,
                "!!! Deployed peers speak the baseline contract. Make the change additive, or bump {field}.\n!!! A schema correction the parser always enforced: re-baseline, saying so in the commit.\n!!! How: docs/evolution.md. scripts/test fails until then.\n{bar}"
            );
            s
        }
    }
}

/// `protocol version (gm): 1 -> 2`, or why there is none.
pub(crate) fn version_line(d: &Diff) -> String {
    let (old, new) = (show_version(d.old_version.as_ref()), show_version(d.new_version.as_ref()));
    match &d.version_field {
        Some(f) if d.version_bumped() => format!("protocol version ({f}): {old} -> {new} (bumped)"),
        Some(f) if d.old_version.is_none() && d.new_version.is_none() => format!("protocol version ({f}): neither schema states one"),
        Some(f) if d.old_version.is_none() || d.new_version.is_none() => {
            let side = if d.old_version.is_none() { "old" } else { "new" };
            format!("protocol version ({f}): {old} -> {new} (not a bump: the {side} schema states no {f})")
        }
        Some(f) => format!("protocol version ({f}): {new} (unchanged)"),
        None => "protocol version: none found (no gm/v/version const in every message type)".to_owned(),
    }
}

/// A version value as JSON text.
pub(crate) fn show_version(v: Option<&Value>) -> String {
    v.map_or_else(|| "(none)".to_owned(), ToString::to_string)
}

/// `3 changes: 1 breaking (old receivers: 1, old senders: 0), 2 safe`.
pub fn summary_line(d: &Diff) -> String {
    let n = d.changes.len();
    let breaking = d.breaking().count();
    let recv = d.changes.iter().filter(|c| c.old_receivers == Verdict::Breaking).count();
    let send = d.changes.iter().filter(|c| c.old_senders == Verdict::Breaking).count();
    format!("{n} change{}: {breaking} breaking (for old receivers: {recv}, for old senders: {send}), {} safe", if n == 1 { "" } else { "s" }, n - breaking)
}
