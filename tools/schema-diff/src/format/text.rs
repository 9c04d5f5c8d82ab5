//! The `text` format: the aligned table, accepted changes, unused suppressions and, in policy
//! mode, the policy verdict.

use std::fmt::Write as _;

use crate::report::{policy_text, table};
use crate::{Review, Status};

/// Renders the table; without suppressions it is exactly [`crate::Diff::to_table`] (plus the
/// policy verdict in policy mode). An accepted change reads `accepted` where it is breaking,
/// and the summary line counts it apart from the breaking ones.
pub(crate) fn render(r: &Review) -> String {
    let accepted = |i: usize| r.status(i) == Status::Accepted;
    let mut out = table(&r.diff, &r.labels.old, &r.labels.new, &accepted, &r.summary_line());
    let source = r.suppressions.as_deref().unwrap_or("suppressions");
    let accepted: Vec<_> = r.entries().filter(|e| e.2 == Status::Accepted).collect();
    if !accepted.is_empty() {
        let _ = writeln!(out, "\naccepted in {source}:");
        for (i, c, _, by) in accepted {
            let (line, reason) = by.map_or((0, ""), |a| (a.line, a.reason.as_str()));
            let _ = writeln!(out, "  #{} {} {} (line {line}): {reason}", i + 1, c.rule.name(), super::pointer(c));
        }
    }
    let unused = r.unused_lines();
    if !unused.is_empty() {
        out.push('\n');
        for line in unused {
            let _ = writeln!(out, "warning: {line}");
        }
    }
    if r.policy_mode {
        let failing: Vec<_> = r.entries().filter(|e| e.2 == Status::Breaking).map(|e| e.1).collect();
        out.push('\n');
        out.push_str(&policy_text(&r.diff, r.policy(), &failing, r.protocol_name()));
        out.push('\n');
    }
    out
}
